package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"

	"jobtop/control"
	"jobtop/jobs"
	"jobtop/vtscreen/vtfast"
)

// deadline is generous: the tests run on a loaded 2-core machine.
const deadline = 30 * time.Second

// env is a jobtop instance (a manager served on a real socket) and an MCP
// client session talking to jobtop's MCP server over an in-memory
// transport.
type env struct {
	t       testing.TB
	mgr     *jobs.Manager
	api     *control.Client
	srv     *sdk.Server
	session *sdk.ClientSession
	dir     string
}

// newInstance serves a fresh manager on a socket in a short temp dir.
func newInstance(t testing.TB, store jobs.StoreOptions) (*jobs.Manager, *control.Client) {
	t.Helper()
	return newInstanceWith(t, jobs.Options{Store: store})
}

// newInstanceWith is newInstance with the manager's options (its log
// directory, environment and emulator set here).
func newInstanceWith(t testing.TB, opts jobs.Options) (*jobs.Manager, *control.Client) {
	t.Helper()
	dir, err := os.MkdirTemp("", "jt") // short: socket paths are limited
	require.NoError(t, err)
	t.Cleanup(func() { os.RemoveAll(dir) })
	socket := filepath.Join(dir, "s.sock")
	opts.LogDir, opts.Env = filepath.Join(dir, "logs"), map[string]string{control.SocketEnv: socket}
	opts.Emulator = func(c, r int) jobs.Emulator { return vtfast.New(c, r) }
	mgr, err := jobs.NewManager(opts)
	require.NoError(t, err)
	srv, err := control.ListenAndServe(mgr, socket, control.Instance{Kind: "serve"})
	require.NoError(t, err)
	api := control.NewClient(socket)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), deadline)
		defer cancel()
		api.Close()
		srv.Close()
		mgr.Shutdown(ctx) //nolint:errcheck // best effort in cleanup
	})
	return mgr, api
}

func newEnv(t testing.TB) *env {
	t.Helper()
	return newEnvWith(t, jobs.Options{})
}

// newEnvWith is newEnv on a manager with opts (as newInstanceWith).
func newEnvWith(t testing.TB, opts jobs.Options) *env {
	t.Helper()
	mgr, api := newInstanceWith(t, opts)
	e := &env{t: t, mgr: mgr, api: api, dir: t.TempDir()}
	e.srv = New(Options{Client: api, Dir: e.dir})
	e.session, _ = connect(t, e.srv, "test-agent")
	return e
}

// connect opens a client session named name on srv over an in-memory
// transport; it is closed when the test ends.
func connect(t testing.TB, srv *sdk.Server, name string) (*sdk.ClientSession, *sdk.ServerSession) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	st, ct := sdk.NewInMemoryTransports()
	ss, err := srv.Connect(ctx, st, nil)
	require.NoError(t, err)
	cs, err := sdk.NewClient(&sdk.Implementation{Name: name, Version: "1.0"}, nil).Connect(ctx, ct, nil)
	require.NoError(t, err)
	t.Cleanup(func() {
		cs.Close()
		ss.Wait() //nolint:errcheck // closed on purpose
	})
	return cs, ss
}

func ctxT(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	t.Cleanup(cancel)
	return ctx
}

// call calls a tool; a protocol error fails the test.
func (e *env) call(tool string, args any) *sdk.CallToolResult {
	e.t.Helper()
	res, err := e.session.CallTool(ctxT(e.t), &sdk.CallToolParams{Name: tool, Arguments: args})
	require.NoError(e.t, err, "calling %s", tool)
	return res
}

// ok calls a tool that must succeed, decodes its structured output into
// out (when not nil) and returns its text.
func (e *env) ok(tool string, args, out any) string {
	e.t.Helper()
	res := e.call(tool, args)
	text := resultText(e.t, res)
	require.False(e.t, res.IsError, "%s failed: %s", tool, text)
	if out != nil {
		b, err := json.Marshal(res.StructuredContent)
		require.NoError(e.t, err)
		require.NoError(e.t, json.Unmarshal(b, out), "structured content of %s: %s", tool, b)
	}
	return text
}

// toolErr calls a tool that must fail with a tool error, and returns its
// message.
func (e *env) toolErr(tool string, args any) string {
	e.t.Helper()
	res := e.call(tool, args)
	text := resultText(e.t, res)
	require.True(e.t, res.IsError, "%s should have failed; it said: %s", tool, text)
	return text
}

func resultText(t testing.TB, res *sdk.CallToolResult) string {
	t.Helper()
	require.Len(t, res.Content, 1)
	tc, ok := res.Content[0].(*sdk.TextContent)
	require.True(t, ok, "content is %T", res.Content[0])
	return tc.Text
}

// run starts a shell job through run_job and returns its ID.
func (e *env) run(name, command string) int {
	e.t.Helper()
	var out RunJobOutput
	e.ok("run_job", map[string]any{"name": name, "command": command}, &out)
	return out.Job.ID
}

// job is the job's state from the manager.
func (e *env) job(id int) jobs.Info {
	e.t.Helper()
	info, err := e.mgr.Get(jobs.ID(id))
	require.NoError(e.t, err)
	return info
}

// waitEnded waits through the manager for the job to end.
func (e *env) waitEnded(id int) jobs.Info {
	e.t.Helper()
	info, err := e.mgr.Wait(ctxT(e.t), jobs.ID(id))
	require.NoError(e.t, err)
	return info
}

// processAlive reports whether pid exists and is not a zombie.
func processAlive(pid int) bool {
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return false
	}
	s := string(b)
	for i := len(s) - 1; i >= 0; i-- {
		if s[i] == ')' {
			return len(s) > i+2 && s[i+2] != 'Z'
		}
	}
	return true
}

// mkfifo makes a named pipe: a job that reads it waits until the test
// writes, with no timing involved.
func mkfifo(t testing.TB) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "fifo")
	require.NoError(t, syscall.Mkfifo(path, 0o600))
	return path
}

// writeFifo writes text to the fifo once a reader has it open, and closes
// it; it fails the test if no reader comes.
func writeFifo(t testing.TB, path, text string) {
	t.Helper()
	var f *os.File
	var err error
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		// Non-blocking: ENXIO until a reader opens it.
		if f, err = os.OpenFile(path, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil || time.Now().After(deadline) {
			break
		}
	}
	require.NoError(t, err, "no reader opened the fifo")
	_, err = f.WriteString(text)
	require.NoError(t, err)
	require.NoError(t, f.Close())
}

func mkdir(path string) error { return os.Mkdir(path, 0o700) }

// fmtSscan reads "child PID" lines.
func fmtSscan(text string, pid *int) (int, error) { return fmt.Sscanf(text, "child %d", pid) }
