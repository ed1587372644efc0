package control

import (
	"cmp"
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"time"

	"jobtop/jobs"
)

// GET /v1/output: every job's lines as one stream, in the order they
// arrived (jobs.Line.Arrival: one counter for all of an instance's jobs,
// a number per line). The cursor is an arrival: a read returns the lines
// that arrived after it. Only lines still held in memory are returned;
// lines being built (no newline yet) are not.
//
// A read first takes the instance's newest arrival H: every line that
// arrived up to H is committed once its store is read, so lines up to H
// can be handed out in order with none missing. Each job's lines after
// the cursor are read a batch at a time and merged by arrival until the
// answer reaches its bounds (then it says More) or H.

// AllOutputQuery is the query of GET /v1/output.
type AllOutputQuery struct {
	// Cursor: return lines that arrived after this one (0: from the start).
	Cursor uint64
	// Max caps the lines in one answer, as for one job's output (0:
	// DefaultOutputLines, or Tail when given; at most MaxOutputLines).
	Max int
	// Tail, when > 0, asks for the newest Tail lines instead (then
	// reading goes on after them when following); TailNone for none, and
	// next_cursor at the newest arrival.
	Tail int
	// Follow streams answers as NDJSON, one AllOutputResponse per change,
	// until no job is left that can write (or Timeout passed).
	Follow bool
	// Timeout bounds Follow (0: no bound).
	Timeout time.Duration
	// Stream keeps only lines of "stdout" or "stderr" ("": both), as
	// for one job's output.
	Stream string
}

// Values encodes the query for a URL.
func (q AllOutputQuery) Values() url.Values {
	return OutputQuery{Cursor: q.Cursor, Max: q.Max, Tail: q.Tail, Follow: q.Follow, Timeout: q.Timeout, Stream: q.Stream}.Values()
}

// ParseAllOutputQuery reads and checks a query of GET /v1/output.
func ParseAllOutputQuery(v url.Values) (AllOutputQuery, error) {
	o, err := ParseOutputQuery(v)
	if err != nil {
		return AllOutputQuery{}, err
	}
	if o.Wait {
		return AllOutputQuery{}, badRequest("wait applies to one job's output (GET /v1/jobs/{id}/output); use follow=true")
	}
	return AllOutputQuery{Cursor: o.Cursor, Max: o.Max, Tail: o.Tail, Follow: o.Follow, Timeout: o.Timeout, Stream: o.Stream}, nil
}

// JobLine is a line of the all-jobs stream: the job that wrote it, its
// name, and the line (seq, stream, text, arrival).
type JobLine struct {
	Job  jobs.ID `json:"job"`
	Name string  `json:"name"`
	jobs.Line
}

// AllOutputResponse answers GET /v1/output. NextCursor is the arrival of
// the last line returned (the cursor given when none was); More says the
// answer stopped at its bounds and more lines follow at once. Ended says no job
// could write more when the read was made (every job had ended with no
// restart pending) and every line was returned.
type AllOutputResponse struct {
	Lines      []JobLine `json:"lines"`
	NextCursor uint64    `json:"next_cursor"`
	More       bool      `json:"more"`
	Ended      bool      `json:"ended"`
	// ShutDown, with Ended, says the instance ended its jobs as it shut
	// down: FollowAllOutput makes it an error (IsEnding).
	ShutDown bool `json:"shut_down,omitempty"`
	// Dropped names the jobs some of whose lines that arrived after the
	// cursor are no longer held: the bounds dropped them, or the job was
	// removed (each job's log file has them). It is about the cursor, not
	// the answer: paging on, each answer whose cursor is before a gap
	// names it again, so do not add them up.
	Dropped []DroppedLines `json:"dropped,omitempty"`
}

// DroppedLines says that lines of a job were dropped from memory: how
// many, when that is known (Lines 0: some). Removed says they went with
// the job, removed (rm, the cap on finished jobs, a reload).
type DroppedLines struct {
	Job     jobs.ID `json:"job"`
	Name    string  `json:"name"`
	Lines   uint64  `json:"lines,omitempty"`
	Removed bool    `json:"removed,omitempty"`
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

// anyShutDown reports whether the instance ended a job as it shut down.
func anyShutDown(m manager) bool {
	return slices.ContainsFunc(m.List(), func(i jobs.Info) bool { return i.ShutDown })
}

func (s *Server) handleAllOutput(w http.ResponseWriter, r *http.Request) {
	q, err := ParseAllOutputQuery(r.URL.Query())
	if err != nil {
		writeError(w, err)
		return
	}
	if last := s.mgr.Arrivals(); q.Cursor > last {
		// Arrivals only grow: a cursor past the newest is not one this
		// instance gave, and would silently skip the lines up to it.
		writeError(w, badRequest("cursor %d is past the newest arrival (%d): pass the next_cursor of an earlier read, or 0 to read from the oldest line held", q.Cursor, last))
		return
	}
	if q.Tail == TailNone {
		// No line: the cursor at the newest arrival, to read on from.
		q.Cursor, q.Tail = s.mgr.Arrivals(), 0
	}
	streams := streamSet(q.Stream)
	ctx, cancel := s.requestContext(r, q.Timeout)
	defer cancel()
	if !q.Follow {
		j := startJSON(w)
		s.writeAllPage(j, q.Cursor, q.Tail, lineLimit(q.Max, q.Tail), streams)
		j.end() //nolint:errcheck // the client may be gone
		return
	}
	release, err := s.openStream()
	if err != nil {
		writeError(w, err)
		return
	}
	defer release()
	sub := s.mgr.Subscribe() // before the first read: no change is missed
	defer sub.Close()
	j, flush := startNDJSON(w)
	end := s.writeAllPage(j, q.Cursor, q.Tail, lineLimit(q.Max, q.Tail), streams)
	if j.end() != nil {
		return
	}
	flush()
	for !end.ended {
		closed := false
		if !end.more {
			select {
			case _, ok := <-sub.C():
				closed = !ok
			case <-ctx.Done():
				return
			}
		}
		if !closed && !anyLineAfter(s.mgr, end.next, streams) && !allEnded(s.mgr) {
			continue
		}
		end = s.writeAllPage(j, end.next, 0, lineLimit(q.Max, 0), streams)
		if closed {
			end.ended = true
		}
		if j.end() != nil {
			return
		}
		flush()
	}
}

// anyLineAfter reports whether a job holds a line in streams that
// arrived after a.
func anyLineAfter(m manager, a uint64, streams jobs.StreamSet) bool {
	if m.Arrivals() <= a {
		return false
	}
	for _, info := range m.List() {
		if out, err := selectorOf(m, info.ID); err == nil && out.CountArrivedIn(a, 0, streams, 1) > 0 {
			return true
		}
	}
	return false
}

// jobCursor is one job's place in a merge: the batch read and where the
// next one starts.
type jobCursor struct {
	id    jobs.ID
	name  string
	out   selector
	batch []jobs.Line
	next  uint64 // Seq after which the next batch starts
	more  bool   // lines up to the horizon follow the batch
}

// writeAllPage writes one AllOutputResponse: the lines that arrived after
// `after` (or the newest tail of them), in arrival order, up to limit
// lines and MaxOutputBytes, of the lines in streams (0: all).
func (s *Server) writeAllPage(j *jsonWriter, after uint64, tail, limit int, streams jobs.StreamSet) pageEnd {
	ended := allEnded(s.mgr) // before reading: an ended answer holds every line
	horizon := s.mgr.Arrivals()
	var cursors []*jobCursor
	if horizon <= after {
		return s.writeNoLines(j, after, ended)
	}
	for _, info := range s.mgr.List() {
		if out, err := selectorOf(s.mgr, info.ID); err == nil {
			cursors = append(cursors, &jobCursor{id: info.ID, name: info.Name, out: out})
		}
	}
	// A read that goes on from a cursor is told of the jobs removed with
	// lines it had not read; one from the start (cursor 0) or of the
	// newest lines (tail) is not: those jobs are not in the list either,
	// and a thousand removed by the cap would each be named (rev62).
	goesOn := tail == 0 && after > 0
	if tail > 0 {
		after = tailStart(cursors, after, horizon, min(tail, MaxOutputLines), streams)
	}
	dropped := droppedAfter(s.mgr, cursors, after, goesOn)
	// Each job's batches share the answer's batch budget.
	perJob := jobs.Selection{ArrivalUpTo: horizon, Streams: streams,
		Max:      max(batchLines/max(len(cursors), 1), 8),
		MaxBytes: max(batchBytes/max(len(cursors), 1), 16<<10)}
	for _, c := range cursors {
		sel := perJob
		sel.ArrivalAfter = after
		c.fill(sel)
	}
	j.raw(`{"lines":[`)
	count, size := 0, 0
	end := pageEnd{next: after}
	for j.err == nil {
		c := earliest(cursors)
		if c == nil {
			break
		}
		l := c.batch[0]
		if count == limit || size+len(l.Text) > MaxOutputBytes {
			end.more = true
			break
		}
		if count > 0 {
			j.raw(",")
		}
		j.value(JobLine{Job: c.id, Name: c.name, Line: l})
		count++
		size += len(l.Text)
		end.next = l.Arrival
		c.batch = c.batch[1:]
		if len(c.batch) == 0 && c.more {
			sel := perJob
			sel.After = c.next
			c.fill(sel)
		}
	}
	end.ended = ended && !end.more
	j.raw("]")
	j.uint("next_cursor", end.next)
	j.bool("more", end.more)
	j.bool("ended", end.ended)
	if end.ended && anyShutDown(s.mgr) {
		j.bool("shut_down", true)
	}
	if len(dropped) > 0 {
		j.field("dropped", dropped)
	}
	j.raw("}")
	return end
}

// droppedAfter names the jobs whose lines after the arrival after are no
// longer held, in ID order: those of cursors the bounds dropped, and,
// with removed, those of jobs removed (asked after cursors were taken: a
// job removed since is named, and one in cursors is read from the store
// taken).
func droppedAfter(m manager, cursors []*jobCursor, after uint64, removed bool) []DroppedLines {
	var dropped []DroppedLines
	read := make(map[jobs.ID]bool, len(cursors))
	for _, c := range cursors {
		read[c.id] = true
		if some, n := c.out.DroppedAfter(after); some {
			dropped = append(dropped, DroppedLines{Job: c.id, Name: c.name, Lines: n})
		}
	}
	if !removed {
		return dropped
	}
	gone := m.RemovedOutputAfter(after)
	for _, r := range gone {
		if !read[r.ID] {
			dropped = append(dropped, DroppedLines{Job: r.ID, Name: r.Name, Lines: r.Lines, Removed: true})
		}
	}
	if len(gone) > 0 {
		slices.SortFunc(dropped, func(a, b DroppedLines) int { return cmp.Compare(a.Job, b.Job) })
	}
	return dropped
}

// writeNoLines answers a read after the newest arrival.
func (s *Server) writeNoLines(j *jsonWriter, after uint64, ended bool) pageEnd {
	j.raw(`{"lines":[]`)
	j.uint("next_cursor", after)
	j.bool("more", false)
	j.bool("ended", ended)
	if ended && anyShutDown(s.mgr) {
		j.bool("shut_down", true)
	}
	j.raw("}")
	return pageEnd{next: after, ended: ended}
}

func (c *jobCursor) fill(sel jobs.Selection) {
	ch := c.out.Select(sel)
	if len(ch.Lines) == 0 && ch.More {
		sel.Max, sel.MaxBytes = 1, 0 // a line longer than a batch
		ch = c.out.Select(sel)
	}
	c.batch, c.next, c.more = ch.Lines, ch.Next, ch.More
}

// earliest is the cursor whose next line arrived first; nil when every
// batch is spent.
func earliest(cursors []*jobCursor) *jobCursor {
	var best *jobCursor
	for _, c := range cursors {
		if len(c.batch) > 0 && (best == nil || c.batch[0].Arrival < best.batch[0].Arrival) {
			best = c
		}
	}
	return best
}

// tailStart is the arrival after which the newest n lines in streams
// (up to horizon, after after) arrived: the largest t >= after with at
// least n lines in (t, horizon], or after when there are fewer.
func tailStart(cursors []*jobCursor, after, horizon uint64, n int, streams jobs.StreamSet) uint64 {
	count := func(t uint64) int {
		total := 0
		for _, c := range cursors {
			// Past n the count only has to say "more".
			total += c.out.CountArrivedIn(t, horizon, streams, n+1-total)
			if total > n {
				break
			}
		}
		return total
	}
	if horizon <= after || count(after) <= n {
		return after
	}
	lo, hi := after, horizon // count(lo) > n >= count(hi)
	for hi-lo > 1 {
		mid := lo + (hi-lo)/2
		if count(mid) > n {
			lo = mid
		} else {
			hi = mid
		}
	}
	return hi
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
			return streamBroke("output stream", err)
		}
		if err := fn(resp); err != nil {
			return err
		}
		if resp.Ended && resp.ShutDown {
			return &APIError{Status: http.StatusServiceUnavailable, Message: instanceEndingText + ": " + shutDownText("its jobs")}
		}
		if resp.Ended {
			return nil
		}
	}
}
