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
