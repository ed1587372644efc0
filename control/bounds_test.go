package control

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"jobtop/jobs"
)

// readAllPages reads a job's output from cursor on, answer by answer,
// checking each against the bounds, until an answer says no more.
func readAllPages(t *testing.T, in *instance, id jobs.ID, q OutputQuery) (lines []jobs.Line, answers int) {
	t.Helper()
	for {
		resp, err := in.client.ReadOutput(ctxT(t), id, q)
		require.NoError(t, err)
		answers++
		size := 0
		for _, l := range resp.Lines {
			size += len(l.Text)
		}
		require.LessOrEqual(t, len(resp.Lines), lineLimit(q.Max, q.Tail))
		require.LessOrEqual(t, size, MaxOutputBytes)
		lines = append(lines, resp.Lines...)
		if !resp.More {
			require.True(t, resp.Ended)
			return lines, answers
		}
		require.False(t, resp.Ended, "an answer with more to come has not ended")
		q = OutputQuery{Cursor: resp.NextCursor, Max: q.Max, Stream: q.Stream}
	}
}

func TestOutputAnswersAreBoundedInLines(t *testing.T) {
	in := startInstance(t)
	id := in.startJob(t, "seq 1 25000").ID
	in.waitEnded(t, id)

	resp, err := in.client.ReadOutput(ctxT(t), id, OutputQuery{})
	require.NoError(t, err)
	assert.Len(t, resp.Lines, DefaultOutputLines, "max defaults to 1,000")
	assert.True(t, resp.More)
	assert.False(t, resp.Ended)
	assert.Equal(t, uint64(15000), resp.Dropped, "the store holds the newest 10,000")
	assert.Equal(t, resp.Lines[len(resp.Lines)-1].Seq, resp.NextCursor)

	resp, err = in.client.ReadOutput(ctxT(t), id, OutputQuery{Max: 50_000})
	require.NoError(t, err)
	assert.Len(t, resp.Lines, MaxOutputLines, "max is capped at 10,000")
	resp, err = in.client.ReadOutput(ctxT(t), id, OutputQuery{Tail: 20_000})
	require.NoError(t, err)
	assert.Len(t, resp.Lines, MaxOutputLines, "tail is capped at 10,000")
	assert.Equal(t, "25000", resp.Lines[len(resp.Lines)-1].Text)
	resp, err = in.client.ReadOutput(ctxT(t), id, OutputQuery{Tail: 5, Max: 2})
	require.NoError(t, err)
	assert.Equal(t, []string{"24996", "24997"}, texts(resp.Lines), "max cuts a tail, which goes on by cursor")
	assert.True(t, resp.More)

	lines, answers := readAllPages(t, in, id, OutputQuery{Cursor: 15000})
	assert.Equal(t, 10, answers)
	require.Len(t, lines, 10000)
	for i, l := range lines {
		require.Equal(t, uint64(15001+i), l.Seq, "every line once, in order")
	}
}

func TestOutputAnswersAreBoundedInBytes(t *testing.T) {
	in := startInstance(t)
	// 600 lines of 16,000 bytes: 9.6 MB, all held in memory.
	id := in.startJob(t, `i=0; while [ $i -lt 600 ]; do printf "%05d%015995d\n" $i 0; i=$((i+1)); done`).ID
	in.waitEnded(t, id)
	resp, err := in.client.ReadOutput(ctxT(t), id, OutputQuery{Max: MaxOutputLines})
	require.NoError(t, err)
	assert.Len(t, resp.Lines, MaxOutputBytes/16000, "an answer stops before the line that would pass 4 MiB")
	assert.True(t, resp.More)

	lines, answers := readAllPages(t, in, id, OutputQuery{Max: MaxOutputLines})
	assert.Equal(t, 3, answers)
	require.Len(t, lines, 600)
	for i, l := range lines {
		require.Equal(t, fmt.Sprintf("%05d", i), l.Text[:5])
	}

	// Following does the same: each answer within bounds, every line once.
	var followed []jobs.Line
	err = in.client.FollowOutput(ctxT(t), id, OutputQuery{Max: MaxOutputLines}, func(r OutputResponse) error {
		size := 0
		for _, l := range r.Lines {
			size += len(l.Text)
		}
		if size > MaxOutputBytes {
			return fmt.Errorf("an answer of %d bytes", size)
		}
		followed = append(followed, r.Lines...)
		return nil
	})
	require.NoError(t, err)
	assert.Len(t, followed, 600)
}

// A read picks its lines before it copies any: a tail of one stream out
// of a full store costs what it returns, not the store's size.
func TestOutputReadsSelectBeforeCopying(t *testing.T) {
	in := startInstance(t)
	id := in.startJob(t, `yes "$(printf '%01000d' 0)" | head -n 10000; echo last >&2`).ID
	in.waitEnded(t, id)
	h := in.server.Handler()
	for _, target := range []string{
		"/v1/jobs/1/output?tail=10&stream=stderr",
		"/v1/jobs/1/output?tail=10",
		"/v1/jobs/1/output?cursor=9990&stream=stderr",
		"/v1/output?tail=10",
	} {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, target, nil))
		runtime.ReadMemStats(&after)
		require.Equal(t, http.StatusOK, rec.Code, rec.Body.String())
		assert.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(1<<20), "%s allocates far less than the 10 MB the store holds", target)
	}
	_ = id
}

// Every line of every job comes out once, in arrival order, however the
// answers are cut.
func TestAllOutputAnswersAreBounded(t *testing.T) {
	in := startInstance(t)
	var ids []jobs.ID
	for _, c := range []string{"seq 1 4000", "seq 1 4000 >&2", "seq 1 4000"} {
		ids = append(ids, in.startJob(t, c).ID)
	}
	for _, id := range ids {
		in.waitEnded(t, id)
	}
	first, err := in.client.ReadAllOutput(ctxT(t), AllOutputQuery{})
	require.NoError(t, err)
	assert.Len(t, first.Lines, DefaultOutputLines)
	assert.True(t, first.More)
	assert.False(t, first.Ended)

	var all []JobLine
	q := AllOutputQuery{Max: 2500}
	for answers := 0; ; answers++ {
		require.Less(t, answers, 10)
		resp, err := in.client.ReadAllOutput(ctxT(t), q)
		require.NoError(t, err)
		require.LessOrEqual(t, len(resp.Lines), 2500)
		all = append(all, resp.Lines...)
		if !resp.More {
			assert.True(t, resp.Ended)
			break
		}
		q.Cursor = resp.NextCursor
	}
	require.Len(t, all, 12000)
	seen := map[jobs.ID]uint64{}
	for i, l := range all {
		if i > 0 {
			require.Less(t, all[i-1].Arrival, l.Arrival)
		}
		require.Equal(t, seen[l.Job]+1, l.Seq, "job %d's lines in order, none twice", l.Job)
		seen[l.Job] = l.Seq
	}

	resp, err := in.client.ReadAllOutput(ctxT(t), AllOutputQuery{Tail: 20_000})
	require.NoError(t, err)
	assert.Len(t, resp.Lines, MaxOutputLines, "tail is capped")
	assert.Equal(t, all[len(all)-MaxOutputLines:], resp.Lines, "the newest 10,000")
	resp, err = in.client.ReadAllOutput(ctxT(t), AllOutputQuery{Tail: 3})
	require.NoError(t, err)
	assert.Equal(t, all[len(all)-3:], resp.Lines)
}

// Past MaxStreams open streams, one more is refused with a message that
// says what to do; ending one makes room.
func TestStreamsAreCapped(t *testing.T) {
	in := startInstance(t)
	in.server.streams = make(chan struct{}, 2)
	id := in.startJob(t, "sleep 1000").ID
	var bodies []io.Closer
	for i := 0; i < 2; i++ {
		body, err := in.client.open(ctxT(t), http.MethodGet, jobPath(id, "output"), OutputQuery{Follow: true}.Values(), nil)
		require.NoError(t, err)
		bodies = append(bodies, body)
	}
	_, err := in.client.open(ctxT(t), http.MethodGet, "/v1/events", nil, nil)
	var apiErr *APIError
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, http.StatusServiceUnavailable, apiErr.Status)
	assert.Contains(t, apiErr.Message, "already serves 2 streams")
	resp, err := in.client.ReadOutput(ctxT(t), id, OutputQuery{})
	require.NoError(t, err, "plain reads are not streams")
	assert.Empty(t, resp.Lines)

	bodies[0].Close()
	require.Eventually(t, func() bool {
		body, err := in.client.open(ctxT(t), http.MethodGet, "/v1/events", nil, nil)
		if err == nil {
			bodies = append(bodies, body)
		}
		return err == nil
	}, testTimeout, 20*time.Millisecond)
	for _, b := range bodies[1:] {
		b.Close()
	}
}

// A connection that does not finish its request head, or sits idle
// between requests, is closed.
func TestServerTimeouts(t *testing.T) {
	assert.Equal(t, ReadHeaderTimeout, NewServer(newManager(t, ""), Instance{}).http.ReadHeaderTimeout)
	socket := filepath.Join(shortTempDir(t), "s.sock")
	srv := NewServer(newManager(t, socket), Instance{})
	srv.http.ReadHeaderTimeout = 200 * time.Millisecond
	srv.http.IdleTimeout = 300 * time.Millisecond
	l, err := Listen(socket)
	require.NoError(t, err)
	go srv.Serve(l) //nolint:errcheck // ends with Close
	t.Cleanup(func() { srv.Close() })

	closed := func(conn net.Conn, r *bufio.Reader) bool {
		conn.SetReadDeadline(time.Now().Add(testTimeout)) //nolint:errcheck // test
		_, err := r.ReadByte()
		return err == io.EOF
	}
	slow, err := net.Dial("unix", socket)
	require.NoError(t, err)
	defer slow.Close()
	_, err = slow.Write([]byte("GET /v1/jobs HTTP/1.1\r\nHost: x\r\n")) // no end of head
	require.NoError(t, err)
	r := bufio.NewReader(slow)
	assert.True(t, closed(slow, r), "a half-sent request head is cut off, with no answer (README says so)")

	idle, err := net.Dial("unix", socket)
	require.NoError(t, err)
	defer idle.Close()
	_, err = idle.Write([]byte("GET /v1/jobs HTTP/1.1\r\nHost: x\r\n\r\n"))
	require.NoError(t, err)
	r = bufio.NewReader(idle)
	resp, err := http.ReadResponse(r, nil)
	require.NoError(t, err)
	var list []jobs.Info
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&list))
	resp.Body.Close()
	assert.True(t, closed(idle, r), "an idle kept-alive connection is closed")
}

// A policy given through the API with only its mode gets the engine's
// defaults: a restart after 1s, then 2s, not 200 a second.
func TestRestartAlwaysThroughTheAPIWaitsItsBackoff(t *testing.T) {
	in := startInstance(t)
	info, err := in.client.StartJob(ctxT(t), StartRequest{Command: "true", Restart: &RestartRequest{Mode: "always"}})
	require.NoError(t, err)
	var got jobs.Info
	require.Eventually(t, func() bool {
		got, err = in.client.Job(ctxT(t), info.ID)
		return err == nil && strings.Contains(got.Reason, "attempt 2")
	}, testTimeout, 10*time.Millisecond)
	assert.Equal(t, "restarting in 2s (attempt 2)", got.Reason)
	assert.Equal(t, 2, got.Runs, "two runs: the first and one restart after a second")
	spec, err := in.mgr.Get(info.ID)
	require.NoError(t, err)
	assert.Equal(t, jobs.RestartPolicy{Mode: jobs.RestartAlways, Backoff: time.Second, MaxBackoff: time.Minute, Max: 5}, spec.Spec.Restart)
	_, err = in.client.StopJob(ctxT(t), info.ID, true)
	require.NoError(t, err)
}

// restart.max reads as in a job file: left out, the default; 0, no limit.
func TestRestartMaxOnTheWire(t *testing.T) {
	for body, want := range map[string]int{
		`{"command": "x", "restart": {"mode": "always"}}`:           0,
		`{"command": "x", "restart": {"mode": "always", "max": 0}}`: jobs.NoRestartLimit,
		`{"command": "x", "restart": {"mode": "always", "max": 3}}`: 3,
	} {
		spec, err := DecodeStartRequest(strings.NewReader(body))
		require.NoError(t, err, body)
		assert.Equal(t, want, spec.Restart.Max, body)
		again, err := SpecRequest(spec).Spec()
		require.NoError(t, err)
		assert.Equal(t, spec, again, "a spec goes over the wire and back unchanged")
	}
	_, err := DecodeStartRequest(strings.NewReader(`{"command": "x", "restart": {"mode": "always", "max": -1}}`))
	assert.ErrorContains(t, err, "restart.max -1 is negative: give a count, or 0 for no limit")
}

// restart.policy is the job file's name for the policy; mode, the API's
// older name, still works, and both may be given when they agree.
func TestRestartPolicyOnTheWire(t *testing.T) {
	for _, body := range []string{
		`{"command": "x", "restart": {"policy": "on-failure"}}`,
		`{"command": "x", "restart": {"mode": "on-failure"}}`,
		`{"command": "x", "restart": {"policy": "on-failure", "mode": "on-failure"}}`,
	} {
		spec, err := DecodeStartRequest(strings.NewReader(body))
		require.NoError(t, err, body)
		assert.Equal(t, jobs.RestartPolicy{Mode: jobs.RestartOnFailure}, spec.Restart, body)
		again, err := SpecRequest(spec).Spec()
		require.NoError(t, err)
		assert.Equal(t, spec, again, "a spec goes over the wire and back unchanged")
	}
	_, err := DecodeStartRequest(strings.NewReader(`{"command": "x", "restart": {"policy": "always", "mode": "no"}}`))
	assert.ErrorContains(t, err, `restart.policy "always" and restart.mode "no" differ`)
}

// A job started through the API with the job file's restart.policy
// restarts by it.
func TestRestartPolicyThroughTheAPIRestarts(t *testing.T) {
	in := startInstance(t)
	info, err := in.client.StartJob(ctxT(t), StartRequest{Command: "exit 3", Restart: &RestartRequest{Policy: "on-failure", Backoff: "10ms"}})
	require.NoError(t, err)
	require.Eventually(t, func() bool {
		got, err := in.client.Job(ctxT(t), info.ID)
		return err == nil && got.Restarts >= 1
	}, testTimeout, 10*time.Millisecond, "the job restarts on its failure")
	_, err = in.client.StopJob(ctxT(t), info.ID, true)
	require.NoError(t, err)
}

// A client that stops reading a stream loses it once a write has waited
// StreamWriteTimeout, and its slot is free again; a quiet stream that the
// client still reads is not cut.
func TestStreamsOfClientsThatStopReadingEnd(t *testing.T) {
	in := startInstance(t)
	in.server.streams = make(chan struct{}, 1)
	old := streamWriteTimeout.Swap(int64(300 * time.Millisecond))
	t.Cleanup(func() { streamWriteTimeout.Store(old) })

	quiet := in.startJob(t, "sleep 1; echo late; exec sleep 1000").ID
	stop := errors.New("stop")
	err := in.client.FollowOutput(ctxT(t), quiet, OutputQuery{}, func(r OutputResponse) error {
		if len(r.Lines) > 0 {
			return stop
		}
		return nil
	})
	require.ErrorIs(t, err, stop, "the line written after a quiet second arrives")

	fire := in.startJob(t, "yes 'never read'").ID
	stalled, err := in.client.open(ctxT(t), http.MethodGet, jobPath(fire, "output"), OutputQuery{Follow: true}.Values(), nil)
	require.NoError(t, err)
	defer stalled.Close()
	require.Eventually(t, func() bool {
		body, err := in.client.open(ctxT(t), http.MethodGet, "/v1/events", nil, nil)
		if err == nil {
			body.Close()
		}
		return err == nil
	}, testTimeout, 50*time.Millisecond, "the stalled stream's slot is freed")
}

// A request whose body does not come whole within the bound is answered
// 408 and its connection closed, whether its handler reads the body (a
// start) or not (a kill: net/http reads what is left before it
// answers): a client that sent "Content-Length: 100" and ten bytes kept
// its connection and goroutine for ever, and a run-started serve, which
// waits for no connection to be open, from exiting on --idle-exit.
func TestServerCutsAHeldRequestBody(t *testing.T) {
	socket := filepath.Join(shortTempDir(t), "s.sock")
	srv := NewServer(newManager(t, socket), Instance{})
	assert.Equal(t, BodyReadTimeout, srv.bodyReadTimeout)
	srv.bodyReadTimeout = 300 * time.Millisecond
	l, err := Listen(socket)
	require.NoError(t, err)
	go srv.Serve(l) //nolint:errcheck // ends with Close
	t.Cleanup(func() { srv.Close() })

	for _, head := range []string{"POST /v1/jobs HTTP/1.1", "POST /v1/jobs/1/kill HTTP/1.1"} {
		conn, err := net.Dial("unix", socket)
		require.NoError(t, err)
		defer conn.Close()
		_, err = conn.Write([]byte(head + "\r\nHost: x\r\nContent-Length: 100\r\n\r\n{\"command\":"))
		require.NoError(t, err)
		conn.SetReadDeadline(time.Now().Add(testTimeout)) //nolint:errcheck // test
		r := bufio.NewReader(conn)
		resp, err := http.ReadResponse(r, nil)
		require.NoError(t, err, head)
		body, err := io.ReadAll(resp.Body)
		require.NoError(t, err, head)
		assert.Equal(t, http.StatusRequestTimeout, resp.StatusCode, "%s: %s", head, body)
		assert.Contains(t, string(body), "the request body did not come whole within 300ms", head)
		_, err = r.ReadByte()
		assert.Equal(t, io.EOF, err, "%s: the connection is closed", head)
	}
	require.Eventually(t, func() bool { open, _ := srv.Clients(); return open == 0 }, testTimeout, 10*time.Millisecond,
		"no connection is left open to hold an --idle-exit")

	// A body that comes whole is read as ever, and the deadline lifted:
	// a wait longer than the bound is not cut.
	c := NewClient(socket)
	t.Cleanup(func() { c.Close() })
	info, err := c.StartJob(ctxT(t), StartRequest{Command: "sleep 1"})
	require.NoError(t, err)
	waited, err := c.WaitJob(ctxT(t), info.ID, 0)
	require.NoError(t, err)
	assert.True(t, waited.Ended)
}
