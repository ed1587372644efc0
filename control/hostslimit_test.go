package control

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// jobtop attach --host X (one host) shows the instance's limit on jobs
// running at once, and its changes, as an attach without --host does;
// with several hosts there is no one limit to show.
func TestHostsSayTheLimitOfTheirOneHost(t *testing.T) {
	a := startInstance(t)
	h := attachHosts(t, []string{"a"}, a.socket)
	require.Equal(t, 0, h.MaxRunning())
	for _, n := range []int{2, 5} {
		changed := h.MaxRunningChanged()
		require.NotNil(t, changed)
		require.NoError(t, a.mgr.SetMaxRunning(n))
		select {
		case <-changed:
		case <-time.After(testTimeout):
			t.Fatalf("the hosts engine was not told the limit became %d", n)
		}
		require.Equal(t, n, h.MaxRunning())
	}

	b := startInstance(t)
	require.NoError(t, a.mgr.SetMaxRunning(3))
	both := attachHosts(t, []string{"a", "b"}, a.socket, b.socket)
	require.Equal(t, 0, both.MaxRunning(), "two hosts have no one limit")
	require.Nil(t, both.MaxRunningChanged())
}
