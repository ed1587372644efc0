package control

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strconv"

	"jobtop/jobs"
)

// Bounds of one output answer (GET /v1/jobs/{id}/output, GET /v1/output):
// past them the answer says "more": true and next_cursor goes on.
const (
	// DefaultOutputLines is the most lines an answer holds when the
	// query gives no max (nor tail).
	DefaultOutputLines = 1000
	// MaxOutputLines caps max and tail.
	MaxOutputLines = 10_000
	// MaxOutputBytes caps the text of an answer's lines.
	MaxOutputBytes = 4 << 20
)

// An answer is copied out of the stores a batch at a time and encoded as
// it goes, so what it holds in memory at once is a batch, whatever its
// size.
const (
	batchLines = 256
	batchBytes = 256 << 10
)

// selector is the read side of a job's output the server needs: reads
// that pick lines before copying them. *jobs.OutputStore implements it.
type selector interface {
	jobs.OutputReader
	Select(jobs.Selection) jobs.Chunk
	CountArrived(after, upTo uint64) int
	CountArrivedIn(after, upTo uint64, streams jobs.StreamSet, limit int) int
	DroppedAfter(arrival uint64) (dropped bool, lines uint64)
}

// selectorOf returns the job's output store as a selector.
func selectorOf(m manager, id jobs.ID) (selector, error) {
	out, err := m.Output(id)
	if err != nil {
		return nil, err
	}
	sel, ok := out.(selector)
	if !ok {
		return nil, fmt.Errorf("job %d's output cannot be read here", id)
	}
	return sel, nil
}

// lineLimit is how many lines an answer to q may hold: max when given,
// else tail when given, else DefaultOutputLines; at most MaxOutputLines.
func lineLimit(max, tail int) int {
	switch {
	case max > 0:
		return min(max, MaxOutputLines)
	case tail > 0:
		return min(tail, MaxOutputLines)
	}
	return DefaultOutputLines
}

// jsonWriter writes JSON a piece at a time into a buffered writer: the
// punctuation by hand, each value through encoding/json (no HTML
// escaping, no newline, so an answer stays one NDJSON line).
type jsonWriter struct {
	w   *bufio.Writer
	buf bytes.Buffer
	enc *json.Encoder
	err error
}

func newJSONWriter(w io.Writer) *jsonWriter {
	j := &jsonWriter{w: bufio.NewWriterSize(w, 32<<10)}
	j.enc = json.NewEncoder(&j.buf)
	j.enc.SetEscapeHTML(false)
	return j
}

func (j *jsonWriter) raw(s string) {
	if j.err == nil {
		_, j.err = j.w.WriteString(s)
	}
}

func (j *jsonWriter) value(v any) {
	if j.err != nil {
		return
	}
	j.buf.Reset()
	if j.err = j.enc.Encode(v); j.err == nil {
		_, j.err = j.w.Write(bytes.TrimSuffix(j.buf.Bytes(), []byte("\n")))
	}
}

// field writes `,"name":value`.
func (j *jsonWriter) field(name string, v any) {
	j.raw(`,"` + name + `":`)
	j.value(v)
}

func (j *jsonWriter) uint(name string, n uint64) {
	j.raw(`,"` + name + `":` + strconv.FormatUint(n, 10))
}

func (j *jsonWriter) bool(name string, b bool) { j.raw(`,"` + name + `":` + strconv.FormatBool(b)) }

// end finishes one NDJSON line (or a JSON answer) and sends it.
func (j *jsonWriter) end() error {
	j.raw("\n")
	if j.err == nil {
		j.err = j.w.Flush()
	}
	return j.err
}

// startJSON answers 200 with a JSON body to be written.
func startJSON(w http.ResponseWriter) *jsonWriter {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	return newJSONWriter(deadlineWriter{w})
}

// startNDJSON answers 200 with an NDJSON stream to be written; flush
// sends what was written so far.
func startNDJSON(w http.ResponseWriter) (*jsonWriter, func()) {
	w.Header().Set("Content-Type", "application/x-ndjson")
	w.WriteHeader(http.StatusOK)
	flusher, _ := w.(http.Flusher)
	return newJSONWriter(deadlineWriter{w}), func() {
		if flusher != nil {
			streamWriteDeadline(w)
			flusher.Flush()
			streamWriteDone(w)
		}
	}
}

// deadlineWriter gives each write StreamWriteTimeout to reach the client,
// so one that stopped reading cannot hold its request (and a stream slot)
// for ever.
type deadlineWriter struct{ w http.ResponseWriter }

func (d deadlineWriter) Write(p []byte) (int, error) {
	streamWriteDeadline(d.w)
	defer streamWriteDone(d.w)
	return d.w.Write(p)
}

// outputPage is one answer to a job's output read. Its first batch is
// read when it is made (so whether there is anything to say is known);
// the rest is read batch by batch while it is written.
type outputPage struct {
	out     selector
	streams jobs.StreamSet
	limit   int
	first   jobs.Chunk
	state   jobs.State
	ended   bool // the job was over before the read
	// shutDown: the instance ended the job as it shut down.
	shutDown bool
	cursor   lineCursor
}

// lineCursor is where a job's cursor is on the line it builds on stdout
// (col, with a partial line there) and whether its program hid it, as
// its store says (jobs.OutputStore's PartialCursor and CursorHidden): an
// attached TUI draws it in input mode as the local one does.
type lineCursor struct {
	col    int
	has    bool
	hidden bool
}

// cursorOf reads a store's line cursor, after a read that returned
// partial.
func cursorOf(out selector, partial []jobs.Line) lineCursor {
	var c lineCursor
	if h, ok := out.(interface{ CursorHidden() bool }); ok {
		c.hidden = h.CursorHidden()
	}
	pc, ok := out.(interface{ PartialCursor(jobs.Stream) int })
	if ok && slices.ContainsFunc(partial, func(l jobs.Line) bool { return l.Stream == jobs.Stdout }) {
		c.col, c.has = pc.PartialCursor(jobs.Stdout), true
	}
	return c
}

// readPage reads the first batch of an answer: the newest q.Tail lines
// (none for TailNone: only the newest line's cursor) when tail, else the
// lines after cursor, in q.Stream.
func (s *Server) readPage(id jobs.ID, q OutputQuery, cursor uint64, tail bool) (*outputPage, error) {
	// Whether the job is over is decided before reading, so an ended
	// answer holds every line the job wrote.
	info, ended, err := settled(s.mgr, id)
	if err != nil {
		return nil, err
	}
	out, err := selectorOf(s.mgr, id)
	if err != nil {
		return nil, err
	}
	return readPageOf(out, info, ended, q, cursor, tail), nil
}

// readRemovedPage is readPage of a job removed once it ended (rm, the
// cap on finished jobs, a reload) from out, its output as a stream read
// it before the removal: the store stays whole as long as it is held,
// so a follower gets every line the job wrote, and its end. It is the
// manager's error when the job is not known to have ended.
func (s *Server) readRemovedPage(id jobs.ID, out selector, q OutputQuery, cursor uint64) (*outputPage, error) {
	info, ended, err := settled(s.mgr, id)
	if err != nil {
		return nil, err
	}
	if !ended {
		return nil, &jobs.NotFoundError{ID: id}
	}
	return readPageOf(out, info, ended, q, cursor, false), nil
}

// readPageOf is readPage's read of out, the output of the job that info
// is a snapshot of.
func readPageOf(out selector, info jobs.Info, ended bool, q OutputQuery, cursor uint64, tail bool) *outputPage {
	p := &outputPage{out: out, streams: streamSet(q.Stream), state: info.State, ended: ended, shutDown: info.ShutDown}
	sel := jobs.Selection{After: cursor, Streams: p.streams, Partial: true}
	if tail && q.Tail == TailNone {
		// The job's newest line, of any stream (a cursor passes the
		// others), as the job counted them before the read.
		p.first = jobs.Chunk{Next: info.Lines}
		return p
	}
	if tail {
		sel.Tail = min(q.Tail, MaxOutputLines)
		p.limit = lineLimit(q.Max, q.Tail)
	} else {
		p.limit = lineLimit(q.Max, 0)
	}
	sel.Max, sel.MaxBytes = min(batchLines, p.limit), batchBytes
	p.first = out.Select(sel)
	if len(p.first.Lines) == 0 && p.first.More {
		// A line longer than a batch: it goes alone.
		sel.Max, sel.MaxBytes = 1, 0
		p.first = out.Select(sel)
	}
	p.cursor = cursorOf(out, p.first.Partial)
	return p
}

func streamSet(name string) jobs.StreamSet {
	switch name {
	case "stdout":
		return jobs.StreamsOf(jobs.Stdout)
	case "stderr":
		return jobs.StreamsOf(jobs.Stderr)
	}
	return 0
}

// empty says the answer has nothing new: no line, no drop, not ended.
func (p *outputPage) empty() bool {
	return len(p.first.Lines) == 0 && p.first.Dropped == 0 && !p.ended
}

// pageEnd is what an answer said after its lines, for the next read.
type pageEnd struct {
	next    uint64
	more    bool
	ended   bool
	partial []jobs.Line
	cursor  lineCursor
}

// write writes the answer as one JSON object (OutputResponse's fields),
// reading the lines after the first batch as it goes. It stops at the
// page's line limit, at MaxOutputBytes, or where the store no longer
// holds the next line (the next read reports the drop).
func (p *outputPage) write(j *jsonWriter) pageEnd {
	j.raw(`{"lines":[`)
	c := p.first
	count, size := 0, 0
	end := pageEnd{next: c.Next, more: c.More}
	for j.err == nil {
		for _, l := range c.Lines {
			if count > 0 {
				j.raw(",")
			}
			j.value(l)
			count++
			size += len(l.Text)
		}
		end.next, end.more = c.Next, c.More
		if !c.More || count >= p.limit || size >= MaxOutputBytes {
			break
		}
		c = p.out.Select(jobs.Selection{After: end.next, Streams: p.streams,
			Max: min(batchLines, p.limit-count), MaxBytes: min(batchBytes, MaxOutputBytes-size)})
		if c.Dropped > 0 || (len(c.Lines) == 0 && c.More) {
			break // a gap, or a line that does not fit: the next read goes on there
		}
	}
	end.ended = p.ended && !end.more
	end.partial = p.first.Partial
	if end.partial == nil {
		end.partial = []jobs.Line{}
	}
	j.raw("]")
	j.uint("next_cursor", end.next)
	j.bool("more", end.more)
	j.uint("dropped", p.first.Dropped)
	j.field("partial", end.partial)
	end.cursor = p.cursor
	if p.cursor.has {
		j.field("partial_cursor", p.cursor.col)
	}
	if p.cursor.hidden {
		j.bool("cursor_hidden", true)
	}
	j.field("state", p.state)
	j.bool("ended", end.ended)
	if end.ended && p.shutDown {
		j.bool("shut_down", true)
	}
	j.raw("}")
	return end
}
