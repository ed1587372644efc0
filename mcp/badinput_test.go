package mcp

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"
)

// Wrong types, unknown arguments, bad values and huge arguments are tool
// errors that say what is wrong; an unknown tool is a protocol error; and
// the server and the instance answer normally after all of them.
func TestBadInput(t *testing.T) {
	e := newEnv(t)
	id := e.run("web", "exec sleep 60")
	cases := []struct {
		tool string
		args map[string]any
		want string
	}{
		{"job_status", map[string]any{"id": true}, "id must be a whole number or a string, not true"},
		{"job_status", map[string]any{"id": 1.5}, "id must be a whole number or a string, not 1.5"},
		{"job_status", map[string]any{}, "id is missing: a job's ID (a number) or its name (the newest job with that name)"},
		{"job_status", map[string]any{"id": nil}, "id is null: give a whole number or a string"},
		{"run_job", map[string]any{"command": nil}, "command is null: give a string, or leave command out if it is optional"},
		{"run_job", map[string]any{"command": 5}, "command must be a string, not 5"},
		{"run_job", map[string]any{"cmd": "make"}, `unknown argument "cmd": run_job takes command, argv, name, cwd, env, ready, timeout, wait_for, wait_timeout, tty, stdin, after`},
		{"run_job", map[string]any{"command": "true", "env": "A=1"}, `env must be an object, not the string "A=1"`},
		{"run_job", map[string]any{"command": "true", "timeout": "soon"}, `timeout: "soon" is not a duration: write a number of seconds or a number with a unit, like 30s`},
		{"run_job", map[string]any{"command": "true", "wait_for": "exit", "wait_timeout": "5x"}, `wait_timeout: "5x" is not a duration`},
		{"run_job", map[string]any{"command": "true", "ready": map[string]any{"after": "2x"}}, `ready.after: "2x" is not a duration`},
		{"run_job", map[string]any{"command": "true", "ready": map[string]any{"after": -1}}, `ready.after: duration -1 is negative`},
		{"run_job", map[string]any{"command": "true", "timeout": -3}, "timeout: duration -3 is negative"},
		{"run_job", map[string]any{"command": "true", "timeout": "99999999h"}, `timeout: "99999999h" is too large: at most 2562047h (about 292 years)`},
		{"run_job", map[string]any{}, "the job did not start: empty command: give a shell command or an argv"},
		{"run_job", map[string]any{"command": "true", "argv": []string{"true"}}, "give either a shell command or an argv, not both"},
		{"run_job", map[string]any{"command": "true", "cwd": "/no/such/dir"}, `cwd "/no/such/dir" does not exist`},
		{"run_job", map[string]any{"command": "true", "wait_for": "listening (on"}, `wait_for "listening (on" is not a valid regular expression: missing closing ) at byte 10 ("(on")`},
		{"run_job", map[string]any{"command": strings.Repeat("x", 2<<20)}, "the command, argv and env are 2097152 bytes together; at most 262144"},
		{"wait_job", map[string]any{"id": id, "until": "(?=ready)"}, "at byte 0 (\"(?=ready)\"); the syntax is Go's RE2: no lookahead"},
		{"read_output", map[string]any{"id": id, "cursor": -1}, "cursor must be 0 or more, not -1"},
		{"read_output", map[string]any{"id": id, "stream": "both"}, `stream must be stdout or stderr, not the string "both"`},
		{"read_output", map[string]any{"id": id, "cursor": 3, "tail": 5}, "give either cursor (the lines after it) or tail (the newest lines), not both"},
		{"search_output", map[string]any{"pattern": ""}, "pattern is empty"},
		{"search_output", map[string]any{"pattern": "a[b"}, `missing closing ] at byte 1 ("[b")`},
		{"search_output", map[string]any{"pattern": strings.Repeat("a", 1<<20)}, "pattern is 1048576 bytes long; a pattern of at most 4096 bytes"},
		{"search_output", map[string]any{"pattern": "x", "id": 99}, "no job has ID 99. The jobs are (ID name state):\n1 web running"},
		{"job_status", map[string]any{"id": strings.Repeat("n", 10000)}, `no job is named "` + strings.Repeat("n", 60) + `...".`},
		{"run_job", map[string]any{"command": "true", "tty": "yes"}, `tty must be true or false, not the string "yes"`},
		{"send_input", map[string]any{"id": id, "keys": "enter"}, `keys must be a list, not the string "enter"`},
		{"send_input", map[string]any{"id": id, "text": strings.Repeat("x", 1<<20)}, "text is 1048576 bytes; at most 65536 at once"},
		{"read_screen", map[string]any{"id": id, "timeout": "later"}, `timeout: "later" is not a duration`},
		{"wait_job", map[string]any{"id": id, "timeout": true}, `timeout must be a string or a number, not true`},
		{"read_output", map[string]any{"id": id, "tail": -1}, "tail must be 0 or more, not -1"},
		{"run_job", map[string]any{"command": "true", "env": map[string]any{"A": 1}}, `env["A"] must be a string, not 1`},
		{"run_job", map[string]any{"command": "true", "ready": map[string]any{"htp": "x"}}, `unknown key "htp" in ready: it takes log, http, tcp, exec, after`},
		{"run_job", map[string]any{"command": "true", "after": []any{1, true}}, "after[1] must be a whole number or a string, not true"},
		{"run_job", map[string]any{"command": "true", "stdin": "file"}, `stdin must be pipe, not the string "file"`},
		{"list_jobs", map[string]any{"state": "done"}, `state must be active, ended, queued, running, stopping, succeeded, failed, killed, timed_out, error or created, not the string "done"`},
	}
	for _, c := range cases {
		msg := e.toolErr(c.tool, c.args)
		require.Contains(t, msg, c.want, "%s %v", c.tool, c.args)
		require.NotContains(t, msg, "validating /properties", "in jobtop's words, not the schema library's: %s %v", c.tool, c.args)
	}

	_, err := e.session.CallTool(ctxT(t), &sdk.CallToolParams{Name: "type_keys", Arguments: map[string]any{"id": id}})
	require.ErrorContains(t, err, `unknown tool "type_keys"`)

	var l ListJobsOutput
	e.ok("list_jobs", nil, &l)
	require.Len(t, l.Jobs, 1, "nothing was started by the bad calls")
	require.Equal(t, "running", l.Jobs[0].State)
}

// A client that goes away in the middle of a wait ends that wait: the
// server's session ends, its goroutines and connections to the instance
// go, the job keeps running, and another client is served as before.
func TestClientDisconnectsMidWait(t *testing.T) {
	e := newEnv(t)
	fifo := mkfifo(t)
	id := e.run("srv", "read l < "+fifo+"; echo never")
	e.ok("job_status", map[string]any{"id": id}, nil) // warm the API client's connections

	leaks := goleak.IgnoreCurrent()
	started := make(chan struct{})
	var once sync.Once
	e.srv.AddReceivingMiddleware(func(next sdk.MethodHandler) sdk.MethodHandler {
		return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
			if method == "tools/call" {
				once.Do(func() { close(started) })
			}
			return next(ctx, method, req)
		}
	})
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	st, ct := sdk.NewInMemoryTransports()
	ss, err := e.srv.Connect(ctx, st, nil)
	require.NoError(t, err)
	cut := &cuttable{Transport: ct}
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "leaver"}, nil).Connect(ctx, cut, nil)
	require.NoError(t, err)
	callDone := make(chan error, 1)
	go func() {
		_, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "wait_job", Arguments: map[string]any{"id": id, "until": "never", "timeout": "10m"}})
		callDone <- err
	}()
	<-started
	require.NoError(t, cut.conn.Close(), "the client goes, as a crashed agent does")
	require.Error(t, <-callDone, "the call was cut off")
	ss.Wait() //nolint:errcheck // the client went
	e.api.Close()
	goleak.VerifyNone(t, leaks,
		// The API client keeps up to 4 idle keep-alive connections.
		goleak.IgnoreTopFunction("net/http.(*persistConn).readLoop"),
		goleak.IgnoreTopFunction("net/http.(*persistConn).writeLoop"))

	require.Equal(t, "running", string(e.job(id).State), "the job outlives the client")
	var w WaitResult
	go writeFifo(t, fifo, "go\n")
	e.ok("wait_job", map[string]any{"id": id, "timeout": 20 * time.Second / time.Second}, &w)
	require.Equal(t, "exited", w.Outcome, "the first session still works")
}

// cuttable is a client transport whose connection the test can cut, as
// when the agent's process dies: no goodbye, no waiting for answers.
type cuttable struct {
	sdk.Transport
	conn sdk.Connection
}

func (c *cuttable) Connect(ctx context.Context) (sdk.Connection, error) {
	conn, err := c.Transport.Connect(ctx)
	c.conn = conn
	return conn, err
}

// An argument given twice is refused, as the API refuses a field given
// twice: decoding would run the last without a word.
func TestArgumentGivenTwice(t *testing.T) {
	e := newEnv(t)
	msg := e.toolErr("run_job", json.RawMessage(`{"command": "echo first", "name": "a", "command": "echo second"}`))
	require.Equal(t, `arguments: field "command" is given twice`, msg)
	msg = e.toolErr("run_job", json.RawMessage(`{"command": "true", "env": {"A": "1", "A": "2"}}`))
	require.Equal(t, `arguments: "A" is given twice in "env"`, msg)
	require.Equal(t, "no jobs; run_job starts one", e.ok("list_jobs", map[string]any{}, nil), "no job started")
}

// A call with no "arguments" at all is worded as one with {}: what is
// missing, in jobtop's words, not the schema library's.
func TestNoArgumentsField(t *testing.T) {
	s := &Server{}
	s.addTools(sdk.NewServer(&sdk.Implementation{Name: "jobtop", Version: "test"}, nil))
	check := s.checkArguments(func(context.Context, string, sdk.Request) (sdk.Result, error) {
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "passed on"}}}, nil
	})
	res, err := check(ctxT(t), "tools/call", &sdk.CallToolRequest{Params: &sdk.CallToolParamsRaw{Name: "job_status"}})
	require.NoError(t, err)
	require.Equal(t, "id is missing: a job's ID (a number) or its name (the newest job with that name)", resultText(t, res.(*sdk.CallToolResult)))
	res, err = check(ctxT(t), "tools/call", &sdk.CallToolRequest{Params: &sdk.CallToolParamsRaw{Name: "list_jobs"}})
	require.NoError(t, err)
	require.Equal(t, "passed on", resultText(t, res.(*sdk.CallToolResult)), "a tool that needs none runs")
}
