package cmd

import (
	"bufio"
	"context"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"jobtop/control"
	"jobtop/mcp"
)

// --http serves on loopback only, and says how to give the address.
func TestMCPHTTPRefusesOtherAddresses(t *testing.T) {
	c := newCLI(t)
	r := c.run("mcp", "--http", "0.0.0.0:8765")
	require.Equal(t, 2, r.code)
	require.Contains(t, r.stderr, `--http "0.0.0.0:8765": jobtop mcp serves HTTP on loopback only (127.0.0.1, [::1] or localhost)`)
	r = c.run("mcp", "--http", "8765")
	require.Equal(t, 2, r.code)
	require.Contains(t, r.stderr, "give HOST:PORT, e.g. 127.0.0.1:8765")
}

// A command line jobtop cannot run as given exits 2, whether cobra or
// jobtop's own checks refuse it (README: errors exit 1, usage 2).
func TestUsageErrorsExit2(t *testing.T) {
	c := newCLI(t)
	procfile := filepath.Join(t.TempDir(), "Procfile")
	require.NoError(t, os.WriteFile(procfile, []byte("web: sleep 60\n"), 0o644))
	for _, tc := range []struct {
		args []string
		says string
	}{
		{[]string{"mcp", "--http", "0.0.0.0:18777"}, "loopback only"},
		{[]string{"ls", "--nosuch"}, "unknown flag: --nosuch"},
		{[]string{"logs", "1", "--tail", "many"}, `--tail "many" is not a whole number`},
		{[]string{"status"}, "arg"},
		{[]string{"logs", "1", "--cursor", "2", "--tail", "3"}, "--cursor and --tail contradict each other: give one"},
		{[]string{"logs", "1", "--tail", "-1"}, "--tail must be 0 or more"},
		{[]string{"logs", "--all", "--tail", "-1"}, "--tail must be 0 or more"},
		{[]string{"wait", "1", "--timeout=-1s"}, "is negative"},
		{[]string{"wait", "1", "--until", "("}, "--until"},
		{[]string{"stop"}, "which jobs?"},
		{[]string{"rm", "--finished", "--state", "ended"}, "--finished is --state ended"},
		{[]string{"run", "--tty", "--stdin", "pipe", "--", "true"}, "--stdin pipe is for jobs on pipes"},
		{[]string{"run", "--stdin", "bogus", "--", "true"}, "--stdin"},
		{[]string{"run", "--env", "FOO", "--", "true"}, "NAME=VALUE"},
		{[]string{"run", "--name", "12", "--", "true"}, "12"},
		{[]string{"serve", "--log-max-total", "bogus"}, "--log-max-total"},
		{[]string{"send", "1", `\q`}, `unknown escape \q`},
		{[]string{"send", "1"}, "nothing to send"},
		{[]string{"serve", "-f", procfile, "-p", "99999"}, "--port: 99999 is not a port number (1-65535)"},
		{[]string{"check", "-f", procfile, "-p", "0"}, "--port: 0 is not a port number (1-65535)"},
		{[]string{"check", "-f", procfile, "-m", "api=1"}, `the Procfile has no process type "api"`},
		{[]string{"check", "-f", procfile, "-p", "65535", "-m", "web=3"}, `--port: 65535 leaves job "web"`},
	} {
		r := c.run(tc.args...)
		assert.Equal(t, 2, r.code, "%v: %s", tc.args, r.stderr)
		assert.Contains(t, r.stderr, tc.says, "%v", tc.args)
	}
	r := c.run("status", "1")
	assert.Equal(t, 1, r.code, "an error past the command line: %s", r.stderr)
}

// bearer adds the token to every request.
type bearer struct {
	token string
	next  http.RoundTripper
}

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return b.next.RoundTrip(r)
}

// --http serves streamable HTTP on a loopback port behind the bearer token
// it prints: without it a request is refused 401, with it an MCP client
// lists the instance's jobs; SIGTERM ends it.
func TestMCPHTTPWithToken(t *testing.T) {
	c := newCLI(t)
	c.serve()
	c.startJob("echo hi", "--name", "hello")
	cmd := exec.Command(binary, "mcp", "--http", "127.0.0.1:0")
	cmd.Env = c.env
	stderr, err := cmd.StderrPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	t.Cleanup(func() { cmd.Process.Kill() }) //nolint:errcheck // ended below
	line, err := bufio.NewReader(stderr).ReadString('\n')
	require.NoError(t, err)
	m := regexp.MustCompile(`streamable HTTP on (http://127\.0\.0\.1:\d+/mcp); send the header "Authorization: Bearer (\S+)"`).FindStringSubmatch(line)
	require.NotNil(t, m, line)
	url, token := m[1], m[2]

	resp, err := http.Post(url, "application/json", strings.NewReader(`{}`))
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, http.StatusUnauthorized, resp.StatusCode)

	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	client := &http.Client{Transport: bearer{token: token, next: http.DefaultTransport}}
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "http-agent"}, nil).
		Connect(ctx, &sdk.StreamableClientTransport{Endpoint: url, HTTPClient: client}, nil)
	require.NoError(t, err)
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "list_jobs", Arguments: map[string]any{}})
	require.NoError(t, err)
	require.False(t, res.IsError)
	require.Contains(t, res.Content[0].(*sdk.TextContent).Text, "1 hello")
	require.NoError(t, cs.Close())

	require.NoError(t, cmd.Process.Signal(syscall.SIGTERM))
	require.NoError(t, cmd.Wait(), "SIGTERM ends it cleanly")
}

// jobtop mcp --help names every tool the server has (it left out
// read_screen and send_input).
func TestMCPHelpNamesEveryTool(t *testing.T) {
	srv := mcp.New(mcp.Options{Client: control.NewClient(filepath.Join(t.TempDir(), "none.sock"))})
	st, ct := sdk.NewInMemoryTransports()
	ctx := context.Background()
	ss, err := srv.Connect(ctx, st, nil)
	require.NoError(t, err)
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "t", Version: "1"}, nil).Connect(ctx, ct, nil)
	require.NoError(t, err)
	defer func() { cs.Close(); ss.Wait() }() //nolint:errcheck // closed on purpose
	res, err := cs.ListTools(ctx, nil)
	require.NoError(t, err)
	require.NotEmpty(t, res.Tools)
	help := strings.Join(strings.Fields(newMCPCmd().Long), " ")
	for _, tool := range res.Tools {
		assert.Contains(t, help, tool.Name)
	}
}

// A tool call under way when its instance is stopped (SIGSTOP, ^Z of a
// serve in the foreground) ends after the answer timeout, saying so: a
// wait_job taken before the stop waited for as long as the instance
// stayed stopped (rev44).
func TestMCPCallUnderWayToAStoppedInstanceEnds(t *testing.T) {
	c := newCLI(t)
	pid := c.serve().Process.Pid
	ctx, session := c.mcpSession("--answer-timeout", "1s")
	res, err := session.CallTool(ctx, &sdk.CallToolParams{Name: "run_job", Arguments: map[string]any{"command": "exec sleep 600"}})
	require.NoError(t, err)
	require.False(t, res.IsError)
	job := res.StructuredContent.(map[string]any)["job"].(map[string]any)["id"]
	waited := make(chan *sdk.CallToolResult, 1)
	go func() {
		res, err := session.CallTool(ctx, &sdk.CallToolParams{Name: "wait_job", Arguments: map[string]any{"id": job, "timeout": "60s"}})
		if err != nil {
			res = &sdk.CallToolResult{IsError: true, Content: []sdk.Content{&sdk.TextContent{Text: err.Error()}}}
		}
		waited <- res
	}()
	time.Sleep(300 * time.Millisecond) // for the wait to reach the instance first (else the look before it ends it, as it should)
	resumed := false
	t.Cleanup(func() {
		if !resumed {
			syscall.Kill(pid, syscall.SIGCONT) //nolint:errcheck // resumed for serve's own cleanup
		}
	})
	stopWhole(t, pid)
	select {
	case res := <-waited:
		require.True(t, res.IsError)
		text := res.Content[0].(*sdk.TextContent).Text
		assert.Contains(t, text, "did not answer within 1s")
		assert.Contains(t, text, "it is stopped")
	case <-ctx.Done():
		t.Fatal("the call waited on the stopped instance")
	}
	require.NoError(t, syscall.Kill(pid, syscall.SIGCONT))

	// A run_job cut in its wait_for says which job it started (it runs
	// on): an agent that tried again started a second one (rev45).
	started := make(chan *sdk.CallToolResult, 1)
	go func() {
		res, err := session.CallTool(ctx, &sdk.CallToolParams{Name: "run_job", Arguments: map[string]any{"command": "exec sleep 600", "name": "cut", "wait_for": "nomatch", "wait_timeout": "60s"}})
		if err != nil {
			res = &sdk.CallToolResult{IsError: true, Content: []sdk.Content{&sdk.TextContent{Text: err.Error()}}}
		}
		started <- res
	}()
	require.Eventually(t, func() bool { return strings.Contains(c.ok("ls"), " cut ") }, testTimeout, 20*time.Millisecond)
	stopWhole(t, pid)
	select {
	case res := <-started:
		require.True(t, res.IsError)
		// Which depends on whether the start's answer came before the
		// stop: either way the answer says the job started or may have.
		assert.Regexp(t, `^(job \d+ started, but waiting for it failed: |the job may have started: its start was not answered \()the jobtop instance on .* did not answer within 1s: it is stopped.*`, res.Content[0].(*sdk.TextContent).Text)
		if text := res.Content[0].(*sdk.TextContent).Text; strings.HasPrefix(text, "the job may") {
			assert.Contains(t, text, `list_jobs shows whether it did (named "cut")`)
		}
	case <-ctx.Done():
		t.Fatal("run_job waited on the stopped instance")
	}
	require.NoError(t, syscall.Kill(pid, syscall.SIGCONT))
	resumed = true
}

// run_job against an instance that is shutting down waits for it to exit
// and starts the job on a new one, as jobtop run does: it failed with
// "shutting down" (rev44).
func TestMCPRunJobWaitsOutAnInstanceThatShutsDown(t *testing.T) {
	c := newCLI(t)
	serve := c.serve()
	stopping := filepath.Join(t.TempDir(), "stopping")
	c.ok("run", "--name", "slow", "--", "trap 'echo > "+stopping+"; sleep 2; exit 0' TERM; echo up; while :; do sleep 0.1; done")
	ctx, session := c.mcpSession()
	require.NoError(t, serve.Process.Signal(syscall.SIGTERM))
	require.Eventually(t, func() bool { _, err := os.Stat(stopping); return err == nil }, testTimeout, 10*time.Millisecond, "the instance stops its job")
	res, err := session.CallTool(ctx, &sdk.CallToolParams{Name: "run_job", Arguments: map[string]any{"command": "exec sleep 600", "name": "fresh"}})
	require.NoError(t, err)
	require.False(t, res.IsError, "%v", res.Content)
	assert.Equal(t, 2.0, res.StructuredContent.(map[string]any)["job"].(map[string]any)["id"], "a new instance's first job, numbered after the last one's")
	c.ok("shutdown")
}

// mcpSession is an MCP client session on a `jobtop mcp ARGS...` of the
// test's environment, and a context for its calls; both end with the
// test.
func (c *cli) mcpSession(args ...string) (context.Context, *sdk.ClientSession) {
	c.t.Helper()
	cmd := exec.Command(binary, append([]string{"mcp"}, args...)...)
	cmd.Env = c.env
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	c.t.Cleanup(cancel)
	session, err := sdk.NewClient(&sdk.Implementation{Name: "t", Version: "1"}, nil).Connect(ctx, &sdk.CommandTransport{Command: cmd}, nil)
	require.NoError(c.t, err)
	c.t.Cleanup(func() { session.Close() })
	return ctx, session
}

// A guessable token (JOBTOP_MCP_TOKEN=a) is refused before anything
// listens, with how to make a good one.
func TestMCPHTTPRefusesAShortToken(t *testing.T) {
	c := newCLI(t)
	c.env = append(c.env, "JOBTOP_MCP_TOKEN=a")
	r := c.run("mcp", "--http", "127.0.0.1:0")
	require.Equal(t, 2, r.code, r.stderr)
	require.Contains(t, r.stderr, "$JOBTOP_MCP_TOKEN is 1 character (spaces around it not counted): a bearer token needs at least 16")
	require.Contains(t, r.stderr, "openssl rand -hex 16")

	// Nor one of 16 a's, or 16 spaces: as easy to guess (rev55).
	for _, token := range []string{strings.Repeat("a", 16), "abababababababab"} {
		c.env = append(c.env, "JOBTOP_MCP_TOKEN="+token)
		r = c.run("mcp", "--http", "127.0.0.1:0")
		require.Equal(t, 2, r.code, "%q: %s", token, r.stderr)
		require.Contains(t, r.stderr, "different character")
	}
	assert.Contains(t, weakToken(strings.Repeat(" ", 16)), "is 0 characters")
	assert.Contains(t, weakToken("   abcdefgh     "), "is 8 characters", "the spaces around it are no part of it")
	assert.Empty(t, weakToken("9f86d081884c7d659a2feaa0c55ad015"), "openssl rand -hex 16's kind")
}
