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

// With several hosts, each host's limit is in its status, kept current
// by its events stream, and a change wakes the engine's subscribers (the
// status bar shows it with nothing else happening).
func TestHostsSayEachHostsLimit(t *testing.T) {
	a, b := startInstance(t), startInstance(t)
	require.NoError(t, a.mgr.SetMaxRunning(4))
	both := attachHosts(t, []string{"a", "b"}, a.socket, b.socket)
	limits := func() map[string]int {
		out := make(map[string]int)
		for _, s := range both.Status() {
			out[s.Name] = s.MaxRunning
		}
		return out
	}
	require.Equal(t, map[string]int{"a": 4, "b": 0}, limits())

	stream := both.Subscribe()
	defer stream.Close()
	require.NoError(t, b.mgr.SetMaxRunning(2))
	deadline := time.After(testTimeout)
	for woken := false; !woken; {
		select {
		case <-stream.C():
			woken = limits()["b"] == 2
		case <-deadline:
			t.Fatalf("no wake-up with b's new limit: %v", limits())
		}
	}
	require.Equal(t, map[string]int{"a": 4, "b": 2}, limits())
}
