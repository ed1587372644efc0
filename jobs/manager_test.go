package jobs

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"jobtop/jobs/proc"
)

func TestEchoCompletesWithOutput(t *testing.T) {
	m := newManager(t, Options{})
	info := start(t, m, Spec{Command: "echo hello world"})
	assert.Equal(t, "echo", info.Name, "name defaults to the program")
	assert.Equal(t, "echo hello world", info.Command)
	info = wait(t, m, info.ID)
	assert.Equal(t, StateSucceeded, info.State)
	require.NotNil(t, info.ExitCode)
	assert.Equal(t, 0, *info.ExitCode)
	assert.Equal(t, []string{"hello world"}, outputText(t, m, info.ID))
	assert.Equal(t, uint64(1), info.Lines)
	assert.Equal(t, int64(len("hello world\n")), info.Bytes)
	assert.Equal(t, "hello world", info.LastLine)
	assert.NotNil(t, info.Started)
	assert.NotNil(t, info.Ended)
	assert.Equal(t, 1, info.Runs)
}

func TestExitCodeIsFailed(t *testing.T) {
	m := newManager(t, Options{})
	info := wait(t, m, start(t, m, Spec{Command: "exit 42"}).ID)
	assert.Equal(t, StateFailed, info.State)
	require.NotNil(t, info.ExitCode)
	assert.Equal(t, 42, *info.ExitCode)
}

func TestTimeoutEndsTimedOut(t *testing.T) {
	m := newManager(t, Options{})
	info := start(t, m, Spec{Command: "sleep 30", Timeout: 200 * time.Millisecond})
	info = wait(t, m, info.ID)
	assert.Equal(t, StateTimedOut, info.State)
	assert.Contains(t, info.Error, "timed out after 200ms")
	assert.Less(t, info.Runtime(time.Now()), 10*time.Second, "the timeout, not sleep, ended it")
}

func TestIDsAreSmallAndNeverReused(t *testing.T) {
	m := newManager(t, Options{})
	a := wait(t, m, start(t, m, Spec{Command: "true"}).ID)
	require.NoError(t, m.Remove(a.ID))
	b := start(t, m, Spec{Command: "true"})
	assert.Equal(t, ID(1), a.ID)
	assert.Equal(t, ID(2), b.ID)
}

func TestUnknownIDIsAnError(t *testing.T) {
	m := newManager(t, Options{})
	var nf *NotFoundError
	_, err := m.Get(99)
	assert.ErrorAs(t, err, &nf)
	assert.EqualError(t, err, "no job with ID 99")
	assert.ErrorAs(t, m.Stop(99), &nf)
	assert.ErrorAs(t, m.Kill(99), &nf)
	assert.ErrorAs(t, m.Remove(99), &nf)
	_, err = m.Restart(99)
	assert.ErrorAs(t, err, &nf)
	_, err = m.Output(99)
	assert.ErrorAs(t, err, &nf)
	_, err = m.Wait(context.Background(), 99)
	assert.ErrorAs(t, err, &nf)
	_, err = ParseID("abc")
	assert.EqualError(t, err, `no job "abc": job IDs are numbers like 1, 2, 3`)
}

// A job's cwd and env reach it; the instance's variables (JOBTOP_*) are
// the instance's, whatever the job's env says.
func TestCwdAndEnvReachTheJob(t *testing.T) {
	m := newManager(t, Options{Env: map[string]string{"JOBTOP_SOCKET": "/tmp/x.sock"}})
	dir := t.TempDir()
	info := start(t, m, Spec{
		Command: `pwd; echo "$GREETING"; echo "$JOBTOP_JOB_ID"; echo "$JOBTOP_SOCKET"; echo "$HOME"`,
		Dir:     dir,
		Env:     map[string]string{"GREETING": "hi there", "JOBTOP_SOCKET": "/elsewhere.sock", "JOBTOP_JOB_ID": "99"},
	})
	wait(t, m, info.ID)
	real, err := filepath.EvalSymlinks(dir)
	require.NoError(t, err)
	assert.Equal(t, []string{real, "hi there", "1", "/tmp/x.sock", os.Getenv("HOME")}, outputText(t, m, info.ID))
}

func TestArgvRunsWithoutShell(t *testing.T) {
	m := newManager(t, Options{})
	info := wait(t, m, start(t, m, Spec{Argv: []string{"echo", "$HOME", "a  b"}}).ID)
	assert.Equal(t, StateSucceeded, info.State)
	assert.Equal(t, []string{"$HOME a  b"}, outputText(t, m, info.ID))
	assert.Equal(t, "echo '$HOME' 'a  b'", info.Command)
}

func TestInvalidSpecsAreRefused(t *testing.T) {
	m := newManager(t, Options{})
	cases := map[string]Spec{
		"empty command":    {Command: ""},
		"blank command":    {Command: "  \t"},
		"empty argv[0]":    {Argv: []string{""}},
		"both":             {Command: "ls", Argv: []string{"ls"}},
		"negative timeout": {Command: "ls", Timeout: -time.Second},
		"bad env name":     {Command: "ls", Env: map[string]string{"A=B": "c"}},
		"bad ready regex":  {Command: "ls", Ready: ReadyCheck{LogPattern: "("}},
		"bad restart mode": {Command: "ls", Restart: RestartPolicy{Mode: "sometimes"}},
	}
	for name, spec := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := m.Start(spec)
			assert.Error(t, err)
		})
	}
	_, err := m.Start(Spec{})
	assert.ErrorIs(t, err, ErrEmptyCommand)
	assert.Empty(t, m.List(), "refused specs create no job")
}

func TestCannotStartIsErrorState(t *testing.T) {
	m := newManager(t, Options{})
	cases := []struct {
		spec Spec
		want string
	}{
		{Spec{Command: "true", Dir: "/no/such/dir"}, `working directory "/no/such/dir" does not exist`},
		{Spec{Argv: []string{"no-such-program-jobtop"}}, `program "no-such-program-jobtop" not found in PATH`},
		{Spec{Argv: []string{"./missing"}, Dir: t.TempDir()}, `program "./missing" does not exist`},
	}
	for _, tc := range cases {
		info := wait(t, m, start(t, m, tc.spec).ID)
		assert.Equal(t, StateError, info.State)
		assert.Equal(t, tc.want, info.Error)
		assert.Nil(t, info.ExitCode)
	}
}

func TestCannotStartErrorCutsTheCommand(t *testing.T) {
	m := newManager(t, Options{})
	// 64 arguments of 100 KB each pass Validate one by one, but exceed
	// any ARG_MAX Linux allows (at most 6 MB), so exec fails with E2BIG.
	argv := []string{"true"}
	for range 64 {
		argv = append(argv, strings.Repeat("c", 100_000))
	}
	info := wait(t, m, start(t, m, Spec{Argv: argv}).ID)
	require.Equal(t, StateError, info.State)
	assert.Contains(t, info.Error, "cannot start \"true ccc")
	assert.Contains(t, info.Error, "argument list too long")
	assert.Contains(t, info.Error, fmt.Sprintf("… (%d bytes)", len(strings.Join(argv, " "))))
	assert.Less(t, len(info.Error), 400, "the error repeats at most a prefix of the command")
}

func TestValidateRefusesAnArgumentExecRefuses(t *testing.T) {
	long := strings.Repeat("x", MaxArgBytes+1)
	err := Spec{Command: "true # " + long}.Validate()
	require.Error(t, err)
	assert.Contains(t, err.Error(), "write long scripts to a file")
	err = Spec{Argv: []string{"echo", "ok", long}}.Validate()
	require.Error(t, err)
	assert.Contains(t, err.Error(), "argv[2] is")
	assert.Contains(t, err.Error(), "write long scripts to a file")
	err = Spec{Command: "true", Env: map[string]string{"BIG": long[:MaxArgBytes-3]}}.Validate()
	require.Error(t, err, "NAME=VALUE over the limit")
	assert.Contains(t, err.Error(), "environment variable BIG is")
	// Up to the limit, it starts.
	assert.NoError(t, Spec{Argv: []string{"echo", long[:MaxArgBytes]}}.Validate())
	m := newManager(t, Options{})
	info := wait(t, m, start(t, m, Spec{Command: "true #" + long[:MaxArgBytes-6]}).ID)
	assert.Equal(t, StateSucceeded, info.State, info.Error)
	info = wait(t, m, start(t, m, Spec{Command: "true", Env: map[string]string{"BIG": long[:MaxArgBytes-4]}}).ID)
	assert.Equal(t, StateSucceeded, info.State, info.Error)
}

func TestStopKillsTheWholeTree(t *testing.T) {
	m := newManager(t, Options{})
	info := start(t, m, Spec{Command: "sleep 1000 & sleep 1000 & wait"})
	pids := treeOf(t, m, info.ID, 2)
	require.NoError(t, m.Stop(info.ID))
	info = wait(t, m, info.ID)
	assert.Equal(t, StateKilled, info.State)
	assert.Equal(t, Signal(syscall.SIGTERM), info.Signal)
	requireAllDead(t, pids)
}

func TestStopReachesProcessesThatLeftTheGroup(t *testing.T) {
	m := newManager(t, Options{})
	info := start(t, m, Spec{Command: "setsid sleep 1000 & sleep 1000 & wait"})
	pids := treeOf(t, m, info.ID, 2)
	require.NoError(t, m.Stop(info.ID))
	wait(t, m, info.ID)
	requireAllDead(t, pids)
}

func TestKillIsImmediate(t *testing.T) {
	m := newManager(t, Options{})
	// Ignores SIGTERM; only SIGKILL ends it, and kill must not wait for
	// the (long) grace period.
	info := start(t, m, Spec{Command: "trap '' TERM; sleep 1000 & sleep 1000 & wait", Grace: time.Hour})
	pids := treeOf(t, m, info.ID, 2)
	require.NoError(t, m.Kill(info.ID))
	info = wait(t, m, info.ID)
	assert.Equal(t, StateKilled, info.State)
	assert.Equal(t, Signal(syscall.SIGKILL), info.Signal)
	requireAllDead(t, pids)
}

func TestStopEscalatesAfterGrace(t *testing.T) {
	m := newManager(t, Options{})
	info := start(t, m, Spec{Command: "trap 'echo got TERM' TERM; echo up; while :; do sleep 0.05; done", Grace: 300 * time.Millisecond})
	waitFor(t, m, info.ID, "the trap to be set", func(i Info) bool { return i.LastLine == "up" })
	require.NoError(t, m.Stop(info.ID))
	got, err := m.Get(info.ID)
	require.NoError(t, err)
	assert.Equal(t, StateStopping, got.State)
	info = wait(t, m, info.ID)
	assert.Equal(t, StateKilled, info.State)
	assert.Equal(t, Signal(syscall.SIGKILL), info.Signal, "it ignored TERM, so the grace period ran out")
	assert.Contains(t, outputText(t, m, info.ID), "got TERM")
}

func TestGracefulExitOnStopSignal(t *testing.T) {
	m := newManager(t, Options{})
	info := start(t, m, Spec{
		Command:    "trap 'echo bye; exit 0' INT; echo up; while :; do sleep 0.05; done",
		StopSignal: Signal(syscall.SIGINT),
	})
	waitFor(t, m, info.ID, "up", func(i Info) bool { return i.LastLine == "up" })
	require.NoError(t, m.Stop(info.ID))
	info = wait(t, m, info.ID)
	assert.Equal(t, StateKilled, info.State, "a requested stop ends killed")
	require.NotNil(t, info.ExitCode)
	assert.Equal(t, 0, *info.ExitCode)
	assert.Equal(t, Signal(syscall.SIGINT), info.Signal, "the signal that was sent")
	assert.Equal(t, []string{"up", "bye"}, outputText(t, m, info.ID))
}

// TestStopContinuesAStoppedJob: a job paused with SIGSTOP (kill -STOP,
// ^Z in a shell) holds its stop signal pending until it is continued, so
// its handler never ran and the grace's SIGKILL ended it. The stop
// continues it (as systemd and timeout(1) do): it ends its own way. Its
// grace is an hour, so only its own exit ends it within the patience.
func TestStopContinuesAStoppedJob(t *testing.T) {
	m := newManager(t, Options{})
	info := start(t, m, Spec{
		// No fork once up: a shell stopped while it forks (vfork) does
		// not show as stopped. Up once the sleep runs (where /proc
		// tells): a child forked with the shell's trap and not yet
		// exec'd takes the group's TERM into that trap, then execs sleep,
		// and the signal is lost (under -race, 3 runs in 15).
		Command: "trap 'echo got TERM; exit 0' TERM; sleep 600 & " + sleepRuns + " echo up; wait",
		Grace:   time.Hour,
	})
	info = waitFor(t, m, info.ID, "the trap to be set", func(i Info) bool { return i.LastLine == "up" })
	require.NoError(t, syscall.Kill(-info.PID, syscall.SIGSTOP))
	eventually(t, "the job to be stopped", func() bool {
		p, err := proc.Get(info.PID)
		return err == nil && p.Stopped
	})
	require.NoError(t, m.Stop(info.ID))
	info = wait(t, m, info.ID)
	require.NotNil(t, info.ExitCode, "it exited: the grace's SIGKILL did not end it")
	assert.Equal(t, 0, *info.ExitCode)
	assert.Equal(t, Signal(syscall.SIGTERM), info.Signal, "the signal that was sent")
	assert.Contains(t, outputText(t, m, info.ID), "got TERM")
}

// TestSignalJobsSendsTheSignalAndNothingElse: a job trapping USR1 gets
// it and runs on (no stop, no SIGKILL); one a signal so sent ends was
// not killed from outside jobtop; a job with no process is refused.
func TestSignalJobsSendsTheSignalAndNothingElse(t *testing.T) {
	m := newManager(t, Options{})
	info := start(t, m, Spec{Command: "trap 'echo got USR1' USR1; echo up; while :; do sleep 0.05; done"})
	waitFor(t, m, info.ID, "the trap to be set", func(i Info) bool { return i.LastLine == "up" })
	require.Equal(t, []error{nil}, m.SignalJobs([]ID{info.ID}, Signal(syscall.SIGUSR1)))
	// (Not the last line: the shell's stderr may say its sleep was
	// killed by USR1 after it.)
	eventually(t, "USR1", func() bool { return slices.Contains(outputText(t, m, info.ID), "got USR1") })
	got, err := m.Get(info.ID)
	require.NoError(t, err)
	assert.Equal(t, StateRunning, got.State)
	assert.Nil(t, got.KillAt)

	require.Equal(t, []error{nil}, m.SignalJobs([]ID{info.ID}, Signal(syscall.SIGKILL)))
	got = wait(t, m, info.ID)
	assert.Equal(t, StateKilled, got.State)
	assert.Equal(t, Signal(syscall.SIGKILL), got.Signal)
	assert.False(t, got.KilledFromOutside, "jobtop sent it")

	errs := m.SignalJobs([]ID{info.ID, 999}, Signal(syscall.SIGUSR1))
	var invalid *InvalidActionError
	assert.ErrorAs(t, errs[0], &invalid)
	var notFound *NotFoundError
	assert.ErrorAs(t, errs[1], &notFound)
}

func TestTimeoutKillsTheWholeTree(t *testing.T) {
	m := newManager(t, Options{})
	info := start(t, m, Spec{Command: "sleep 1000 & sleep 1000 & wait", Timeout: time.Second})
	pids := treeOf(t, m, info.ID, 2)
	info = wait(t, m, info.ID)
	assert.Equal(t, StateTimedOut, info.State)
	requireAllDead(t, pids)
}

func TestLeftoversDieWhenTheMainProcessExits(t *testing.T) {
	m := newManager(t, Options{})
	dir := t.TempDir()
	pidFile := filepath.Join(dir, "pid")
	info := start(t, m, Spec{Command: "sleep 1000 & echo $! > " + pidFile + "; echo started"})
	info = wait(t, m, info.ID)
	assert.Equal(t, StateSucceeded, info.State)
	b, err := os.ReadFile(pidFile)
	require.NoError(t, err)
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	require.NoError(t, err)
	requireAllDead(t, []int{pid})
}

func TestRestartRunsAgainUnderTheSameID(t *testing.T) {
	m := newManager(t, Options{})
	info := start(t, m, Spec{Command: "echo run; sleep 1000 & sleep 1000 & wait", Grace: time.Second})
	first := treeOf(t, m, info.ID, 2)
	restarted, err := m.Restart(info.ID)
	require.NoError(t, err)
	assert.Equal(t, info.ID, restarted.ID)
	second := waitFor(t, m, info.ID, "the second run", func(i Info) bool {
		return i.Runs == 2 && i.State == StateRunning
	})
	requireAllDead(t, first)
	assert.NotEqual(t, info.PID, second.PID)
	assert.Equal(t, 1, second.Restarts)
	eventually(t, "the second run's output", func() bool {
		return len(outputText(t, m, info.ID)) == 3
	})
	assert.Equal(t, []string{"run", "── run 2 ──", "run"}, outputText(t, m, info.ID))

	// A finished job is run again too.
	require.NoError(t, m.Kill(info.ID))
	wait(t, m, info.ID)
	_, err = m.Restart(info.ID)
	require.NoError(t, err)
	waitFor(t, m, info.ID, "the third run", func(i Info) bool { return i.Runs == 3 && i.State == StateRunning })
}

func TestRemove(t *testing.T) {
	m := newManager(t, Options{})
	running := start(t, m, Spec{Command: "sleep 1000"})
	var ie *InvalidActionError
	err := m.Remove(running.ID)
	assert.ErrorAs(t, err, &ie)
	assert.EqualError(t, err, "cannot remove job 1: it is running; stop it first")
	done := wait(t, m, start(t, m, Spec{Command: "true"}).ID)
	require.NoError(t, m.Remove(done.ID))
	_, err = m.Get(done.ID)
	assert.Error(t, err)
	assert.Len(t, m.List(), 1)
	assert.FileExists(t, done.LogPath, "the log file stays")
	err = m.Stop(done.ID)
	var nf *NotFoundError
	assert.ErrorAs(t, err, &nf)

	// Stopping, or waiting out its restart policy's backoff: says what to do.
	stopping := start(t, m, Spec{Command: `trap "sleep 5" TERM; echo up; sleep 1000`, Grace: 10 * time.Second})
	waitOutput(t, m, stopping.ID, "up")
	require.NoError(t, m.Stop(stopping.ID))
	waitFor(t, m, stopping.ID, "stopping", func(i Info) bool { return i.State == StateStopping })
	assert.EqualError(t, m.Remove(stopping.ID), fmt.Sprintf("cannot remove job %d: it is stopping; wait for it to end, or kill it", stopping.ID))
	require.NoError(t, m.Kill(stopping.ID))
	backoff := start(t, m, Spec{Command: "exit 1", Restart: RestartPolicy{Mode: RestartAlways, Backoff: time.Minute, Max: NoRestartLimit}})
	waitFor(t, m, backoff.ID, "the backoff", func(i Info) bool { return i.State == StateFailed })
	assert.EqualError(t, m.Remove(backoff.ID), fmt.Sprintf("cannot remove job %d: %s", backoff.ID, RefusedWaitingToRestart))
}

func TestStopOnFinishedJobIsAnError(t *testing.T) {
	m := newManager(t, Options{})
	info := wait(t, m, start(t, m, Spec{Command: "true"}).ID)
	assert.EqualError(t, m.Stop(info.ID), "cannot stop job 1: it has ended (succeeded)")
}

func TestQueueHoldsJobsPastTheLimit(t *testing.T) {
	m := newManager(t, Options{MaxRunning: 2})
	a := start(t, m, Spec{Command: "sleep 1000"})
	b := start(t, m, Spec{Command: "sleep 1000"})
	c := start(t, m, Spec{Command: "echo third"})
	assert.Equal(t, StateRunning, a.State)
	assert.Equal(t, StateRunning, b.State)
	assert.Equal(t, StateQueued, c.State)
	assert.Equal(t, "waiting for a free slot (2 running)", c.Reason)
	assert.Zero(t, c.PID)

	require.NoError(t, m.Stop(b.ID))
	c = wait(t, m, c.ID)
	assert.Equal(t, StateSucceeded, c.State)
	assert.Equal(t, []string{"third"}, outputText(t, m, c.ID))
}

func TestQueueStartsInOrder(t *testing.T) {
	m := newManager(t, Options{MaxRunning: 1})
	dir := t.TempDir()
	order := filepath.Join(dir, "order")
	var ids []ID
	for _, name := range []string{"a", "b", "c", "d"} {
		ids = append(ids, start(t, m, Spec{Name: name, Command: "echo " + name + " >> " + order}).ID)
	}
	for _, id := range ids {
		wait(t, m, id)
	}
	b, err := os.ReadFile(order)
	require.NoError(t, err)
	assert.Equal(t, "a\nb\nc\nd\n", string(b))
}

// A job restarted while every slot is taken waits as queued with no
// run yet: no pid, exit code, signal or times of the run before (those
// are in its history), as a job restarted with a free slot has none
// once it runs again.
func TestRestartedJobWaitingForASlotShowsNoEarlierRun(t *testing.T) {
	m := newManager(t, Options{MaxRunning: 1})
	failed := start(t, m, Spec{Command: "exit 3"})
	failed = wait(t, m, failed.ID)
	require.Equal(t, StateFailed, failed.State)
	killed := start(t, m, Spec{Command: "sleep 1000"})
	killed = waitFor(t, m, killed.ID, "running", func(i Info) bool { return i.State == StateRunning && i.PID != 0 })
	require.NoError(t, m.Kill(killed.ID))
	killed = wait(t, m, killed.ID)
	require.Equal(t, StateKilled, killed.State)
	start(t, m, Spec{Command: "sleep 1000"}) // takes the only slot

	for _, id := range []ID{failed.ID, killed.ID} {
		q, err := m.Restart(id)
		require.NoError(t, err)
		assert.Equal(t, StateQueued, q.State, "job %d", id)
		assert.Zero(t, q.PID, "job %d", id)
		assert.Nil(t, q.ExitCode, "job %d", id)
		assert.Zero(t, q.Signal, "job %d", id)
		assert.Empty(t, q.Error, "job %d", id)
		assert.Nil(t, q.Started, "job %d", id)
		assert.Nil(t, q.Ended, "job %d", id)
		assert.Zero(t, q.Runtime(time.Now()), "job %d", id)
		require.Len(t, q.History, 1, "job %d: the run before is kept there", id)
	}
	q, err := m.Get(failed.ID)
	require.NoError(t, err)
	assert.Equal(t, 3, *q.History[0].ExitCode)
}

func TestStopQueuedJob(t *testing.T) {
	m := newManager(t, Options{MaxRunning: 1})
	start(t, m, Spec{Command: "sleep 1000"})
	q := start(t, m, Spec{Command: "echo never"})
	require.NoError(t, m.Stop(q.ID))
	q = wait(t, m, q.ID)
	assert.Equal(t, StateKilled, q.State)
	assert.Equal(t, "stopped before it started", q.Error)
	assert.Empty(t, outputText(t, m, q.ID))
}

func TestShutdownStopsEverything(t *testing.T) {
	m, err := NewManager(Options{LogDir: t.TempDir(), MaxRunning: 2})
	require.NoError(t, err)
	a, err := m.Start(Spec{Command: "sleep 1000 & sleep 1000 & wait"})
	require.NoError(t, err)
	b, err := m.Start(Spec{Command: "trap '' TERM; sleep 1000 & wait", Grace: 200 * time.Millisecond})
	require.NoError(t, err)
	q, err := m.Start(Spec{Command: "echo queued"})
	require.NoError(t, err)
	pids := append(treeOf(t, m, a.ID, 2), treeOf(t, m, b.ID, 1)...)

	ctx, cancel := context.WithTimeout(context.Background(), patience)
	defer cancel()
	require.NoError(t, m.Shutdown(ctx))
	for _, pid := range pids {
		assert.False(t, alive(pid), "pid %d survived Shutdown", pid)
	}
	for _, id := range []ID{a.ID, b.ID, q.ID} {
		info, err := m.Get(id)
		require.NoError(t, err)
		assert.Equal(t, StateKilled, info.State, "job %d", id)
	}
	_, err = m.Start(Spec{Command: "true"})
	assert.ErrorIs(t, err, ErrShutdown)
}

func TestShutdownDeadlineKillsAtOnce(t *testing.T) {
	m, err := NewManager(Options{LogDir: t.TempDir()})
	require.NoError(t, err)
	a, err := m.Start(Spec{Command: "trap '' TERM; sleep 1000", Grace: time.Hour})
	require.NoError(t, err)
	pids := treeOf(t, m, a.ID, 1)
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	assert.ErrorIs(t, m.Shutdown(ctx), context.DeadlineExceeded)
	for _, pid := range pids {
		assert.False(t, alive(pid))
	}
}

func TestWaitHonoursContext(t *testing.T) {
	m := newManager(t, Options{})
	info := start(t, m, Spec{Command: "sleep 1000"})
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	got, err := m.Wait(ctx, info.ID)
	assert.True(t, errors.Is(err, context.DeadlineExceeded))
	assert.Equal(t, StateRunning, got.State)
}

func TestLogFileHoldsEveryByte(t *testing.T) {
	m := newManager(t, Options{Store: StoreOptions{MaxLines: 10}})
	info := wait(t, m, start(t, m, Spec{Command: "echo oops >&2; seq 1 1000; printf 'no newline'"}).ID)
	b, err := os.ReadFile(info.LogPath)
	require.NoError(t, err)
	var want strings.Builder
	for i := 1; i <= 1000; i++ {
		want.WriteString(strconv.Itoa(i) + "\n")
	}
	want.WriteString("no newline")
	// The two pipes are read concurrently, so where stderr's line lands
	// among stdout's is up to the scheduler; each stream's bytes are whole
	// and in order.
	sep, got, _ := strings.Cut(string(b), "\n")
	assert.Regexp(t, `^\[jobtop\] ── run 1 · started \d{4}-\d\d-\d\dT[0-9:]+.* ──$`, sep, "a separator line begins the run")
	assert.Equal(t, 1, strings.Count(got, "oops\n"))
	got = strings.Replace(got, "oops\n", "", 1)
	assert.True(t, got == want.String(), "log file differs: %d bytes, want %d", len(got), want.Len())
	assert.Equal(t, uint64(992), info.Dropped, "memory holds only the last 10 of 1002 lines")
}

func TestAddWithoutStarting(t *testing.T) {
	m := newManager(t, Options{})
	info, err := m.Add(Spec{Name: "later", Command: "echo started"})
	require.NoError(t, err)
	assert.Equal(t, StateCreated, info.State)
	assert.Zero(t, info.Runs)
	info = wait(t, m, info.ID) // a created job is settled
	assert.Equal(t, StateCreated, info.State)
	_, err = m.Restart(info.ID)
	require.NoError(t, err)
	info = wait(t, m, info.ID)
	assert.Equal(t, StateSucceeded, info.State)
	assert.Equal(t, []string{"started"}, outputText(t, m, info.ID))
}

func TestReplaceRestartsARunningJobWithTheNewSpec(t *testing.T) {
	m := newManager(t, Options{})
	info := start(t, m, Spec{Name: "web", Command: "echo v1; sleep 1000"})
	waitFor(t, m, info.ID, "v1", func(i Info) bool { return i.LastLine == "v1" })
	_, err := m.Replace(info.ID, Spec{Name: "web", Command: "echo v2; sleep 1000"})
	require.NoError(t, err)
	got := waitFor(t, m, info.ID, "v2", func(i Info) bool { return i.LastLine == "v2" })
	assert.Equal(t, 2, got.Runs)
	assert.Equal(t, "echo v2; sleep 1000", got.Command)

	done := wait(t, m, start(t, m, Spec{Command: "echo old"}).ID)
	got, err = m.Replace(done.ID, Spec{Command: "echo new"})
	require.NoError(t, err)
	assert.Equal(t, StateSucceeded, got.State, "an ended job is not started by Replace")
	assert.Equal(t, "echo new", got.Command)
	_, err = m.Replace(done.ID, Spec{})
	assert.ErrorIs(t, err, ErrEmptyCommand)
}

// StartSoon hands back the queued job at once; its process starts as
// Start's does, without the caller waiting for it.
func TestStartSoonDoesNotWaitForTheLaunch(t *testing.T) {
	m := newManager(t, Options{})
	info, err := m.StartSoon(Spec{Command: "echo hi; exec sleep 600"})
	require.NoError(t, err)
	assert.Equal(t, StateQueued, info.State)
	assert.Equal(t, ReasonStarting, info.Reason)
	assert.Zero(t, info.PID)
	info = waitFor(t, m, info.ID, "the job to run", func(i Info) bool { return i.State == StateRunning })
	assert.NotZero(t, info.PID)
	eventually(t, "its output", func() bool { return slices.Contains(outputText(t, m, info.ID), "hi") })
}

// Jobs started soon (a job file's) that wait for one another to start
// run as each starts: nothing else needs to happen first.
func TestStartSoonDependantsRunWhenTheirJobStarts(t *testing.T) {
	m := newManager(t, Options{})
	a, err := m.StartSoon(Spec{Name: "a", Command: "exec sleep 600"})
	require.NoError(t, err)
	b, err := m.StartSoon(Spec{Name: "b", Command: "exec sleep 600", DependsOn: map[string]Condition{"a": CondStarted}})
	require.NoError(t, err)
	c, err := m.StartSoon(Spec{Name: "c", Command: "exec sleep 600", DependsOn: map[string]Condition{"b": CondStarted}})
	require.NoError(t, err)
	for _, id := range []ID{a.ID, b.ID, c.ID} {
		waitFor(t, m, id, "the job to run", func(i Info) bool { return i.State == StateRunning })
	}
}

// A job given an environment starts from it instead of jobtop's: its
// programs, argv ones too, are found in its PATH; Env goes on top.
func TestJobStartsFromTheEnvironmentItIsGiven(t *testing.T) {
	m := newManager(t, Options{})
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "only-here"), []byte("#!/bin/sh\necho \"$GIVEN $ADDED ${HOME:-no home}\"\n"), 0o755))
	env := []string{"PATH=" + dir + ":/usr/bin:/bin", "GIVEN=given"}
	for _, spec := range []Spec{
		{Argv: []string{"only-here"}, Environ: env, Env: map[string]string{"ADDED": "added"}},
		{Command: "only-here", Environ: env, Env: map[string]string{"ADDED": "added"}},
	} {
		info := start(t, m, spec)
		wait(t, m, info.ID)
		assert.Equal(t, []string{"given added no home"}, outputText(t, m, info.ID), "%v", spec.Argv)
	}
	_, err := m.Start(Spec{Command: "true", Environ: []string{"NOEQUALS"}})
	assert.EqualError(t, err, `environment entry "NOEQUALS" is not NAME=value`)

	// A terminal's size is the job's terminal's, not the one the
	// environment was set in.
	info := start(t, m, Spec{TTY: true, Command: `echo "[$COLUMNS $LINES] $GIVEN"`, Environ: append(env, "COLUMNS=20", "LINES=5")})
	wait(t, m, info.ID)
	assert.Equal(t, []string{"[ ] given"}, outputText(t, m, info.ID))
}

// A description is bounded: every event of the job carries it to every
// client (a 1 MB one made an attached client's stream 10 MB/s).
func TestValidateBoundsTheDescription(t *testing.T) {
	s := Spec{Command: "true", Description: strings.Repeat("x", MaxDescription)}
	require.NoError(t, s.Validate())
	s.Description += "x"
	require.EqualError(t, s.Validate(), "description is 4097 bytes; at most 4096 (it goes with every change of the job to every client)")
}

// Shutdown may be called twice at once (a shutdown request and a signal;
// a test's owner and its cleanup): both return, and under -race nothing
// races (stopping the usage sampler wrote a field the other read).
func TestShutdownTwiceAtOnce(t *testing.T) {
	m, err := NewManager(Options{LogDir: t.TempDir(), SampleInterval: time.Millisecond})
	require.NoError(t, err)
	start(t, m, Spec{Command: "exec sleep 60"})
	done := make(chan error, 2)
	for range 2 {
		go func() { done <- m.Shutdown(context.Background()) }()
	}
	for range 2 {
		require.NoError(t, <-done)
	}
}

// TestStopToRemoveMarksTheEnd: a job stopped to be removed ends as a
// stop ends it, marked with what removes it (Info.Removing); a job
// already ended is only marked; a new run clears the mark.
func TestStopToRemoveMarksTheEnd(t *testing.T) {
	m := newManager(t, Options{})
	info := start(t, m, Spec{Command: "exec sleep 600"})
	waitFor(t, m, info.ID, "running", func(i Info) bool { return i.State == StateRunning })
	require.NoError(t, m.StopToRemove(info.ID, "reload"))
	ended := wait(t, m, info.ID)
	assert.Equal(t, StateKilled, ended.State)
	assert.Equal(t, "reload", ended.Removing)

	_, err := m.Restart(info.ID)
	require.NoError(t, err)
	again, err := m.Get(info.ID)
	require.NoError(t, err)
	assert.Empty(t, again.Removing, "a new run is no longer being removed")
	require.NoError(t, m.Kill(info.ID))
	assert.Empty(t, wait(t, m, info.ID).Removing)

	require.NoError(t, m.StopToRemove(info.ID, "reload"), "an ended job is only marked")
	got, err := m.Get(info.ID)
	require.NoError(t, err)
	assert.Equal(t, "reload", got.Removing)
	var missing *NotFoundError
	assert.ErrorAs(t, m.StopToRemove(999, "reload"), &missing)
}

// TestWaitAnswersAJobRemovedAsItEnds: a reload removes a job it stopped
// as soon as it ends, woken by the same end as the job's waiters; a
// waiter that looked the job up again by ID then found none and answered
// "no job" about half the time. It answers how the job ended.
func TestWaitAnswersAJobRemovedAsItEnds(t *testing.T) {
	m := newManager(t, Options{})
	for round := range 30 {
		info := start(t, m, Spec{Command: "exec sleep 600"})
		waitFor(t, m, info.ID, "running", func(i Info) bool { return i.State == StateRunning })
		m.mu.Lock()
		settled := m.jobs[info.ID].settled
		m.mu.Unlock()
		removed := make(chan error, 1)
		go func() {
			<-settled
			removed <- m.Remove(info.ID)
		}()
		type answer struct {
			info Info
			err  error
		}
		answers := make(chan answer, 4)
		for range cap(answers) {
			go func() {
				i, err := m.Wait(context.Background(), info.ID)
				answers <- answer{i, err}
			}()
		}
		require.Eventually(t, func() bool { return waitersBlocked() >= cap(answers) }, 10*time.Second, time.Millisecond,
			"the waiters wait on the job")
		require.NoError(t, m.StopToRemove(info.ID, "reload"))
		require.NoError(t, <-removed)
		for range cap(answers) {
			a := <-answers
			require.NoError(t, a.err, "round %d", round)
			assert.Equal(t, StateKilled, a.info.State, "round %d", round)
			assert.Equal(t, "reload", a.info.Removing, "round %d", round)
		}
	}
}

// waitersBlocked counts the goroutines waiting inside Manager.Wait for a
// job to end.
func waitersBlocked() int {
	buf := make([]byte, 1<<20)
	buf = buf[:runtime.Stack(buf, true)]
	n := 0
	for _, g := range strings.Split(string(buf), "\n\n") {
		if strings.Contains(g, "[select]") && strings.Contains(g, "jobs.(*Manager).Wait(") {
			n++
		}
	}
	return n
}

// sleepRuns is shell that waits, without a fork, until the program the
// shell last started in the background ($!) is sleep, not yet the shell
// forked to exec it, where /proc tells (Linux): a signal to the group
// before the exec would go to the shell's trap in that child, and be
// lost when it execs.
const sleepRuns = `p=$!; while [ -e /proc/$p/comm ] && { read c < /proc/$p/comm; [ "$c" != sleep ]; }; do :; done;`
