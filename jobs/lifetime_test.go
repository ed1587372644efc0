package jobs

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"jobtop/jobs/keeper"
	"jobtop/jobs/proc"
)

// tree starts three sleepers the three ways a job leaves processes behind:
// in its group, in a session of their own (setsid), and orphaned by a
// subshell that exits at once.
const tree = "sleep 600 & setsid sleep 600 & (sleep 600 &); "

// exitOnUSR1 is a job that leaves a tree and exits 3 by itself when
// exitNow tells it to: once the test has seen its processes (after a fixed
// delay instead, a loaded machine could end the job first, and the keeper
// would rightly stop the tree before the test saw it).
const exitOnUSR1 = "trap 'exit 3' USR1; " + tree + "while :; do sleep 0.05; done"

func exitNow(m *Manager, id ID) error {
	info, err := m.Get(id)
	if err != nil {
		return err
	}
	return syscall.Kill(info.PID, syscall.SIGUSR1)
}

// startMarked starts spec with a TEST_MARK of its own and waits until at
// least n processes carry it.
func startMarked(t *testing.T, m *Manager, spec Spec, n int) (Info, string) {
	t.Helper()
	mark := newMark(t)
	spec.Env = map[string]string{"TEST_MARK": mark}
	info := start(t, m, spec)
	eventually(t, "the job's processes to start", func() bool { return len(marked(mark)) >= n })
	return info, mark
}

func requireNoneLeft(t *testing.T, mark string) {
	t.Helper()
	eventually(t, "every process of the job to be gone", func() bool { return len(marked(mark)) == 0 })
}

func TestEveryWayOfEndingStopsTheWholeTree(t *testing.T) {
	for _, tc := range []struct {
		name  string
		cmd   string
		end   func(m *Manager, id ID) error
		state State
	}{
		{"stop", tree + "wait", func(m *Manager, id ID) error { return m.Stop(id) }, StateKilled},
		{"kill", tree + "wait", func(m *Manager, id ID) error { return m.Kill(id) }, StateKilled},
		{"natural exit", exitOnUSR1, exitNow, StateFailed},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := newManager(t, Options{})
			info, mark := startMarked(t, m, Spec{Command: tc.cmd}, 4)
			require.NoError(t, tc.end(m, info.ID))
			info = wait(t, m, info.ID)
			assert.Equal(t, tc.state, info.State)
			requireNoneLeft(t, mark)
		})
	}
}

func TestTimeoutStopsTheWholeTree(t *testing.T) {
	m := newManager(t, Options{})
	mark := newMark(t)
	info := start(t, m, Spec{Command: tree + "wait", Timeout: 500 * time.Millisecond, Env: map[string]string{"TEST_MARK": mark}})
	info = wait(t, m, info.ID)
	assert.Equal(t, StateTimedOut, info.State)
	requireNoneLeft(t, mark)
}

func TestRestartStopsTheWholeTreeOfTheOldRun(t *testing.T) {
	m := newManager(t, Options{})
	info, mark := startMarked(t, m, Spec{Command: tree + "wait"}, 4)
	old := marked(mark)
	_, err := m.Restart(info.ID)
	require.NoError(t, err)
	waitFor(t, m, info.ID, "the second run", func(i Info) bool { return i.Runs == 2 && i.State == StateRunning })
	eventually(t, "the first run's processes to be gone", func() bool {
		for _, pid := range old {
			if alive(pid) {
				return false
			}
		}
		return true
	})
}

// TestDaemonHoldingStdoutDoesNotKeepTheJobRunning: the main process exits
// at once; a setsid daemon it started still holds stdout. The job ends
// (it does not wait for the daemon's pipe), the daemon is stopped, and the
// job's last line says so.
func TestDaemonHoldingStdoutDoesNotKeepTheJobRunning(t *testing.T) {
	m := newManager(t, Options{})
	began := time.Now()
	// A long grace: the daemon dies on SIGTERM, so the job must end well
	// before it would run out. (Its last line says the daemon was there.)
	mark := newMark(t)
	info := start(t, m, Spec{Command: "setsid sleep 600 & echo started", Grace: time.Minute, Env: map[string]string{"TEST_MARK": mark}})
	info = wait(t, m, info.ID)
	assert.Less(t, time.Since(began), 30*time.Second, "ended by SIGTERM, not by the grace running out")
	assert.Equal(t, StateSucceeded, info.State)
	assert.Equal(t, []string{"started", "stopped 1 process left running"}, outputText(t, m, info.ID))
	requireNoneLeft(t, mark)
}

// A daemon seen half way through an exec shows no environment for a moment
// (the kernel sets up the new one last), so which job it is of cannot be
// read yet; it is still the job's once it can be. Here the daemon shows
// none (it was started without one) when the main process exits, and
// execs with its run's JOBTOP_RUN again 70 ms later.
func TestADaemonShowingNoEnvironmentForAMomentIsStillTheJobs(t *testing.T) {
	m := newManager(t, Options{})
	mark := newMark(t)
	cmd := `setsid env -i sh -c "sleep 0.1; export JOBTOP_RUN=$JOBTOP_RUN TEST_MARK=$TEST_MARK; exec sleep 600" & sleep 0.03; echo started`
	info := start(t, m, Spec{Command: cmd, Grace: time.Minute, Env: map[string]string{"TEST_MARK": mark}})
	info = wait(t, m, info.ID)
	assert.Equal(t, StateSucceeded, info.State)
	out := outputText(t, m, info.ID)
	require.Len(t, out, 2)
	assert.Equal(t, "started", out[0])
	// (2 when a slow machine had the keeper look while the daemon was
	// still its shell and that shell's sleep.)
	assert.Regexp(t, `^stopped [12] process(es)? left running$`, out[1])
	requireNoneLeft(t, mark)
}

// Many jobs at once, each leaving a setsid daemon: every daemon is
// stopped and every job says so. One look at the wrong moment (an exec
// half done, a PID reused since the last look) used to lose about one
// daemon in 200-300. JOBTOP_DAEMONS=N runs N jobs (default 60).
func TestEveryDaemonOfManyJobsIsStopped(t *testing.T) {
	n := 60
	if v, err := strconv.Atoi(os.Getenv("JOBTOP_DAEMONS")); err == nil && v > 0 {
		n = v
	}
	m := newManager(t, Options{})
	mark := newMark(t)
	const batch = 20
	for done := 0; done < n; done += batch {
		var ids []ID
		for range min(batch, n-done) {
			ids = append(ids, start(t, m, Spec{Command: "setsid sleep 600 & echo x", Env: map[string]string{"TEST_MARK": mark}}).ID)
		}
		for _, id := range ids {
			wait(t, m, id)
			require.Equal(t, []string{"x", "stopped 1 process left running"}, outputText(t, m, id), "job %d", id)
		}
		requireNoneLeft(t, mark)
	}
}

// While what a main process left is being stopped, the job shows no PID:
// the one it had names nothing now.
func TestAJobWhoseMainProcessExitedShowsNoPID(t *testing.T) {
	m := newManager(t, Options{})
	mark := newMark(t)
	// The main process exits once the test has read its PID.
	info := start(t, m, Spec{Command: "trap '' TERM; sleep 600 & echo started; read go", Stdin: StdinPipe, Grace: time.Hour, Env: map[string]string{"TEST_MARK": mark}})
	require.NotZero(t, info.PID)
	main := info.PID
	require.NoError(t, m.Input(info.ID, []byte("\n")))
	info = waitFor(t, m, info.ID, "the leftover being stopped", func(i Info) bool { return i.State == StateStopping })
	assert.Zero(t, info.PID, "the main process %d has exited", main)
	assert.False(t, alive(main))
	require.NoError(t, m.Kill(info.ID))
	wait(t, m, info.ID)
	requireNoneLeft(t, mark)
}

// TestGraceReachesTheWholeTreeOnStop: dash runs "sh graceful.sh" as a
// child; on SIGTERM the wrapper exits at once, but the script's trap must
// still get its grace period to clean up.
func TestGraceReachesTheWholeTreeOnStop(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "graceful.sh")
	require.NoError(t, os.WriteFile(script, []byte("trap 'sleep 1; echo cleanup done; exit 0' TERM\necho up\nwhile :; do sleep 0.05; done\n"), 0o600))
	for _, shell := range []string{"sh", "bash"} {
		t.Run(shell, func(t *testing.T) {
			m := newManager(t, Options{})
			info := start(t, m, Spec{Command: shell + " " + script + "; echo wrapper done"})
			waitFor(t, m, info.ID, "up", func(i Info) bool { return i.LastLine == "up" })
			require.NoError(t, m.Stop(info.ID))
			info = wait(t, m, info.ID)
			assert.Equal(t, StateKilled, info.State)
			assert.Contains(t, outputText(t, m, info.ID), "cleanup done")
			assert.Equal(t, Signal(syscall.SIGTERM), info.Signal, "no SIGKILL was needed")
		})
	}
}

func TestJobsHaveNoTerminalAndNoStdin(t *testing.T) {
	m := newManager(t, Options{})
	info := start(t, m, Spec{Command: "exec 2>&1; cat; echo read-done; echo hi > /dev/tty; echo status $?"})
	info = wait(t, m, info.ID)
	out := outputText(t, m, info.ID)
	require.Len(t, out, 3, "%q", out)
	assert.Equal(t, "read-done", out[0], "stdin is /dev/null: cat ends at once")
	assert.Contains(t, out[1], "/dev/tty", "the shell names what failed")
	assert.Equal(t, "status 2", out[2])
}

// TestJobsStdinIsTheirOwn: what a job does to its stdin's flags (a
// non-blocking /dev/null) is not what the next job's stdin has: each has
// its own open /dev/null.
func TestJobsStdinIsTheirOwn(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc/self/fdinfo")
	}
	if _, err := exec.LookPath("perl"); err != nil {
		t.Skip("needs perl to set a flag on stdin")
	}
	m := newManager(t, Options{})
	first := start(t, m, Spec{Command: `perl -e 'use Fcntl; $| = 1; fcntl(STDIN, F_SETFL, O_NONBLOCK) or die; print "set\n"; sleep 30'`})
	waitFor(t, m, first.ID, "set", func(i Info) bool { return i.LastLine == "set" })
	next := start(t, m, Spec{Command: "grep flags /proc/self/fdinfo/0"})
	wait(t, m, next.ID)
	out := outputText(t, m, next.ID)
	require.Len(t, out, 1)
	flags, err := strconv.ParseUint(strings.TrimSpace(strings.TrimPrefix(out[0], "flags:")), 8, 32)
	require.NoError(t, err, "%q", out[0])
	assert.Zero(t, flags&syscall.O_NONBLOCK, "the next job's stdin is blocking (flags %o)", flags)
}

// TestReplaceStopsTheOldRunItsOwnWay: the old run is stopped with the old
// spec's stop signal, not the new one's.
func TestReplaceStopsTheOldRunItsOwnWay(t *testing.T) {
	m := newManager(t, Options{})
	info := start(t, m, Spec{
		Command:    "trap 'echo got INT; exit 0' INT; trap 'echo got TERM; exit 0' TERM; echo up; while :; do sleep 0.05; done",
		StopSignal: Signal(syscall.SIGINT),
	})
	waitFor(t, m, info.ID, "up", func(i Info) bool { return i.LastLine == "up" })
	_, err := m.Replace(info.ID, Spec{Command: "echo new", StopSignal: Signal(syscall.SIGTERM)})
	require.NoError(t, err)
	info = wait(t, m, info.ID)
	assert.Equal(t, StateSucceeded, info.State)
	out := outputText(t, m, info.ID)
	assert.Contains(t, out, "got INT")
	assert.NotContains(t, out, "got TERM")
	assert.Equal(t, "new", out[len(out)-1])
}

// TestShutdownEndsPendingRestarts: a job waiting out its restart backoff
// is settled by Shutdown, so a waiter gets the final state.
func TestShutdownEndsPendingRestarts(t *testing.T) {
	m, err := NewManager(Options{LogDir: t.TempDir()})
	require.NoError(t, err)
	info, err := m.Start(Spec{Command: "exit 1", Restart: RestartPolicy{Mode: RestartAlways, Backoff: time.Hour}})
	require.NoError(t, err)
	waitFor(t, m, info.ID, "the restart to be pending", func(i Info) bool { return i.State == StateFailed })
	waited := make(chan Info, 1)
	go func() {
		i, _ := m.Wait(context.Background(), info.ID)
		waited <- i
	}()
	ctx, cancel := context.WithTimeout(context.Background(), patience)
	defer cancel()
	require.NoError(t, m.Shutdown(ctx))
	select {
	case i := <-waited:
		assert.Equal(t, StateFailed, i.State)
	case <-time.After(patience):
		t.Fatal("Wait did not return after Shutdown")
	}
}

// TestStopWhileStarting: a kill asked for while the keeper is starting the
// process is carried out once it has started.
func TestStopWhileStarting(t *testing.T) {
	m := newManager(t, Options{MaxRunning: 1})
	mark := newMark(t)
	spec := Spec{Command: "exec sleep 600", Env: map[string]string{"TEST_MARK": mark}}
	const n = 40
	var ids []ID
	for range n {
		// Past the first, they wait queued and start one at a time, in
		// the background, as slots free.
		info, err := m.Start(spec)
		require.NoError(t, err)
		ids = append(ids, info.ID)
	}
	hits := 0
	// The list is a snapshot: a job may end between it and the kill.
	kill := func(id ID) {
		var invalid *InvalidActionError
		if err := m.Kill(id); err != nil && !(errors.As(err, &invalid) && invalid.State.Done()) {
			t.Fatal(err)
		}
	}
	for done := 0; done < n; {
		done = 0
		for _, info := range m.List() {
			switch {
			case info.State == StateQueued && info.Reason == ReasonStarting:
				hits++
				kill(info.ID)
			case info.State == StateRunning:
				kill(info.ID)
			case info.State.Done():
				done++
			}
		}
	}
	for _, id := range ids {
		assert.Equal(t, StateKilled, wait(t, m, id).State)
	}
	assert.Positive(t, hits, "some kills reached a job while it was starting")
	requireNoneLeft(t, mark)
}

// A job that keeps forking when its keeper dies: children forked while
// the process table was being read are killed too.
func TestKeeperDeathKillsAJobThatKeepsForking(t *testing.T) {
	m := newManager(t, Options{})
	info, mark := startMarked(t, m, Spec{Command: "while :; do sleep 600 & done"}, 30)
	require.NoError(t, syscall.Kill(m.keeperID.PID, syscall.SIGKILL))
	assert.Equal(t, StateKilled, wait(t, m, info.ID).State)
	requireNoneLeft(t, mark)
}

// TestKeeperDeathKillsItsRuns: if the keeper itself is killed, its runs
// end (their processes have lost the one thing that follows them: they
// are killed), and the next job starts under a new keeper.
func TestKeeperDeathKillsItsRuns(t *testing.T) {
	m := newManager(t, Options{})
	info, mark := startMarked(t, m, Spec{Command: tree + "wait"}, 4)
	first := m.keeperID.PID
	require.NoError(t, syscall.Kill(first, syscall.SIGKILL))
	info = wait(t, m, info.ID)
	assert.Equal(t, StateKilled, info.State)
	assert.Contains(t, info.Error, "keeper")
	requireNoneLeft(t, mark)

	again := start(t, m, Spec{Command: "echo again"})
	assert.Equal(t, StateSucceeded, wait(t, m, again.ID).State)
	assert.NotEqual(t, first, m.keeperID.PID)
}

// deadToken is a dead keeper's token for a test of leftovers, its own:
// StopLeftovers stops every process that carries the token, on the whole
// machine, so a fixed one would stop (and count) the processes of the
// same test running at once in another checkout (other people's test
// runs on a shared machine), and theirs this run's.
func deadToken(t *testing.T) string {
	t.Helper()
	b := make([]byte, 8)
	_, err := rand.Read(b)
	require.NoError(t, err)
	return hex.EncodeToString(b)
}

// TestLeftoversOfADeadInstanceAreStopped: a record left by an instance
// whose jobtop and keeper both died names its keeper's token and its main
// processes; StopLeftovers stops those, their sessions and whatever
// carries the token, and nothing else.
func TestLeftoversOfADeadInstanceAreStopped(t *testing.T) {
	mark, token := newMark(t), deadToken(t)
	startProc := func(token string, setsid bool, args ...string) *exec.Cmd {
		cmd := exec.Command(args[0], args[1:]...)
		cmd.Env = append(os.Environ(), "TEST_MARK="+mark)
		if token != "" {
			cmd.Env = append(cmd.Env, keeper.EnvRun+"="+token)
		}
		cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: setsid}
		require.NoError(t, cmd.Start())
		go cmd.Wait() //nolint:errcheck // reaped whenever it ends
		t.Cleanup(func() { cmd.Process.Kill() })
		return cmd
	}
	// A main process whose environment no longer says whose it is (as
	// after setproctitle), with a child in its session.
	main := startProc("", true, "sh", "-c", "sleep 600 & wait")
	// A daemon that left the session but kept the token.
	startProc(token+".3", true, "sleep", "600")
	// Strangers: another instance's token, and no token at all.
	other := startProc(deadToken(t)+".3", true, "sleep", "600")
	plain := startProc("", false, "sleep", "600")
	eventually(t, "the processes", func() bool { return len(marked(mark)) == 5 })

	mp, err := proc.Get(main.Process.Pid)
	require.NoError(t, err)
	deadKeeper := keeper.Identity{PID: 1 << 22, Start: 1, Token: token}
	path := filepath.Join(t.TempDir(), "rec")
	require.NoError(t, writeFileAtomic(path, record{Keeper: deadKeeper, Mains: []keeper.ProcID{{PID: mp.PID, Start: mp.Start}}}))

	n, err := StopLeftovers(path)
	require.NoError(t, err)
	assert.Equal(t, 3, n, "the main, its child and the daemon")
	eventually(t, "the leftovers to go", func() bool { return len(marked(mark)) == 2 })
	assert.True(t, alive(other.Process.Pid))
	assert.True(t, alive(plain.Process.Pid))
	_, err = os.Stat(path)
	assert.True(t, os.IsNotExist(err), "the record is used up")
	n, err = StopLeftovers(path)
	assert.NoError(t, err)
	assert.Zero(t, n)
}

// A recorded main whose PID was reused since by another session's leader
// names nobody: neither that session nor what its processes started is
// stopped.
func TestLeftoversLeaveAReusedSessionAlone(t *testing.T) {
	mark := newMark(t)
	cmd := exec.Command("sh", "-c", "setsid sleep 600 & sleep 600 & wait")
	cmd.Env = append(os.Environ(), "TEST_MARK="+mark)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	require.NoError(t, cmd.Start())
	go cmd.Wait() //nolint:errcheck // reaped whenever it ends
	t.Cleanup(func() {
		for _, pid := range marked(mark) {
			syscall.Kill(pid, syscall.SIGKILL) //nolint:errcheck // cleanup
		}
	})
	eventually(t, "the processes", func() bool { return len(marked(mark)) == 3 })
	leader, err := proc.Get(cmd.Process.Pid)
	require.NoError(t, err)
	deadKeeper := keeper.Identity{PID: 1 << 22, Start: 1, Token: deadToken(t)}
	path := filepath.Join(t.TempDir(), "rec")
	// The record names the PID as it was before: an earlier start.
	require.NoError(t, writeFileAtomic(path, record{Keeper: deadKeeper, Mains: []keeper.ProcID{{PID: leader.PID, Start: leader.Start - 1}}}))
	n, err := StopLeftovers(path)
	require.NoError(t, err)
	assert.Zero(t, n)
	assert.Len(t, marked(mark), 3, "all of them alive")
}

// A leftover that starts a process when it gets SIGTERM, and carries on:
// what it started goes with it.
func TestLeftoversStartedOnSIGTERMAreStoppedToo(t *testing.T) {
	mark, token := newMark(t), deadToken(t)
	cmd := exec.Command("sh", "-c", `trap 'sleep 600 &' TERM; echo ready; while :; do sleep 0.05; done`)
	cmd.Env = append(os.Environ(), "TEST_MARK="+mark, keeper.EnvRun+"="+token+".4")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	out, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	go cmd.Wait() //nolint:errcheck // reaped whenever it ends
	t.Cleanup(func() { cmd.Process.Kill() })
	_, err = out.Read(make([]byte, 6)) // the trap is set
	require.NoError(t, err)
	deadKeeper := keeper.Identity{PID: 1 << 22, Start: 1, Token: token}
	path := filepath.Join(t.TempDir(), "rec")
	require.NoError(t, writeFileAtomic(path, record{Keeper: deadKeeper}))
	_, err = StopLeftovers(path)
	require.NoError(t, err)
	requireNoneLeft(t, mark)
}

// withArg lists live processes whose command line has arg: found without
// the environment (which env -i clears) and without asking jobtop.
func withArg(arg string) []int {
	procs, _ := proc.List()
	var out []int
	for _, p := range procs {
		b, err := os.ReadFile("/proc/" + strconv.Itoa(p.PID) + "/cmdline")
		if err == nil && !p.Zombie && strings.Contains(string(b), "\x00"+arg) {
			out = append(out, p.PID)
		}
	}
	return out
}

// TestKeeperStoppedByItsJob: a job can stop its keeper (its parent) with
// SIGSTOP. Jobtop notices the silence, kills the keeper, ends its runs
// with what they left, and starts the next job under a new keeper.
func TestKeeperStoppedByItsJob(t *testing.T) {
	m := newManager(t, Options{})
	arg := "600" + strconv.FormatInt(time.Now().UnixNano()%1e6, 10)
	// The job stops the keeper once its start is confirmed (the test
	// says so with a file): stopped before, the start itself fails.
	goAhead := filepath.Join(t.TempDir(), "go")
	info := start(t, m, Spec{Command: "while [ ! -e " + goAhead + " ]; do sleep 0.05; done; kill -STOP $PPID; exec sleep " + arg})
	waitFor(t, m, info.ID, "running", func(i Info) bool { return i.State == StateRunning })
	require.NoError(t, os.WriteFile(goAhead, nil, 0o600))
	eventually(t, "the sleep", func() bool { return len(withArg(arg)) == 1 })
	info = waitWithin(t, m, info.ID, patience+keeper.MaxSilence)
	assert.Equal(t, StateKilled, info.State)
	assert.Contains(t, info.Error, "stopped answering")
	eventually(t, "the job's process to go", func() bool { return len(withArg(arg)) == 0 })
	again := start(t, m, Spec{Command: "echo again"})
	assert.Equal(t, StateSucceeded, wait(t, m, again.ID).State)
}

// TestKeeperDeathReachesClearedEnvironments: processes that dropped their
// environment but stayed in the job's session are still found and killed
// when the keeper dies.
func TestKeeperDeathReachesClearedEnvironments(t *testing.T) {
	m := newManager(t, Options{})
	arg := "600" + strconv.FormatInt(time.Now().UnixNano()%1e6, 10)
	a := start(t, m, Spec{Command: "exec env -i sleep " + arg + "1"})
	b := start(t, m, Spec{Command: "env -i sleep " + arg + "2 & exec sleep " + arg + "3"})
	eventually(t, "the sleeps", func() bool { return len(withArg(arg)) == 3 })
	require.NoError(t, syscall.Kill(m.keeperID.PID, syscall.SIGKILL))
	wait(t, m, a.ID)
	wait(t, m, b.ID)
	eventually(t, "every sleep to go", func() bool { return len(withArg(arg)) == 0 })
}

// TestKeeperDeathReachesEscapeesOfARunningParent: a process that left
// the job's session and cleared its environment (setsid env -i) is found
// through its parent, still the job's, when the keeper dies.
func TestKeeperDeathReachesEscapeesOfARunningParent(t *testing.T) {
	m := newManager(t, Options{})
	arg := "600" + strconv.FormatInt(time.Now().UnixNano()%1e6, 10)
	info := start(t, m, Spec{Command: "setsid env -i sleep " + arg + " & wait"})
	eventually(t, "the sleep", func() bool { return len(withArg(arg)) == 1 })
	require.NoError(t, syscall.Kill(m.keeperID.PID, syscall.SIGKILL))
	wait(t, m, info.ID)
	eventually(t, "the escapee to go", func() bool { return len(withArg(arg)) == 0 })
}

// TestHoppingProcessesAreCaught: a process that forks itself and exits,
// again and again, can slip past one look at the process table; the
// keeper kills what it finds of a run that ended, so the chain ends with
// its job however the job ends.
// Hops that each leave the session and clear their environment (setsid
// env -i) are known by the job's stdout they hold.
func TestHoppingProcessesAreCaught(t *testing.T) {
	for _, tc := range []struct{ end, hop string }{
		{"natural exit", "sh"}, {"kill", "sh"}, {"stop", "sh"},
		{"natural exit", "setsid env -i sh"}, {"stop", "setsid env -i sh"},
	} {
		end := tc.end
		t.Run(end+"/"+tc.hop, func(t *testing.T) {
			dir := t.TempDir()
			hop, count := filepath.Join(dir, "hop.sh"), filepath.Join(dir, "count")
			script := "trap '' TERM; echo $$ >> " + count + "; " + tc.hop + " " + hop + " & exit 0\n"
			require.NoError(t, os.WriteFile(hop, []byte(script), 0o600))
			hops := func() int {
				b, _ := os.ReadFile(count)
				return strings.Count(string(b), "\n")
			}
			m := newManager(t, Options{})
			// The job outlives the first hops, so the chain is under way
			// (the keeper may otherwise catch it at once, as it should);
			// then it ends by itself or sleeps to be killed or stopped.
			cmd := "sh " + hop + "; while [ $(wc -l < " + count + ") -le 5 ]; do sleep 0.05; done"
			if end != "natural exit" {
				cmd += "; exec sleep 600"
			}
			info := start(t, m, Spec{Command: cmd, Grace: 300 * time.Millisecond})
			eventually(t, "the hopping", func() bool { return hops() > 5 })
			switch end {
			case "kill":
				require.NoError(t, m.Kill(info.ID))
			case "stop":
				require.NoError(t, m.Stop(info.ID))
			}
			wait(t, m, info.ID)
			// Each hop writes a line: the chain has ended when no line
			// comes for a second (it hops about a hundred times one).
			eventually(t, "the hopping to end", func() bool {
				before := hops()
				time.Sleep(time.Second)
				return hops() == before
			})
		})
	}
}

// TestEachVariableOnce: a job's programs see the value jobtop gives a
// variable, whatever reads it: C's getenv and Go take the first of two
// entries, the shell the last, so jobtop's environment has each name
// once (JOBTOP_RUN too, for a job started inside another jobtop's job).
func TestEachVariableOnce(t *testing.T) {
	t.Setenv("JOBTOP_TEST_VAR", "inherited")
	t.Setenv(keeper.EnvRun, "outer.1")
	m := newManager(t, Options{Env: map[string]string{"JOBTOP_SOCKET": "/tmp/inner.sock"}})
	t.Setenv("JOBTOP_SOCKET", "/tmp/outer.sock")
	info := start(t, m, Spec{Argv: []string{"env"}, Env: map[string]string{"JOBTOP_TEST_VAR": "the job's"}})
	wait(t, m, info.ID)
	count := map[string]int{}
	values := map[string]string{}
	for _, line := range outputText(t, m, info.ID) {
		k, v, _ := strings.Cut(line, "=")
		count[k]++
		values[k] = v
	}
	for _, k := range []string{"JOBTOP_TEST_VAR", "JOBTOP_SOCKET", keeper.EnvRun, "JOBTOP_JOB_ID"} {
		assert.Equal(t, 1, count[k], k)
	}
	assert.Equal(t, "the job's", values["JOBTOP_TEST_VAR"])
	assert.Equal(t, "/tmp/inner.sock", values["JOBTOP_SOCKET"])
	assert.NotEqual(t, "outer.1", values[keeper.EnvRun])
}

// TestEndedJobsHoldNoFileOpen: a finished job's log file is closed (it is
// opened again, appending, when the job runs again), so many finished
// jobs cost no file descriptors.
func TestEndedJobsHoldNoFileOpen(t *testing.T) {
	dir := t.TempDir()
	m := newManager(t, Options{LogDir: dir})
	openLogs := func() int {
		n := 0
		entries, _ := os.ReadDir("/proc/self/fd")
		for _, e := range entries {
			target, err := os.Readlink("/proc/self/fd/" + e.Name())
			if err == nil && strings.HasPrefix(target, dir) && strings.Contains(target, ".log") {
				n++
			}
		}
		return n
	}
	var ids []ID
	for i := range 30 {
		ids = append(ids, start(t, m, Spec{Command: "echo run-" + strconv.Itoa(i)}).ID)
	}
	_, err := m.Add(Spec{Command: "echo later"})
	require.NoError(t, err)
	for _, id := range ids {
		wait(t, m, id)
	}
	// A job is reported ended once its log is closed.
	assert.Zero(t, openLogs(), "log files open after the jobs ended")

	_, err = m.Restart(ids[0])
	require.NoError(t, err)
	info := wait(t, m, ids[0])
	log := readFile(t, info.LogPath)
	assert.Contains(t, log, "run-0\n")
	assert.Equal(t, 2, strings.Count(log, "run-0\n"), "the second run appended to the first's log:\n%s", log)
	assert.Zero(t, openLogs())
}

// TestRemovedJobsLogsStayWithinTheTotal: the logs of removed jobs stay on
// disk, but within the session's total (log.max_total): past it the
// oldest go, so job after job for days does not fill the disk.
func TestRemovedJobsLogsStayWithinTheTotal(t *testing.T) {
	dir := t.TempDir()
	m := newManager(t, Options{LogDir: dir, KeepFinished: 1, Sessions: Retention{MaxTotal: 10 << 10}})
	var last Info
	for i := range 6 {
		last = start(t, m, Spec{Command: "head -c 4096 /dev/zero | tr '\\0' x; echo " + strconv.Itoa(i)})
		wait(t, m, last.ID)
	}
	var total int64
	logs, _ := filepath.Glob(filepath.Join(dir, "*.log*"))
	for _, f := range logs {
		st, err := os.Stat(f)
		require.NoError(t, err)
		if f != last.LogPath {
			total += st.Size()
		}
	}
	assert.LessOrEqual(t, total, int64(10<<10), "removed jobs' logs: %v", logs)
	assert.Greater(t, total, int64(4<<10), "the newest removed logs are kept")
	assert.FileExists(t, last.LogPath, "a kept job's log is never removed")
}

// outsiderWriting writes a line to the job's stdout pipe every 20 ms, as
// a process outside the job that holds it would (one the keeper does not
// follow: moved to another cgroup, passed the descriptor), until the
// test ends.
func outsiderWriting(t *testing.T, m *Manager, id ID) {
	t.Helper()
	info := waitFor(t, m, id, "the job's PID", func(i Info) bool { return i.PID != 0 })
	out, err := os.OpenFile(fmt.Sprintf("/proc/%d/fd/1", info.PID), os.O_WRONLY, 0)
	require.NoError(t, err)
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		defer out.Close()
		for {
			select {
			case <-done:
				return
			case <-time.After(20 * time.Millisecond):
				out.WriteString("outsider\n") //nolint:errcheck // until the test ends
			}
		}
	}()
	t.Cleanup(func() { close(done); <-finished })
}

// A process outside the run that holds its stdout and writes on cannot
// keep it running: its output is read for at most drainLimit once
// nothing of the run is left, and the run ends as it did (exit 0).
func TestAnOutsiderWritingToTheJobsPipeCannotKeepItRunning(t *testing.T) {
	defer func(old time.Duration) { drainLimit = old }(drainLimit)
	drainLimit = 3 * time.Second
	m := newManager(t, Options{})
	info := start(t, m, Spec{Command: "sleep 0.5; echo bye"})
	outsiderWriting(t, m, info.ID)
	info = wait(t, m, info.ID)
	assert.Equal(t, StateSucceeded, info.State)
	assert.Contains(t, outputText(t, m, info.ID), "bye")
}

// A stop or kill of a run that has no process left ends the read of its
// pipes at once, and the run ended as it did: not killed.
func TestStoppingARunThatOnlyHasOutputLeftEndsItAsItEnded(t *testing.T) {
	defer func(old time.Duration) { drainLimit = old }(drainLimit)
	drainLimit = time.Hour
	for _, end := range []func(m *Manager, id ID) error{(*Manager).Stop, (*Manager).Kill} {
		m := newManager(t, Options{})
		info := start(t, m, Spec{Command: "sleep 0.5; exit 3"})
		outsiderWriting(t, m, info.ID)
		waitFor(t, m, info.ID, "the main process to exit", func(i Info) bool { return i.PID == 0 || i.State != StateRunning })
		time.Sleep(drainTimeout) // (the outsider writes on: nothing would end it)
		info, err := m.Get(info.ID)
		require.NoError(t, err)
		require.Equal(t, StateRunning, info.State, "read on while the outsider writes")
		require.NoError(t, end(m, info.ID))
		info = wait(t, m, info.ID)
		assert.Equal(t, StateFailed, info.State)
		require.NotNil(t, info.ExitCode)
		assert.Equal(t, 3, *info.ExitCode)
	}
}
