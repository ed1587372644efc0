package control

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"jobtop/jobs"
)

func TestInstanceNamesItself(t *testing.T) {
	in := startInstance(t)
	inst, err := in.client.Instance(ctxT(t))
	require.NoError(t, err)
	assert.Equal(t, os.Getpid(), inst.PID)
	assert.Equal(t, "serve", inst.Kind)
	assert.Equal(t, in.socket, inst.Socket)
	assert.Equal(t, in.mgr.LogDir(), inst.LogDir)
}

func TestStartListGetAndWait(t *testing.T) {
	in := startInstance(t)
	dir := t.TempDir()
	info, err := in.client.StartJob(ctxT(t), StartRequest{
		Name:    "hello",
		Command: `echo "hello $WHO from $(pwd)"; echo oops >&2; exit 3`,
		Cwd:     dir,
		Env:     map[string]string{"WHO": "world"},
	})
	require.NoError(t, err)
	assert.Equal(t, "hello", info.Name)
	assert.Equal(t, dir, info.Dir)

	end := in.waitEnded(t, info.ID)
	assert.Equal(t, jobs.StateFailed, end.State)
	require.NotNil(t, end.ExitCode)
	assert.Equal(t, 3, *end.ExitCode)
	assert.Equal(t, 1, end.Runs)
	assert.NotEmpty(t, end.LogPath)

	list, err := in.client.Jobs(ctxT(t))
	require.NoError(t, err)
	require.Len(t, list, 1)
	assert.Equal(t, info.ID, list[0].ID)

	got, err := in.client.Job(ctxT(t), info.ID)
	require.NoError(t, err)
	assert.Equal(t, jobs.StateFailed, got.State)
	assert.EqualValues(t, 2, got.Lines)

	out, err := in.client.ReadOutput(ctxT(t), info.ID, OutputQuery{})
	require.NoError(t, err)
	assert.ElementsMatch(t, []string{"hello world from " + dir, "oops"}, texts(out.Lines))
	assert.True(t, out.Ended)

	stderr, err := in.client.ReadOutput(ctxT(t), info.ID, OutputQuery{Stream: "stderr"})
	require.NoError(t, err)
	assert.Equal(t, []string{"oops"}, texts(stderr.Lines))
	assert.EqualValues(t, 2, stderr.NextCursor, "the cursor moves past filtered lines")
}

// A cursor past the job's newest line is refused: it is not one this job
// gave, and it would hide the lines a restart writes up to it.
func TestCursorPastTheEndIsRefused(t *testing.T) {
	in := startInstance(t)
	ctx := ctxT(t)
	info := in.startJob(t, "echo a; echo b")
	in.waitEnded(t, info.ID)
	for _, q := range []OutputQuery{{Cursor: 50}, {Cursor: 3, Follow: true}, {Cursor: 3, Wait: true}} {
		_, err := in.client.ReadOutput(ctx, info.ID, q)
		require.Error(t, err, "%+v", q)
		var apiErr *APIError
		require.ErrorAs(t, err, &apiErr)
		assert.Equal(t, http.StatusBadRequest, apiErr.Status)
		assert.Contains(t, err.Error(), fmt.Sprintf("cursor %d is past job %d's last line (2)", q.Cursor, info.ID))
	}
	end, err := in.client.ReadOutput(ctx, info.ID, OutputQuery{Cursor: 2})
	require.NoError(t, err)
	assert.Empty(t, end.Lines)
	assert.EqualValues(t, 2, end.NextCursor)

	_, err = in.client.RestartJob(ctx, info.ID, true)
	require.NoError(t, err)
	in.waitEnded(t, info.ID)
	out, err := in.client.ReadOutput(ctx, info.ID, OutputQuery{Cursor: 2})
	require.NoError(t, err)
	assert.Equal(t, []string{"── run 2 ──", "a", "b"}, texts(out.Lines), "the restart's lines follow the cursor")
	assert.EqualValues(t, 5, out.NextCursor)

	all, err := in.client.ReadAllOutput(ctx, AllOutputQuery{})
	require.NoError(t, err)
	// Arrival numbers are reserved in blocks (a guess at a read's lines)
	// and what a read leaves of its block is given up, so the newest
	// arrival may lie a few past the last line's: next_cursor+1 need not
	// be past it, next_cursor plus a block's worth is.
	for _, q := range []AllOutputQuery{{Cursor: all.NextCursor + 1000}, {Cursor: all.NextCursor + 1000, Follow: true}} {
		_, err = in.client.ReadAllOutput(ctx, q)
		var apiErr *APIError
		require.ErrorAs(t, err, &apiErr, "every job's output, %+v", q)
		assert.Equal(t, http.StatusBadRequest, apiErr.Status)
		assert.Contains(t, err.Error(), "is past the newest arrival")
	}
	_, err = in.client.ReadAllOutput(ctx, AllOutputQuery{Cursor: all.NextCursor})
	require.NoError(t, err)
}

// A cursor read of a removed job is a 404, as a read without one is, not
// a 400 that calls the cursor past the job's end: by rm, and by the cap
// on finished jobs; plain, waiting and following.
func TestCursorReadOfARemovedJobIsNotFound(t *testing.T) {
	in := startInstanceWith(t, filepath.Join(shortTempDir(t), "s.sock"), jobs.Options{KeepFinished: 1})
	ctx := ctxT(t)
	removed := in.startJob(t, "seq 1 10")
	in.waitEnded(t, removed.ID)
	_, err := in.client.RemoveJob(ctx, removed.ID)
	require.NoError(t, err)
	evicted := in.startJob(t, "seq 1 10")
	in.waitEnded(t, evicted.ID)
	in.waitEnded(t, in.startJob(t, "true").ID) // past the cap: evicted goes
	_, err = in.client.Job(ctx, evicted.ID)
	require.Error(t, err, "the cap removed the job")
	for _, id := range []jobs.ID{removed.ID, evicted.ID} {
		for _, q := range []OutputQuery{{}, {Cursor: 5}, {Cursor: 5, Wait: true}, {Cursor: 5, Follow: true}} {
			_, err := in.client.ReadOutput(ctx, id, q)
			var apiErr *APIError
			require.ErrorAs(t, err, &apiErr, "job %d, %+v", id, q)
			assert.Equal(t, http.StatusNotFound, apiErr.Status, "job %d, %+v", id, q)
			assert.Equal(t, fmt.Sprintf("no job with ID %d", id), apiErr.Message, "job %d, %+v", id, q)
		}
	}
}

// A job started without a cwd runs in the instance's directory, and its
// job object says which.
func TestJobWithoutCwdSaysWhereItRuns(t *testing.T) {
	in := startInstance(t)
	dir, err := os.Getwd()
	require.NoError(t, err)
	info := in.startJob(t, "pwd -P")
	assert.Equal(t, dir, info.Dir, "the answer to the start")
	ended := in.waitEnded(t, info.ID)
	assert.Equal(t, dir, ended.Dir)
	out, err := in.client.ReadOutput(ctxT(t), info.ID, OutputQuery{})
	require.NoError(t, err)
	real, err := filepath.EvalSymlinks(dir)
	require.NoError(t, err)
	assert.Equal(t, []string{real}, texts(out.Lines), "where it ran")
}

func TestJobsSeeTheirSocketAndID(t *testing.T) {
	in := startInstance(t)
	info := in.startJob(t, `echo "$JOBTOP_SOCKET $JOBTOP_JOB_ID"`)
	in.waitEnded(t, info.ID)
	out, err := in.client.ReadOutput(ctxT(t), info.ID, OutputQuery{})
	require.NoError(t, err)
	assert.Equal(t, []string{in.socket + " " + info.ID.String()}, texts(out.Lines))
}

func TestCursorReadsNeverRepeat(t *testing.T) {
	in := startInstance(t)
	info := in.startJob(t, `for i in $(seq 1 50); do echo line$i; done; exec sleep 60`)
	ctx := ctxT(t)
	var seen []string
	var cursor uint64
	for len(seen) < 50 {
		out, err := in.client.ReadOutput(ctx, info.ID, OutputQuery{Cursor: cursor, Max: 7, Wait: true, Timeout: 10 * time.Second})
		require.NoError(t, err)
		require.LessOrEqual(t, len(out.Lines), 7)
		seen = append(seen, texts(out.Lines)...)
		cursor = out.NextCursor
	}
	want := make([]string, 50)
	for i := range want {
		want[i] = "line" + strconv.Itoa(i+1)
	}
	assert.Equal(t, want, seen)

	// Nothing new: a short long-poll returns empty, cursor unchanged.
	out, err := in.client.ReadOutput(ctx, info.ID, OutputQuery{Cursor: cursor, Wait: true, Timeout: 200 * time.Millisecond})
	require.NoError(t, err)
	assert.Empty(t, out.Lines)
	assert.Equal(t, cursor, out.NextCursor)
	assert.False(t, out.Ended)

	tail, err := in.client.ReadOutput(ctx, info.ID, OutputQuery{Tail: 2})
	require.NoError(t, err)
	assert.Equal(t, []string{"line49", "line50"}, texts(tail.Lines))
	assert.EqualValues(t, 50, tail.NextCursor)
	_, err = in.client.KillJob(ctx, info.ID, true)
	require.NoError(t, err)
}

func TestLongPollWakesOnNewOutput(t *testing.T) {
	in := startInstance(t)
	fifo := mkfifo(t)
	info := in.startJob(t, "cat "+fifo)
	ctx := ctxT(t)
	got := make(chan OutputResponse, 1)
	go func() {
		out, err := in.client.ReadOutput(ctx, info.ID, OutputQuery{Wait: true})
		assert.NoError(t, err)
		got <- out
	}()
	writeFifo(t, fifo, "ping\n")
	select {
	case out := <-got:
		assert.Equal(t, []string{"ping"}, texts(out.Lines))
	case <-ctx.Done():
		t.Fatal("long-poll did not return after output")
	}
	end := in.waitEnded(t, info.ID)
	assert.Equal(t, jobs.StateSucceeded, end.State)
}

func TestFollowStreamsUntilTheJobEnds(t *testing.T) {
	in := startInstance(t)
	info := in.startJob(t, `for i in 1 2 3; do echo n$i; sleep 0.05; done; printf partial`)
	var lines []string
	var last OutputResponse
	err := in.client.FollowOutput(ctxT(t), info.ID, OutputQuery{}, func(r OutputResponse) error {
		lines = append(lines, texts(r.Lines)...)
		last = r
		return nil
	})
	require.NoError(t, err)
	assert.Equal(t, []string{"n1", "n2", "n3", "partial"}, lines, "the last partial line is committed at the end")
	assert.True(t, last.Ended)
	assert.Equal(t, jobs.StateSucceeded, last.State)
}

func TestStopKillRestartRemove(t *testing.T) {
	in := startInstance(t)
	ctx := ctxT(t)
	info := in.startJob(t, "sleep 60")

	// Remove refuses a running job, with a hint.
	_, err := in.client.RemoveJob(ctx, info.ID)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "stop it first")
	assert.Equal(t, 409, err.(*APIError).Status)

	restarted, err := in.client.RestartJob(ctx, info.ID, true)
	require.NoError(t, err)
	assert.Equal(t, 2, restarted.Runs)
	assert.Equal(t, jobs.StateRunning, restarted.State)
	assert.NotEqual(t, info.PID, restarted.PID)
	assert.False(t, processAlive(info.PID), "the first run's process is gone")

	stopped, err := in.client.StopJob(ctx, info.ID, true)
	require.NoError(t, err)
	assert.Equal(t, jobs.StateKilled, stopped.State)
	assert.Equal(t, "SIGTERM", stopped.Signal.String())

	// Restarting an ended job starts it again at once.
	again, err := in.client.RestartJob(ctx, info.ID, true)
	require.NoError(t, err)
	assert.Equal(t, 3, again.Runs)
	killed, err := in.client.KillJob(ctx, info.ID, true)
	require.NoError(t, err)
	assert.Equal(t, jobs.StateKilled, killed.State)
	assert.Equal(t, "SIGKILL", killed.Signal.String())

	_, err = in.client.KillJob(ctx, info.ID, false)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "cannot kill job 1: it has ended (killed)")

	removed, err := in.client.RemoveJob(ctx, info.ID)
	require.NoError(t, err)
	assert.Equal(t, info.ID, removed.ID)
	_, err = in.client.Job(ctx, info.ID)
	assert.True(t, IsNotFound(err), "got %v", err)
}

func TestKillLeavesNoDescendant(t *testing.T) {
	in := startInstance(t)
	ctx := ctxT(t)
	// A child in its own session, which escapes the process group.
	info := in.startJob(t, `setsid sh -c 'echo $$; exec sleep 60' & wait`)
	out, err := in.client.ReadOutput(ctx, info.ID, OutputQuery{Wait: true})
	require.NoError(t, err)
	require.Len(t, out.Lines, 1)
	child, err := strconv.Atoi(out.Lines[0].Text)
	require.NoError(t, err)
	require.True(t, processAlive(child))

	_, err = in.client.KillJob(ctx, info.ID, true)
	require.NoError(t, err)
	require.Eventually(t, func() bool { return !processAlive(child) }, testTimeout, 20*time.Millisecond)
}

func TestWaitTimeout(t *testing.T) {
	in := startInstance(t)
	info := in.startJob(t, "sleep 60")
	resp, err := in.client.WaitJob(ctxT(t), info.ID, 100*time.Millisecond)
	require.NoError(t, err)
	assert.False(t, resp.Ended)
	assert.Equal(t, jobs.StateRunning, resp.Job.State)
}

func TestJobTimeoutEndsTimedOut(t *testing.T) {
	in := startInstance(t)
	info, err := in.client.StartJob(ctxT(t), StartRequest{Command: "sleep 60", Timeout: "200ms", Grace: "100ms"})
	require.NoError(t, err)
	end := in.waitEnded(t, info.ID)
	assert.Equal(t, jobs.StateTimedOut, end.State)
}

func TestEventStreamStartsWithASnapshot(t *testing.T) {
	in := startInstance(t)
	first := in.startJob(t, "true")
	in.waitEnded(t, first.ID)
	ctx, cancel := context.WithCancel(ctxT(t))
	defer cancel()
	events, err := in.client.Events(ctx)
	require.NoError(t, err)
	defer events.Close()
	require.Len(t, events.Snapshot, 1)
	assert.Equal(t, first.ID, events.Snapshot[0].ID)

	second := in.startJob(t, "echo hi")
	var kinds []string
	for !contains(kinds, "added") || !contains(kinds, "output") {
		batch, err := events.Next()
		require.NoError(t, err)
		for _, ev := range batch {
			if ev.Job.ID == second.ID {
				kinds = append(kinds, ev.Kind)
			}
		}
	}
}

func TestServerCloseEndsStreams(t *testing.T) {
	in := startInstance(t)
	info := in.startJob(t, "sleep 60")
	errs := make(chan error, 1)
	opened := make(chan struct{})
	var once sync.Once
	go func() {
		errs <- in.client.FollowOutput(ctxT(t), info.ID, OutputQuery{}, func(OutputResponse) error {
			once.Do(func() { close(opened) })
			return nil
		})
	}()
	// The stream is open once its first answer has come; closing must end it.
	select {
	case <-opened:
	case err := <-errs:
		t.Fatalf("follow ended before it opened: %v", err)
	case <-time.After(testTimeout):
		t.Fatal("follow stream did not open")
	}
	require.NoError(t, in.server.Close())
	select {
	case err := <-errs:
		require.Error(t, err)
		assert.True(t, strings.Contains(err.Error(), "broke off") || strings.Contains(err.Error(), "no jobtop"), err.Error())
	case <-time.After(testTimeout):
		t.Fatal("follow stream did not end when the server closed")
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
