package cmd

import (
	"fmt"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A local command against an instance stopped with SIGSTOP gives up after
// --answer-timeout and says which process did not answer and how to
// resume it, instead of waiting for ever: one-shot commands and streams
// (wait, logs --follow, attach) alike, since each connection is bounded
// until the instance's first answer. The instance is resumed after.
func TestLocalCommandsGiveUpOnAStoppedInstance(t *testing.T) {
	c := newCLI(t)
	serve := c.serve()
	id := c.startJob("exec sleep 1000")
	pid := serve.Process.Pid
	stopWhole(t, pid)
	resumed := false
	resume := func() {
		if !resumed {
			resumed = true
			require.NoError(t, syscall.Kill(pid, syscall.SIGCONT))
		}
	}
	t.Cleanup(resume) // before serve's own cleanup
	want := fmt.Sprintf("jobtop: the jobtop instance on %s (pid %d) did not answer within 1s: it is stopped (SIGSTOP, or ^Z where it runs); `kill -CONT %d` resumes it; --answer-timeout DUR sets the limit (0: wait as long as it takes)\n", c.socket, pid, pid)
	for _, args := range [][]string{
		{"ls", "--answer-timeout", "1s"},
		{"status", id, "--answer-timeout", "1s"},
		{"kill", id, "--answer-timeout", "1s"},
		{"wait", id, "--answer-timeout", "1s"},
		{"logs", id, "--follow", "--answer-timeout", "1s"},
		{"attach", "--answer-timeout", "1s"},
	} {
		began := time.Now()
		r := c.run(args...)
		assert.NotEqual(t, 0, r.code, "%v", args)
		assert.Equal(t, want, r.stderr, "%v", args)
		assert.Less(t, time.Since(began), testTimeout/2, "%v", args)
	}

	// 0 waits as long as it takes: here, until the instance is resumed.
	ls := exec.Command(binary, "ls", "--answer-timeout", "0")
	ls.Env = c.env
	var out strings.Builder
	ls.Stdout = &out
	require.NoError(t, ls.Start())
	done := make(chan error, 1)
	go func() { done <- ls.Wait() }()
	select {
	case err := <-done:
		t.Fatalf("ls ended while the instance was stopped: %v", err)
	case <-time.After(1500 * time.Millisecond):
	}
	resume()
	select {
	case err := <-done:
		require.NoError(t, err)
		assert.Contains(t, out.String(), "sleep 1000")
	case <-time.After(testTimeout):
		ls.Process.Kill() //nolint:errcheck // it failed already
		t.Fatal("ls did not answer once the instance was resumed")
	}
}

// The bound is on the instance's first answer: a wait or a stream that
// runs longer than it on an instance that answers is not cut off.
func TestAnswerTimeoutDoesNotCutALongWait(t *testing.T) {
	c := newCLI(t)
	c.serve()
	id := c.startJob("sleep 3; echo done")
	r := c.run("wait", id, "--answer-timeout", "1s")
	assert.Equal(t, 0, r.code, r.stderr)
	assert.Equal(t, "done\n", c.ok("logs", id, "--follow", "--answer-timeout", "1s"))
}

// --answer-timeout is about this machine's instance: with --host, the
// far one's bound is --host-timeout.
func TestAnswerTimeoutWithHostIsRefused(t *testing.T) {
	c := newCLI(t)
	r := c.run("ls", "--host", "ssh://somewhere", "--answer-timeout", "5s")
	assert.Equal(t, usageExit, r.code)
	assert.Contains(t, r.stderr, "--host-timeout bounds the far one")
	r = c.run("serve", "--answer-timeout", "5s")
	assert.Equal(t, usageExit, r.code)
	assert.Contains(t, r.stderr, "--answer-timeout is for the commands that talk to an instance")
}
