package mcp

import (
	"context"
	"fmt"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"jobtop/control"
	"jobtop/jobs"
)

// The caps of one read_output answer.
const (
	DefaultMaxLines = 200
	MaxMaxLines     = 1000
	DefaultMaxBytes = 16 << 10
	MaxMaxBytes     = 64 << 10
	// maxLineBytes cuts any one line: the log file has it whole.
	maxLineBytes = 2 << 10
)

// addOutputTools registers read_output, wait_job and search_output.
func (s *Server) addOutputTools(srv *sdk.Server) {
	addTool(s, srv, &sdk.Tool{
		Name: "read_output",
		Description: `Read a job's output, oldest first, after a cursor: pass the next_cursor of your previous read to get only lines you have not seen (0 or nothing: from the oldest line held). tail: N reads the newest N lines instead.
One call returns at most max_lines (default 200) lines and max_bytes (default 16 KiB) of text; more=true and remaining say how much is left after next_cursor. dropped counts lines memory no longer holds (search_output with in_log: true searches them). Colours and other escape sequences are removed; a line longer than 2 KiB is cut.`,
		InputSchema: inputSchema[ReadOutputInput](func(p map[string]*jsonschema.Schema) {
			enum(p["stream"], "stdout", "stderr")
			for _, name := range []string{"cursor", "max_lines", "max_bytes", "tail"} {
				minimum(p[name], 0)
			}
		}),
		Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true},
	}, s.readOutput)
	addTool(s, srv, &sdk.Tool{
		Name:        "wait_job",
		Description: `Wait for a job: until it ends (until: exit, the default), until it is ready (until: ready), or until an output line of its current run matches a regex (until: "listening on"). Waits at most timeout (default 60s, at most 10m); when that passes the job keeps running and the answer says so, with its last lines.`,
		InputSchema: inputSchema[WaitInput](nil),
		Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true},
	}, s.waitJob)
	addTool(s, srv, &sdk.Tool{
		Name:        "search_output",
		Description: `Find the output lines that match a regex (Go RE2 syntax; (?i) for any case) in one job (id) or in every job (no id). Searches what memory holds (line numbers are cursors for read_output); in_log: true searches the job's whole log file instead, also what memory dropped (line numbers of the file). Returns at most max_matches (default 50) lines, oldest first.`,
		InputSchema: inputSchema[SearchInput](func(p map[string]*jsonschema.Schema) {
			minimum(p["max_matches"], 0)
		}),
		Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true},
	}, s.searchOutput)
}

// ReadOutputInput is read_output's arguments.
type ReadOutputInput struct {
	ID       JobRef `json:"id"`
	Cursor   uint64 `json:"cursor,omitempty" jsonschema:"read the lines after this one: the next_cursor of your previous read (default 0: from the oldest line held)"`
	MaxLines int    `json:"max_lines,omitempty" jsonschema:"at most this many lines (default 200, at most 1000)"`
	MaxBytes int    `json:"max_bytes,omitempty" jsonschema:"at most this many bytes of line text (default 16384, at most 65536)"`
	Tail     *int   `json:"tail,omitempty" jsonschema:"read the newest N lines instead of the lines after cursor; 0: no lines, only a next_cursor at the newest line, to read what comes from now on"`
	Stream   string `json:"stream,omitempty" jsonschema:"only stdout or only stderr lines (default both)"`
}

// ReadOutputResult is read_output's answer.
type ReadOutputResult struct {
	Job        int          `json:"job"`
	State      string       `json:"state"`
	Lines      []OutputLine `json:"lines"`
	NextCursor uint64       `json:"next_cursor" jsonschema:"pass this as cursor next time to read only newer lines"`
	More       bool         `json:"more" jsonschema:"lines after next_cursor were already there: call again to read them"`
	Remaining  uint64       `json:"remaining" jsonschema:"how many lines were already there after next_cursor"`
	Dropped    uint64       `json:"dropped" jsonschema:"lines between your cursor and these that memory no longer holds (the log file has them)"`
	Partial    []OutputLine `json:"partial,omitempty" jsonschema:"a line still being written (no newline yet), e.g. a prompt; not covered by next_cursor"`
	Ended      bool         `json:"ended" jsonschema:"the job has ended and this answer reaches its last line: nothing more will come (false while more is true, also for a job that has ended)"`
	Note       string       `json:"note,omitempty"`
}

func (s *Server) readOutput(ctx context.Context, _ *sdk.CallToolRequest, in ReadOutputInput) (string, ReadOutputResult, error) {
	info, err := s.resolve(ctx, in.ID)
	if err != nil {
		return "", ReadOutputResult{}, err
	}
	if in.Tail != nil && in.Cursor > 0 {
		return "", ReadOutputResult{}, fmt.Errorf("give either cursor (the lines after it) or tail (the newest lines), not both")
	}
	// Lines only ever grow: a cursor past them is not one this job gave
	// (another job's, or a log file's line number), and would hide every
	// line up to it.
	if in.Cursor > info.Lines {
		return "", ReadOutputResult{}, fmt.Errorf("cursor %d is past job %d's last line (%d): pass the next_cursor of your last read_output of this job, or 0 to read from the oldest line held (log file line numbers from search_output are not cursors)", in.Cursor, info.ID, info.Lines)
	}
	var notes []string
	maxLines := capArg(in.MaxLines, DefaultMaxLines, MaxMaxLines, "max_lines", &notes)
	maxBytes := capArg(in.MaxBytes, DefaultMaxBytes, MaxMaxBytes, "max_bytes", &notes)
	q := control.OutputQuery{Cursor: in.Cursor, Max: maxLines, Stream: in.Stream}
	switch {
	case in.Tail == nil:
	case *in.Tail == 0:
		q = control.OutputQuery{Tail: control.TailNone}
	default:
		q = control.OutputQuery{Tail: min(*in.Tail, maxLines), Stream: in.Stream}
	}
	resp, err := s.opts.Client.ReadOutput(ctx, info.ID, q)
	if err != nil {
		return "", ReadOutputResult{}, s.apiError(err)
	}
	out := ReadOutputResult{
		Job: int(info.ID), State: string(resp.State), NextCursor: resp.NextCursor,
		Dropped: resp.Dropped, Ended: resp.Ended, Lines: []OutputLine{},
	}
	if in.Tail != nil {
		out.Lines = fitNewest(resp.Lines, maxBytes)
	} else {
		out.Lines = fitOldest(resp.Lines, maxBytes)
		if n := len(out.Lines); n < len(resp.Lines) {
			out.NextCursor = out.Lines[n-1].Seq
			out.Ended = false // cut by max_bytes: more follows
		}
	}
	for _, p := range resp.Partial {
		out.Partial = append(out.Partial, outputLine(p, maxLineBytes))
	}
	// The job's line count, read after the output, bounds what is left.
	if now, err := s.opts.Client.Job(ctx, info.ID); err == nil && now.Lines > out.NextCursor {
		out.Remaining = now.Lines - out.NextCursor
	}
	out.More = out.Remaining > 0
	out.Note = strings.Join(append(notes, out.notes(info, in.Stream)...), "; ")
	return out.text(), out, nil
}

// capArg reads a count argument: 0 means def, more than most is capped
// (and noted).
func capArg(v, def, most int, name string, notes *[]string) int {
	switch {
	case v <= 0:
		return def
	case v > most:
		*notes = append(*notes, fmt.Sprintf("%s was capped at %d", name, most))
		return most
	}
	return v
}

// fitOldest keeps the oldest lines whose text fits in budget bytes; the
// first line always goes in (cut if need be), so a cursor always moves.
func fitOldest(lines []jobs.Line, budget int) []OutputLine {
	out := []OutputLine{}
	for _, l := range lines {
		ol := outputLine(l, min(maxLineBytes, max(budget, 64)))
		if len(out) > 0 && len(ol.Text) > budget {
			break
		}
		out = append(out, ol)
		budget -= len(ol.Text)
	}
	return out
}

// fitNewest keeps the newest lines whose text fits in budget bytes.
func fitNewest(lines []jobs.Line, budget int) []OutputLine {
	var rev []OutputLine
	for i := len(lines) - 1; i >= 0; i-- {
		ol := outputLine(lines[i], min(maxLineBytes, max(budget, 64)))
		if len(rev) > 0 && len(ol.Text) > budget {
			break
		}
		rev = append(rev, ol)
		budget -= len(ol.Text)
	}
	out := make([]OutputLine, len(rev))
	for i, l := range rev {
		out[len(rev)-1-i] = l
	}
	return out
}

// notes say what the model can do next.
func (r ReadOutputResult) notes(info jobs.Info, stream string) []string {
	var notes []string
	switch {
	case r.Dropped > 0 && info.LogDropped > 0:
		notes = append(notes, fmt.Sprintf("%s before these %s no longer in memory, and the log file (%s) lost %s it could not write (a full disk?): search_output with in_log: true searches what it has", plural(int(r.Dropped), "line"), isAre(r.Dropped), info.LogPath, plural(int(info.LogDropped), "byte")))
	case r.Dropped > 0:
		notes = append(notes, fmt.Sprintf("%s before these %s no longer in memory; search_output with in_log: true searches %s (log file %s)", plural(int(r.Dropped), "line"), isAre(r.Dropped), pick(r.Dropped == 1, "it", "them"), info.LogPath))
	}
	switch {
	case r.More && stream != "":
		notes = append(notes, fmt.Sprintf("up to %d more %s (of both streams) after next_cursor %d: call read_output with cursor %d to go on, or tail for the newest", r.Remaining, pick(r.Remaining == 1, "line", "lines"), r.NextCursor, r.NextCursor))
	case r.More:
		notes = append(notes, fmt.Sprintf("%d more %s after next_cursor %d: call read_output with cursor %d to go on, or tail for the newest", r.Remaining, pick(r.Remaining == 1, "line", "lines"), r.NextCursor, r.NextCursor))
	case r.Ended:
		notes = append(notes, "the job has ended: no more lines will come after these")
	default:
		notes = append(notes, fmt.Sprintf("that is all for now; next time read with cursor %d (wait_job waits for a line)", r.NextCursor))
	}
	return notes
}

// text is the answer's text form: a header, the lines, the note.
func (r ReadOutputResult) text() string {
	var b strings.Builder
	first, last := uint64(0), uint64(0)
	if n := len(r.Lines); n > 0 {
		first, last = r.Lines[0].Seq, r.Lines[n-1].Seq
	}
	switch len(r.Lines) {
	case 0:
		fmt.Fprintf(&b, "job %d (%s): no new lines\n", r.Job, r.State)
	default:
		fmt.Fprintf(&b, "job %d (%s): lines %d-%d\n", r.Job, r.State, first, last)
	}
	for _, l := range r.Lines {
		b.WriteString(l.text() + "\n")
	}
	for _, l := range r.Partial {
		b.WriteString(l.text() + " [no newline yet]\n")
	}
	b.WriteString("[next_cursor " + fmt.Sprint(r.NextCursor) + "; " + r.Note + "]")
	return b.String()
}
