package cmd

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"jobtop/control"
	"jobtop/jobs"
)

// testTimeout is generous: the tests must pass on a loaded 2-core machine.
const testTimeout = 30 * time.Second

// binary is the jobtop binary built once by TestMain.
var binary string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "jobtop-bin")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binary = filepath.Join(dir, "jobtop")
	build := exec.Command("go", "build", "-o", binary, "jobtop")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "building jobtop:", err)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// cli runs the built binary against one socket in a temp dir, with its
// state (logs) in the same dir.
type cli struct {
	t      *testing.T
	dir    string
	socket string
	env    []string
}

func newCLI(t *testing.T) *cli {
	t.Helper()
	// A short path: unix socket paths are limited to about 100 bytes.
	dir, err := os.MkdirTemp("", "jt")
	require.NoError(t, err)
	socket := filepath.Join(dir, "s.sock")
	env := append(os.Environ(),
		control.SocketEnv+"="+socket,
		"XDG_STATE_HOME="+filepath.Join(dir, "state"),
		"XDG_RUNTIME_DIR="+filepath.Join(dir, "run"),
	)
	c := &cli{t: t, dir: dir, socket: socket, env: env}
	t.Cleanup(func() {
		// The serve a test's `jobtop run` started waits half an hour
		// for jobs before it exits: shut it down with the test.
		if _, err := os.Stat(socket); err == nil {
			shutdown := exec.Command(binary, "shutdown")
			shutdown.Env = env
			shutdown.Run() //nolint:errcheck // none may be left to answer
		}
		os.RemoveAll(dir)
	})
	return c
}

// result is one finished CLI call.
type result struct {
	stdout, stderr string
	code           int
}

// run calls jobtop with args and returns what it printed and its exit code.
func (c *cli) run(args ...string) result {
	return c.runIn("", args...)
}

// runIn calls jobtop from directory dir ("" for the test's).
func (c *cli) runIn(dir string, args ...string) result {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary, args...)
	cmd.Env = c.env
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		code = exit.ExitCode()
	case err != nil:
		c.t.Fatalf("jobtop %v: %v", args, err)
	}
	return result{stdout: stdout.String(), stderr: stderr.String(), code: code}
}

// ok calls jobtop, requires exit 0, and returns stdout.
func (c *cli) ok(args ...string) string {
	c.t.Helper()
	r := c.run(args...)
	require.Equal(c.t, 0, r.code, "jobtop %v: stderr %q", args, r.stderr)
	return r.stdout
}

// startJob runs `jobtop run -- command` and returns the printed ID.
func (c *cli) startJob(command string, flags ...string) string {
	c.t.Helper()
	out := c.ok(append(append([]string{"run"}, flags...), "--", command)...)
	id := strings.TrimSpace(out)
	_, err := strconv.Atoi(id)
	require.NoError(c.t, err, "run printed %q, not an ID", out)
	return id
}

// status returns a job's JSON object from `jobtop status --json`.
func (c *cli) status(id string) jobs.Info {
	c.t.Helper()
	var info jobs.Info
	require.NoError(c.t, json.Unmarshal([]byte(c.ok("status", id, "--json")), &info))
	return info
}

// serve starts `jobtop serve` on the socket and waits until it answers.
// It is stopped with SIGTERM at the end of the test.
func (c *cli) serve() *exec.Cmd {
	c.t.Helper()
	return c.serveIn("")
}

// serveIn starts `jobtop serve ARGS...` in directory dir ("" for the
// test's) and waits until it answers.
// serveJobFile serves a jobtop.yaml of the given text, in a directory of
// its own.
func (c *cli) serveJobFile(text string, args ...string) *exec.Cmd {
	c.t.Helper()
	dir := c.t.TempDir()
	require.NoError(c.t, os.WriteFile(filepath.Join(dir, "jobtop.yaml"), []byte(text), 0o600))
	return c.serveIn(dir, args...)
}

// startServe starts cmd (a serve, or what execs one) with c's
// environment, stopped by SIGTERM when the test ends, and returns its
// stderr.
func (c *cli) startServe(cmd *exec.Cmd) io.Reader {
	c.t.Helper()
	cmd.Env = c.env
	stderr, err := cmd.StderrPipe()
	require.NoError(c.t, err)
	require.NoError(c.t, cmd.Start())
	c.t.Cleanup(func() {
		cmd.Process.Signal(syscall.SIGTERM) //nolint:errcheck // may have exited
		cmd.Wait()                          //nolint:errcheck // stopped on purpose
	})
	return stderr
}

func (c *cli) serveIn(dir string, args ...string) *exec.Cmd {
	c.t.Helper()
	cmd := exec.Command(binary, append([]string{"serve"}, args...)...)
	cmd.Env = c.env
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	require.NoError(c.t, cmd.Start())
	c.t.Cleanup(func() {
		cmd.Process.Signal(syscall.SIGTERM) //nolint:errcheck // may have exited
		cmd.Wait()                          //nolint:errcheck // stopped on purpose
	})
	c.waitAnswering()
	return cmd
}

// waitAnswering polls, with a deadline, until an instance answers with
// its jobs in place (?loaded=1: with no job file, an instance answers
// while it still makes its manager, its log directory and its prune of
// old sessions, which TestKeepFinishedAndLogRetentionFlags then saw
// half done once).
func (c *cli) waitAnswering() control.Instance {
	c.t.Helper()
	client := control.NewClient(c.socket)
	defer client.Close()
	var inst control.Instance
	require.Eventually(c.t, func() bool {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		var err error
		inst, err = client.LoadedInstance(ctx)
		return err == nil && inst.Loading == ""
	}, testTimeout, 20*time.Millisecond, "no instance answered on %s (its jobs in place)", c.socket)
	return inst
}

// processAlive reports whether pid exists and is not a zombie.
func processAlive(pid int) bool {
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return false
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	return i < 0 || len(s) <= i+2 || s[i+2] != 'Z'
}

// mkfifo makes a named pipe: a job that reads it waits until the test
// writes, with no timing involved.
func mkfifo(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "fifo")
	require.NoError(t, syscall.Mkfifo(path, 0o600))
	return path
}

func writeFifo(t *testing.T, path, text string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	require.NoError(t, err)
	_, err = f.WriteString(text)
	require.NoError(t, err)
	require.NoError(t, f.Close())
}

// logLines is `jobtop logs ID` split into lines.
func (c *cli) logLines(id string, flags ...string) []string {
	c.t.Helper()
	out := strings.TrimSuffix(c.ok(append([]string{"logs", id}, flags...)...), "\n")
	if out == "" {
		return nil
	}
	return strings.Split(out, "\n")
}

// states is `jobtop ls --json` as ID -> state.
func (c *cli) states() map[jobs.ID]jobs.State {
	c.t.Helper()
	var list []jobs.Info
	require.NoError(c.t, json.Unmarshal([]byte(c.ok("ls", "--json")), &list))
	out := make(map[jobs.ID]jobs.State, len(list))
	for _, j := range list {
		out[j.ID] = j.State
	}
	return out
}
