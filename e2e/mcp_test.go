package e2e

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"
)

// mcpSession runs `jobtop mcp` with env and connects the MCP SDK's client
// to it over stdio, as a coding agent does.
func mcpSession(t *testing.T, bin string, env []string) *sdk.ClientSession {
	t.Helper()
	cmd := exec.Command(bin, "mcp")
	cmd.Env = env
	cmd.Stderr = os.Stderr
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "e2e-agent", Version: "1"}, nil).
		Connect(ctx, &sdk.CommandTransport{Command: cmd}, nil)
	require.NoError(t, err)
	t.Cleanup(func() { cs.Close() })
	return cs
}

// callTool calls a tool that must succeed and returns its structured
// output as a map.
func callTool(t *testing.T, cs *sdk.ClientSession, name string, args map[string]any) map[string]any {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: name, Arguments: args})
	require.NoError(t, err)
	text := res.Content[0].(*sdk.TextContent).Text
	require.False(t, res.IsError, "%s: %s", name, text)
	b, err := json.Marshal(res.StructuredContent)
	require.NoError(t, err)
	var out map[string]any
	require.NoError(t, json.Unmarshal(b, &out))
	return out
}

// An agent's whole loop through `jobtop mcp` on stdio: start a server-like
// job and wait for its ready line, read its output by cursor twice (the
// second read brings only new lines), kill it and its whole tree; a
// person's TUI attached to the same instance shows the job appear, marked
// as an agent's, and end.
func TestMCPAgentLoopSeenInTheTUI(t *testing.T) {
	bin := binary(t)
	in := startServe(t, bin)
	s := newSession(t, 140, 30, in.sessionEnv(), bin, "attach")
	s.waitText("no jobs")

	cs := mcpSession(t, bin, in.env)
	token := strconv.Itoa(os.Getpid()) + ".4242"
	run := callTool(t, cs, "run_job", map[string]any{
		"name":     "web",
		"command":  `sleep 3` + token + ` & echo booting; echo "listening on :8080"; while :; do echo tick; sleep 0.05; done`,
		"wait_for": "listening on :\\d+",
	})
	wait := run["wait"].(map[string]any)
	require.Equal(t, "matched", wait["outcome"])
	require.Equal(t, "listening on :8080", wait["matched"].(map[string]any)["text"])
	id := run["job"].(map[string]any)["id"]
	require.NotEmpty(t, processesWith("3"+token), "the job's child runs")

	scr := s.waitFor("the agent's job in the TUI", func(scr []string) bool {
		return strings.Contains(row(scr, "web [mcp]"), "● running")
	})
	require.Contains(t, strings.Join(scr, "\n"), "[mcp: e2e-agent]", "the header names the agent")

	first := callTool(t, cs, "read_output", map[string]any{"id": id})
	cursor := first["next_cursor"].(float64)
	lines := first["lines"].([]any)
	require.Equal(t, "booting", lines[0].(map[string]any)["text"])
	require.Equal(t, "listening on :8080", lines[1].(map[string]any)["text"])
	var second map[string]any
	require.Eventually(t, func() bool {
		second = callTool(t, cs, "read_output", map[string]any{"id": "web", "cursor": cursor})
		return len(second["lines"].([]any)) > 0
	}, deadline, 50*time.Millisecond)
	for _, l := range second["lines"].([]any) {
		line := l.(map[string]any)
		require.Greater(t, line["seq"].(float64), cursor, "only lines after the cursor")
		require.Equal(t, "tick", line["text"])
	}

	killed := callTool(t, cs, "kill_job", map[string]any{"id": id})
	require.Equal(t, "killed", killed["job"].(map[string]any)["state"])
	require.Eventually(t, func() bool { return len(processesWith("3"+token)) == 0 }, deadline, 50*time.Millisecond,
		"the job's whole tree is gone")
	s.waitFor("the job to end in the TUI", func(scr []string) bool {
		return strings.Contains(row(scr, "web [mcp]"), "■ killed (KILL)")
	})
	require.Equal(t, "killed", in.state("web"))
}

// With no instance on the socket, the agent's first run_job starts a
// background `jobtop serve` there, as `jobtop run` does, and the job runs
// in it.
func TestMCPStartsAnInstance(t *testing.T) {
	bin := binary(t)
	dir, err := os.MkdirTemp("", "jt")
	require.NoError(t, err)
	t.Cleanup(func() { os.RemoveAll(dir) })
	socket := filepath.Join(dir, "s.sock")
	env := append(os.Environ(), "JOBTOP_SOCKET="+socket, "XDG_STATE_HOME="+dir)
	cs := mcpSession(t, bin, env)

	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "list_jobs", Arguments: map[string]any{}})
	require.NoError(t, err)
	require.True(t, res.IsError)
	require.Contains(t, res.Content[0].(*sdk.TextContent).Text, "no jobtop instance is running on "+socket+", so there are no jobs yet; run_job starts one")

	run := callTool(t, cs, "run_job", map[string]any{"name": "once", "command": "echo hello from mcp", "wait_for": "exit"})
	require.Equal(t, "succeeded", run["job"].(map[string]any)["state"])
	pid := instancePID(t, socket)
	t.Cleanup(func() { syscall.Kill(pid, syscall.SIGTERM) }) //nolint:errcheck // may have gone

	out, err := exec.Command(bin, "logs", "once", "--socket", socket).Output()
	require.NoError(t, err)
	require.Equal(t, "hello from mcp\n", string(out))
}

// instancePID asks the instance on socket for its pid.
func instancePID(t *testing.T, socket string) int {
	t.Helper()
	c := &http.Client{Transport: &http.Transport{DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
		return (&net.Dialer{}).DialContext(ctx, "unix", socket)
	}}}
	resp, err := c.Get("http://jobtop/v1/instance")
	require.NoError(t, err)
	defer resp.Body.Close()
	var inst struct {
		PID  int    `json:"pid"`
		Kind string `json:"kind"`
	}
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&inst))
	require.Equal(t, "serve", inst.Kind)
	return inst.PID
}
