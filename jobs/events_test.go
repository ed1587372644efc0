package jobs

import (
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// collect reads batches until pred is satisfied by the events seen so far.
func collect(t *testing.T, sub EventStream, pred func([]Event) bool) []Event {
	t.Helper()
	var seen []Event
	timeout := time.After(patience)
	for !pred(seen) {
		select {
		case batch, ok := <-sub.C():
			require.True(t, ok, "subscription closed early")
			seen = append(seen, batch...)
		case <-timeout:
			t.Fatalf("timed out; events so far: %v", seen)
		}
	}
	return seen
}

func has(events []Event, kind EventKind, id ID, pred func(Info) bool) bool {
	for _, e := range events {
		if e.Kind == kind && e.Job.ID == id && (pred == nil || pred(e.Job)) {
			return true
		}
	}
	return false
}

func TestEventsTellTheJobsLife(t *testing.T) {
	m := newManager(t, Options{})
	sub := m.Subscribe()
	defer sub.Close()
	info := start(t, m, Spec{Command: "echo hi"})
	events := collect(t, sub, func(ev []Event) bool {
		return has(ev, EventState, info.ID, func(i Info) bool { return i.State == StateSucceeded })
	})
	assert.True(t, has(events, EventAdded, info.ID, nil))
	assert.True(t, has(events, EventOutput, info.ID, func(i Info) bool { return i.LastLine == "hi" }))

	require.NoError(t, m.Remove(info.ID))
	events = collect(t, sub, func(ev []Event) bool { return has(ev, EventRemoved, info.ID, nil) })
	for _, e := range events {
		if e.Kind == EventRemoved {
			assert.Equal(t, "echo", e.Job.Name, "a removed job's last snapshot comes with the event")
		}
	}
}

// TestFirehoseIsCoalesced runs a job that writes as fast as it can and
// checks the subscriber gets at most about one batch per frame.
func TestFirehoseIsCoalesced(t *testing.T) {
	const frame = 20 * time.Millisecond
	m := newManager(t, Options{FrameInterval: frame})
	sub := m.Subscribe()
	defer sub.Close()
	info := start(t, m, Spec{Command: "yes '" + line80 + "'", Timeout: time.Second})
	begin := time.Now()
	var batches, outputs int
	var ended bool
	for !ended {
		select {
		case batch := <-sub.C():
			batches++
			for _, e := range batch {
				switch {
				case e.Kind == EventOutput:
					outputs++
				case e.Kind == EventState && e.Job.State.Done():
					ended = true
				}
			}
		case <-time.After(patience):
			t.Fatal("the job did not end")
		}
	}
	elapsed := time.Since(begin)
	got, err := m.Get(info.ID)
	require.NoError(t, err)
	t.Logf("%d batches, %d output events for %d lines in %v", batches, outputs, got.Lines, elapsed)
	assert.Greater(t, got.Lines, uint64(10_000), "the job really was a firehose")
	assert.LessOrEqual(t, batches, int(elapsed/frame)+2, "at most one batch per frame")
	assert.LessOrEqual(t, outputs, batches, "at most one output event per job per batch")
}

// TestAbsentSubscriberNeverBlocksJobs subscribes and never reads: jobs must
// still run to the end, and the subscription holds one entry per job.
func TestAbsentSubscriberNeverBlocksJobs(t *testing.T) {
	m := newManager(t, Options{})
	sub := m.Subscribe().(*Subscription)
	defer sub.Close()
	var ids []ID
	for i := 0; i < 3; i++ {
		ids = append(ids, start(t, m, Spec{Command: "yes '" + line80 + "' | head -c 10M"}).ID)
	}
	for _, id := range ids {
		assert.Equal(t, StateSucceeded, wait(t, m, id).State)
	}
	sub.mu.Lock()
	pending := len(sub.pending)
	sub.mu.Unlock()
	assert.LessOrEqual(t, pending, len(ids), "pending events are bounded by the number of jobs")
}

func TestSubscriptionClose(t *testing.T) {
	m := newManager(t, Options{})
	sub := m.Subscribe()
	sub.Close()
	sub.Close()
	_, ok := <-sub.C()
	assert.False(t, ok, "a closed subscription's channel is closed")
	start(t, m, Spec{Command: "true"}) // publishing to no one is fine
}

func TestShutdownClosesSubscriptions(t *testing.T) {
	m, err := NewManager(Options{LogDir: t.TempDir()})
	require.NoError(t, err)
	sub := m.Subscribe()
	require.NoError(t, m.Shutdown(t.Context()))
	for range sub.C() {
	}
}

// A subscriber that reads on gets the jobs' last states before its
// subscription ends with the shutdown: a client showed them stopping for
// ever (the last batch was held back for its frame, then dropped).
func TestShutdownDeliversTheJobsLastStates(t *testing.T) {
	m, err := NewManager(Options{LogDir: t.TempDir()})
	require.NoError(t, err)
	info, err := m.Start(Spec{Command: "exec sleep 300"})
	require.NoError(t, err)
	sub := m.Subscribe()
	done := make(chan State)
	go func() {
		last := StateRunning
		for batch := range sub.C() {
			for _, ev := range batch {
				if ev.Job.ID == info.ID && ev.Kind == EventState {
					last = ev.Job.State
				}
			}
		}
		done <- last
	}()
	require.NoError(t, m.Shutdown(t.Context()))
	assert.Equal(t, StateKilled, <-done, "the job's state as the shutdown left it")
}

func TestArrivalOrdersLinesAcrossJobs(t *testing.T) {
	m := newManager(t, Options{})
	dir := t.TempDir()
	gate := dir + "/gate"
	a := start(t, m, Spec{Command: "echo a1; while [ ! -e " + gate + " ]; do sleep 0.02; done; echo a2"})
	waitFor(t, m, a.ID, "a1", func(i Info) bool { return i.Lines == 1 })
	b := wait(t, m, start(t, m, Spec{Command: "echo b1"}).ID)
	require.NoError(t, writeFile(gate))
	wait(t, m, a.ID)
	outA, _ := m.Output(a.ID)
	outB, _ := m.Output(b.ID)
	la, lb := outA.ReadAfter(0, 0).Lines, outB.ReadAfter(0, 0).Lines
	require.Len(t, la, 2)
	require.Len(t, lb, 1)
	assert.Less(t, la[0].Arrival, lb[0].Arrival, "a1 came before b1")
	assert.Less(t, lb[0].Arrival, la[1].Arrival, "b1 came before a2")
}

// TestEchoSkipsTheFrameWait: output soon after input to a job (the echo
// of a key) goes out at once, not after the frame's wait that keeps fast
// writers to one batch a frame. The frame here is 10 s: without the
// hurry, the echo would come 10 s after the batch before it.
func TestEchoSkipsTheFrameWait(t *testing.T) {
	const frame = 10 * time.Second
	m := newManager(t, Options{FrameInterval: frame})
	info := start(t, m, Spec{Command: "exec cat", Stdin: StdinPipe})
	waitFor(t, m, info.ID, "running", func(i Info) bool { return i.State == StateRunning })
	sub := m.Subscribe()
	defer sub.Close()
	// A batch (another job added), and the wait for the next frame
	// starts.
	start(t, m, Spec{Command: "exec sleep 60"})
	<-sub.C()
	sent := time.Now()
	require.NoError(t, m.Input(info.ID, []byte("hello\n")))
	for {
		batch := <-sub.C()
		if slices.ContainsFunc(batch, func(ev Event) bool { return ev.Kind == EventOutput && ev.Job.ID == info.ID }) {
			break
		}
	}
	assert.Less(t, time.Since(sent), frame/2, "the echo waited for the frame")
}
