package cmd

import (
	"net"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A job ID names one job on a socket, whatever instances come and go
// there: a script that kept `id=$(jobtop run ...)` and waits for it once
// the instance went idle and a new one started must not get the new
// instance's job 1 (it did: `wait 1` exited 0 with another job's
// result). The new instance numbers after the last ID the earlier one
// took, and says of an earlier one's ID that its instance ended.
func TestJobIDsGoOnInTheNextInstance(t *testing.T) {
	c := newCLI(t)
	srv := c.serveIn("", "--idle-exit", "1s")
	exited := make(chan error, 1)
	go func() { exited <- srv.Wait() }()
	nightly := c.startJob("echo nightly; exit 9", "--name", "nightly")
	require.Equal(t, "1", nightly, "a fresh state directory starts at 1")
	require.Equal(t, 9, c.run("wait", nightly).code)
	select {
	case err := <-exited:
		require.NoError(t, err, "it exits cleanly, once idle")
	case <-time.After(testTimeout):
		t.Fatal("serve did not exit once idle")
	}

	// This run starts a new instance in the background.
	other := c.startJob("echo other", "--name", "other")
	assert.Equal(t, "2", other, "after an instance that ended cleanly, no gap")
	c.ok("wait", other)
	for _, args := range [][]string{{"wait", nightly}, {"logs", nightly}, {"status", nightly}} {
		r := c.run(args...)
		assert.Equal(t, 1, r.code, "%v exits as for a missing job", args)
		assert.Equal(t, "jobtop: no job with ID 1: job 1 belonged to an earlier jobtop instance on this socket, which has ended (its results are gone; this one numbers its jobs from 2)\n", r.stderr, "%v", args)
		assert.Empty(t, r.stdout, "%v", args)
	}
	r := c.run("status", "99")
	assert.Equal(t, "jobtop: no job with ID 99\n", r.stderr, "an ID not given yet is only unknown")

	// An instance that dies (kill -9) cannot say where it got to: the
	// next skips what was left of the block of IDs it had taken.
	inst := c.waitAnswering()
	require.NoError(t, syscall.Kill(inst.PID, syscall.SIGKILL))
	// Gone once the socket takes no connection: its main thread shows
	// as a zombie while the others still close its files.
	require.Eventually(t, func() bool {
		conn, err := net.Dial("unix", c.socket)
		if err == nil {
			conn.Close()
		}
		return err != nil
	}, testTimeout, 10*time.Millisecond)
	r = c.run("run", "--", "true")
	require.Equal(t, 0, r.code, r.stderr)
	assert.Equal(t, "101", strings.TrimSpace(r.stdout))
}
