package control

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"jobtop/jobs"
)

// engine is a copy of the TUI's engine interface (ui must not be imported
// here); Client must satisfy it for attach.
type engine interface {
	List() []jobs.Info
	Get(jobs.ID) (jobs.Info, error)
	Output(jobs.ID) (jobs.OutputReader, error)
	Start(jobs.Spec) (jobs.Info, error)
	Stop(jobs.ID) error
	Kill(jobs.ID) error
	Restart(jobs.ID) (jobs.Info, error)
	Remove(jobs.ID) error
	Subscribe() jobs.EventStream
}

var (
	_ engine            = (*Client)(nil)
	_ engine            = (*jobs.Manager)(nil)
	_ jobs.OutputReader = (*mirrorStore)(nil)
	_ jobs.EventStream  = (*remoteStream)(nil)
)

// attached is a client attached to a fresh instance, plus a subscription.
func attached(t *testing.T) (*instance, jobs.EventStream) {
	t.Helper()
	in := startInstance(t)
	require.NoError(t, in.client.Attach(ctxT(t)))
	sub := in.client.Subscribe()
	t.Cleanup(sub.Close)
	return in, sub
}

// waitEvent reads batches until one has an event for id that satisfies ok.
func waitEvent(t *testing.T, sub jobs.EventStream, id jobs.ID, ok func(jobs.Event) bool) jobs.Event {
	t.Helper()
	deadline := time.After(testTimeout)
	for {
		select {
		case batch, open := <-sub.C():
			require.True(t, open, "the event stream closed")
			for _, ev := range batch {
				if ev.Job.ID == id && ok(ev) {
					return ev
				}
			}
		case <-deadline:
			t.Fatalf("no matching event for job %d", id)
		}
	}
}

func TestAttachedClientMirrorsJobsStartedElsewhere(t *testing.T) {
	in, sub := attached(t)
	// Started on the manager directly, as another client would.
	info, err := in.mgr.Start(jobs.Spec{Command: `for i in $(seq 1 300); do echo "l$i"; done; printf tail`})
	require.NoError(t, err)
	waitEvent(t, sub, info.ID, func(ev jobs.Event) bool { return ev.Job.State.Done() })

	list := in.client.List()
	require.Len(t, list, 1)
	assert.Equal(t, jobs.StateSucceeded, list[0].State)

	out, err := in.client.Output(info.ID)
	require.NoError(t, err)
	// Events are passed on only after the mirror fetched the output.
	chunk := out.ReadAfter(0, 0)
	require.Len(t, chunk.Lines, 301)
	assert.Equal(t, "l1", chunk.Lines[0].Text)
	assert.EqualValues(t, 1, chunk.Lines[0].Seq)
	assert.Equal(t, "tail", chunk.Lines[300].Text)
	assert.Equal(t, "tail", out.LastLine())
	assert.Equal(t, []string{"l299", "l300", "tail"}, texts(out.Tail(3).Lines))
	assert.EqualValues(t, 301, out.Stats().Last)
	page := out.ReadAfter(10, 5)
	assert.Equal(t, []string{"l11", "l12", "l13", "l14", "l15"}, texts(page.Lines))
	assert.EqualValues(t, 15, page.Next)
}

func TestAttachedClientActsOnTheInstance(t *testing.T) {
	in, sub := attached(t)
	info, err := in.client.Start(jobs.Spec{Name: "sleeper", Command: "sleep 60", Grace: time.Second})
	require.NoError(t, err)
	got, err := in.client.Get(info.ID)
	require.NoError(t, err, "a started job is in the mirror at once")
	assert.Equal(t, "sleeper", got.Name)
	wd, err := os.Getwd()
	require.NoError(t, err)
	assert.Equal(t, wd, got.Dir, "a job started without a dir runs in the client's")

	_, err = in.client.Restart(info.ID)
	require.NoError(t, err)
	waitEvent(t, sub, info.ID, func(ev jobs.Event) bool { return ev.Job.Runs == 2 && ev.Job.State == jobs.StateRunning })

	require.NoError(t, in.client.Stop(info.ID))
	ev := waitEvent(t, sub, info.ID, func(ev jobs.Event) bool { return ev.Job.State.Done() })
	assert.Equal(t, jobs.StateKilled, ev.Job.State)
	server, err := in.mgr.Get(info.ID)
	require.NoError(t, err)
	assert.Equal(t, jobs.StateKilled, server.State)

	require.NoError(t, in.client.Remove(info.ID))
	_, err = in.client.Get(info.ID)
	assert.Error(t, err)
	_, err = in.mgr.Get(info.ID)
	assert.Error(t, err)

	second, err := in.client.Start(jobs.Spec{Command: "sleep 60"})
	require.NoError(t, err)
	require.NoError(t, in.client.Kill(second.ID))
	ev = waitEvent(t, sub, second.ID, func(ev jobs.Event) bool { return ev.Job.State.Done() })
	assert.Equal(t, "SIGKILL", ev.Job.Signal.String())
	err = in.client.Kill(second.ID)
	assert.ErrorContains(t, err, "it has ended (killed)")
}

// TestMirrorOfAFirehoseStaysBounded: a job writing far more than the
// mirror keeps leaves it contiguous, bounded, and at the server's newest
// line, with the gap counted as dropped.
func TestMirrorOfAFirehoseStaysBounded(t *testing.T) {
	in, sub := attached(t)
	info, err := in.mgr.Start(jobs.Spec{Command: `seq 1 200000`})
	require.NoError(t, err)
	waitEvent(t, sub, info.ID, func(ev jobs.Event) bool { return ev.Job.State.Done() })
	out, err := in.client.Output(info.ID)
	require.NoError(t, err)
	st := out.Stats()
	assert.EqualValues(t, 200000, st.Last)
	assert.LessOrEqual(t, st.Retained, mirrorLines)
	assert.Equal(t, st.First-1, st.Dropped)
	tail := out.Tail(2)
	assert.Equal(t, []string{"199999", "200000"}, texts(tail.Lines))
	all := out.ReadAfter(0, 0)
	assert.EqualValues(t, st.Dropped, all.Dropped)
	for i, l := range all.Lines {
		require.Equal(t, fmt.Sprint(st.First+uint64(i)), l.Text, "lines are contiguous")
	}
}

func TestSubscriptionEndsWhenTheInstanceGoes(t *testing.T) {
	in, sub := attached(t)
	require.NoError(t, in.mgr.Shutdown(ctxT(t))) // as an instance ends: its jobs, then its server
	require.NoError(t, in.server.Close())
	deadline := time.After(testTimeout)
	for {
		select {
		case _, open := <-sub.C():
			if !open {
				<-in.client.Done()
				var down *ShutDownError
				assert.ErrorAs(t, in.client.Err(), &down, "an instance that shuts down says so")
				return
			}
		case <-deadline:
			t.Fatal("the subscription did not end")
		}
	}
}

func TestMirrorStoreReadsLikeAnOutputStore(t *testing.T) {
	s := newMirrorStore()
	line := func(seq uint64) jobs.Line { return jobs.Line{Seq: seq, Text: fmt.Sprint(seq)} }
	s.apply(OutputResponse{Lines: []jobs.Line{line(1), line(2), line(3)}, NextCursor: 3})
	s.apply(OutputResponse{Lines: []jobs.Line{line(3), line(4)}, NextCursor: 4}) // overlap ignored
	assert.Equal(t, []string{"1", "2", "3", "4"}, texts(s.ReadAfter(0, 0).Lines))

	// A jump ahead (the server's tail) drops what is held.
	s.apply(OutputResponse{Lines: []jobs.Line{line(10), line(11)}, NextCursor: 11})
	c := s.ReadAfter(2, 0)
	assert.EqualValues(t, 7, c.Dropped)
	assert.Equal(t, []string{"10", "11"}, texts(c.Lines))
	assert.EqualValues(t, 11, c.Next)
	c = s.ReadAfter(11, 0)
	assert.Empty(t, c.Lines)
	assert.EqualValues(t, 11, c.Next)

	// The server skipped lines it no longer had, and returned none.
	s.apply(OutputResponse{Lines: []jobs.Line{}, NextCursor: 20, Dropped: 9})
	st := s.Stats()
	assert.EqualValues(t, 21, st.First)
	assert.EqualValues(t, 20, st.Last)
	assert.Zero(t, st.Retained)
	c = s.ReadAfter(11, 0)
	assert.EqualValues(t, 9, c.Dropped)
	assert.EqualValues(t, 20, c.Next)
}

// countingInstance serves a fresh manager through a handler that counts
// requests, on a real socket.
func countingInstance(t *testing.T) (*instance, *atomic.Int64) {
	t.Helper()
	socket := filepath.Join(shortTempDir(t), "s.sock")
	m := newManager(t, socket)
	l, err := Listen(socket)
	require.NoError(t, err)
	srv := NewServer(m, Instance{Kind: "serve", Socket: socket})
	var requests atomic.Int64
	h := srv.Handler()
	httpSrv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		h.ServeHTTP(w, r)
	})}
	go httpSrv.Serve(l) //nolint:errcheck // ends with Close
	t.Cleanup(func() { srv.Close(); httpSrv.Close() })
	c := NewClient(socket)
	t.Cleanup(func() { c.Close() })
	return &instance{mgr: m, server: srv, socket: socket, client: c}, &requests
}

// TestDrawingFromTheMirrorMakesNoRequests: what a pane does on each frame
// (Get, Output, Tail, ReadAfter, Stats, LastLine) never touches the socket.
func TestDrawingFromTheMirrorMakesNoRequests(t *testing.T) {
	in, requests := countingInstance(t)
	require.NoError(t, in.client.Attach(ctxT(t)))
	sub := in.client.Subscribe()
	defer sub.Close()
	info, err := in.mgr.Start(jobs.Spec{Command: "seq 1 5000"})
	require.NoError(t, err)
	waitEvent(t, sub, info.ID, func(ev jobs.Event) bool { return ev.Job.State.Done() })
	// Older lines the mirror fetches behind new ones (backfill) are not
	// drawing's: wait until it holds them all.
	waitFirst(t, mirrorOf(t, in.client, info.ID), 1, 5000, nil)

	before := requests.Load()
	for i := 0; i < 1000; i++ {
		in.client.List()
		_, err := in.client.Get(info.ID)
		require.NoError(t, err)
		out, err := in.client.Output(info.ID)
		require.NoError(t, err)
		require.Len(t, out.Tail(40).Lines, 40)
		out.ReadAfter(uint64(i), 40)
		out.Stats()
		out.LastLine()
	}
	assert.Equal(t, before, requests.Load(), "drawing made requests")
}

// BenchmarkFollowFirehose measures what a following output pane pays per
// frame (Output + Tail of a screenful) while a job writes as fast as it
// can, attached over the socket against in-process, in the same run. The
// metric attached/in-process is the ratio of the two.
func BenchmarkFollowFirehose(b *testing.B) {
	socket := filepath.Join(b.TempDir(), "s.sock")
	m, err := jobs.NewManager(jobs.Options{LogDir: b.TempDir()})
	require.NoError(b, err)
	defer m.Shutdown(context.Background()) //nolint:errcheck // best effort
	srv, err := ListenAndServe(m, socket, Instance{Kind: "serve"})
	require.NoError(b, err)
	defer srv.Close()
	c := NewClient(socket)
	defer c.Close()
	require.NoError(b, c.Attach(context.Background()))
	info, err := m.Start(jobs.Spec{Command: "yes 'a firehose line of output'"})
	require.NoError(b, err)
	defer m.Kill(info.ID) //nolint:errcheck // ends the firehose

	draw := func(e engine) {
		out, err := e.Output(info.ID)
		if err != nil {
			b.Fatal(err)
		}
		if len(out.Tail(50).Lines) == 0 {
			b.Fatal("nothing to draw")
		}
	}
	// Wait until the mirror has lines, then time both sides.
	require.Eventually(b, func() bool {
		out, err := c.Output(info.ID)
		return err == nil && out.Stats().Retained > 50
	}, testTimeout, 10*time.Millisecond)
	measure := func(e engine) time.Duration {
		start := time.Now()
		for i := 0; i < b.N; i++ {
			draw(e)
		}
		return time.Since(start)
	}
	b.ResetTimer()
	local := measure(m)
	remote := measure(c)
	b.StopTimer()
	b.ReportMetric(float64(remote.Nanoseconds())/float64(b.N), "attached-ns/draw")
	b.ReportMetric(float64(local.Nanoseconds())/float64(b.N), "in-process-ns/draw")
	b.ReportMetric(float64(remote)/float64(local), "attached/in-process")
}

// An instance that shuts down for a reason of its own (a job's
// exit_on_failure) says it on the stream's last line, and the attached
// client's error carries it.
func TestShutdownSaysItsReason(t *testing.T) {
	in, sub := attached(t)
	in.server.SetShutdownReason("job api failed (exit 4) and its restart policy is exit_on_failure")
	require.NoError(t, in.mgr.Shutdown(ctxT(t)))
	require.NoError(t, in.server.Close())
	for range sub.C() {
	}
	<-in.client.Done()
	var down *ShutDownError
	require.ErrorAs(t, in.client.Err(), &down)
	assert.Equal(t, "job api failed (exit 4) and its restart policy is exit_on_failure", down.Reason)
	assert.Contains(t, down.Error(), "shut down: job api failed (exit 4)")
}

// An attached client stops several jobs as one action, as jobtop stop
// does: a job waiting to restart and one queued on it both end, and the
// cancelled restart starts neither. One the action does not apply to
// says why; one the instance does not have fails alone.
func TestAttachedClientStopsSeveralJobsAsOne(t *testing.T) {
	in, sub := attached(t)
	a, err := in.client.Start(jobs.Spec{Name: "a", Command: "exit 1", Restart: jobs.RestartPolicy{Mode: jobs.RestartAlways, Backoff: time.Hour}})
	require.NoError(t, err)
	b, err := in.client.Start(jobs.Spec{Name: "b", Command: "echo b", DependsOn: map[string]jobs.Condition{"a": jobs.CondCompleted}})
	require.NoError(t, err)
	done, err := in.client.Start(jobs.Spec{Name: "done", Command: "true"})
	require.NoError(t, err)
	_, err = in.mgr.Wait(ctxT(t), done.ID)
	require.NoError(t, err)
	waitEvent(t, sub, a.ID, func(ev jobs.Event) bool { return ev.Job.RestartAt != nil })

	errs := in.client.StopJobs([]jobs.ID{a.ID, b.ID, done.ID})
	require.Len(t, errs, 3)
	assert.NoError(t, errs[0])
	assert.NoError(t, errs[1])
	assert.ErrorContains(t, errs[2], "it has ended (succeeded)")
	got, err := in.mgr.Wait(ctxT(t), b.ID)
	require.NoError(t, err)
	assert.Equal(t, jobs.StateKilled, got.State)
	assert.Zero(t, got.PID, "it never ran")

	errs = in.client.KillJobs([]jobs.ID{99, done.ID})
	assert.True(t, IsNotFound(errs[0]), errs[0])
	assert.ErrorContains(t, errs[1], "it has ended (succeeded)")
}

// runLimiter is a copy of the TUI's RunLimiter: a Client says the
// instance's limit on jobs running at once, so an attached TUI shows it.
type runLimiter interface {
	MaxRunning() int
	MaxRunningChanged() <-chan struct{}
}

var (
	_ runLimiter = (*Client)(nil)
	_ runLimiter = (*jobs.Manager)(nil)
)

// An attached client knows the instance's limit on jobs running at once
// from the events stream, and follows it when another terminal changes it
// (jobtop parallel), without a round trip.
func TestAttachedClientFollowsTheRunningLimit(t *testing.T) {
	in := startInstance(t)
	require.NoError(t, in.mgr.SetMaxRunning(2))
	require.NoError(t, in.client.Attach(ctxT(t)))
	require.Equal(t, 2, in.client.MaxRunning(), "from the stream's snapshot")

	other := NewClient(in.socket) // jobtop parallel, in another terminal
	t.Cleanup(func() { other.Close() })
	for _, n := range []int{5, 0, 3} {
		changed := in.client.MaxRunningChanged()
		_, err := other.SetParallel(ctxT(t), n)
		require.NoError(t, err)
		select {
		case <-changed:
		case <-time.After(testTimeout):
			t.Fatalf("the attached client was not told the limit became %d", n)
		}
		require.Equal(t, n, in.client.MaxRunning())
	}
}

// The limit's change is a line of its own on the events stream, with no
// events: a client older than it reads a batch of no events, and goes on.
func TestEventsStreamSaysTheLimitOnALineOfItsOwn(t *testing.T) {
	in := startInstance(t)
	events, err := in.client.Events(ctxT(t))
	require.NoError(t, err)
	defer events.Close()
	require.NotNil(t, events.MaxRunning)
	require.Equal(t, 0, *events.MaxRunning, "the snapshot says there is no limit")

	require.NoError(t, in.mgr.SetMaxRunning(4))
	var line map[string]json.RawMessage
	require.NoError(t, events.dec.Decode(&line))
	require.Equal(t, map[string]json.RawMessage{
		"events": json.RawMessage("[]"), "max_running": json.RawMessage("4"),
	}, line, `a client reading d["events"] on each later line finds it`)

	// As an older client reads the next line: the batch it knew.
	require.NoError(t, in.mgr.SetMaxRunning(1))
	var old struct {
		Jobs     []jobs.Info `json:"jobs,omitempty"`
		Events   []Event     `json:"events,omitempty"`
		Shutdown bool        `json:"shutdown,omitempty"`
	}
	require.NoError(t, events.dec.Decode(&old))
	require.Empty(t, old.Events)
	require.False(t, old.Shutdown)
}

// The first line of the events stream has "jobs" even on an instance with
// no jobs: a client reading d["jobs"] from it, as README.md documents,
// finds an empty list, not a missing key.
func TestEventsStreamFirstLineHasJobsWhenThereIsNone(t *testing.T) {
	in := startInstance(t)
	body, err := in.client.open(ctxT(t), http.MethodGet, "/v1/events", nil, nil)
	require.NoError(t, err)
	defer body.Close()
	var first map[string]json.RawMessage
	require.NoError(t, json.NewDecoder(body).Decode(&first))
	require.Equal(t, map[string]json.RawMessage{
		"jobs": json.RawMessage("[]"), "max_running": json.RawMessage("0"),
	}, first)
}

// A job's last_output_at (when it last wrote) is in GET /v1/jobs, absent
// for a job that never wrote, and reaches a client that attaches after
// the job wrote: an attached TUI's quiet clock starts from it, not from
// the attach.
func TestAttachedClientKnowsWhenAJobLastWrote(t *testing.T) {
	in := startInstance(t)
	talker, err := in.mgr.Start(jobs.Spec{Name: "talker", Command: "echo early; exec sleep 60"})
	require.NoError(t, err)
	silent, err := in.mgr.Start(jobs.Spec{Name: "silent", Command: "exec sleep 60"})
	require.NoError(t, err)
	var wrote time.Time
	require.Eventually(t, func() bool {
		info, err := in.mgr.Get(talker.ID)
		if err == nil && info.LastOutputAt != nil {
			wrote = *info.LastOutputAt
		}
		return err == nil && info.LastLine == "early"
	}, testTimeout, 10*time.Millisecond)

	type wire struct {
		LastOutputAt *string `json:"last_output_at"`
	}
	raw, err := JobsAs[wire](ctxT(t), in.client, JobFilter{})
	require.NoError(t, err)
	require.Len(t, raw, 2)
	require.NotNil(t, raw[0].LastOutputAt)
	assert.Equal(t, wrote.Format(time.RFC3339Nano), *raw[0].LastOutputAt, "RFC 3339")
	assert.Nil(t, raw[1].LastOutputAt, "a job that never wrote")

	require.NoError(t, in.client.Attach(ctxT(t)))
	got, err := in.client.Get(talker.ID)
	require.NoError(t, err)
	require.NotNil(t, got.LastOutputAt)
	assert.True(t, got.LastOutputAt.Equal(wrote), "%v, not %v", got.LastOutputAt, wrote)
	got, err = in.client.Get(silent.ID)
	require.NoError(t, err)
	assert.Nil(t, got.LastOutputAt)
}
