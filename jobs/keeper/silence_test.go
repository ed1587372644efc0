package keeper

import (
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"jobtop/jobs/proc"
)

// A keeper that says nothing while it is busy (on a machine loaded to
// hundreds of runnable processes, every job was once killed as its keeper
// "said nothing for 10s") is slow, not stopped: it is not killed at
// MaxSilence, only once the longer bound for a busy keeper has passed.
// The keeper is stopped here, to be silent, and taken for busy.
func TestABusyKeeperIsGivenLongerThanAStoppedOne(t *testing.T) {
	const maxBusy = MaxSilence + 4*watchTick
	saved := watchHooks
	watchHooks = watchHookSet{busy: func(int) bool { return true }, maxBusy: maxBusy}
	lost := make(chan error, 1)
	c, err := Start(func(Event) {}, func(err error) { lost <- err })
	watchHooks = saved
	require.NoError(t, err)
	defer c.Close() //nolint:errcheck // killed by then
	pid := c.cmd.Process.Pid

	require.NoError(t, syscall.Kill(pid, syscall.SIGSTOP))
	stoppedAt := time.Now()
	select {
	case err := <-lost:
		t.Fatalf("a busy keeper was killed after %v: %v", time.Since(stoppedAt).Round(time.Millisecond), err)
	case <-time.After(MaxSilence + 2*watchTick):
	}
	p, err := proc.Get(pid)
	require.NoError(t, err)
	assert.False(t, p.Zombie, "the keeper is alive")
	select {
	case err := <-lost:
		assert.True(t, strings.Contains(err.Error(), "said nothing for 1"), "%v", err)
	case <-time.After(patience):
		t.Fatal("a keeper busy past the bound was not killed")
	}
}
