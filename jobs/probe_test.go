package jobs

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fakeProbe counts its checks and how many ran at once; pass decides each
// check's result from its number (1, 2, ...).
type fakeProbe struct {
	name string
	pass func(n int) bool

	mu        sync.Mutex
	calls     int
	active    int
	maxActive int
}

func (f *fakeProbe) Check(ctx context.Context, _ ProbeTarget) error {
	f.mu.Lock()
	f.calls++
	n := f.calls
	f.active++
	f.maxActive = max(f.maxActive, f.active)
	f.mu.Unlock()
	defer func() {
		f.mu.Lock()
		f.active--
		f.mu.Unlock()
	}()
	select { // long enough for a second check to overlap, were that possible
	case <-time.After(5 * time.Millisecond):
	case <-ctx.Done():
		return ctx.Err()
	}
	if f.pass(n) {
		return nil
	}
	return errors.New(f.name + " says no")
}

func (f *fakeProbe) String() string { return "fake: " + f.name }

func (f *fakeProbe) stats() (calls, maxActive int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.calls, f.maxActive
}

func quick(p Probe) ProbeCheck {
	return ProbeCheck{Probe: p, Interval: time.Millisecond, Timeout: time.Second, Failures: 2}
}

func TestProbesOfOneJobNeverOverlap(t *testing.T) {
	// One probe object as both checks, so an overlap between the ready
	// loop and the health loop would show too.
	p := &fakeProbe{name: "both", pass: func(n int) bool { return n > 3 }}
	m := newManager(t, Options{})
	ready := quick(p)
	health := quick(p)
	health.Failures = 1000
	info := start(t, m, Spec{Command: "sleep 1000", Ready: ReadyCheck{Probe: ready}, Health: health})
	waitFor(t, m, info.ID, "many checks", func(Info) bool { calls, _ := p.stats(); return calls >= 30 })
	_, maxActive := p.stats()
	assert.Equal(t, 1, maxActive)
}

func TestReadyProbePassingCountsAsTheFirstHealthCheckOfTheSameProbe(t *testing.T) {
	p := &fakeProbe{name: "web", pass: func(n int) bool { return n >= 2 }}
	m := newManager(t, Options{})
	health := quick(p)
	health.Interval = time.Hour // no health check of its own in this test
	info := start(t, m, Spec{Command: "sleep 1000", Ready: ReadyCheck{Probe: quick(p)}, Health: health})
	info = waitFor(t, m, info.ID, "ready", func(i Info) bool { return i.Ready && i.Health != HealthStarting })
	assert.Equal(t, HealthHealthy, info.Health)
	calls, _ := p.stats()
	assert.Equal(t, 2, calls)
}

func TestCompletedConditionAcceptsAnyEndButCouldNotStart(t *testing.T) {
	m := newManager(t, Options{})
	failed := start(t, m, Spec{Name: "migrate", Command: "exit 3"})
	after := start(t, m, Spec{Name: "report", Command: "echo ran", DependsOn: map[string]Condition{"migrate": CondCompleted}})
	assert.Equal(t, StateFailed, wait(t, m, failed.ID).State)
	assert.Equal(t, StateSucceeded, wait(t, m, after.ID).State)

	broken := start(t, m, Spec{Name: "broken", Argv: []string{"/no/such/program"}})
	never := start(t, m, Spec{Name: "never", Command: "echo ran", DependsOn: map[string]Condition{"broken": CondCompleted}})
	assert.Equal(t, StateError, wait(t, m, broken.ID).State)
	info := wait(t, m, never.ID)
	assert.Equal(t, StateError, info.State)
	assert.Contains(t, info.Error, "dependency broken could not start")
}

func TestCompletedConditionWaitsForAPolicyRestart(t *testing.T) {
	m := newManager(t, Options{})
	dir := t.TempDir()
	flaky := start(t, m, Spec{Name: "flaky", Dir: dir,
		Command: "if [ -e once ]; then exit 0; fi; touch once; exit 1",
		Restart: RestartPolicy{Mode: RestartOnFailure, Backoff: 20 * time.Millisecond}})
	after := start(t, m, Spec{Name: "after", Command: "echo ran", DependsOn: map[string]Condition{"flaky": CondCompleted}})
	assert.Equal(t, StateSucceeded, wait(t, m, after.ID).State)
	info := wait(t, m, flaky.ID)
	assert.Equal(t, 2, info.Runs, "the dependant waited for the restart to end too")
}

func TestHealthyConditionWithoutAHealthCheckIsReady(t *testing.T) {
	m := newManager(t, Options{})
	db := start(t, m, Spec{Name: "db", Command: "echo up; sleep 1000", Ready: ReadyCheck{LogPattern: "up"}})
	web := start(t, m, Spec{Name: "web", Command: "echo ran", DependsOn: map[string]Condition{"db": CondHealthy}})
	assert.Equal(t, StateSucceeded, wait(t, m, web.ID).State)
	require.NoError(t, m.Stop(db.ID))
}

func TestStopDuringAnUnhealthyStopIsNotUndoneByThePolicy(t *testing.T) {
	p := &fakeProbe{name: "web", pass: func(int) bool { return false }}
	m := newManager(t, Options{})
	// The job ignores SIGTERM, so it is still stopping when asked to stop.
	info := start(t, m, Spec{Command: "trap '' TERM; echo up; sleep 1000", Grace: time.Hour,
		Health: quick(p), Restart: RestartPolicy{Mode: RestartAlways, Backoff: time.Millisecond}})
	info = waitFor(t, m, info.ID, "the unhealthy stop", func(i Info) bool { return i.State == StateStopping })
	assert.Equal(t, HealthUnhealthy, info.Health)
	require.NoError(t, m.Kill(info.ID))
	info = wait(t, m, info.ID)
	assert.Equal(t, StateKilled, info.State)
	assert.Equal(t, 1, info.Runs, "a kill someone asked for is never undone by the policy")
	assert.Contains(t, info.Error, "unhealthy: web says no")
}

func TestStopCommandStopsTheJobInsteadOfTheSignal(t *testing.T) {
	dir := t.TempDir()
	m := newManager(t, Options{})
	// The job would say so if it got its stop signal; the stop command
	// ends it another way, with the job's environment.
	info := start(t, m, Spec{Dir: dir, Env: map[string]string{"WHO": "web"},
		Command:     "trap 'echo got TERM' TERM; echo $$ > pid; while :; do sleep 0.05; done",
		StopCommand: `echo "stopping $WHO"; kill -KILL $(cat pid)`, Grace: time.Hour})
	eventually(t, "the pid file", func() bool { _, err := os.Stat(filepath.Join(dir, "pid")); return err == nil })
	require.NoError(t, m.Stop(info.ID))
	info = wait(t, m, info.ID)
	assert.Equal(t, StateKilled, info.State)
	assert.Equal(t, Signal(syscall.SIGKILL), info.Signal)
	out := strings.Join(outputText(t, m, info.ID), "\n")
	assert.NotContains(t, out, "got TERM")
	assert.Contains(t, out, "── stopping with: echo \"stopping $WHO\"; kill -KILL $(cat pid) ──")
	eventually(t, "the stop command's output", func() bool {
		return strings.Contains(strings.Join(outputText(t, m, info.ID), "\n"), "stop: stopping web")
	})
}

// TestKillEndsARunWhoseStopCommandRuns: a kill ends the run now, its
// stop command with it, however long the grace, even when the stop
// command has ended the main process already and lingers on.
func TestKillEndsARunWhoseStopCommandRuns(t *testing.T) {
	for name, stop := range map[string]string{
		"the main process lives":     "echo $$ > stopper; exec sleep 300",
		"the stop command killed it": "kill $(cat pid); echo $$ > stopper; exec sleep 300",
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			m := newManager(t, Options{})
			info := start(t, m, Spec{Dir: dir, Command: "echo $$ > pid; exec sleep 600", StopCommand: stop, Grace: time.Hour})
			eventually(t, "the pid file", func() bool { _, err := os.Stat(filepath.Join(dir, "pid")); return err == nil })
			require.NoError(t, m.Stop(info.ID))
			var stopper int
			eventually(t, "the stop command runs", func() bool {
				b, err := os.ReadFile(filepath.Join(dir, "stopper"))
				stopper, _ = strconv.Atoi(strings.TrimSpace(string(b)))
				return err == nil && stopper > 0
			})
			now, err := m.Get(info.ID)
			require.NoError(t, err)
			assert.Equal(t, StateStopping, now.State, "stopping while its stop command runs")
			require.NoError(t, m.Kill(info.ID))
			info = wait(t, m, info.ID) // a grace of an hour: only the kill ends it
			assert.Equal(t, StateKilled, info.State)
			assert.False(t, alive(stopper), "the stop command is gone once the job is reported ended")
			assert.Contains(t, strings.Join(outputText(t, m, info.ID), "\n"), "── stop command: killed with the job ──")
		})
	}
}

// TestAFailingStopCommandKillsTheJob: a stop command that fails (exits
// non-zero, or a signal ends it) has the job killed at once where the
// spec says so, as process-compose's shutdown.command does, rather than
// the whole grace waited out (a grace of an hour here: only that kill
// ends the job).
func TestAFailingStopCommandKillsTheJob(t *testing.T) {
	for stop, note := range map[string]string{
		"echo cannot; exit 3":  "── stop command: exited with code 3: the job is killed ──",
		"echo cannot; kill $$": "── stop command: killed by SIGTERM: the job is killed ──",
	} {
		m := newManager(t, Options{})
		info := start(t, m, Spec{Command: "sleep 1000", StopCommand: stop, StopCommandFailKills: true, Grace: time.Hour})
		waitFor(t, m, info.ID, "running", func(i Info) bool { return i.State == StateRunning })
		require.NoError(t, m.Stop(info.ID))
		info = wait(t, m, info.ID)
		assert.Equal(t, StateKilled, info.State)
		assert.Equal(t, Signal(sigKill), info.Signal)
		out := strings.Join(outputText(t, m, info.ID), "\n")
		assert.Contains(t, out, "stop: cannot")
		assert.Contains(t, out, note)
	}
}

// TestAFailingStopCommandLeavesTheGrace: without StopCommandFailKills (a
// jobtop.yaml's stop: {command}), a stop command that fails leaves the
// job its grace: a server that closes its connections as it goes down
// fails curl's request to stop it ("empty reply", 52), and still flushes
// what it holds (rev43: SIGKILLed at once, it lost it).
func TestAFailingStopCommandLeavesTheGrace(t *testing.T) {
	m := newManager(t, Options{})
	dir := t.TempDir()
	info := start(t, m, Spec{Dir: dir, Command: "trap 'sleep 0.3; echo flushed > done; exit 0' USR1; echo $$ > pid; echo up; while :; do sleep 0.05; done",
		StopCommand: "kill -USR1 $(cat pid); exit 52", Grace: time.Hour})
	waitOutput(t, m, info.ID, "up")
	require.NoError(t, m.Stop(info.ID))
	info = wait(t, m, info.ID)
	assert.Equal(t, StateKilled, info.State, "stopped")
	assert.Equal(t, 0, *info.ExitCode, "it exited by itself, its work done")
	assert.FileExists(t, filepath.Join(dir, "done"))
	assert.Contains(t, strings.Join(outputText(t, m, info.ID), "\n"), "── stop command: exited with code 52 ──")
}

func TestShellRunsTheCommand(t *testing.T) {
	m := newManager(t, Options{})
	info := start(t, m, Spec{Command: `echo "$0"`, Shell: []string{"/bin/sh", "-c"}})
	info = wait(t, m, info.ID)
	assert.Equal(t, []string{"/bin/sh"}, outputText(t, m, info.ID))
	info = start(t, m, Spec{Command: `echo hi`, Shell: []string{"/no/such/shell", "-c"}})
	info = wait(t, m, info.ID)
	assert.Equal(t, StateError, info.State)
	assert.Equal(t, `program "/no/such/shell" does not exist`, info.Error)
}

func TestInvalidChecksAreRefused(t *testing.T) {
	p := &fakeProbe{name: "x", pass: func(int) bool { return true }}
	for name, spec := range map[string]Spec{
		"two ready checks":        {Command: "ls", Ready: ReadyCheck{LogPattern: "up", Probe: ProbeCheck{Probe: p}}},
		"timing without a probe":  {Command: "ls", Health: ProbeCheck{Interval: time.Second}},
		"negative interval":       {Command: "ls", Health: ProbeCheck{Probe: p, Interval: -time.Second}},
		"negative failures":       {Command: "ls", Ready: ReadyCheck{Probe: ProbeCheck{Probe: p, Failures: -1}}},
		"unknown condition":       {Command: "ls", DependsOn: map[string]Condition{"db": "process_healthy"}},
		"empty shell":             {Command: "ls", Shell: []string{""}},
		"NUL in the stop command": {Command: "ls", StopCommand: "a\x00b"},
	} {
		_, err := newManager(t, Options{}).Start(spec)
		assert.Error(t, err, name)
	}
}
