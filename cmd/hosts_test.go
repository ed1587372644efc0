package cmd

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"jobtop/control"
)

// What --host cannot mean is refused before anything runs, with what to
// do instead (exit 2). None of these reach ssh.
func TestHostFlagRefusals(t *testing.T) {
	c := newCLI(t)
	jobFile := filepath.Join(c.dir, "jobtop.yaml")
	require.NoError(t, os.WriteFile(jobFile, []byte("jobs:\n  a:\n    command: true\n"), 0o600))
	for _, tc := range []struct {
		args []string
		code int
		says string
	}{
		{[]string{"--host", "b", "ls"}, 2, `--host "b": write it as ssh://[user@]host[:port]`},
		{[]string{"--host", "tcp://b", "ls"}, 2, "over ssh only"},
		{[]string{"--host", "ssh://a", "--host", "ssh://b", "ls"}, 2, "--host is given 2 times; only jobtop attach shows several hosts"},
		{[]string{"--remote-bin", "/opt/jobtop", "ls"}, 2, "give --host ssh://HOST too"},
		{[]string{"--host", "ssh://b", "--socket", "/tmp/x.sock", "ls"}, 2, "--socket names a socket on this machine"},
		{[]string{"serve", "--host", "ssh://b"}, 2, "jobtop serve runs here (run it on the other machine: ssh HOST jobtop serve)"},
		{[]string{"--host", "ssh://b", "-f", jobFile}, 2, "-f runs a job file here"},
		{[]string{"--host", "ssh://127.0.0.1:1", "run", "--cwd", "src", "--", "make"}, 2, `--cwd "src": with --host, give an absolute path on 127.0.0.1:1`},
	} {
		r := c.run(tc.args...)
		assert.Equal(t, tc.code, r.code, "%v: %s", tc.args, r.stderr)
		assert.Contains(t, r.stderr, tc.says, "%v", tc.args)
	}

	c.env = append(c.env, hostEnv+"=build-box")
	r := c.run("ls")
	assert.Equal(t, 2, r.code)
	assert.Contains(t, r.stderr, `$JOBTOP_HOST="build-box": write it as ssh://`)
}

// dial-stdio runs on the far side, where $JOBTOP_HOST may be set too: it
// ignores it, and with --no-start and no instance says so (exit 3).
func TestDialStdioIgnoresJobtopHost(t *testing.T) {
	c := newCLI(t)
	c.env = append(c.env, hostEnv+"=ssh://somewhere-else")
	r := c.run("dial-stdio", "--no-start")
	assert.Equal(t, 3, r.code, r.stderr)
	assert.Contains(t, r.stderr, "no jobtop is listening on "+c.socket)
	assert.Empty(t, r.stdout, "no banner without an instance")
}

// An instance that takes the connection and never answers (stopped with
// SIGSTOP) does not hold dial-stdio, and the ssh session it runs in, for
// ever: it gives up after --answer-timeout and says, as local commands
// do, which process did not answer and that it is stopped, in the words
// of the person at the other end of ssh (their --host-timeout, of which
// --answer-timeout is two thirds); the client over ssh shows that.
func TestDialStdioGivesUpOnAnInstanceThatDoesNotAnswer(t *testing.T) {
	c := newCLI(t)
	serve := c.serve()
	pid := serve.Process.Pid
	t.Cleanup(func() { syscall.Kill(pid, syscall.SIGCONT) }) //nolint:errcheck // before serve's own cleanup
	stopWhole(t, pid)                                        // a thread still running would answer
	for _, args := range [][]string{{"dial-stdio", "--no-start", "--answer-timeout", "1s"}, {"dial-stdio", "--answer-timeout", "1"}} {
		r := c.run(args...)
		assert.Equal(t, 1, r.code, "%v: %s", args, r.stderr)
		assert.Equal(t, fmt.Sprintf("jobtop: the jobtop instance on %s (pid %d) did not answer within about 2s: it is stopped (SIGSTOP, or ^Z where it runs); `kill -CONT %d` there resumes it; --host-timeout DUR sets the limit where you ran jobtop (0: wait as long as it takes)\n", c.socket, pid, pid), r.stderr, "%v", args)
		assert.Empty(t, r.stdout, "%v: no banner", args)
	}
}

// A client older than the far jobtop serves is refused, both versions
// named (exit 4).
func TestDialStdioRefusesAnOlderClient(t *testing.T) {
	c := newCLI(t)
	r := c.run("dial-stdio", "--api", "0")
	assert.Equal(t, 4, r.code)
	assert.Contains(t, r.stderr, fmt.Sprintf("speaks API version 0; this one (API version %d) serves version 1 or newer", control.APIVersion))
}

// dial-stdio starts an instance when none runs, as jobtop run does, says
// its API version, and then carries the API byte for byte: here an
// HTTP/1.1 request typed on its stdin.
func TestDialStdioBridgesTheSocket(t *testing.T) {
	c := newCLI(t)
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary, "dial-stdio")
	cmd.Env = c.env
	stdin, err := cmd.StdinPipe()
	require.NoError(t, err)
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	var stderr strings.Builder // read once dial-stdio has ended
	cmd.Stderr = &stderr
	require.NoError(t, cmd.Start())
	t.Cleanup(func() { c.run("shutdown") })

	r := bufio.NewReader(stdout)
	line, err := r.ReadString('\n')
	require.NoError(t, err)
	assert.Equal(t, fmt.Sprintf("jobtop-api %d\n", control.APIVersion), line)

	_, err = io.WriteString(stdin, "GET /v1/instance HTTP/1.1\r\nHost: jobtop\r\nConnection: close\r\n\r\n")
	require.NoError(t, err)
	answer, err := io.ReadAll(r)
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(string(answer), "HTTP/1.1 200 OK\r\n"), "%q", answer)
	assert.Contains(t, string(answer), fmt.Sprintf(`"api_version":%d`, control.APIVersion))
	assert.Contains(t, string(answer), `"socket":"`+c.socket+`"`)
	require.NoError(t, cmd.Wait(), "dial-stdio ends when the socket's side does")
	assert.Contains(t, stderr.String(), "started one in the background")
}

// A job reaches its own instance with the CLI, even when the instance
// was started where $JOBTOP_HOST points the user's commands elsewhere.
func TestJobsIgnoreTheUsersJobtopHost(t *testing.T) {
	c := newCLI(t)
	plain := c.env
	c.env = append(c.env, hostEnv+"=ssh://elsewhere.invalid")
	c.serve()
	c.env = plain
	// It lists once its instance has it running: its process can run
	// before the instance has heard it started (the job still queued).
	id := c.startJob(binary+" wait 1 --ready && "+binary+" ls", "--name", "inner")
	c.ok("wait", id, "--timeout", "30s")
	assert.Regexp(t, `(?m)^1\s+inner\s+running`, strings.Join(c.logLines(id), "\n"), "the job listed its own instance's jobs")
}
