package control

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"jobtop/jobs"
)

// An attached client whose events stream ends while its instance goes on
// (the instance drops a reader that took nothing for StreamWriteTimeout:
// a TUI stopped by ctrl+z) connects again and goes on mirroring, rather
// than say the instance went away; one whose instance is gone, and
// another serves its socket, says it lost it.
func TestAttachedClientResumesWhileItsInstanceGoesOn(t *testing.T) {
	in, sub := attached(t)
	first := in.startJob(t, "echo one")
	waitEvent(t, sub, first.ID, func(ev jobs.Event) bool { return ev.Job.State.Done() })

	m := in.client.mirror.Load()
	for range 2 { // twice: the second waits out ReconnectDelay
		m.streamStop() // as the instance ending the stream
		later := in.startJob(t, "echo two")
		waitEvent(t, sub, later.ID, func(ev jobs.Event) bool { return ev.Job.State.Done() })
		select {
		case <-in.client.Done():
			t.Fatalf("the client ended: %v", in.client.Err())
		default:
		}
	}
	assert.Len(t, in.client.List(), 3)

	// Another instance on the socket: its jobs are not the mirror's.
	require.NoError(t, in.server.Close())
	other, err := ListenAndServe(newManager(t, in.socket), in.socket, Instance{Kind: "serve"})
	require.NoError(t, err)
	t.Cleanup(func() { other.Close() })
	select {
	case <-in.client.Done():
	case <-time.After(testTimeout):
		t.Fatal("the client did not end")
	}
	var lost *InstanceLostError
	assert.ErrorAs(t, in.client.Err(), &lost)
}

// A client that reconnects only to its instance (SetReconnectSame: a TUI
// attached to one host) connects again to the same one, and ends, as a
// plain attach does, once none answers on its socket or another one does:
// it waited for an instance to come, and took another's jobs for its
// own (over ssh its reconnection started that one).
func TestAttachedClientReconnectsOnlyToItsInstance(t *testing.T) {
	for _, then := range []string{"none", "another"} {
		t.Run(then, func(t *testing.T) {
			in := startInstance(t)
			in.startJob(t, "sleep 300")
			inst, err := in.client.Instance(ctxT(t))
			require.NoError(t, err)
			in.client.SetReconnect(true)
			in.client.SetReconnectSame(true)
			require.NoError(t, in.client.Attach(ctxT(t)))

			restartServer(t, in, inst)
			require.Eventually(t, func() bool { return !in.client.Connection().Connected }, testTimeout, 10*time.Millisecond)
			require.Eventually(t, func() bool { return in.client.Connection().Connected }, testTimeout, 10*time.Millisecond,
				"the same instance is connected again")
			assert.Len(t, in.client.List(), 1)

			require.NoError(t, in.server.Close())
			if then == "another" {
				other, err := ListenAndServe(newManager(t, in.socket), in.socket, Instance{Kind: "serve"})
				require.NoError(t, err)
				t.Cleanup(func() { other.Close() })
			}
			select {
			case <-in.client.Done():
			case <-time.After(testTimeout):
				t.Fatalf("the client did not end: %+v", in.client.Connection())
			}
			var lost *InstanceLostError
			require.ErrorAs(t, in.client.Err(), &lost)
			assert.Zero(t, in.client.Connection().Replaced)
		})
	}
}
