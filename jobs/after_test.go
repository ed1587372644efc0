package jobs

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// gate is a command that runs until the file go exists, then exits with
// code: a job a test lets end when it wants.
func gate(t *testing.T, code string) (cmd, open string) {
	t.Helper()
	open = filepath.Join(t.TempDir(), "go")
	return "while [ ! -e " + open + " ]; do sleep 0.01; done; exit " + code, open
}

func TestAfterWaitsUntilEachSucceeded(t *testing.T) {
	m := newManager(t, Options{})
	cmdA, openA := gate(t, "0")
	cmdB, openB := gate(t, "0")
	a := start(t, m, Spec{Name: "build", Command: cmdA})
	b := start(t, m, Spec{Name: "lint", Command: cmdB})
	test := start(t, m, Spec{Name: "test", Command: "echo tested", After: []ID{a.ID, b.ID}})
	assert.Equal(t, StateQueued, test.State)
	assert.Equal(t, "waiting for job 1 (build) to succeed", test.Reason)
	assert.Equal(t, []ID{a.ID, b.ID}, test.After)

	require.NoError(t, writeFile(openA))
	waitFor(t, m, test.ID, "test to wait for lint", func(i Info) bool { return i.Reason == "waiting for job 2 (lint) to succeed" })
	require.NoError(t, writeFile(openB))
	test = wait(t, m, test.ID)
	assert.Equal(t, StateSucceeded, test.State)
	assert.Equal(t, []string{"tested"}, outputText(t, m, test.ID))
}

func TestAfterAJobThatFailsFailsWithTheReason(t *testing.T) {
	m := newManager(t, Options{})
	cmd, open := gate(t, "3")
	build := start(t, m, Spec{Name: "build", Command: cmd})
	test := start(t, m, Spec{Name: "test", Command: "echo never", After: []ID{build.ID}})
	require.NoError(t, writeFile(open))
	test = wait(t, m, test.ID)
	assert.Equal(t, StateError, test.State)
	assert.Equal(t, "job 1 (build), which it runs after, failed (exit 3)", test.Error)
	assert.Empty(t, outputText(t, m, test.ID))

	// Added after it failed: it fails at once.
	late := wait(t, m, start(t, m, Spec{Command: "echo never", After: []ID{build.ID}}).ID)
	assert.Equal(t, StateError, late.State)
	assert.Equal(t, "job 1 (build), which it runs after, failed (exit 3)", late.Error)
}

// A job run after one that failed fails at once, wherever that one
// stands in After: listed behind a job still running, the failure was
// passed over until the running job ended (--after slow,1 waited while
// --after 1,slow failed).
func TestAfterAFailedJobFailsItWhateverItsPlace(t *testing.T) {
	m := newManager(t, Options{})
	broke := wait(t, m, start(t, m, Spec{Name: "broke", Command: "exit 200"}).ID)
	require.Equal(t, StateFailed, broke.State)
	slow := start(t, m, Spec{Name: "slow", Command: "exec sleep 1000"})
	for _, after := range [][]ID{{slow.ID, broke.ID}, {broke.ID, slow.ID}} {
		late := wait(t, m, start(t, m, Spec{Command: "echo never", After: after}).ID)
		assert.Equal(t, StateError, late.State, "after %v", after)
		assert.Equal(t, "job 1 (broke), which it runs after, failed (exit 200)", late.Error, "after %v", after)
	}

	// One that fails while the job listed before it still runs.
	cmd, open := gate(t, "3")
	build := start(t, m, Spec{Name: "build", Command: cmd})
	test := start(t, m, Spec{Name: "test", Command: "echo never", After: []ID{slow.ID, build.ID}})
	assert.Equal(t, "waiting for job 2 (slow) to succeed", test.Reason)
	require.NoError(t, writeFile(open))
	test = wait(t, m, test.ID)
	assert.Equal(t, StateError, test.State)
	assert.Equal(t, fmt.Sprintf("job %d (build), which it runs after, failed (exit 3)", build.ID), test.Error)
	slow, err := m.Get(slow.ID)
	require.NoError(t, err)
	assert.Equal(t, StateRunning, slow.State)
	assert.Empty(t, outputText(t, m, test.ID))
}

// In a long chain, each job run after the one before, the error of the
// last names the job before it and the job that ended the chain, not
// every job between: 200 steps made a 10 KB error, sent to every client.
func TestAfterAChainThatCouldNotStartNamesItsRoot(t *testing.T) {
	m := newManager(t, Options{})
	first := start(t, m, Spec{Name: "c0", Command: "exec sleep 1000"})
	prev := first
	for i := 1; i < 200; i++ {
		prev = start(t, m, Spec{Name: fmt.Sprintf("c%d", i), Command: "echo never", After: []ID{prev.ID}})
	}
	require.NoError(t, m.Kill(first.ID))
	last := wait(t, m, prev.ID)
	assert.Equal(t, StateError, last.State)
	assert.Equal(t, fmt.Sprintf("job %d (c198), which it runs after, could not start (job %d (c0) was killed (SIGKILL))", prev.ID-1, first.ID), last.Error)
	second, err := m.Get(first.ID + 1)
	require.NoError(t, err)
	assert.Equal(t, fmt.Sprintf("job %d (c0), which it runs after, was killed (SIGKILL)", first.ID), second.Error)
}

// The job run after is the one with that ID, whatever later jobs are
// named: a depends_on by name would take the newest "build", which fails.
func TestAfterIsByIDWhenNamesRepeat(t *testing.T) {
	m := newManager(t, Options{})
	cmd, open := gate(t, "0")
	first := start(t, m, Spec{Name: "build", Command: cmd})
	test := start(t, m, Spec{Name: "test", Command: "echo tested", After: []ID{first.ID}})
	second := wait(t, m, start(t, m, Spec{Name: "build", Command: "exit 1"}).ID)
	require.Equal(t, StateFailed, second.State)
	test, err := m.Get(test.ID)
	require.NoError(t, err)
	assert.Equal(t, StateQueued, test.State)
	assert.Equal(t, "waiting for job 1 (build) to succeed", test.Reason)

	require.NoError(t, writeFile(open))
	assert.Equal(t, StateSucceeded, wait(t, m, test.ID).State)
}

func TestAfterAnUnknownJobIsRefused(t *testing.T) {
	m := newManager(t, Options{})
	_, err := m.Start(Spec{Command: "true", After: []ID{7}})
	var notFound *NotFoundError
	require.True(t, errors.As(err, &notFound), "%v", err)
	assert.EqualError(t, err, "after: no job with ID 7")
	assert.Empty(t, m.List(), "nothing is added")
	_, err = m.Start(Spec{Command: "true", After: []ID{0}})
	assert.EqualError(t, err, "after: 0 is not a job ID (IDs start at 1)")
}

func TestAfterAJobRemovedBeforeItSucceededFails(t *testing.T) {
	m := newManager(t, Options{})
	seed, err := m.Add(Spec{Name: "seed", Command: "true"}) // created, never run
	require.NoError(t, err)
	app := start(t, m, Spec{Name: "app", Command: "echo never", After: []ID{seed.ID}})
	assert.Equal(t, "waiting for job 1 (seed) to succeed", app.Reason)
	require.NoError(t, m.Remove(seed.ID))
	app = wait(t, m, app.ID)
	assert.Equal(t, StateError, app.State)
	assert.Equal(t, "job 1 (seed), which it runs after, was removed before it succeeded", app.Error)
}

// A job removed once it succeeded counts as succeeded: the job run after
// it, waiting for a slot meanwhile, still runs.
func TestAfterAJobRemovedOnceItSucceededRuns(t *testing.T) {
	m := newManager(t, Options{MaxRunning: 1})
	build := wait(t, m, start(t, m, Spec{Name: "build", Command: "true"}).ID)
	require.Equal(t, StateSucceeded, build.State)
	blocker := start(t, m, Spec{Name: "blocker", Command: "exec sleep 1000"})
	test := start(t, m, Spec{Name: "test", Command: "echo tested", After: []ID{build.ID}})
	assert.Equal(t, "waiting for a free slot (1 running)", test.Reason)
	require.NoError(t, m.Remove(build.ID))
	require.NoError(t, m.Stop(blocker.ID))
	assert.Equal(t, StateSucceeded, wait(t, m, test.ID).State)
}

// A removed job counts as it last ended, for every later run of the job
// run after it: one that succeeded, then ran again and failed, then was
// removed, fails a restart of the dependant (its success is no longer
// the last word); one removed after succeeding lets a restart run.
func TestAfterARemovedJobCountsAsItLastEnded(t *testing.T) {
	m := newManager(t, Options{})
	flag := filepath.Join(t.TempDir(), "flag")
	require.NoError(t, writeFile(flag))
	check := wait(t, m, start(t, m, Spec{Name: "check", Command: "test -e " + flag}).ID)
	require.Equal(t, StateSucceeded, check.State)
	dep := wait(t, m, start(t, m, Spec{Name: "dep", Command: "echo ran", After: []ID{check.ID}}).ID)
	require.Equal(t, StateSucceeded, dep.State)

	require.NoError(t, os.Remove(flag))
	_, err := m.Restart(check.ID)
	require.NoError(t, err)
	require.Equal(t, StateFailed, waitFor(t, m, check.ID, "check to fail", func(i Info) bool { return i.State.Done() }).State)
	require.NoError(t, m.Remove(check.ID))
	_, err = m.Restart(dep.ID)
	require.NoError(t, err)
	dep = waitFor(t, m, dep.ID, "dep to end", func(i Info) bool { return i.State.Done() && i.State != StateSucceeded })
	assert.Equal(t, StateError, dep.State)
	assert.Equal(t, "job 1 (check), which it runs after, was removed after it failed (exit 1)", dep.Error)

	ok := wait(t, m, start(t, m, Spec{Name: "ok", Command: "true"}).ID)
	dep2 := wait(t, m, start(t, m, Spec{Name: "dep2", Command: "echo ran", After: []ID{ok.ID}}).ID)
	require.Equal(t, StateSucceeded, dep2.State)
	require.NoError(t, m.Remove(ok.ID))
	_, err = m.Restart(dep2.ID)
	require.NoError(t, err)
	assert.Equal(t, StateSucceeded, waitFor(t, m, dep2.ID, "dep2 to run again", func(i Info) bool { return i.State == StateSucceeded && i.Runs > 1 }).State)
}
