package ui

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/require"

	"jobtop/jobs"
)

// scriptedReloader is a real manager whose reloads answer what the test
// sets, counting the calls. The real reload (a job file on a manager) is
// tested in workspace, and through this key over the API in cmd.
type scriptedReloader struct {
	*jobs.Manager
	summary string
	err     error
	calls   int
}

func (r *scriptedReloader) Reload() (string, error) {
	r.calls++
	return r.summary, r.err
}

func TestReloadKeyNeedsAJobFileAndAReloader(t *testing.T) {
	mgr := newManager(t)
	start(t, mgr, "web", "exec sleep 60")

	bare := newSizedModel(t, mgr, Config{JobFile: "jobtop.yaml"}, 160, 20)
	require.NotContains(t, bare.helpView(), "R reload file", "a bare manager cannot reload")
	press(t, bare, "R")
	require.NotContains(t, bare.View(), "reload")

	r := &scriptedReloader{Manager: mgr, summary: "reloaded jobtop.yaml: no job changed"}
	noFile := newSizedModel(t, r, Config{}, 160, 20)
	require.NotContains(t, noFile.helpView(), "R reload file", "no job file, nothing to reload")
	press(t, noFile, "R")
	require.Zero(t, r.calls)
}

func TestReloadKeyShowsWhatChangedOrWhyNot(t *testing.T) {
	mgr := newManager(t)
	start(t, mgr, "web", "exec sleep 60")
	r := &scriptedReloader{Manager: mgr, summary: "reloaded jobtop.yaml: 1 added (api), 1 changed (web)"}
	m := newSizedModel(t, r, Config{JobFile: "jobtop.yaml"}, 160, 20)
	require.Contains(t, m.helpView(), "R reload file")

	press(t, m, "R")
	require.Equal(t, 1, r.calls)
	require.Contains(t, m.statusView(), "reloaded jobtop.yaml: 1 added (api), 1 changed (web)")

	r.err = errors.New(`cannot reload: jobtop.yaml:3:5: jobs.web: unknown key "cmdd" (did you mean "cmd"?); nothing was changed`)
	press(t, m, "R")
	require.Equal(t, 2, r.calls)
	require.Contains(t, m.statusView(), `cannot reload: jobtop.yaml:3:5: jobs.web: unknown key "cmdd"`)

	// Not while a question is open.
	press(t, m, "q", "R")
	require.Equal(t, 2, r.calls)
	require.NotContains(t, m.helpView(), "R reload file")
}

// A job file's autostart: false jobs are created, not started: they show
// as such (not as an error), and r starts them.
func TestCreatedJobsShowAsNotStarted(t *testing.T) {
	mgr := newManager(t)
	info, err := mgr.Add(jobs.Spec{Name: "seed", Command: "echo seeded"})
	require.NoError(t, err)
	m := newSizedModel(t, mgr, Config{}, 120, 20)
	require.Contains(t, m.View(), "◌ created")
	require.Contains(t, m.statusView(), "◌ 1 created")
	require.Contains(t, m.helpView(), "r restart")

	press(t, m, "r")
	pumpUntil(t, m, "seed to run and succeed", func() bool { return m.stateCountForTest(jobs.StateSucceeded) == 1 })
	got, err := mgr.Get(info.ID)
	require.NoError(t, err)
	require.Equal(t, 1, got.Runs)
}
