package proc

import (
	"os/exec"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A process working (or waiting for a CPU) is busy; one sleeping or
// stopped with SIGSTOP is not, nor one that is gone.
func TestBusy(t *testing.T) {
	spin := exec.Command("sh", "-c", "while :; do :; done")
	require.NoError(t, spin.Start())
	t.Cleanup(func() { spin.Process.Kill(); spin.Wait() }) //nolint:errcheck // ended on purpose
	sleep := exec.Command("sleep", "60")
	require.NoError(t, sleep.Start())
	t.Cleanup(func() { sleep.Process.Kill(); sleep.Wait() }) //nolint:errcheck // ended on purpose

	// A spinning shell is R whenever it is looked at (a context switch
	// may catch it between two states: look a few times).
	assert.Eventually(t, func() bool { return Busy(spin.Process.Pid) }, 10*time.Second, 10*time.Millisecond, "a spinning process is busy")
	// Once it sleeps (a process just started runs, or waits for its
	// pages, first), it stays not busy.
	require.Eventually(t, func() bool { return !Busy(sleep.Process.Pid) }, 10*time.Second, 10*time.Millisecond, "sleep goes to sleep")
	assert.Never(t, func() bool { return Busy(sleep.Process.Pid) }, 300*time.Millisecond, 10*time.Millisecond, "a sleeping process is not busy")

	require.NoError(t, spin.Process.Signal(syscall.SIGSTOP))
	assert.Eventually(t, func() bool { p, err := Get(spin.Process.Pid); return err == nil && p.Stopped }, 10*time.Second, 10*time.Millisecond)
	assert.False(t, Busy(spin.Process.Pid), "a stopped process is not busy")
	require.NoError(t, spin.Process.Kill())
	spin.Wait() //nolint:errcheck // killed
	assert.False(t, Busy(spin.Process.Pid), "a process that is gone is not busy")
}
