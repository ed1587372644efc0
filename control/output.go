package control

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"time"

	"jobtop/jobs"
)

// OutputQuery is the query of GET /v1/jobs/{id}/output.
type OutputQuery struct {
	// Cursor: return lines after this sequence number (0: from the start).
	Cursor uint64
	// Max caps the lines in one answer (0: no cap).
	Max int
	// Tail, when > 0, asks for the newest Tail lines instead of the lines
	// after Cursor (then reading goes on after them when following).
	Tail int
	// Stream keeps only lines of "stdout" or "stderr" ("": all, including
	// jobtop's own "meta" lines). The cursor still moves past the others.
	Stream string
	// Wait long-polls: the answer comes when there are lines to return or
	// the job has ended (or Timeout passed).
	Wait bool
	// Follow streams answers as NDJSON, one OutputResponse per line, until
	// the job ends (or Timeout passed).
	Follow bool
	// Timeout bounds Wait and Follow (0: no bound).
	Timeout time.Duration
}

// Values encodes the query for a URL.
func (q OutputQuery) Values() url.Values {
	v := url.Values{}
	if q.Cursor > 0 {
		v.Set("cursor", strconv.FormatUint(q.Cursor, 10))
	}
	if q.Max > 0 {
		v.Set("max", strconv.Itoa(q.Max))
	}
	if q.Tail > 0 {
		v.Set("tail", strconv.Itoa(q.Tail))
	}
	if q.Stream != "" {
		v.Set("stream", q.Stream)
	}
	if q.Wait {
		v.Set("wait", "true")
	}
	if q.Follow {
		v.Set("follow", "true")
	}
	if q.Timeout > 0 {
		v.Set("timeout", q.Timeout.String())
	}
	return v
}

// ParseOutputQuery reads and checks an output query.
func ParseOutputQuery(v url.Values) (OutputQuery, error) {
	var q OutputQuery
	var err error
	if s := v.Get("cursor"); s != "" {
		if q.Cursor, err = strconv.ParseUint(s, 10, 64); err != nil {
			return q, badRequest("cursor=%q: give the next_cursor of an earlier read (a whole number, 0 for the start)", s)
		}
	}
	if q.Max, err = countParam(v, "max"); err != nil {
		return q, err
	}
	if q.Tail, err = countParam(v, "tail"); err != nil {
		return q, err
	}
	if q.Tail > 0 && q.Cursor > 0 {
		return q, badRequest("give either cursor or tail, not both")
	}
	switch q.Stream = v.Get("stream"); q.Stream {
	case "", "stdout", "stderr":
	default:
		return q, badRequest("stream=%q: use stdout or stderr", q.Stream)
	}
	for _, b := range []struct {
		name string
		dst  *bool
	}{{"wait", &q.Wait}, {"follow", &q.Follow}} {
		if s := v.Get(b.name); s != "" {
			if *b.dst, err = strconv.ParseBool(s); err != nil {
				return q, badRequest("%s=%q: use true or false", b.name, s)
			}
		}
	}
	if q.Timeout, err = parseDuration("timeout", v.Get("timeout")); err != nil {
		return q, err
	}
	return q, nil
}

func countParam(v url.Values, name string) (int, error) {
	s := v.Get(name)
	if s == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		return 0, badRequest("%s=%q: give a whole number, 0 or more", name, s)
	}
	return n, nil
}

func (s *Server) handleOutput(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r)
	if err != nil {
		writeError(w, err)
		return
	}
	q, err := ParseOutputQuery(r.URL.Query())
	if err != nil {
		writeError(w, err)
		return
	}
	ctx, cancel := s.requestContext(r, q.Timeout)
	defer cancel()
	// Watch before the first read, so no change after it is missed.
	var watch *jobWatch
	if q.Wait || q.Follow {
		watch = s.watch(id)
		defer watch.close()
	}
	resp, err := s.readOutput(id, q, q.Cursor, q.Tail > 0)
	if err != nil {
		writeError(w, err)
		return
	}
	switch {
	case q.Follow:
		s.streamOutput(ctx, w, id, q, resp, watch)
	case q.Wait && q.Tail == 0:
		writeJSON(w, http.StatusOK, s.pollOutput(ctx, id, q, resp, watch))
	default:
		writeJSON(w, http.StatusOK, resp)
	}
}

// pollOutput waits until a read has lines (or a drop) to return, or the job
// ended, or ctx ended; it returns the last read.
func (s *Server) pollOutput(ctx context.Context, id jobs.ID, q OutputQuery, resp OutputResponse, watch *jobWatch) OutputResponse {
	for len(resp.Lines) == 0 && resp.Dropped == 0 && !resp.Ended {
		werr := watch.next(ctx)
		if werr != nil && !errors.Is(werr, errStreamClosed) {
			return resp
		}
		next, err := s.readOutput(id, q, resp.NextCursor, false)
		if err != nil {
			return OutputResponse{Lines: []jobs.Line{}, NextCursor: resp.NextCursor, Ended: true, Error: err.Error()}
		}
		resp = next
		if werr != nil {
			return resp
		}
	}
	return resp
}

// streamOutput writes NDJSON answers: the first read, then one per change
// that brings lines, a drop or a new partial line, until the job ends or
// ctx does. A removed job ends the stream with an answer holding Error.
func (s *Server) streamOutput(ctx context.Context, w http.ResponseWriter, id jobs.ID, q OutputQuery, resp OutputResponse, watch *jobWatch) {
	send := ndjsonWriter[OutputResponse](w)
	if !send(resp) {
		return
	}
	for !resp.Ended {
		werr := watch.next(ctx)
		if werr != nil && !errors.Is(werr, errStreamClosed) {
			return
		}
		// After the manager shut down (all jobs reaped), one last read
		// tells the follower how its job ended.
		next, err := s.readOutput(id, q, resp.NextCursor, false)
		if err != nil {
			send(OutputResponse{Lines: []jobs.Line{}, NextCursor: resp.NextCursor, Ended: true, Error: err.Error()})
			return
		}
		changed := len(next.Lines) > 0 || next.Dropped > 0 || next.Ended || !slices.Equal(next.Partial, resp.Partial)
		resp = next
		if (changed || werr != nil) && !send(resp) {
			return
		}
		if werr != nil {
			return
		}
	}
}

// readOutput reads once: the newest q.Tail lines when tail, else the lines
// after cursor, filtered to q.Stream.
func (s *Server) readOutput(id jobs.ID, q OutputQuery, cursor uint64, tail bool) (OutputResponse, error) {
	// Whether the job is over is decided before reading, so an ended
	// answer holds every line the job wrote.
	info, ended, err := settled(s.mgr, id)
	if err != nil {
		return OutputResponse{}, err
	}
	out, err := s.mgr.Output(id)
	if err != nil {
		return OutputResponse{}, err
	}
	var c jobs.Chunk
	switch {
	case tail && q.Stream != "":
		c = out.Tail(0)
		c.Lines = lastN(filterLines(c.Lines, q.Stream), q.Tail)
	case tail:
		c = out.Tail(q.Tail)
	default:
		c = out.ReadAfter(cursor, q.Max)
		c.Lines = filterLines(c.Lines, q.Stream)
	}
	if ended && c.Next < out.Stats().Last {
		ended = false // capped by Max: more lines follow
	}
	lines := c.Lines
	if lines == nil {
		lines = []jobs.Line{}
	}
	partial := filterLines(c.Partial, q.Stream)
	if partial == nil {
		partial = []jobs.Line{}
	}
	return OutputResponse{
		Lines: lines, NextCursor: c.Next, Dropped: c.Dropped, Partial: partial,
		State: info.State, Ended: ended,
	}, nil
}

func filterLines(lines []jobs.Line, stream string) []jobs.Line {
	if stream == "" {
		return lines
	}
	out := lines[:0:0]
	for _, l := range lines {
		if l.Stream.String() == stream {
			out = append(out, l)
		}
	}
	return out
}

func lastN(lines []jobs.Line, n int) []jobs.Line {
	if n > 0 && len(lines) > n {
		return lines[len(lines)-n:]
	}
	return lines
}
