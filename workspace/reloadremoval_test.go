package workspace

import (
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"jobtop/jobs"
)

// openStoppingOnCue opens a file of two running jobs, keep and gone;
// gone, told to stop, ends (exit 3) only once a line is written to fifo:
// its stop is seen while it lasts. gone forks once, and is running once
// its sleep is (where /proc tells): a shell that forks every second
// lost the stop now and then (the child, forked with the trap, took the
// TERM and exec'd), so its trap never opened the fifo and the test's
// write to it waited 30 minutes.
func openStoppingOnCue(t *testing.T) (f *fixture, gone jobs.Info, fifo string) {
	t.Helper()
	fifo = filepath.Join(t.TempDir(), "fifo")
	require.NoError(t, syscall.Mkfifo(fifo, 0o600))
	sleepRuns := `p=$!; while [ -e /proc/$p/comm ] && { read c < /proc/$p/comm; [ "$c" != sleep ]; }; do :; done; `
	f = open(t, "jobs:\n  keep:\n    cmd: exec sleep 600\n  gone:\n    cmd: trap 'read x < "+fifo+"; exit 3' TERM; sleep 600 & "+sleepRuns+"echo up; wait\n")
	f.running("keep")
	gone = f.running("gone")
	f.eventually("gone's sleep", func() bool { info, err := f.mgr.Get(gone.ID); return err == nil && info.LastLine == "up" })
	return f, gone, fifo
}

// TestReloadMarksTheJobsItRemoves: a job a reload stops to remove it
// says so (Info.Removing) while it stops and as it ends, so a wait for
// it can tell a reload's removal from a stop by hand.
func TestReloadMarksTheJobsItRemoves(t *testing.T) {
	f, gone, fifo := openStoppingOnCue(t)
	assert.Empty(t, gone.Removing)

	f.write("jobs:\n  keep:\n    cmd: exec sleep 600\n")
	_, err := f.ws.Reload()
	require.NoError(t, err)
	stopping, err := f.mgr.Get(gone.ID)
	require.NoError(t, err)
	assert.Equal(t, "reload", stopping.Removing)
	assert.Empty(t, f.job("keep").Removing, "a job the reload keeps")

	require.NoError(t, os.WriteFile(fifo, []byte("go\n"), 0o600))
	f.eventually("gone is removed", func() bool {
		_, err := f.mgr.Get(gone.ID)
		return err != nil
	})
}

// TestAJobRestartedWhileAReloadRemovesItStays: a job a reload stops to
// remove it, restarted by hand meanwhile, is no longer the file's: it
// stays once that run ends too, an ordinary job (rev36: it was removed
// when the run by hand ended).
func TestAJobRestartedWhileAReloadRemovesItStays(t *testing.T) {
	f, gone, fifo := openStoppingOnCue(t)

	f.write("jobs:\n  keep:\n    cmd: exec sleep 600\n")
	_, err := f.ws.Reload()
	require.NoError(t, err)
	_, err = f.mgr.Restart(gone.ID) // while it stops: its run ends, and a new one starts
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(fifo, []byte("go\n"), 0o600))
	f.eventually("the run by hand", func() bool {
		info, err := f.mgr.Get(gone.ID)
		return err == nil && info.Runs == 2 && info.State == jobs.StateRunning
	})
	require.NoError(t, f.mgr.Kill(gone.ID))
	info, err := f.mgr.Wait(context.Background(), gone.ID)
	require.NoError(t, err)
	assert.Equal(t, jobs.StateKilled, info.State)
	f.ws.Close() // its removals done
	_, err = f.mgr.Get(gone.ID)
	assert.NoError(t, err, "it stays once the run by hand ends")
}
