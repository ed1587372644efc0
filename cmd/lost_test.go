package cmd

import (
	"bufio"
	"bytes"
	"errors"
	"net"
	"net/http"
	"os/exec"
	"regexp"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// hasSocket reports whether process pid holds a connected socket (a
// client that has connected).
func hasSocket(pid int) bool { return sockets(pid) > 0 }

// TestInstanceKilledMidWait kills the instance while `wait` and `logs
// --follow` wait on its job: they say the instance ended with its jobs,
// in jobtop's words, and wait exits 255, which only a job's own exit 255
// reads as (not 1, a job's failure).
func TestInstanceKilledMidWait(t *testing.T) {
	c := newCLI(t)
	serve := c.serve()
	id := c.startJob("exec sleep 600", "--name", "long")

	start := func(args ...string) (*exec.Cmd, *bytes.Buffer) {
		cmd := exec.Command(binary, args...)
		cmd.Env = c.env
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		require.NoError(t, cmd.Start())
		t.Cleanup(func() {
			cmd.Process.Kill() //nolint:errcheck // may have exited
			cmd.Wait()         //nolint:errcheck // as above
		})
		return cmd, &stderr
	}
	wait, waitErr := start("wait", id)
	follow, followErr := start("logs", id, "--follow")
	// By name: the kill cuts the lookup, or the wait after it (whose retry
	// finds none listening); still the instance ended, not "none is
	// listening".
	byName, byNameErr := start("wait", "long")
	all, allErr := start("logs", "--all", "--follow")
	require.Eventually(t, func() bool {
		return hasSocket(wait.Process.Pid) && hasSocket(follow.Process.Pid) && hasSocket(byName.Process.Pid) && hasSocket(all.Process.Pid)
	},
		testTimeout, 10*time.Millisecond, "the clients never connected")
	require.NoError(t, serve.Process.Signal(syscall.SIGKILL))

	ended := "jobtop: the jobtop instance on " + c.socket + " ended while "
	done := make(chan error, 1)
	go func() { done <- wait.Wait() }()
	select {
	case err := <-done:
		var exit *exec.ExitError
		require.True(t, errors.As(err, &exit), "wait: %v", err)
		assert.Equal(t, exitInstanceGone, exit.ExitCode(), waitErr.String())
	case <-time.After(testTimeout):
		t.Fatal("wait did not end")
	}
	assert.Contains(t, waitErr.String(), ended+"waiting for job 1, and its jobs ended with it", waitErr.String())
	assert.NotContains(t, waitErr.String(), "EOF")
	go func() { done <- byName.Wait() }()
	select {
	case err := <-done:
		var exit *exec.ExitError
		require.True(t, errors.As(err, &exit), "wait long: %v", err)
		assert.Equal(t, exitInstanceGone, exit.ExitCode(), byNameErr.String())
	case <-time.After(testTimeout):
		t.Fatal("wait long did not end")
	}
	// The kill can come while the name is looked up (no ID known yet) or
	// after: either is the instance ending while waiting.
	assert.Regexp(t, regexp.QuoteMeta(ended)+`waiting for job (1|"long"), and its jobs ended with it`, byNameErr.String())
	go func() { done <- all.Wait() }()
	select {
	case <-done:
	case <-time.After(testTimeout):
		t.Fatal("logs --all --follow did not end")
	}
	assert.Contains(t, allErr.String(), ended+"following every job's output, and its jobs ended with it", allErr.String())

	go func() { done <- follow.Wait() }()
	select {
	case <-done:
	case <-time.After(testTimeout):
		t.Fatal("logs --follow did not end")
	}
	assert.Contains(t, followErr.String(), ended+"following job 1's output, and its jobs ended with it", followErr.String())

	// No instance at all: wait exits 255 too.
	for _, job := range []string{"1", "web"} {
		r := c.run("wait", job)
		assert.Equal(t, exitInstanceGone, r.code, r.stderr)
		assert.Contains(t, r.stderr, "no jobtop is listening on")
	}
}

// goneAtFirstRequest stands in for an instance on the socket that goes
// away while it answers the first request: it takes the request and hangs
// up, and none listens after.
func goneAtFirstRequest(t *testing.T, socket string) {
	t.Helper()
	l, err := net.Listen("unix", socket)
	require.NoError(t, err)
	t.Cleanup(func() { l.Close() })
	go func() {
		conn, err := l.Accept()
		if err != nil {
			return
		}
		l.Close()
		http.ReadRequest(bufio.NewReader(conn)) //nolint:errcheck // never answered
		conn.Close()
	}()
}

// TestWaitByNameInstanceGoneMidLookup: the instance goes away while wait
// looks a name up: that is the instance ending while waiting too, exit
// 255, said about the name (no ID came back).
func TestWaitByNameInstanceGoneMidLookup(t *testing.T) {
	c := newCLI(t)
	goneAtFirstRequest(t, c.socket)
	r := c.run("wait", "long")
	assert.Equal(t, exitInstanceGone, r.code, r.stderr)
	assert.Contains(t, r.stderr, "jobtop: the jobtop instance on "+c.socket+` ended while waiting for job "long", and its jobs ended with it`)
}

// TestFollowInstanceGoneAtFirstLook: logs --follow first looks the job up
// (to say if it was never started); the instance going away then is the
// instance ending while following, not "no jobtop is listening", which
// the read after it would find.
func TestFollowInstanceGoneAtFirstLook(t *testing.T) {
	c := newCLI(t)
	goneAtFirstRequest(t, c.socket)
	r := c.run("logs", "1", "--follow")
	assert.Equal(t, 1, r.code, r.stderr)
	assert.Contains(t, r.stderr, "jobtop: the jobtop instance on "+c.socket+" ended while following job 1's output, and its jobs ended with it")
}
