package control

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"jobtop/jobs"
)

func jobLineTexts(lines []JobLine) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = fmt.Sprintf("%s(%d): %s", l.Name, l.Job, l.Text)
	}
	return out
}

// startOrdered starts two jobs whose lines the test orders with fifos:
// a1 b1 a2 b2. It returns the fifos' writers in the order to call them.
func startOrdered(t *testing.T, in *instance) (steps []func(), ids [2]jobs.ID) {
	t.Helper()
	f := []string{mkfifo(t), mkfifo(t), mkfifo(t)}
	a, err := in.client.StartJob(ctxT(t), StartRequest{Name: "alpha", Command: fmt.Sprintf("echo a1; read x < %s; echo a2", f[1])})
	require.NoError(t, err)
	b, err := in.client.StartJob(ctxT(t), StartRequest{Name: "bravo", Command: fmt.Sprintf("read x < %s; echo b1; read x < %s; echo b2", f[0], f[2])})
	require.NoError(t, err)
	lines := func(id jobs.ID) uint64 { i, _ := in.mgr.Get(id); return i.Lines }
	for i, w := range []struct {
		id    jobs.ID
		lines uint64
	}{{a.ID, 1}, {b.ID, 1}, {a.ID, 2}} {
		steps = append(steps, func() {
			require.Eventually(t, func() bool { return lines(w.id) >= w.lines }, testTimeout, 10*time.Millisecond)
			writeFifo(t, f[i], "go\n")
		})
	}
	return steps, [2]jobs.ID{a.ID, b.ID}
}

func TestAllOutputInArrivalOrder(t *testing.T) {
	in := startInstance(t)
	steps, ids := startOrdered(t, in)
	for _, step := range steps {
		step()
	}
	in.waitEnded(t, ids[0])
	in.waitEnded(t, ids[1])

	resp, err := in.client.ReadAllOutput(ctxT(t), AllOutputQuery{})
	require.NoError(t, err)
	assert.Equal(t, []string{"alpha(1): a1", "bravo(2): b1", "alpha(1): a2", "bravo(2): b2"}, jobLineTexts(resp.Lines))
	assert.True(t, resp.Ended)
	assert.Equal(t, resp.Lines[3].Arrival, resp.NextCursor)
	for i := 1; i < len(resp.Lines); i++ {
		assert.Less(t, resp.Lines[i-1].Arrival, resp.Lines[i].Arrival)
	}

	after, err := in.client.ReadAllOutput(ctxT(t), AllOutputQuery{Cursor: resp.Lines[1].Arrival})
	require.NoError(t, err)
	assert.Equal(t, []string{"alpha(1): a2", "bravo(2): b2"}, jobLineTexts(after.Lines), "lines after the cursor")
	none, err := in.client.ReadAllOutput(ctxT(t), AllOutputQuery{Cursor: resp.NextCursor})
	require.NoError(t, err)
	assert.Empty(t, none.Lines)
	assert.Equal(t, resp.NextCursor, none.NextCursor)

	tail, err := in.client.ReadAllOutput(ctxT(t), AllOutputQuery{Tail: 3})
	require.NoError(t, err)
	assert.Equal(t, []string{"bravo(2): b1", "alpha(1): a2", "bravo(2): b2"}, jobLineTexts(tail.Lines))
}

func TestAllOutputFollowEndsWithTheJobs(t *testing.T) {
	in := startInstance(t)
	steps, _ := startOrdered(t, in)
	var mu sync.Mutex
	var got []string
	var answers []AllOutputResponse
	done := make(chan error, 1)
	go func() {
		done <- in.client.FollowAllOutput(ctxT(t), AllOutputQuery{}, func(r AllOutputResponse) error {
			mu.Lock()
			defer mu.Unlock()
			got = append(got, jobLineTexts(r.Lines)...)
			answers = append(answers, r)
			return nil
		})
	}()
	for _, step := range steps {
		step()
	}
	select {
	case err := <-done:
		require.NoError(t, err)
	case <-time.After(testTimeout):
		t.Fatal("the follow did not end when the jobs did")
	}
	assert.Equal(t, []string{"alpha(1): a1", "bravo(2): b1", "alpha(1): a2", "bravo(2): b2"}, got)
	assert.True(t, answers[len(answers)-1].Ended)
}

// Three fast writers and a slow one: however the reads fall against the
// writes, the stream comes out in arrival order, with no line twice and
// none missing.
func TestAllOutputFollowKeepsOrderUnderLoad(t *testing.T) {
	in := startInstance(t)
	for _, c := range []string{"seq 1 9000", "seq 1 9000", "seq 1 9000", "for i in $(seq 1 30); do echo s$i; sleep 0.01; done"} {
		in.startJob(t, c)
	}
	var last JobLine
	count := 0
	err := in.client.FollowAllOutput(ctxT(t), AllOutputQuery{}, func(r AllOutputResponse) error {
		for _, l := range r.Lines {
			// Lines of one read may share an arrival: then they are one
			// job's, in sequence.
			sameRead := l.Arrival == last.Arrival && l.Job == last.Job && l.Seq > last.Seq
			if l.Arrival < last.Arrival || (l.Arrival == last.Arrival && !sameRead) {
				return fmt.Errorf("job %d line %d (arrival %d) after job %d line %d (arrival %d)", l.Job, l.Seq, l.Arrival, last.Job, last.Seq, last.Arrival)
			}
			last = l
			count++
		}
		return nil
	})
	require.NoError(t, err)
	assert.Equal(t, 27030, count, "every line: each store holds 10,000")
}

func TestAllOutputRefusesOneJobsQueries(t *testing.T) {
	in := startInstance(t)
	srv := httptest.NewServer(in.server.Handler())
	defer srv.Close()
	for _, q := range []string{"stream=both", "wait=true", "cursor=x", "max=-1"} {
		resp, err := http.Get(srv.URL + "/v1/output?" + q)
		require.NoError(t, err)
		resp.Body.Close()
		assert.Equal(t, http.StatusBadRequest, resp.StatusCode, q)
	}
}

// TestAllOutputSaysWhoseLinesWereDropped: a read of every job's lines
// names the jobs whose lines after its cursor are no longer held, and
// how many when every line of the job came after the cursor.
func TestAllOutputSaysWhoseLinesWereDropped(t *testing.T) {
	in := startInstance(t)
	gate := filepath.Join(t.TempDir(), "go")
	small, err := in.client.StartJob(ctxT(t), StartRequest{Name: "small",
		Command: fmt.Sprintf("seq 1 10; while [ ! -e %s ]; do sleep 0.02; done; seq 11 10100", gate)})
	require.NoError(t, err)
	require.Eventually(t, func() bool { i, _ := in.mgr.Get(small.ID); return i.Lines >= 10 }, testTimeout, 10*time.Millisecond)
	first, err := in.client.ReadAllOutput(ctxT(t), AllOutputQuery{})
	require.NoError(t, err)
	require.Len(t, first.Lines, 10)
	assert.Empty(t, first.Dropped, "nothing dropped yet")

	big, err := in.client.StartJob(ctxT(t), StartRequest{Name: "big", Command: "seq 1 10200"})
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(gate, nil, 0o600))
	in.waitEnded(t, small.ID)
	in.waitEnded(t, big.ID)

	later, err := in.client.ReadAllOutput(ctxT(t), AllOutputQuery{Cursor: first.NextCursor})
	require.NoError(t, err)
	assert.Equal(t, []DroppedLines{{Job: small.ID, Name: "small"}, {Job: big.ID, Name: "big", Lines: 200}}, later.Dropped,
		"small's lines 11 to 100 are gone (how many is not known here), and all of big's 200")
	all, err := in.client.ReadAllOutput(ctxT(t), AllOutputQuery{})
	require.NoError(t, err)
	assert.Equal(t, []DroppedLines{{Job: small.ID, Name: "small", Lines: 100}, {Job: big.ID, Name: "big", Lines: 200}}, all.Dropped)
	tail, err := in.client.ReadAllOutput(ctxT(t), AllOutputQuery{Tail: 5})
	require.NoError(t, err)
	assert.Empty(t, tail.Dropped, "a tail asks for the newest lines: none of them is gone")
	end, err := in.client.ReadAllOutput(ctxT(t), AllOutputQuery{Cursor: tail.NextCursor})
	require.NoError(t, err)
	assert.Empty(t, end.Dropped)
}

// TestAllOutputSaysWhoseLinesWentWithTheirJob: a job removed between two
// reads of every job's lines (rm, or past the cap on finished jobs) is
// named in dropped while the cursor is before its last line, as lines
// the bounds dropped are, rather than its lines being skipped unsaid.
func TestAllOutputSaysWhoseLinesWentWithTheirJob(t *testing.T) {
	in := startInstanceWith(t, filepath.Join(shortTempDir(t), "s.sock"), jobs.Options{KeepFinished: 2})
	ctx := ctxT(t)
	start := func(name, command string) jobs.Info {
		info, err := in.client.StartJob(ctx, StartRequest{Name: name, Command: command})
		require.NoError(t, err)
		return in.waitEnded(t, info.ID)
	}
	ja := start("ja", "seq 1 5")
	jb := start("jb", "seq 101 105")
	first, err := in.client.ReadAllOutput(ctx, AllOutputQuery{Max: 2})
	require.NoError(t, err)
	require.Equal(t, []string{"ja(1): 1", "ja(1): 2"}, jobLineTexts(first.Lines))
	_, err = in.client.RemoveJob(ctx, ja.ID)
	require.NoError(t, err)

	next, err := in.client.ReadAllOutput(ctx, AllOutputQuery{Cursor: first.NextCursor})
	require.NoError(t, err)
	assert.Equal(t, []string{"jb(2): 101", "jb(2): 102", "jb(2): 103", "jb(2): 104", "jb(2): 105"}, jobLineTexts(next.Lines))
	assert.Equal(t, []DroppedLines{{Job: ja.ID, Name: "ja", Removed: true}}, next.Dropped,
		"ja's lines 3 to 5 went with it (how many is not known here)")
	// A read from the start, or of the newest lines, names no removed
	// job: they are not in the list either (rev62: every job the cap
	// removed was named, hundreds).
	all, err := in.client.ReadAllOutput(ctx, AllOutputQuery{})
	require.NoError(t, err)
	assert.Empty(t, all.Dropped, "a read from the start")
	tail, err := in.client.ReadAllOutput(ctx, AllOutputQuery{Tail: 1})
	require.NoError(t, err)
	assert.Empty(t, tail.Dropped, "a read of the newest line")
	end, err := in.client.ReadAllOutput(ctx, AllOutputQuery{Cursor: next.NextCursor})
	require.NoError(t, err)
	assert.Empty(t, end.Dropped, "nothing of ja after its last line")

	// Past the cap: jc and jd end, jb (the oldest finished) goes.
	start("jc", "echo c")
	start("jd", "echo d")
	_, err = in.client.Job(ctx, jb.ID)
	require.Error(t, err, "the cap removed jb")
	again, err := in.client.ReadAllOutput(ctx, AllOutputQuery{Cursor: first.NextCursor})
	require.NoError(t, err)
	assert.Equal(t, []string{"jc(3): c", "jd(4): d"}, jobLineTexts(again.Lines))
	assert.Equal(t, []DroppedLines{{Job: ja.ID, Name: "ja", Removed: true}, {Job: jb.ID, Name: "jb", Lines: 5, Removed: true}}, again.Dropped)
}
