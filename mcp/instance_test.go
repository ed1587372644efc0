package mcp

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"

	"jobtop/control"
	"jobtop/jobs"
	"jobtop/vtscreen/vtfast"
)

// serveAt serves a fresh manager on socket (logs under name), and returns
// what ends it: its server closes, cutting off its waits, and its jobs
// end, as when the instance's process ends.
func serveAt(t *testing.T, socket, name string) (end func()) {
	t.Helper()
	mgr, err := jobs.NewManager(jobs.Options{LogDir: filepath.Join(filepath.Dir(socket), name), Env: map[string]string{control.SocketEnv: socket},
		Emulator: func(c, r int) jobs.Emulator { return vtfast.New(c, r) }})
	require.NoError(t, err)
	srv, err := control.ListenAndServe(mgr, socket, control.Instance{Kind: "serve"})
	require.NoError(t, err)
	var once sync.Once
	end = func() {
		once.Do(func() {
			ctx, cancel := context.WithTimeout(context.Background(), deadline)
			defer cancel()
			srv.Close()
			mgr.Shutdown(ctx) //nolint:errcheck // best effort
		})
	}
	t.Cleanup(end)
	return end
}

// An agent whose instance ends mid-wait hears that it ended with its
// jobs, in that answer and the next ones, not "no jobs yet"; the job
// run_job starts next is said to be on a new instance; and a call naming
// a job on an instance other than the one it talked to is refused once,
// saying job IDs there name other jobs.
func TestInstanceThatEnds(t *testing.T) {
	dir, err := os.MkdirTemp("", "jt") // short: socket paths are limited
	require.NoError(t, err)
	t.Cleanup(func() { os.RemoveAll(dir) })
	socket := filepath.Join(dir, "s.sock")
	endA := serveAt(t, socket, "a")
	api := control.NewClient(socket)
	t.Cleanup(func() { api.Close() })
	var endC func()
	srv := New(Options{Client: api, Dir: t.TempDir(), EnsureInstance: func(context.Context) error {
		endC = serveAt(t, socket, "c")
		return nil
	}})
	old := progressEvery
	progressEvery = 10 * time.Millisecond
	t.Cleanup(func() { progressEvery = old })
	waiting := make(chan struct{}, 1)
	ctx := ctxT(t)
	st, ct := sdk.NewInMemoryTransports()
	ss, err := srv.Connect(ctx, st, nil)
	require.NoError(t, err)
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "agent"}, &sdk.ClientOptions{
		ProgressNotificationHandler: func(context.Context, *sdk.ProgressNotificationClientRequest) {
			select {
			case waiting <- struct{}{}:
			default:
			}
		},
	}).Connect(ctx, ct, nil)
	require.NoError(t, err)
	t.Cleanup(func() {
		cs.Close()
		ss.Wait() //nolint:errcheck // closed on purpose
	})
	e := &env{t: t, session: cs}

	var run RunJobOutput
	e.ok("run_job", map[string]any{"name": "w", "command": "exec sleep 600"}, &run)
	require.Equal(t, 1, run.Job.ID)

	done := make(chan *sdk.CallToolResult, 1)
	go func() {
		params := &sdk.CallToolParams{Name: "wait_job", Arguments: map[string]any{"id": 1, "timeout": 60}}
		params.SetProgressToken("w")
		res, err := cs.CallTool(ctx, params)
		if err != nil {
			res = &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: err.Error()}}}
		}
		done <- res
	}()
	select {
	case <-waiting:
	case <-ctx.Done():
		t.Fatal("the wait never began")
	}
	endA()
	res := <-done
	text := resultText(t, res)
	require.True(t, res.IsError, text)
	require.Contains(t, text, "waiting for job 1 to end was cut off: the jobtop instance that ran the earlier jobs (pid ")
	require.Contains(t, text, "on "+socket+" has ended, and its jobs ended with it")
	require.Contains(t, text, "job IDs are new and do not name the old jobs")
	require.NotContains(t, text, "no jobs yet")

	for _, call := range []struct {
		tool string
		args map[string]any
	}{{"list_jobs", map[string]any{}}, {"read_output", map[string]any{"id": 1, "cursor": 0}}, {"wait_job", map[string]any{"id": 1}}} {
		text := e.toolErr(call.tool, call.args)
		require.Contains(t, text, "has ended, and its jobs ended with it. No instance runs there now", call.tool)
		require.NotContains(t, text, "no jobs yet", call.tool)
	}

	text = e.ok("run_job", map[string]any{"name": "x", "command": "exec sleep 600"}, &run)
	require.Equal(t, 1, run.Job.ID)
	require.Contains(t, text, "has ended, and its jobs ended with it. This job runs on a new instance")
	require.Contains(t, e.ok("run_job", map[string]any{"name": "y", "command": "true"}, nil), "started job 2")

	// Another instance takes the socket between two calls: a call naming
	// a job is refused once; list_jobs answers with the news first.
	endC()
	serveAt(t, socket, "d")
	_, err = api.StartJob(ctx, control.StartRequest{Name: "other", Command: "exec sleep 600"})
	require.NoError(t, err)
	text = e.toolErr("read_output", map[string]any{"id": 1, "cursor": 0})
	require.Contains(t, text, "has ended, and its jobs ended with it. Another instance (pid ")
	require.Contains(t, text, "its job IDs are new and do not name the old jobs")
	var read ReadOutputResult
	e.ok("read_output", map[string]any{"id": 1}, &read)
	require.Equal(t, 1, read.Job)
}
