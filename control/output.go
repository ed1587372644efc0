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
	// Max caps the lines in one answer: 0 means DefaultOutputLines (or
	// Tail, when given); at most MaxOutputLines. An answer also stops at
	// MaxOutputBytes of text; then it says More.
	Max int
	// Tail, when > 0, asks for the newest Tail lines (at most
	// MaxOutputLines) instead of the lines after Cursor (then reading goes
	// on after them when following). TailNone (tail=0 on the wire) asks
	// for none: an answer with no lines whose next_cursor is the newest
	// line, to read on from "now" (as tail -n 0 -f).
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

// TailNone is the Tail of a read of no lines but the newest cursor
// (tail=0): the zero Tail means no tail was given.
const TailNone = -1

// Values encodes the query for a URL.
func (q OutputQuery) Values() url.Values {
	v := url.Values{}
	if q.Cursor > 0 {
		v.Set("cursor", strconv.FormatUint(q.Cursor, 10))
	}
	if q.Max > 0 {
		v.Set("max", strconv.Itoa(q.Max))
	}
	switch {
	case q.Tail > 0:
		v.Set("tail", strconv.Itoa(q.Tail))
	case q.Tail == TailNone:
		v.Set("tail", "0")
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
	if q.Tail == 0 && v.Get("tail") != "" {
		q.Tail = TailNone
	}
	if q.Tail != 0 && q.Cursor > 0 {
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
	id, err := s.pathID(r)
	if err != nil {
		writeError(w, err)
		return
	}
	q, err := ParseOutputQuery(r.URL.Query())
	if err != nil {
		writeError(w, err)
		return
	}
	if q.Cursor > 0 {
		// Seq numbers only grow, across runs, and no line loses its
		// number: a cursor past the newest line is not one this job
		// gave (another job's, another instance's, a log file line
		// number), and would silently skip the lines up to it. A job
		// removed is no job (404), as without a cursor: Get, not the
		// end the manager remembers of it, whose output is gone.
		info, err := s.mgr.Get(id)
		if err != nil {
			writeError(w, err)
			return
		}
		if q.Cursor > info.Lines {
			writeError(w, badRequest("cursor %d is past job %d's last line (%d): pass the next_cursor of an earlier read of this job, or 0 to read from the oldest line held", q.Cursor, id, info.Lines))
			return
		}
	}
	ctx, cancel := s.requestContext(r, q.Timeout)
	defer cancel()
	// Watch before the first read, so no change after it is missed.
	var watch *jobWatch
	if q.Wait || q.Follow {
		release, err := s.openStream()
		if err != nil {
			writeError(w, err)
			return
		}
		defer release()
		watch = s.watch(id)
		defer watch.close()
	}
	page, err := s.readPage(id, q, q.Cursor, q.Tail != 0)
	if err != nil {
		writeError(w, err)
		return
	}
	switch {
	case q.Follow:
		s.streamOutput(ctx, w, id, q, page, watch)
	case q.Wait && (q.Tail == 0 || q.Tail == TailNone): // tail=0: the next line
		page = s.pollOutput(ctx, id, q, page, watch)
		fallthrough
	default:
		j := startJSON(w)
		page.write(j)
		j.end() //nolint:errcheck // the client may be gone
	}
}

// pollOutput waits until a read has lines (or a drop) to return, or the job
// ended, or ctx ended; it returns the last read.
func (s *Server) pollOutput(ctx context.Context, id jobs.ID, q OutputQuery, page *outputPage, watch *jobWatch) *outputPage {
	for page.empty() {
		werr := watch.next(ctx)
		if werr != nil && !errors.Is(werr, errStreamClosed) {
			return page
		}
		next, err := s.readPage(id, q, page.first.Next, false)
		if err != nil {
			return page // removed meanwhile: what was read stands
		}
		page = next
		if werr != nil {
			return page
		}
	}
	return page
}

// streamOutput writes NDJSON answers: the first read, then one per change
// that brings lines, a drop or a new partial line, until the job ends or
// ctx does. An answer cut by its bounds (More) is followed at once by the
// next. A job removed once it ended is read to its end from the output
// the stream holds (readRemovedPage); one removed otherwise ends the
// stream with an answer holding Error.
func (s *Server) streamOutput(ctx context.Context, w http.ResponseWriter, id jobs.ID, q OutputQuery, page *outputPage, watch *jobWatch) {
	out := page.out
	j, flush := startNDJSON(w)
	end := page.write(j)
	if j.end() != nil {
		return
	}
	flush()
	for !end.ended {
		var werr error
		if !end.more {
			werr = watch.next(ctx)
			if werr != nil && !errors.Is(werr, errStreamClosed) {
				return
			}
		}
		// After the manager shut down (all jobs reaped), one last read
		// tells the follower how its job ended.
		next, err := s.readPage(id, q, end.next, false)
		var notFound *jobs.NotFoundError
		if errors.As(err, &notFound) {
			next, err = s.readRemovedPage(id, out, q, end.next)
		}
		if err != nil {
			j.value(OutputResponse{Lines: []jobs.Line{}, NextCursor: end.next, Partial: []jobs.Line{}, Ended: true, Error: err.Error()})
			j.end() //nolint:errcheck // the stream ends here anyway
			return
		}
		if next.empty() && slices.Equal(next.first.Partial, end.partial) && next.cursor == end.cursor && werr == nil {
			continue
		}
		end = next.write(j)
		if j.end() != nil {
			return
		}
		flush()
		if werr != nil {
			return
		}
	}
}
