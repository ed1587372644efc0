package workspace

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"jobtop/jobfile"
	"jobtop/jobs"
)

const before = `
jobs:
  keep:
    cmd: exec sleep 600
  change:
    cmd: echo change v1; exec sleep 600
  gone:
    cmd: echo gone; exec sleep 600
  oneshot:
    cmd: echo oneshot v1
  manual:
    cmd: echo manual v1
    autostart: false
`

const after = `
jobs:
  keep:
    cmd: exec sleep 600
  change:
    cmd: echo change v2; exec sleep 600
  oneshot:
    cmd: echo oneshot v2
  manual:
    cmd: echo manual v2
    autostart: false
  fresh:
    cmd: echo fresh; exec sleep 600
  later:
    cmd: echo later
    autostart: false
`

func TestOpenStartsTheJobsInStartOrder(t *testing.T) {
	f := open(t, `
jobs:
  web:
    cmd: echo web up; exec sleep 600
    depends_on: {db: ready}
  db:
    cmd: echo db ready; exec sleep 600
    ready: {log: ready}
  seed:
    cmd: echo seeded
    autostart: false
`)
	// db comes first though the file lists web first: web looks for it
	// by name when it is queued.
	assert.Equal(t, []string{"db", "web", "seed"}, names(f.mgr))
	assert.Equal(t, jobs.StateCreated, f.job("seed").State)
	f.running("web")
	assert.True(t, f.job("db").Ready)
	f.eventually("web's output", func() bool { return len(f.output(f.job("web").ID)) == 1 })
	assert.Equal(t, []string{"web up"}, f.output(f.job("web").ID))
}

func TestReloadAppliesWhatChanged(t *testing.T) {
	f := open(t, before)
	keep, gone := f.running("keep"), f.running("gone")
	f.running("change")
	f.eventually("oneshot succeeds", func() bool { return f.job("oneshot").State == jobs.StateSucceeded })
	require.Equal(t, jobs.StateCreated, f.job("manual").State)
	oldIDs := f.ws.IDs()

	f.write(after)
	res, err := f.ws.Reload()
	require.NoError(t, err)
	assert.Equal(t, []string{"fresh", "later"}, res.Added)
	assert.Equal(t, []string{"change", "oneshot", "manual"}, res.Changed)
	assert.Equal(t, []string{"gone"}, res.Removed)
	assert.Equal(t, []string{"keep"}, res.Unchanged)
	assert.Equal(t, "reloaded jobtop.yaml: 2 added (fresh, later), 3 changed (change, oneshot, manual), 1 removed (gone)", res.String())

	// Unchanged: the same process, never restarted.
	now := f.job("keep")
	assert.Equal(t, keep.PID, now.PID)
	assert.Equal(t, 1, now.Runs)
	assert.Equal(t, jobs.StateRunning, now.State)

	// Changed and running: restarted under the same ID with the new spec.
	f.eventually("change runs v2", func() bool {
		in := f.job("change")
		return in.Runs == 2 && in.State == jobs.StateRunning && in.Command == "echo change v2; exec sleep 600"
	})
	assert.Equal(t, oldIDs["change"], f.job("change").ID)
	f.eventually("v2's output", func() bool { return len(f.output(oldIDs["change"])) == 2 })
	assert.Equal(t, []string{"change v1", "change v2"}, f.output(oldIDs["change"]))

	// Changed and ended: runs again; changed and never started: still not.
	f.eventually("oneshot runs v2", func() bool {
		in := f.job("oneshot")
		return in.Runs == 2 && in.State == jobs.StateSucceeded
	})
	assert.Equal(t, []string{"oneshot v1", "oneshot v2"}, f.output(oldIDs["oneshot"]))
	manual := f.job("manual")
	assert.Equal(t, jobs.StateCreated, manual.State)
	assert.Equal(t, "echo manual v2", manual.Command)

	// Removed: stopped, then gone from the manager.
	f.eventually("gone is removed", func() bool {
		_, err := f.mgr.Get(gone.ID)
		return err != nil
	})
	assert.True(t, processGone(gone.PID), "gone's process outlived its removal")
	assert.NotContains(t, f.ws.IDs(), "gone")

	// Added: started per autostart.
	f.running("fresh")
	assert.Equal(t, jobs.StateCreated, f.job("later").State)
	assert.Equal(t, []string{"keep", "change", "oneshot", "manual", "fresh", "later"}, names(f.mgr))
}

func TestReloadOfABrokenFileChangesNothing(t *testing.T) {
	f := open(t, before)
	f.running("keep")
	f.running("change")
	f.running("gone")
	f.eventually("oneshot succeeds", func() bool { return f.job("oneshot").State == jobs.StateSucceeded })
	snapshot := f.mgr.List()
	ids := f.ws.IDs()

	f.write(`
jobs:
  keep:
    cmd: exec sleep 600
    timeout: 5
  change:
    cmdd: echo typo
`)
	res, err := f.ws.Reload()
	var fileErr *FileError
	require.ErrorAs(t, err, &fileErr)
	assert.Equal(t, []string{
		f.path + `:4:14: jobs.keep.timeout: 5 has no unit: write e.g. 5s or 5ms`,
		f.path + `:6:5: jobs.change: unknown key "cmdd" (did you mean "cmd"?)`,
	}, fileErr.Problems)
	assert.Equal(t, "cannot reload: "+fileErr.Problems[0]+" (and 1 more problem); nothing was changed", err.Error())
	assert.True(t, res.Empty())

	assert.Equal(t, ids, f.ws.IDs())
	now := f.mgr.List()
	require.Len(t, now, len(snapshot))
	for i, was := range snapshot {
		is := now[i]
		assert.Equal(t, [4]any{was.ID, was.State, was.PID, was.Runs}, [4]any{is.ID, is.State, is.PID, is.Runs}, was.Name)
		assert.Equal(t, was.Command, is.Command, was.Name)
	}

	// The last good file is still what a reload compares with.
	f.write(after)
	res, err = f.ws.Reload()
	require.NoError(t, err)
	assert.Equal(t, []string{"gone"}, res.Removed)
	assert.Equal(t, []string{"keep"}, res.Unchanged)
}

func TestReloadOfAMissingFileChangesNothing(t *testing.T) {
	f := open(t, before)
	keep := f.running("keep")
	require.NoError(t, os.Remove(f.path))
	_, err := f.ws.Reload()
	var fileErr *FileError
	require.ErrorAs(t, err, &fileErr)
	assert.Empty(t, fileErr.Problems)
	assert.Equal(t, "cannot reload: "+f.path+" does not exist; nothing was changed", err.Error())
	assert.Equal(t, keep.PID, f.job("keep").PID)
}

func TestReloadStartsAddedDependenciesFirst(t *testing.T) {
	f := open(t, `
jobs:
  keep:
    cmd: exec sleep 600
`)
	f.write(`
jobs:
  keep:
    cmd: exec sleep 600
  api:
    cmd: echo api up; exec sleep 600
    depends_on: {cache: ready}
  cache:
    cmd: echo cache ready; exec sleep 600
    ready: {log: ready}
`)
	res, err := f.ws.Reload()
	require.NoError(t, err)
	assert.Equal(t, []string{"api", "cache"}, res.Added)
	assert.Equal(t, []string{"keep", "cache", "api"}, names(f.mgr))
	api := f.running("api")
	assert.Empty(t, api.Error)
}

func TestAFileJobRemovedByHandComesBack(t *testing.T) {
	f := open(t, before)
	gone := f.running("gone")
	require.NoError(t, f.mgr.Stop(gone.ID))
	ctx, cancel := context.WithTimeout(context.Background(), patience)
	defer cancel()
	_, err := f.mgr.Wait(ctx, gone.ID)
	require.NoError(t, err)
	require.NoError(t, f.mgr.Remove(gone.ID))

	res, err := f.ws.Reload() // the same file
	require.NoError(t, err)
	assert.Equal(t, []string{"gone"}, res.Added)
	assert.Empty(t, res.Changed)
	assert.Empty(t, res.Removed)
	back := f.running("gone")
	assert.NotEqual(t, gone.ID, back.ID)
}

func TestReloadLeavesOtherJobsAlone(t *testing.T) {
	f := open(t, before)
	f.running("gone")
	other, err := f.mgr.Start(jobs.Spec{Name: "gone", Command: "exec sleep 600"})
	require.NoError(t, err)

	f.write(after)
	_, err = f.ws.Reload()
	require.NoError(t, err)
	fileGone := f.ws.IDs()
	assert.NotContains(t, fileGone, "gone")
	f.eventually("the file's gone is removed", func() bool {
		n := 0
		for _, name := range names(f.mgr) {
			if name == "gone" {
				n++
			}
		}
		return n == 1
	})
	in, err := f.mgr.Get(other.ID)
	require.NoError(t, err)
	assert.Equal(t, jobs.StateRunning, in.State)
	assert.Equal(t, 1, in.Runs)
}

func TestReloadAfterCloseFails(t *testing.T) {
	f := open(t, before)
	f.ws.Close()
	_, err := f.ws.Reload()
	assert.ErrorIs(t, err, ErrClosed)
}

func TestManagerOptionsLetTheCommandLineWin(t *testing.T) {
	plan, err := jobfile.Parse("/tmp/jobtop.yaml", []byte(`
max_parallel: 2
log:
  dir: /tmp/jobtop-test-logs
  max_size: 1MiB
  memory_lines: 500
jobs:
  a: {cmd: "true"}
`))
	require.NoError(t, err)
	opts := ManagerOptions(plan, jobs.Options{Env: map[string]string{"A": "1"}})
	assert.Equal(t, jobs.Options{
		MaxRunning: 2, LogDir: "/tmp/jobtop-test-logs", LogCap: 1 << 20,
		Store: jobs.StoreOptions{MaxLines: 500}, Env: map[string]string{"A": "1"},
	}, opts)

	opts = ManagerOptions(plan, jobs.Options{MaxRunning: 5, LogDir: "/elsewhere"})
	assert.Equal(t, 5, opts.MaxRunning)
	assert.Equal(t, "/elsewhere", opts.LogDir)
}

func TestOpenFailsOnAShutManager(t *testing.T) {
	plan, err := jobfile.Parse(t.TempDir()+"/jobtop.yaml", []byte("jobs:\n  a: {cmd: \"true\"}\n"))
	require.NoError(t, err)
	m, err := jobs.NewManager(jobs.Options{LogDir: t.TempDir()})
	require.NoError(t, err)
	require.NoError(t, m.Shutdown(context.Background()))
	_, err = Open(m, plan)
	assert.True(t, errors.Is(err, jobs.ErrShutdown), "%v", err)
	assert.ErrorContains(t, err, "job a: ")
}

// A file started in the background (New, then Start): Close makes the
// start stop early, with ErrClosed, and leaves the rest of the file
// unstarted.
func TestCloseEndsAStartUnderWay(t *testing.T) {
	var b strings.Builder
	b.WriteString("jobs:\n")
	for i := range 200 {
		fmt.Fprintf(&b, "  j%03d: {cmd: \"exec sleep 600\"}\n", i)
	}
	plan, err := jobfile.Parse(t.TempDir()+"/jobtop.yaml", []byte(b.String()))
	require.NoError(t, err)
	m, err := jobs.NewManager(jobs.Options{LogDir: t.TempDir()})
	require.NoError(t, err)
	defer func() {
		ctx, cancel := context.WithTimeout(context.Background(), patience)
		defer cancel()
		require.NoError(t, m.Shutdown(ctx))
	}()
	w := New(m, plan)
	done := make(chan error, 1)
	go func() { done <- w.Start() }()
	require.Eventually(t, func() bool { return len(w.IDs()) > 0 }, patience, time.Millisecond)
	w.Close()
	select {
	case err := <-done:
		// Close may come after the last start on a fast machine.
		if err != nil {
			assert.ErrorIs(t, err, ErrClosed)
		}
	case <-time.After(patience):
		t.Fatal("Start did not end after Close")
	}
	assert.Equal(t, len(w.IDs()), len(m.List()), "a job started after Close")
	_, err = w.Reload()
	assert.ErrorIs(t, err, ErrClosed)
}

// Reload waits for the file's first start to be over: its jobs are what
// the reload compares the file with, so none is started twice.
func TestReloadWaitsForTheStart(t *testing.T) {
	path := filepath.Join(t.TempDir(), "jobtop.yaml")
	require.NoError(t, os.WriteFile(path, []byte(before), 0o600))
	plan, err := jobfile.LoadWith(path, jobfile.LoadOptions{})
	require.NoError(t, err)
	m, err := jobs.NewManager(jobs.Options{LogDir: t.TempDir()})
	require.NoError(t, err)
	w := New(m, plan)
	defer func() {
		w.Close()
		ctx, cancel := context.WithTimeout(context.Background(), patience)
		defer cancel()
		require.NoError(t, m.Shutdown(ctx))
	}()
	started, total, over := w.Progress()
	assert.Equal(t, []any{0, len(plan.Jobs), false}, []any{started, total, over})
	reloaded := make(chan error, 1)
	go func() { _, err := w.Reload(); reloaded <- err }()
	require.NoError(t, w.Start())
	started, total, over = w.Progress()
	assert.Equal(t, []any{len(plan.Jobs), len(plan.Jobs), true}, []any{started, total, over})
	require.NoError(t, <-reloaded)
	assert.Len(t, m.List(), len(plan.Jobs), "a job started twice")
}

// A chain of jobs that wait for each other to start, none with a ready
// condition, runs as each starts (the file's jobs start without waiting
// for one another's launch).
func TestAStartedChainRuns(t *testing.T) {
	f := open(t, `
jobs:
  a: {cmd: exec sleep 600}
  b: {cmd: exec sleep 600, depends_on: {a: started}}
  c: {cmd: exec sleep 600, depends_on: {b: started}}
`)
	for _, name := range []string{"a", "b", "c"} {
		f.running(name)
	}
}

// A job whose description alone changed gets the new text and is not
// restarted: a one-shot job (a migration) does not run again, a server
// keeps its process.
func TestReloadOfADescriptionRestartsNothing(t *testing.T) {
	f := open(t, `jobs:
  migrate:
    cmd: echo migrated
    description: one
  server:
    cmd: exec sleep 600
    description: the server
`)
	server := f.running("server")
	f.eventually("migrate succeeds", func() bool { return f.job("migrate").State == jobs.StateSucceeded })

	f.write(`jobs:
  migrate:
    cmd: echo migrated
    description: two
  server:
    cmd: exec sleep 600
    description: the server, described better
`)
	res, err := f.ws.Reload()
	require.NoError(t, err)
	assert.Empty(t, res.Changed)
	assert.Equal(t, []string{"migrate", "server"}, res.Unchanged)
	assert.Equal(t, []string{"migrate", "server"}, res.Redescribed)
	m := f.job("migrate")
	assert.Equal(t, 1, m.Runs, "the migration did not run again")
	assert.Equal(t, "two", m.Description)
	s := f.job("server")
	assert.Equal(t, server.PID, s.PID)
	assert.Equal(t, "the server, described better", s.Description)
}
