package workspace

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"jobtop/jobfile"
	"jobtop/jobs"
)

// openPC writes content as process-compose.yaml in a temp dir, and opens
// it with jobs started.
func openPC(t *testing.T, content string) *fixture {
	t.Helper()
	path := filepath.Join(t.TempDir(), "process-compose.yaml")
	require.NoError(t, os.WriteFile(path, []byte(content), 0o600))
	f := openFile(t, path, jobfile.LoadOptions{NoEnvFile: true})
	require.NoError(t, f.ws.Start())
	return f
}

// nextExit waits for the workspace's exit request.
func (f *fixture) nextExit() ExitRequest {
	f.t.Helper()
	select {
	case req := <-f.ws.ExitRequests():
		return req
	case <-time.After(patience):
		f.t.Fatal("no exit request")
		return ExitRequest{}
	}
}

// TestExitOnFailureWhenKilledFromOutside: a job with exit_on_failure that
// a signal from outside jobtop kills (a crash, kill -KILL) ends the
// project as a failed exit does, with 128 + the signal's number.
func TestExitOnFailureWhenKilledFromOutside(t *testing.T) {
	f := openPC(t, `processes:
  api:
    command: exec sleep 1000
    availability: {restart: exit_on_failure}
`)
	info := f.running("api")
	require.NotZero(t, info.PID)
	require.NoError(t, syscall.Kill(info.PID, syscall.SIGKILL))
	req := f.nextExit()
	assert.Equal(t, ExitRequest{Job: "api", ID: info.ID, Code: 137, Signal: jobs.Signal(syscall.SIGKILL)}, req)
}

// TestExitOnFailureNotForAKillAsked: a kill asked of jobtop is no failure;
// the request that follows is the later failed exit's.
func TestExitOnFailureNotForAKillAsked(t *testing.T) {
	dir := t.TempDir()
	marker := filepath.Join(dir, "fail")
	f := openPC(t, `processes:
  api:
    command: 'if [ -e `+marker+` ]; then exit 3; fi; exec sleep 1000'
    availability: {restart: exit_on_failure}
`)
	info := f.running("api")
	require.NoError(t, f.mgr.Kill(info.ID))
	f.eventually("api is killed", func() bool {
		info := f.job("api")
		return info.State == jobs.StateKilled && info.EndRequested
	})
	require.NoError(t, os.WriteFile(marker, nil, 0o600))
	_, err := f.mgr.Restart(info.ID)
	require.NoError(t, err)
	assert.Equal(t, ExitRequest{Job: "api", ID: info.ID, Code: 3}, f.nextExit())
}
