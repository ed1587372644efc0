package control

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"time"

	"jobtop/jobs"
)

// GET /v1/output: every job's lines as one stream, in the order they
// arrived (jobs.Line.Arrival, one counter for all of an instance's jobs;
// the lines of one read of a job's output may share it, and go by their
// sequence number). The cursor is an arrival: a read returns the lines
// that arrived after it. Only lines still held in memory are returned; lines being built
// (no newline yet) are not.

// AllOutputQuery is the query of GET /v1/output.
type AllOutputQuery struct {
	// Cursor: return lines that arrived after this one (0: from the start).
	Cursor uint64
	// Tail, when > 0, asks for the newest Tail lines instead (then
	// reading goes on after them when following).
	Tail int
	// Follow streams answers as NDJSON, one AllOutputResponse per change,
	// until no job is left that can write (or Timeout passed).
	Follow bool
	// Timeout bounds Follow (0: no bound).
	Timeout time.Duration
}

// Values encodes the query for a URL.
func (q AllOutputQuery) Values() url.Values {
	return OutputQuery{Cursor: q.Cursor, Tail: q.Tail, Follow: q.Follow, Timeout: q.Timeout}.Values()
}

// ParseAllOutputQuery reads and checks a query of GET /v1/output.
func ParseAllOutputQuery(v url.Values) (AllOutputQuery, error) {
	o, err := ParseOutputQuery(v)
	if err != nil {
		return AllOutputQuery{}, err
	}
	switch {
	case o.Stream != "":
		return AllOutputQuery{}, badRequest("stream applies to one job's output (GET /v1/jobs/{id}/output)")
	case o.Max > 0 || o.Wait:
		return AllOutputQuery{}, badRequest("max and wait apply to one job's output (GET /v1/jobs/{id}/output)")
	}
	return AllOutputQuery{Cursor: o.Cursor, Tail: o.Tail, Follow: o.Follow, Timeout: o.Timeout}, nil
}

// JobLine is a line of the all-jobs stream: the job that wrote it, its
// name, and the line (seq, stream, text, arrival).
type JobLine struct {
	Job  jobs.ID `json:"job"`
	Name string  `json:"name"`
	jobs.Line
}

// AllOutputResponse answers GET /v1/output. NextCursor is the arrival of
// the last line returned (the cursor given when none was). Ended says no
// job could write more when the read was made: every job had ended with
// no restart pending.
type AllOutputResponse struct {
	Lines      []JobLine `json:"lines"`
	NextCursor uint64    `json:"next_cursor"`
	Ended      bool      `json:"ended"`
}

// allReader reads every job's new lines in passes and hands them out in
// arrival order. A line is handed out only once every line that arrived
// before it is sure to have been read: a line committed before a pass
// begins is seen by that pass, so the lines up to the newest arrival seen
// in one pass are complete in the next.
type allReader struct {
	mgr     outputLister
	cursors map[jobs.ID]uint64 // per job, the last sequence number read
	after   uint64             // hand out only lines that arrived after this
	pending []JobLine
	horizon uint64 // newest arrival seen by the pass before
}

// outputLister is what an allReader reads: the jobs and their output.
type outputLister interface {
	List() []jobs.Info
	Output(jobs.ID) (jobs.OutputReader, error)
}

func newAllReader(m outputLister, after uint64) *allReader {
	return &allReader{mgr: m, cursors: make(map[jobs.ID]uint64), after: after}
}

// pass reads what every job wrote since the last pass and returns the
// lines now complete, in arrival order.
func (r *allReader) pass() []JobLine {
	horizon := r.horizon
	for _, info := range r.mgr.List() {
		out, err := r.mgr.Output(info.ID)
		if err != nil {
			continue // removed meanwhile
		}
		c := out.ReadAfter(r.cursors[info.ID], 0)
		r.cursors[info.ID] = c.Next
		for _, l := range c.Lines {
			r.horizon = max(r.horizon, l.Arrival)
			if l.Arrival > r.after {
				r.pending = append(r.pending, JobLine{Job: info.ID, Name: info.Name, Line: l})
			}
		}
	}
	// Lines of one read of a job's output may share their arrival: those
	// go by sequence number.
	slices.SortFunc(r.pending, func(a, b JobLine) int {
		return cmp.Or(cmp.Compare(a.Arrival, b.Arrival), cmp.Compare(a.Job, b.Job), cmp.Compare(a.Seq, b.Seq))
	})
	n, _ := slices.BinarySearchFunc(r.pending, horizon+1, func(l JobLine, a uint64) int { return cmp.Compare(l.Arrival, a) })
	ready := slices.Clone(r.pending[:n])
	r.pending = slices.Delete(r.pending, 0, n)
	if len(ready) > 0 {
		r.after = ready[len(ready)-1].Arrival
	}
	return ready
}

// settle makes two passes: the second hands out every line the first
// read. Lines that arrive during the second stay pending until the next
// settle (their arrival is an event that brings one when following).
func (r *allReader) settle() []JobLine {
	return append(r.pass(), r.pass()...)
}

// allEnded reports whether no job can write more.
func allEnded(m manager) bool {
	for _, info := range m.List() {
		if _, ended, err := settled(m, info.ID); err == nil && !ended {
			return false
		}
	}
	return true
}

func (s *Server) handleAllOutput(w http.ResponseWriter, r *http.Request) {
	q, err := ParseAllOutputQuery(r.URL.Query())
	if err != nil {
		writeError(w, err)
		return
	}
	ctx, cancel := s.requestContext(r, q.Timeout)
	defer cancel()
	var sub jobs.EventStream
	if q.Follow {
		sub = s.mgr.Subscribe() // before the first read: no change is missed
		defer sub.Close()
	}
	rd := newAllReader(s.mgr, q.Cursor)
	ended := allEnded(s.mgr) // before reading: an ended answer holds every line
	lines := rd.settle()
	if q.Tail > 0 && len(lines) > q.Tail {
		lines = lines[len(lines)-q.Tail:]
	}
	resp := AllOutputResponse{Lines: nonNil(lines), NextCursor: max(rd.after, q.Cursor), Ended: ended}
	if !q.Follow {
		writeJSON(w, http.StatusOK, resp)
		return
	}
	s.streamAllOutput(ctx, w, rd, resp, sub)
}

// streamAllOutput writes NDJSON: the first read, then the new lines after
// each change, until no job can write more, the manager shuts down, or
// ctx ends.
func (s *Server) streamAllOutput(ctx context.Context, w http.ResponseWriter, rd *allReader, resp AllOutputResponse, sub jobs.EventStream) {
	send := ndjsonWriter[AllOutputResponse](w)
	if !send(resp) {
		return
	}
	for !resp.Ended {
		closed := false
		select {
		case _, ok := <-sub.C():
			closed = !ok
		case <-ctx.Done():
			return
		}
		ended := closed || allEnded(s.mgr)
		lines := rd.settle()
		resp = AllOutputResponse{Lines: nonNil(lines), NextCursor: rd.after, Ended: ended}
		if (len(lines) > 0 || ended) && !send(resp) {
			return
		}
	}
}

func nonNil(lines []JobLine) []JobLine {
	if lines == nil {
		return []JobLine{}
	}
	return lines
}

// ReadAllOutput reads every job's lines once, in arrival order (q.Follow
// is ignored).
func (c *Client) ReadAllOutput(ctx context.Context, q AllOutputQuery) (AllOutputResponse, error) {
	q.Follow = false
	var resp AllOutputResponse
	err := c.call(ctx, http.MethodGet, "/v1/output", q.Values(), nil, &resp)
	return resp, err
}

// FollowAllOutput streams every job's lines in arrival order: fn gets the
// first read and then each change, until no job can write more (the
// answer with Ended), fn returns an error (returned as is), or ctx ends.
func (c *Client) FollowAllOutput(ctx context.Context, q AllOutputQuery, fn func(AllOutputResponse) error) error {
	q.Follow = true
	body, err := c.open(ctx, http.MethodGet, "/v1/output", q.Values(), nil)
	if err != nil {
		return err
	}
	defer body.Close()
	dec := json.NewDecoder(body)
	for {
		var resp AllOutputResponse
		if err := dec.Decode(&resp); err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return fmt.Errorf("output stream broke off: %w", err)
		}
		if err := fn(resp); err != nil {
			return err
		}
		if resp.Ended {
			return nil
		}
	}
}
