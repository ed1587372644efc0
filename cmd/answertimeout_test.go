package cmd

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
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
	// Nor is it about other machines where the command talks to no
	// instance (serve looks at one already on its socket: it takes it).
	for _, args := range [][]string{{"check", "--answer-timeout", "1"}} {
		r = c.run(args...)
		assert.Equal(t, usageExit, r.code, "%v", args)
		assert.Equal(t, "jobtop: --answer-timeout is for the commands that talk to an instance (it bounds the wait for the instance's first answer); jobtop "+args[0]+" talks to none\n", r.stderr, "%v", args)
	}
}

// An instance busy with a long reload still says at once that it is
// alive: the probe --answer-timeout bounds asks nothing a reload holds.
// The reload here is made slow on purpose: its env_cmds wait for the
// test's word (each up to its 2 s bound, 15 of them).
func TestAnswerTimeoutDuringALongReload(t *testing.T) {
	c := newCLI(t)
	dir := t.TempDir()
	file := filepath.Join(dir, "process-compose.yaml")
	require.NoError(t, os.WriteFile(file, []byte("version: \"0.5\"\nprocesses:\n  a:\n    command: sleep 1000\n"), 0o600))
	c.serveIn(dir)
	began, release := filepath.Join(dir, "began"), filepath.Join(dir, "release")
	slow := loadHeldUntil(began, release) + "processes:\n  a:\n    command: sleep 1000\n  b:\n    command: sleep 1000\n"
	require.NoError(t, os.WriteFile(file, []byte(slow), 0o600))
	reload := exec.Command(binary, "reload")
	reload.Env = c.env
	require.NoError(t, reload.Start())
	t.Cleanup(func() {
		os.WriteFile(release, nil, 0o600) //nolint:errcheck // ends the reload
		reload.Wait()                     //nolint:errcheck // its outcome is not the point
	})
	require.Eventually(t, func() bool {
		_, err := os.Stat(began)
		return err == nil
	}, testTimeout, 10*time.Millisecond, "the reload did not run its env_cmds")

	r := c.run("ls", "--answer-timeout", "1s")
	assert.Equal(t, 0, r.code, r.stderr)
	assert.Contains(t, r.stdout, "sleep 1000")
	_, err := os.Stat(release)
	assert.ErrorIs(t, err, os.ErrNotExist, "the reload was still going")
}

// Plain jobtop where a job file is, and jobtop -f, against a stopped
// instance on the socket, say it is stopped and how to resume it, within
// --answer-timeout, as the other local commands do.
func TestJobFileAgainstAStoppedInstance(t *testing.T) {
	c := newCLI(t)
	dir := t.TempDir()
	file := filepath.Join(dir, "jobtop.yaml")
	require.NoError(t, os.WriteFile(file, []byte("jobs:\n  a:\n    cmd: exec sleep 1000\n"), 0o600))
	serve := c.serveIn(dir)
	pid := serve.Process.Pid
	stopWhole(t, pid)
	t.Cleanup(func() { syscall.Kill(pid, syscall.SIGCONT) }) //nolint:errcheck // before serve's own cleanup

	began := time.Now()
	r := c.runIn(dir, "--answer-timeout", "1s")
	assert.Equal(t, 1, r.code)
	assert.Equal(t, fmt.Sprintf("jobtop: the jobtop instance on %s (pid %d) did not answer within 1s: it is stopped (SIGSTOP, or ^Z where it runs); `kill -CONT %d` resumes it; --answer-timeout DUR sets the limit (0: wait as long as it takes)\n", c.socket, pid, pid), r.stderr)
	assert.Less(t, time.Since(began), testTimeout/2)

	// Found stopped by the first look (a second), it is said at once, not
	// after a longer --answer-timeout: waiting would not resume it.
	began = time.Now()
	r = c.runIn(dir, "--answer-timeout", "60s")
	assert.Equal(t, 1, r.code)
	assert.Contains(t, r.stderr, fmt.Sprintf("(pid %d) did not answer within 1s: it is stopped", pid))
	assert.Less(t, time.Since(began), 30*time.Second, "not the whole --answer-timeout")

	r = c.runIn(dir, "-f", file)
	assert.Equal(t, 1, r.code)
	assert.Contains(t, r.stderr, fmt.Sprintf("another jobtop (pid %d) is listening on %s but did not answer within 1s: it is stopped (SIGSTOP, or ^Z where it runs); `kill -CONT %d` resumes it; then use it", pid, c.socket, pid))
}

// loadHeldUntil is the start of a process-compose file whose loading
// touches began, then waits until release exists (up to its env_cmds'
// bound: 2 s each, 15 of them), for tests that need a load or reload in
// progress.
func loadHeldUntil(began, release string) string {
	var text strings.Builder
	text.WriteString("version: \"0.5\"\nenv_cmds:\n")
	for i := range 15 {
		fmt.Fprintf(&text, "  V%d: \"touch %s; while [ ! -e %s ]; do sleep 0.02; done; echo x\"\n", i, began, release)
	}
	return text.String()
}
