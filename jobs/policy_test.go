package jobs

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestOnFailureRestartsUpToMax(t *testing.T) {
	m := newManager(t, Options{})
	info := start(t, m, Spec{
		Command: "echo attempt; exit 3",
		Restart: RestartPolicy{Mode: RestartOnFailure, Backoff: 10 * time.Millisecond, Max: 2},
	})
	info = wait(t, m, info.ID)
	assert.Equal(t, StateFailed, info.State)
	assert.Equal(t, 3, info.Runs, "the first run and two restarts")
	assert.Equal(t, "gave up after 2 restarts", info.Reason)

	one := start(t, m, Spec{
		Command: "exit 3",
		Restart: RestartPolicy{Mode: RestartOnFailure, Backoff: 10 * time.Millisecond, Max: 1},
	})
	assert.Equal(t, "gave up after 1 restart", wait(t, m, one.ID).Reason)
	assert.Equal(t, []string{"attempt", "── run 2 ──", "attempt", "── run 3 ──", "attempt"}, outputText(t, m, info.ID))
}

func TestOnFailureLeavesSuccessAlone(t *testing.T) {
	m := newManager(t, Options{})
	info := start(t, m, Spec{Command: "true", Restart: RestartPolicy{Mode: RestartOnFailure}})
	info = wait(t, m, info.ID)
	assert.Equal(t, StateSucceeded, info.State)
	assert.Equal(t, 1, info.Runs)
}

func TestAlwaysRestartsSuccessToo(t *testing.T) {
	m := newManager(t, Options{})
	info := start(t, m, Spec{Command: "true", Restart: RestartPolicy{Mode: RestartAlways, Backoff: 10 * time.Millisecond, Max: 3}})
	info = wait(t, m, info.ID)
	assert.Equal(t, 4, info.Runs)
}

func TestNoRestartAfterRequestedStop(t *testing.T) {
	m := newManager(t, Options{})
	for _, end := range []func(ID) error{m.Stop, m.Kill} {
		info := start(t, m, Spec{Command: "sleep 1000", Restart: RestartPolicy{Mode: RestartAlways}})
		waitFor(t, m, info.ID, "running", func(i Info) bool { return i.State == StateRunning })
		require.NoError(t, end(info.ID))
		info = wait(t, m, info.ID)
		assert.Equal(t, StateKilled, info.State)
		assert.Equal(t, 1, info.Runs, "a requested stop is never undone by the policy")
	}
}

func TestStopCancelsAPendingRestart(t *testing.T) {
	m := newManager(t, Options{})
	info := start(t, m, Spec{Command: "exit 1", Restart: RestartPolicy{Mode: RestartOnFailure, Backoff: time.Hour}})
	waitFor(t, m, info.ID, "a restart to be scheduled", func(i Info) bool {
		return strings.HasPrefix(i.Reason, "restarting in 1h0m0s")
	})
	require.NoError(t, m.Stop(info.ID))
	info = wait(t, m, info.ID)
	assert.Equal(t, "restart cancelled", info.Reason)
	assert.Equal(t, 1, info.Runs)
}

func TestBackoffDoublesUpToTheCeiling(t *testing.T) {
	p := RestartPolicy{Backoff: time.Second, MaxBackoff: 5 * time.Second}
	var got []time.Duration
	for i := 0; i < 5; i++ {
		got = append(got, backoff(p, i))
	}
	assert.Equal(t, []time.Duration{time.Second, 2 * time.Second, 4 * time.Second, 5 * time.Second, 5 * time.Second}, got)
	def := Spec{Restart: RestartPolicy{Mode: RestartAlways}}.withDefaults().Restart
	assert.Equal(t, time.Minute, backoff(def, 30), "default ceiling")
	assert.Equal(t, 4*time.Second, backoff(def, 2), "default first wait, doubled")
}

// Every restart default lives in the Spec: a policy that names only its
// mode restarts after 1s, doubling to 1m, at most 5 times in a row.
func TestRestartDefaultsLiveInTheSpec(t *testing.T) {
	for _, mode := range []RestartMode{RestartAlways, RestartOnFailure} {
		got := Spec{Command: "x", Restart: RestartPolicy{Mode: mode}}.withDefaults()
		assert.Equal(t, RestartPolicy{Mode: mode, Backoff: time.Second, MaxBackoff: time.Minute, Max: 5}, got.Restart)
		assert.Equal(t, 5*time.Second, got.Grace)
		assert.Equal(t, DefaultStopSignal, got.StopSignal)
	}
	got := Spec{Restart: RestartPolicy{Mode: RestartAlways, Backoff: 2 * time.Minute, Max: NoRestartLimit}}.withDefaults().Restart
	assert.Equal(t, RestartPolicy{Mode: RestartAlways, Backoff: 2 * time.Minute, MaxBackoff: 2 * time.Minute, Max: NoRestartLimit}, got, "no limit stays; the ceiling is never under the first wait")
	assert.Equal(t, RestartPolicy{Mode: RestartNever}, Spec{}.withDefaults().Restart, "no policy, no backoff")
	assert.Error(t, Spec{Command: "x", Restart: RestartPolicy{Max: -2}}.Validate())
}

// A job that always restarts, given only its mode, waits the default
// backoff between runs instead of restarting at once.
func TestAlwaysRestartsAtTheDefaultPace(t *testing.T) {
	m := newManager(t, Options{})
	info := start(t, m, Spec{Command: "true", Restart: RestartPolicy{Mode: RestartAlways}})
	info = waitFor(t, m, info.ID, "the first restart to be scheduled", func(i Info) bool { return i.Reason != "" })
	assert.Equal(t, "restarting in 1s (attempt 1)", info.Reason)
	info = waitFor(t, m, info.ID, "the second", func(i Info) bool { return strings.Contains(i.Reason, "attempt 2") })
	assert.Equal(t, "restarting in 2s (attempt 2)", info.Reason)
	assert.Equal(t, 2, info.Runs)
}

func TestDependantWaitsForReadyLine(t *testing.T) {
	m := newManager(t, Options{})
	dir := t.TempDir()
	gate := filepath.Join(dir, "gate")
	db := start(t, m, Spec{
		Name:    "db",
		Command: "echo booting; while [ ! -e " + gate + " ]; do sleep 0.02; done; echo 'ready to accept connections'; sleep 1000",
		Ready:   ReadyCheck{LogPattern: "ready to accept"},
	})
	web := start(t, m, Spec{Name: "web", Command: "echo serving; sleep 1000", DependsOn: map[string]Condition{"db": CondReady}})
	web = waitFor(t, m, web.ID, "web to wait for db", func(i Info) bool { return i.Reason == "waiting for db: ready" })
	assert.Equal(t, StateQueued, web.State)
	got := waitFor(t, m, db.ID, "db to boot", func(i Info) bool { return i.LastLine == "booting" })
	assert.False(t, got.Ready)

	require.NoError(t, writeFile(gate))
	waitFor(t, m, db.ID, "db to be ready", func(i Info) bool { return i.Ready })
	web = waitFor(t, m, web.ID, "web to start", func(i Info) bool { return i.State == StateRunning })
	assert.Empty(t, web.Reason)
}

// A job that succeeded counts as ready, as its dependants see it (a
// ready condition is met by it succeeding), whether its ready check
// passed before it ended, never ran, or it has none; one that failed
// does not.
func TestASucceededJobIsReadyAsItsDependantsSeeIt(t *testing.T) {
	m := newManager(t, Options{})
	build := start(t, m, Spec{Name: "build", Command: "echo built", Ready: ReadyCheck{LogPattern: "never printed"}})
	plain := start(t, m, Spec{Name: "plain", Command: "true"})
	failed := start(t, m, Spec{Name: "failed", Command: "exit 3"})
	after := start(t, m, Spec{Name: "after", Command: "true", DependsOn: map[string]Condition{"build": CondReady}})
	after = wait(t, m, after.ID)
	require.Equal(t, StateSucceeded, after.State, after.Error)
	for _, id := range []ID{build.ID, plain.ID, after.ID} {
		info := wait(t, m, id)
		require.Equal(t, StateSucceeded, info.State)
		assert.True(t, info.Ready, "job %s succeeded: ready, as a dependant sees it", info.Name)
	}
	assert.False(t, wait(t, m, failed.ID).Ready, "a job that failed is not ready")
}

func TestReadyAfterDelay(t *testing.T) {
	m := newManager(t, Options{})
	a := start(t, m, Spec{Name: "a", Command: "sleep 1000", Ready: ReadyCheck{After: 100 * time.Millisecond}})
	b := start(t, m, Spec{Name: "b", Command: "sleep 1000", DependsOn: map[string]Condition{"a": CondReady}})
	waitFor(t, m, b.ID, "b to start", func(i Info) bool { return i.State == StateRunning })
	a, err := m.Get(a.ID)
	require.NoError(t, err)
	assert.True(t, a.Ready)
	assert.GreaterOrEqual(t, time.Since(*a.Started), 100*time.Millisecond)
}

func TestDependencyFailurePropagates(t *testing.T) {
	m := newManager(t, Options{})
	build := start(t, m, Spec{Name: "build", Command: "exit 2"})
	test := start(t, m, Spec{Name: "test", Command: "echo never", DependsOn: map[string]Condition{"build": CondSucceeded}})
	deploy := start(t, m, Spec{Name: "deploy", Command: "echo never", DependsOn: map[string]Condition{"test": CondStarted}})
	wait(t, m, build.ID)
	test = wait(t, m, test.ID)
	assert.Equal(t, StateError, test.State)
	assert.Equal(t, "dependency build failed (exit 2)", test.Error)
	deploy = wait(t, m, deploy.ID)
	assert.Equal(t, StateError, deploy.State)
	assert.Equal(t, "dependency test could not start (build failed (exit 2))", deploy.Error)
	assert.Empty(t, outputText(t, m, test.ID))
}

// A dependency that can no longer be met fails the job at once, whatever
// the others do: deploy stayed "waiting for build" after lint failed,
// until build ended, as build sorts before lint. The same holds for a job
// it runs after (Spec.After) that failed while a dependency is unmet.
func TestDependencyFailureFailsWhileAnotherIsPending(t *testing.T) {
	m := newManager(t, Options{})
	build := start(t, m, Spec{Name: "build", Command: "exec sleep 1000"})
	cmd, open := gate(t, "2")
	lint := start(t, m, Spec{Name: "lint", Command: cmd})
	deploy := start(t, m, Spec{Name: "deploy", Command: "echo never", DependsOn: map[string]Condition{"build": CondSucceeded, "lint": CondSucceeded}})
	assert.Equal(t, "waiting for build: succeeded", deploy.Reason)
	require.NoError(t, writeFile(open))
	deploy = wait(t, m, deploy.ID)
	assert.Equal(t, StateError, deploy.State)
	assert.Equal(t, "dependency lint failed (exit 2)", deploy.Error)
	assert.Empty(t, outputText(t, m, deploy.ID))

	release := wait(t, m, start(t, m, Spec{Name: "release", Command: "echo never", DependsOn: map[string]Condition{"build": CondSucceeded}, After: []ID{lint.ID}}).ID)
	assert.Equal(t, StateError, release.State)
	assert.Equal(t, fmt.Sprintf("job %d (lint), which it runs after, failed (exit 2)", lint.ID), release.Error)
	build, err := m.Get(build.ID)
	require.NoError(t, err)
	assert.Equal(t, StateRunning, build.State)
}

// Layers of jobs, each depending on a job of the layer before: a
// failure in an early layer reaches the last with the dependency it waited
// for and the job that failed, not the whole path between (which buried
// the failed job at the end of a long row).
func TestDependencyFailureDeepNamesTheRoot(t *testing.T) {
	m := newManager(t, Options{})
	root := start(t, m, Spec{Name: "s05_3", Command: "exit 3"})
	prev := "s05_3"
	var last Info
	for layer := 6; layer < 30; layer++ {
		name := fmt.Sprintf("s%02d_0", layer)
		last = start(t, m, Spec{Name: name, Command: "echo never", DependsOn: map[string]Condition{prev: CondSucceeded}})
		prev = name
	}
	wait(t, m, root.ID)
	last = wait(t, m, last.ID)
	assert.Equal(t, StateError, last.State)
	assert.Equal(t, "dependency s28_0 could not start (s05_3 failed (exit 3))", last.Error)
}

func TestDependencySucceededStartsInOrder(t *testing.T) {
	m := newManager(t, Options{})
	dir := t.TempDir()
	log := filepath.Join(dir, "order")
	// Without the dependencies, the slow first job would finish last.
	a := start(t, m, Spec{Name: "a", Command: "sleep 0.3; echo a >> " + log})
	b := start(t, m, Spec{Name: "b", Command: "sleep 0.1; echo b >> " + log, DependsOn: map[string]Condition{"a": CondSucceeded}})
	c := start(t, m, Spec{Name: "c", Command: "echo c >> " + log, DependsOn: map[string]Condition{"b": CondSucceeded}})
	for _, id := range []ID{a.ID, b.ID, c.ID} {
		assert.Equal(t, StateSucceeded, wait(t, m, id).State)
	}
	assert.Equal(t, "a\nb\nc\n", readFile(t, log))
}

func TestUnknownDependencyIsAnError(t *testing.T) {
	m := newManager(t, Options{})
	info := wait(t, m, start(t, m, Spec{Command: "true", DependsOn: map[string]Condition{"ghost": CondStarted}}).ID)
	assert.Equal(t, StateError, info.State)
	assert.Equal(t, `depends on "ghost", but no job has that name`, info.Error)
}

func TestDependantWaitsForACreatedJob(t *testing.T) {
	m := newManager(t, Options{})
	seed, err := m.Add(Spec{Name: "seed", Command: "echo seeded"})
	require.NoError(t, err)
	app := start(t, m, Spec{Name: "app", Command: "echo app", DependsOn: map[string]Condition{"seed": CondSucceeded}})
	app = waitFor(t, m, app.ID, "app to wait", func(i Info) bool { return i.Reason == "waiting for seed: succeeded" })
	assert.Equal(t, StateQueued, app.State)
	_, err = m.Restart(seed.ID)
	require.NoError(t, err)
	assert.Equal(t, StateSucceeded, wait(t, m, app.ID).State)
}

// TestShutdownStopsDependantsFirst: web depends on db; on shutdown web
// must be gone before db gets its stop signal.
func TestShutdownStopsDependantsFirst(t *testing.T) {
	m, err := NewManager(Options{LogDir: t.TempDir()})
	require.NoError(t, err)
	dir := t.TempDir()
	order := filepath.Join(dir, "order")
	db, err := m.Start(Spec{Name: "db", Command: "trap 'echo db >> " + order + "; exit 0' TERM; echo up; while :; do sleep 0.05; done"})
	require.NoError(t, err)
	web, err := m.Start(Spec{
		Name:      "web",
		Command:   "trap 'sleep 0.3; echo web >> " + order + "; exit 0' TERM; echo up; while :; do sleep 0.05; done",
		DependsOn: map[string]Condition{"db": CondStarted},
	})
	require.NoError(t, err)
	// "up" comes after the trap is set: a stop before that would kill the
	// shell outright and write nothing.
	waitFor(t, m, web.ID, "web's trap", func(i Info) bool { return i.LastLine == "up" })
	waitFor(t, m, db.ID, "db's trap", func(i Info) bool { return i.LastLine == "up" })
	require.NoError(t, m.Shutdown(t.Context()))
	assert.Equal(t, "web\ndb\n", readFile(t, order), "web took 0.3 s to stop, and db still waited for it")
}

// A run that lasts policyResetAfter starts the count of restarts again,
// unless the policy counts over the job's life (process-compose's
// max_restarts): then Max bounds every restart, however long each run.
func TestMaxOverLifeIgnoresLongRuns(t *testing.T) {
	saved := policyResetAfter
	policyResetAfter = time.Nanosecond // every run counts as a long one
	t.Cleanup(func() { policyResetAfter = saved })
	m := newManager(t, Options{})
	// Fails its first four runs, then succeeds.
	script := func(dir string) string {
		f := filepath.Join(dir, "n")
		return `n=$(cat ` + f + ` 2>/dev/null || echo 0); n=$((n+1)); echo $n > ` + f + `; [ $n -ge 5 ] && exit 0; exit 3`
	}
	pol := RestartPolicy{Mode: RestartOnFailure, Backoff: 10 * time.Millisecond, Max: 2}

	inARow := start(t, m, Spec{Command: script(t.TempDir()), Restart: pol})
	info := wait(t, m, inARow.ID)
	assert.Equal(t, StateSucceeded, info.State, "each long run started the count again")
	assert.Equal(t, 5, info.Runs)

	pol.MaxOverLife = true
	overLife := start(t, m, Spec{Command: script(t.TempDir()), Restart: pol})
	info = wait(t, m, overLife.ID)
	assert.Equal(t, StateFailed, info.State)
	assert.Equal(t, 3, info.Runs, "the first run and two restarts, in all")
	assert.Equal(t, "gave up after 2 restarts", info.Reason)
}

// TestReadyLineMatchesWithoutColours: a ready pattern matches a line's
// text without its colours, as --until does: a coloured "Listening" is
// found by '^Listening on'.
func TestReadyLineMatchesWithoutColours(t *testing.T) {
	m := newManager(t, Options{})
	info := start(t, m, Spec{
		Name:    "web",
		Command: `printf '\033[1;32mListening\033[0m on :8080\n'; sleep 1000`,
		Ready:   ReadyCheck{LogPattern: "^Listening on :8080$"},
	})
	waitFor(t, m, info.ID, "the coloured line to make it ready", func(i Info) bool { return i.Ready })
}

// Stopping a job that waits in the queue settles what waits for it: a
// job waiting for it to complete starts (it ended, with no restart
// coming), one waiting for it to succeed fails to start. It stayed
// queued, "waiting for b: completed", until something else ran the
// scheduler.
func TestStoppingAQueuedJobSettlesItsDependants(t *testing.T) {
	m := newManager(t, Options{})
	start(t, m, Spec{Name: "a", Command: "exec sleep 1000"})
	b := start(t, m, Spec{Name: "b", Command: "echo b", DependsOn: map[string]Condition{"a": CondSucceeded}})
	c := start(t, m, Spec{Name: "c", Command: "echo c", DependsOn: map[string]Condition{"b": CondCompleted}})
	d := start(t, m, Spec{Name: "d", Command: "echo d", DependsOn: map[string]Condition{"b": CondSucceeded}})
	require.Equal(t, StateQueued, b.State)
	require.NoError(t, m.Stop(b.ID))
	// b never ran, so it did not complete either: what waits for it
	// fails to start, as what waits for it to succeed does. (Started
	// as b's completion, c ran under a stop of b and c together, to be
	// killed by it at once.)
	for _, dep := range []ID{c.ID, d.ID} {
		info := wait(t, m, dep)
		assert.Equal(t, StateError, info.State)
		assert.Equal(t, "dependency b was stopped before it started", info.Error)
		assert.Zero(t, info.PID, "it never ran")
	}
}

// Removing a job that another waits for (one never started) fails the
// waiting job at once: no job of that name is left to wait for. It
// stayed queued, "waiting for seed: completed", for ever.
func TestRemovingADependencyFailsWhatWaitsForIt(t *testing.T) {
	m := newManager(t, Options{})
	seed, err := m.Add(Spec{Name: "seed", Command: "echo seeded"})
	require.NoError(t, err)
	app := start(t, m, Spec{Name: "app", Command: "echo app", DependsOn: map[string]Condition{"seed": CondCompleted}})
	require.Equal(t, StateQueued, app.State)
	require.NoError(t, m.Remove(seed.ID))
	app = wait(t, m, app.ID)
	assert.Equal(t, StateError, app.State)
	assert.Equal(t, `depends on "seed", but no job has that name`, app.Error)
}

// Stopping a job that waits out its restart backoff cancels the restart:
// it is over, and a job waiting for it to complete starts then.
func TestCancellingARestartSettlesTheDependants(t *testing.T) {
	m := newManager(t, Options{})
	a := start(t, m, Spec{Name: "a", Command: "exit 1", Restart: RestartPolicy{Mode: RestartAlways, Backoff: time.Hour}})
	b := start(t, m, Spec{Name: "b", Command: "echo b", DependsOn: map[string]Condition{"a": CondCompleted}})
	waitFor(t, m, a.ID, "a waiting to restart", func(i Info) bool { return i.RestartAt != nil })
	b, err := m.Get(b.ID)
	require.NoError(t, err)
	require.Equal(t, StateQueued, b.State, "a restart is coming: a is not over")
	require.NoError(t, m.Stop(a.ID))
	b = wait(t, m, b.ID)
	assert.Equal(t, StateSucceeded, b.State, b.Error)
}

// A job waiting out its restart backoff and a job waiting for it to
// complete, stopped as one action (jobtop stop --all): the cancelled
// restart does not start the dependant on the way (it ran its command,
// then the same stop stopped it).
func TestStoppingARestartWithItsDependantStartsNeither(t *testing.T) {
	m := newManager(t, Options{})
	a := start(t, m, Spec{Name: "a", Command: "exit 1", Restart: RestartPolicy{Mode: RestartAlways, Backoff: time.Hour}})
	b := start(t, m, Spec{Name: "b", Command: "echo b", DependsOn: map[string]Condition{"a": CondCompleted}})
	waitFor(t, m, a.ID, "a waiting to restart", func(i Info) bool { return i.RestartAt != nil })
	for _, err := range m.StopJobs([]ID{a.ID, b.ID}) {
		require.NoError(t, err)
	}
	b = wait(t, m, b.ID)
	assert.Equal(t, StateKilled, b.State)
	assert.Equal(t, "stopped before it started", b.Error)
	assert.Zero(t, b.PID, "it never ran")
	a, err := m.Get(a.ID)
	require.NoError(t, err)
	assert.Nil(t, a.RestartAt, "a's restart is cancelled")
	assert.Equal(t, 1, a.Runs)
}

// A queued job whose dependencies were met waits only for a slot: the
// dependency's removal then (jobtop clean) does not fail it.
func TestAMetDependencyStaysMetWhenItsJobIsRemoved(t *testing.T) {
	m := newManager(t, Options{MaxRunning: 1})
	seed := start(t, m, Spec{Name: "seed", Command: "echo seeded"})
	seed = wait(t, m, seed.ID)
	require.Equal(t, StateSucceeded, seed.State)
	hog := start(t, m, Spec{Name: "hog", Command: "exec sleep 1000", DependsOn: map[string]Condition{"seed": CondCompleted}})
	waitFor(t, m, hog.ID, "hog running", func(i Info) bool { return i.State == StateRunning })
	app := start(t, m, Spec{Name: "app", Command: "echo app", DependsOn: map[string]Condition{"seed": CondCompleted}})
	require.Equal(t, StateQueued, app.State)
	require.NoError(t, m.Remove(seed.ID))
	app, err := m.Get(app.ID)
	require.NoError(t, err)
	require.Equal(t, StateQueued, app.State, app.Error)
	require.NoError(t, m.Kill(hog.ID))
	app = wait(t, m, app.ID)
	assert.Equal(t, StateSucceeded, app.State, app.Error)
}

// What a queued run remembers of its met dependencies is only that: a
// dependency that fails while the run waits for a slot fails it, and a
// dependency added by a new spec (a reload) is waited for.
func TestAMetDependencyIsCheckedAgainUntilTheRunStarts(t *testing.T) {
	m := newManager(t, Options{MaxRunning: 2})
	hog := start(t, m, Spec{Name: "hog", Command: "exec sleep 1000"})
	db := start(t, m, Spec{Name: "db", Command: "exec sleep 1000"})
	app := start(t, m, Spec{Name: "app", Command: "echo app", DependsOn: map[string]Condition{"db": CondReady}})
	waitFor(t, m, app.ID, "app waiting for a slot", func(i Info) bool { return strings.Contains(i.Reason, "slot") })
	require.NoError(t, m.Kill(db.ID))
	app = wait(t, m, app.ID)
	assert.Equal(t, StateError, app.State)
	assert.Equal(t, "dependency db was killed (SIGKILL)", app.Error)

	pre, err := m.Add(Spec{Name: "pre", Command: "echo pre"})
	require.NoError(t, err)
	other := start(t, m, Spec{Name: "other", Command: "exec sleep 1000"}) // the second slot
	q := start(t, m, Spec{Name: "q", Command: "echo q"})
	waitFor(t, m, q.ID, "q waiting for a slot", func(i Info) bool { return strings.Contains(i.Reason, "slot") })
	_, err = m.Replace(q.ID, Spec{Name: "q", Command: "echo q", DependsOn: map[string]Condition{"pre": CondCompleted}})
	require.NoError(t, err)
	require.NoError(t, m.Kill(hog.ID))
	require.NoError(t, m.Kill(other.ID))
	q = waitFor(t, m, q.ID, "q waiting for pre", func(i Info) bool { return strings.Contains(i.Reason, "waiting for pre") })
	assert.Equal(t, StateQueued, q.State)
	_, err = m.Restart(pre.ID)
	require.NoError(t, err)
	q = wait(t, m, q.ID)
	assert.Equal(t, StateSucceeded, q.State, q.Error)
}

// A queued job given a new spec (a reload) is judged under it at once:
// a condition now met starts it, without waiting for another event.
func TestAReplacedQueuedJobIsScheduledAtOnce(t *testing.T) {
	m := newManager(t, Options{})
	start(t, m, Spec{Name: "db", Command: "exec sleep 1000"})
	app := start(t, m, Spec{Name: "app", Command: "echo app", DependsOn: map[string]Condition{"db": CondSucceeded}})
	waitFor(t, m, app.ID, "app waiting for db", func(i Info) bool { return strings.Contains(i.Reason, "waiting for db") })
	_, err := m.Replace(app.ID, Spec{Name: "app", Command: "echo app", DependsOn: map[string]Condition{"db": CondStarted}})
	require.NoError(t, err)
	app = wait(t, m, app.ID)
	assert.Equal(t, StateSucceeded, app.State, app.Error)
}
