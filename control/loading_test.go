package control

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// loadingInstance is a server in its loading phase (NewLoadingServer) on
// a real socket, and a client of it with an answer timeout and a loading
// note that counts its calls.
func loadingInstance(t *testing.T) (srv *Server, socket string, c *Client, notes *atomic.Int32) {
	t.Helper()
	socket = filepath.Join(shortTempDir(t), "s.sock")
	l, err := Listen(socket)
	require.NoError(t, err)
	srv = NewLoadingServer(Instance{Kind: "serve", Socket: socket}, "/app/jobtop.yml")
	go srv.Serve(l) //nolint:errcheck // ends with Close
	t.Cleanup(func() { srv.Close() })
	c = NewClient(socket)
	t.Cleanup(func() { c.Close() })
	c.SetAnswerTimeout(time.Second)
	notes = new(atomic.Int32)
	c.SetLoadingNote(func(inst Instance) {
		assert.Equal(t, "/app/jobtop.yml", inst.Loading)
		notes.Add(1)
	})
	return srv, socket, c, notes
}

// While an instance loads its job file it answers who it is at once,
// saying so, and holds every other request, past any answer timeout,
// until its jobs are in place: a client never sees half a file.
func TestALoadingInstanceAnswersWhoItIsAndHoldsTheRest(t *testing.T) {
	srv, socket, c, notes := loadingInstance(t)
	inst, err := c.Instance(ctxT(t))
	require.NoError(t, err)
	assert.Equal(t, "/app/jobtop.yml", inst.Loading)
	assert.Equal(t, "serve", inst.Kind)
	assert.Equal(t, socket, inst.Socket)

	listed := make(chan error, 2)
	go func() {
		_, err := c.Jobs(ctxT(t))
		listed <- err
	}()
	go func() {
		_, err := c.LoadedInstance(ctxT(t))
		listed <- err
	}()
	select {
	case err := <-listed:
		t.Fatalf("answered before the jobs were in place (%v)", err)
	case <-time.After(1500 * time.Millisecond): // past the answer timeout
	}
	m := newManager(t, socket)
	srv.Open(m)
	for range 2 {
		select {
		case err := <-listed:
			require.NoError(t, err)
		case <-time.After(testTimeout):
			t.Fatal("never answered")
		}
	}
	inst, err = c.Instance(ctxT(t))
	require.NoError(t, err)
	assert.Empty(t, inst.Loading)
	assert.Equal(t, m.LogDir(), inst.LogDir)
	assert.Equal(t, int32(1), notes.Load(), "the note, once")
}

// A load that fails (the job file's problems) refuses the requests held,
// and any after, saying why.
func TestALoadThatFailsRefusesTheRequestsItHeld(t *testing.T) {
	srv, socket, c, _ := loadingInstance(t)
	held := make(chan error, 1)
	go func() {
		_, err := c.Jobs(context.Background())
		held <- err
	}()
	srv.Fail("jobtop.yml has 1 problem")
	select {
	case err := <-held:
		var apiErr *APIError
		require.ErrorAs(t, err, &apiErr)
		assert.Equal(t, fmt.Sprintf("the jobtop instance on %s (pid %d) stopped before it served: jobtop.yml has 1 problem", socket, os.Getpid()), apiErr.Message)
	case <-time.After(testTimeout):
		t.Fatal("never answered")
	}
}

// A shutdown asked while the instance loads (or starts its jobs) is
// passed on at once, so that its owner can call the start off rather
// than first start every job; the request is still held until the
// server opens, and answered then.
func TestAShutdownWhileLoadingIsPassedOnAtOnce(t *testing.T) {
	srv, socket, c, _ := loadingInstance(t)
	answered := make(chan error, 1)
	go func() {
		_, err := c.Shutdown(ctxT(t))
		answered <- err
	}()
	select {
	case <-srv.ShutdownRequested():
	case <-time.After(testTimeout):
		t.Fatal("the shutdown was not passed on while loading")
	}
	select {
	case err := <-answered:
		t.Fatalf("answered before the server opened (%v)", err)
	default:
	}
	srv.Open(newManager(t, socket))
	select {
	case err := <-answered:
		require.NoError(t, err)
	case <-time.After(testTimeout):
		t.Fatal("never answered")
	}
}
