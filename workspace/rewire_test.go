package workspace

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"jobtop/jobs"
)

// Scaling a process-compose process (replicas 2 to 3) changes only what
// its dependants depend on (web-0, web-1, then web-2 too): they keep
// running, and a migration that ran does not run again. Before, each was
// a changed job and restarted.
func TestReloadOfOnlyDependenciesRestartsNothing(t *testing.T) {
	const file = `processes:
  web:
    command: exec sleep 1000
    replicas: %s
  api:
    command: exec sleep 1000
    depends_on: {web: {condition: process_started}}
  migrate:
    command: echo migrated
    depends_on: {web: {condition: process_started}}
`
	f := openPC(t, fmt.Sprintf(file, "2"))
	api := f.running("api")
	f.eventually("migrate succeeds", func() bool { return f.job("migrate").State == jobs.StateSucceeded })

	require.NoError(t, os.WriteFile(f.path, []byte(fmt.Sprintf(file, "3")), 0o600))
	res, err := f.ws.Reload()
	require.NoError(t, err)
	assert.Equal(t, []string{"web-2"}, res.Added)
	assert.Empty(t, res.Changed)
	assert.Equal(t, []string{"api", "migrate"}, res.Rewired)
	assert.Contains(t, res.String(), "2 with new depends_on (api, migrate)")
	f.running("web-2")
	a := f.job("api")
	assert.Equal(t, api.PID, a.PID, "api was not restarted")
	assert.Equal(t, 1, a.Runs)
	m := f.job("migrate")
	assert.Equal(t, 1, m.Runs, "the migration did not run again")
	assert.Equal(t, jobs.StateSucceeded, m.State)
}

// A dependant that its old dependencies failed (it never ran) is started
// by a reload that gives it other ones: it has not run, so nothing runs
// twice.
func TestReloadStartsADependantItsOldDependenciesFailed(t *testing.T) {
	f := open(t, `
jobs:
  broken:
    cmd: exit 3
  api:
    cmd: echo api up; exec sleep 600
    depends_on: {broken: succeeded}
`)
	f.eventually("api fails with its dependency", func() bool { return f.job("api").State == jobs.StateError })
	f.write(`
jobs:
  broken:
    cmd: exit 3
  api:
    cmd: echo api up; exec sleep 600
`)
	res, err := f.ws.Reload()
	require.NoError(t, err)
	assert.Equal(t, []string{"api"}, res.Rewired)
	f.running("api")
}

// The new dependencies are the job's for its next start: restarted by
// hand, it waits for one that has not started.
func TestReloadedDependenciesHoldTheNextStart(t *testing.T) {
	f := open(t, `
jobs:
  api:
    cmd: exec sleep 600
`)
	api := f.running("api")
	f.write(`
jobs:
  gate:
    cmd: exec sleep 600
    autostart: false
  api:
    cmd: exec sleep 600
    depends_on: {gate: started}
`)
	res, err := f.ws.Reload()
	require.NoError(t, err)
	assert.Equal(t, []string{"api"}, res.Rewired)
	assert.Equal(t, api.PID, f.job("api").PID, "api was not restarted")
	_, err = f.mgr.Restart(api.ID)
	require.NoError(t, err)
	f.eventually("api waits for gate", func() bool {
		a := f.job("api")
		return a.State == jobs.StateQueued && a.Reason == "waiting for gate: started"
	})
}

// So is one that ran before and whose restart its dependencies failed
// (rev49: it stayed in error with its new dependency running).
func TestReloadStartsADependantWhoseRestartItsDependenciesFailed(t *testing.T) {
	flag := filepath.Join(t.TempDir(), "flag")
	f := open(t, `
jobs:
  gate:
    cmd: test ! -e `+flag+`
  api:
    cmd: echo api up
    depends_on: {gate: succeeded}
`)
	f.eventually("api succeeds", func() bool { return f.job("api").State == jobs.StateSucceeded })
	require.NoError(t, os.WriteFile(flag, nil, 0o600))
	_, err := f.mgr.Restart(f.job("gate").ID)
	require.NoError(t, err)
	f.eventually("gate fails", func() bool { return f.job("gate").State == jobs.StateFailed })
	_, err = f.mgr.Restart(f.job("api").ID)
	require.NoError(t, err)
	f.eventually("api fails with its dependency", func() bool { return f.job("api").State == jobs.StateError })
	ran := f.job("api").Runs
	f.write(`
jobs:
  gate:
    cmd: test ! -e ` + flag + `
  api:
    cmd: echo api up
`)
	res, err := f.ws.Reload()
	require.NoError(t, err)
	assert.Equal(t, []string{"api"}, res.Rewired)
	f.eventually("api runs again", func() bool {
		a := f.job("api")
		return a.State == jobs.StateSucceeded && a.Runs > ran
	})
}
