package cmd

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"jobtop/control"
	"jobtop/jobs"
)

// jobtop serve -D (process-compose's up -D, overmind's start -D) starts
// the same serve in the background, waits until it answers, says what
// runs where and how to watch and stop it, and exits 0; its output goes
// to the serve log. A socket in use and a job file with problems are
// refused as serve refuses them, and nothing starts.
func TestServeDetachRunsTheJobFileInTheBackground(t *testing.T) {
	c := newCLI(t)
	dir := filepath.Join(c.dir, "app")
	require.NoError(t, os.Mkdir(dir, 0o700))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "process-compose.yaml"), []byte(`processes:
  web: {command: "echo web up; exec sleep 1000.4343"}
  sched: {command: "echo cron", schedule: {cron: "* * * * *"}}
`), 0o600))

	r := c.runIn(dir, "serve", "-D", "--idle-exit", "10m")
	require.Equal(t, 0, r.code, r.stderr)
	inst := c.waitAnswering()
	t.Cleanup(func() { syscall.Kill(inst.PID, syscall.SIGTERM) }) //nolint:errcheck // may have gone
	assert.Contains(t, r.stderr, "processes.sched.schedule: not supported", "the file's warnings")
	assert.Contains(t, r.stderr, fmt.Sprintf("jobtop: serving 2 jobs from process-compose.yaml in the background (pid %d, socket %s, log %s); jobtop attach to watch, jobtop shutdown to stop it\n",
		inst.PID, c.socket, filepath.Join(c.dir, "state", "jobtop", "serve.log")))
	assert.Equal(t, "serve", inst.Kind)
	assert.Equal(t, filepath.Join(dir, "process-compose.yaml"), inst.JobFile)
	cmdline, err := os.ReadFile("/proc/" + strconv.Itoa(inst.PID) + "/cmdline")
	require.NoError(t, err)
	assert.Contains(t, strings.ReplaceAll(string(cmdline), "\x00", " "), "--idle-exit=10m0s", "the same flags")
	var listed []jobs.Info
	require.NoError(t, json.Unmarshal([]byte(c.ok("ls", "--json")), &listed))
	require.Len(t, listed, 2)

	again := c.runIn(dir, "serve", "-D")
	assert.Equal(t, 1, again.code)
	fg := c.runIn(dir, "serve")
	assert.Equal(t, fg.stderr, again.stderr, "the socket in use, as serve says it")
	assert.Contains(t, again.stderr, "is already listening on "+c.socket)

	c.ok("shutdown")
	require.Eventually(t, func() bool { return !processAlive(inst.PID) }, testTimeout, 20*time.Millisecond)
	log, err := os.ReadFile(filepath.Join(c.dir, "state", "jobtop", "serve.log"))
	require.NoError(t, err)
	assert.Contains(t, string(log), "jobtop: serving on "+c.socket, "its output went to the serve log")

	require.NoError(t, os.WriteFile(filepath.Join(dir, "process-compose.yaml"), []byte("processes:\n  web: {commnd: x}\n"), 0o600))
	bad := c.runIn(dir, "serve", "-D")
	assert.Equal(t, 1, bad.code)
	fg = c.runIn(dir, "serve")
	assert.Equal(t, fg.stderr, bad.stderr, "a file with problems, as serve says it")
	assert.Contains(t, bad.stderr, "nothing was started")
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	_, err = control.NewClient(c.socket).Instance(ctx)
	assert.Error(t, err, "nothing serves")
}

// A serve -D that is stopped is named by its own PID, not by the serve
// -D that listened on the socket and exited: the advice `kill -CONT
// PID` must reach the process that serves.
func TestStoppedDetachedServeIsNamedByItsPID(t *testing.T) {
	c := newCLI(t)
	dir := filepath.Join(c.dir, "app")
	require.NoError(t, os.Mkdir(dir, 0o700))
	r := c.runIn(dir, "serve", "-D", "--no-file")
	require.Equal(t, 0, r.code, r.stderr)
	inst := c.waitAnswering()
	t.Cleanup(func() { syscall.Kill(inst.PID, syscall.SIGTERM) }) //nolint:errcheck // may have gone
	stopWhole(t, inst.PID)
	t.Cleanup(func() { syscall.Kill(inst.PID, syscall.SIGCONT) }) //nolint:errcheck // before the SIGTERM

	ls := c.runIn(dir, "ls", "--answer-timeout", "1s")
	assert.Equal(t, 1, ls.code)
	assert.Equal(t, fmt.Sprintf("jobtop: the jobtop instance on %s (pid %d) did not answer within 1s: it is stopped (SIGSTOP, or ^Z where it runs); `kill -CONT %d` resumes it; --answer-timeout DUR sets the limit (0: wait as long as it takes)\n", c.socket, inst.PID, inst.PID), ls.stderr)

	again := c.runIn(dir, "serve", "--no-file")
	assert.Equal(t, 1, again.code)
	assert.Contains(t, again.stderr, fmt.Sprintf("another jobtop (pid %d) is listening on %s but did not answer within 1s: it is stopped", inst.PID, c.socket))
}
