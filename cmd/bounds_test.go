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
)

// When a job's log file could not be written (a full disk), logs does
// not say that the lines no longer held are in it, and status says what
// the log file lost.
func TestLogsSaysWhenTheLogFileLostLines(t *testing.T) {
	c := newCLI(t)
	c.serve()
	first := c.startJob("true")
	var info struct {
		LogPath string `json:"log_path"`
	}
	require.NoError(t, json.Unmarshal([]byte(c.ok("status", first, "--json")), &info))
	require.NotEmpty(t, info.LogPath)
	// The next job's rotated log is a directory that cannot be removed:
	// its log file cannot be made.
	next, err := strconv.Atoi(first)
	require.NoError(t, err)
	require.NoError(t, os.MkdirAll(filepath.Join(filepath.Dir(info.LogPath), strconv.Itoa(next+1)+".log.1", "x"), 0o700))
	id := c.startJob("seq 1 12000")
	c.ok("wait", id)

	r := c.run("logs", id)
	require.Equal(t, 0, r.code, r.stderr)
	assert.Contains(t, r.stderr, "2000 lines are no longer held in memory here; the log file could not all be written")
	assert.NotContains(t, r.stderr, "every line is in the log file")
	assert.Contains(t, c.ok("status", id), "could not be written to the log file")
}

// logs for people prints every line the instance holds, answer after
// answer; --json gives one bounded answer and says there is more.
func TestLogsPagesThroughEveryHeldLine(t *testing.T) {
	c := newCLI(t)
	c.serve()
	id := c.startJob("seq 1 25000")
	c.ok("wait", id)

	r := c.run("logs", id)
	require.Equal(t, 0, r.code, r.stderr)
	lines := strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n")
	require.Len(t, lines, 10000, "every line held, not just the first answer's")
	assert.Equal(t, "15001", lines[0])
	assert.Equal(t, "25000", lines[9999])
	assert.Contains(t, r.stderr, "15000 lines are no longer held in memory here")

	var first control.OutputResponse
	require.NoError(t, json.Unmarshal([]byte(c.ok("logs", id, "--json")), &first))
	assert.Len(t, first.Lines, control.DefaultOutputLines)
	assert.True(t, first.More)

	tail := c.logLines(id, "--tail", "4000")
	require.Len(t, tail, 4000)
	assert.Equal(t, "21001", tail[0])

	all := strings.Split(strings.TrimSuffix(c.ok("logs", "--all"), "\n"), "\n")
	require.Len(t, all, 10000)
	assert.True(t, strings.HasSuffix(all[9999], "| 25000"), all[9999])
}

// hostile is output that would clip, retitle and clear a terminal.
const hostile = `printf 'a\033]52;c;ZXZpbA==\007b\033]0;owned\007c\033[2J\033[Hd\n'`

// A pipe gets the bytes the job wrote, escape sequences too.
func TestPipesGetOutputAsItIs(t *testing.T) {
	c := newCLI(t)
	c.serve()
	id := c.startJob(hostile)
	c.ok("wait", id)
	want := "a\x1b]52;c;ZXZpbA==\x07b\x1b]0;owned\x07c\x1b[2J\x1b[Hd\n"
	assert.Equal(t, want, c.ok("logs", id))
	assert.Equal(t, want, c.ok("logs", id, "--raw"))
	assert.Equal(t, want, c.ok("wait", id, "--until", "d$"))
}

// A serve that `jobtop run` started exits by itself once idle; it is told
// so with --idle-exit 30m.
func TestAutoStartedServeIdlesOut(t *testing.T) {
	c := newCLI(t)
	r := c.run("run", "--", "true")
	require.Equal(t, 0, r.code, r.stderr)
	assert.Contains(t, r.stderr, "it exits after 30m0s with no job and no client")
	inst := c.waitAnswering()
	t.Cleanup(func() {
		syscall.Kill(inst.PID, syscall.SIGTERM) //nolint:errcheck // may be gone
		require.Eventually(t, func() bool { return !processAlive(inst.PID) }, testTimeout, 20*time.Millisecond)
	})
	cmdline, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(inst.PID), "cmdline"))
	require.NoError(t, err)
	assert.Contains(t, strings.Split(string(cmdline), "\x00"), "--idle-exit")
	assert.Contains(t, strings.Split(string(cmdline), "\x00"), "30m0s")
}

// `jobtop run` as a system user, whose HOME (/nonexistent) does not
// exist and XDG_STATE_HOME is not set, starts an instance with its state
// in the temp directory, as with no HOME, and never makes the HOME: it
// failed "cannot start a jobtop instance: mkdir /nonexistent: ...".
func TestAutoStartWithAMissingHome(t *testing.T) {
	c := newCLI(t)
	home := filepath.Join(c.dir, "nonexistent", "home")
	tmp := filepath.Join(c.dir, "tmp")
	require.NoError(t, os.Mkdir(tmp, 0o700))
	var env []string
	for _, kv := range c.env {
		if !strings.HasPrefix(kv, "XDG_STATE_HOME=") && !strings.HasPrefix(kv, "HOME=") && !strings.HasPrefix(kv, "TMPDIR=") {
			env = append(env, kv)
		}
	}
	c.env = append(env, "HOME="+home, "TMPDIR="+tmp)
	r := c.run("run", "--", "echo hi")
	require.Equal(t, 0, r.code, r.stderr)
	inst := c.waitAnswering()
	t.Cleanup(func() {
		syscall.Kill(inst.PID, syscall.SIGTERM) //nolint:errcheck // may be gone
		require.Eventually(t, func() bool { return !processAlive(inst.PID) }, testTimeout, 20*time.Millisecond)
	})
	state := filepath.Join(tmp, "jobtop-"+strconv.Itoa(os.Getuid()), "state")
	assert.Contains(t, r.stderr, "log "+filepath.Join(state, "serve.log"))
	c.ok("wait", strings.TrimSpace(r.stdout))
	assert.Equal(t, []string{"hi"}, c.logLines(strings.TrimSpace(r.stdout)))
	assert.NoDirExists(t, filepath.Join(c.dir, "nonexistent"), "HOME is never made")
}

// serve --idle-exit waits out running jobs and connected clients, then
// exits cleanly on its own.
func TestServeIdleExit(t *testing.T) {
	c := newCLI(t)
	srv := c.serveIn("", "--idle-exit", "1s")
	exited := make(chan error, 1)
	go func() { exited <- srv.Wait() }()
	fifo := mkfifo(t)
	id := c.startJob("read x < " + fifo)

	// A client on the event stream keeps it too.
	client := control.NewClient(c.socket)
	defer client.Close()
	ctx, cancel := context.WithCancel(context.Background())
	events, err := client.Events(ctx)
	require.NoError(t, err)
	select {
	case err := <-exited:
		t.Fatalf("serve exited while a job ran: %v", err)
	case <-time.After(3 * time.Second):
	}
	writeFifo(t, fifo, "go\n")
	c.ok("wait", id)
	select {
	case err := <-exited:
		t.Fatalf("serve exited while a client was connected: %v", err)
	case <-time.After(3 * time.Second):
	}
	events.Close()
	cancel()
	client.Close()
	select {
	case err := <-exited:
		require.NoError(t, err, "it exits cleanly")
	case <-time.After(testTimeout):
		t.Fatal("serve did not exit once idle")
	}
}

// --keep-finished bounds the finished jobs kept; the dropped ones' logs
// stay. Retention flags with bad values are refused before anything runs.
func TestKeepFinishedAndLogRetentionFlags(t *testing.T) {
	c := newCLI(t)
	logs := filepath.Join(c.dir, "state", "jobtop", "logs")
	for i := 0; i < 4; i++ {
		old := filepath.Join(logs, fmt.Sprintf("20240101-12000%d-999999999", i))
		require.NoError(t, os.MkdirAll(old, 0o700))
		require.NoError(t, os.WriteFile(filepath.Join(old, "1.log"), []byte("old\n"), 0o600))
	}
	c.serveIn("", "--keep-finished", "2", "--log-keep-sessions", "2")
	entries, err := os.ReadDir(logs)
	require.NoError(t, err)
	require.Len(t, entries, 2, "this session and the newest other")
	assert.Equal(t, "20240101-120003-999999999", entries[0].Name())

	var logPaths []string
	for i := 0; i < 3; i++ {
		id := c.startJob(fmt.Sprintf("echo job %d", i))
		c.ok("wait", id)
		logPaths = append(logPaths, c.status(id).LogPath)
	}
	ls := c.ok("ls")
	assert.NotContains(t, ls, "echo job 0")
	assert.Contains(t, ls, "echo job 2")
	assert.FileExists(t, logPaths[0], "a dropped job's log stays on disk")

	r := c.run("serve", "--log-max-total", "lots", "--socket", filepath.Join(c.dir, "other.sock"))
	assert.Equal(t, 2, r.code, "a command line it cannot run")
	assert.Contains(t, r.stderr, `--log-max-total: "lots" is not a size`)
}

// With XDG_RUNTIME_DIR unset, the socket is under the shared temp dir:
// when someone else made its directory first, run refuses it (secrets in
// --env never leave) and starts no instance there.
func TestRunRefusesAnUntrustedSocketDirectory(t *testing.T) {
	c := newCLI(t)
	tmp := filepath.Join(c.dir, "tmp")
	sockDir := filepath.Join(tmp, "jobtop-"+strconv.Itoa(os.Getuid()))
	require.NoError(t, os.MkdirAll(sockDir, 0o700))
	require.NoError(t, os.Chmod(sockDir, 0o777))
	var env []string
	for _, kv := range c.env {
		if !strings.HasPrefix(kv, control.SocketEnv+"=") && !strings.HasPrefix(kv, "XDG_RUNTIME_DIR=") && !strings.HasPrefix(kv, "TMPDIR=") {
			env = append(env, kv)
		}
	}
	c.env = append(env, "TMPDIR="+tmp)
	r := c.run("run", "--env", "TOKEN=secret", "--", "true")
	assert.Equal(t, 1, r.code)
	assert.Equal(t, "jobtop: refusing to use the socket "+filepath.Join(sockDir, "default.sock")+": its directory "+sockDir+
		" has mode 0777, so other users could replace the socket; chmod go-w "+sockDir+", or use --socket in a directory of your own that only you may write to\n", r.stderr)
	_, err := os.Stat(filepath.Join(sockDir, "default.sock"))
	assert.True(t, os.IsNotExist(err), "no instance was started there")
}

// logs --raw gives lines as the instance holds them, as README says, not
// the job's bytes: a line over 16 KiB comes in lines of 16 KiB, bytes that
// are not UTF-8 as U+FFFD, a line redrawn with \r as its last drawing.
// The log file (log_path) has the bytes.
func TestLogsRawGivesHeldLines(t *testing.T) {
	c := newCLI(t)
	c.serve()
	id := c.startJob(`printf 'a\377b\n'; head -c 40000 /dev/zero | tr '\0' x; printf 'up\rdone\r\n'`)
	c.ok("wait", id)
	x := strings.Repeat("x", 16<<10)
	assert.Equal(t, "a\ufffdb\n"+x+"\n"+x+"\ndone\n", c.ok("logs", id, "--raw"))
	file, err := os.ReadFile(c.status(id).LogPath)
	require.NoError(t, err)
	assert.Contains(t, string(file), "a\377b\n"+strings.Repeat("x", 40000)+"up\rdone\r\n", "the log file has every byte")
}

// logs --all says whose lines are no longer held, as logs does for one
// job, and where they are.
func TestLogsAllSaysWhoseLinesAreNoLongerHeld(t *testing.T) {
	c := newCLI(t)
	c.serve()
	big := c.startJob("seq 1 12000", "--name", "big")
	small := c.startJob("seq 1 10", "--name", "small")
	c.ok("wait", big)
	c.ok("wait", small)

	r := c.run("logs", "--all")
	require.Equal(t, 0, r.code, r.stderr)
	assert.Equal(t, "jobtop: big: 2000 of its lines are no longer held in memory here; every line is in the log file (jobtop status "+big+")\n", r.stderr)
	assert.Equal(t, 10010, strings.Count(r.stdout, "\n"), "every line held")
	r = c.run("logs", "--all", "--tail", "3")
	require.Equal(t, 0, r.code, r.stderr)
	assert.Empty(t, r.stderr, "the newest lines are all held")
}
