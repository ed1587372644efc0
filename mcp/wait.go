package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"jobtop/control"
	"jobtop/jobs"
)

// Bounds of a wait.
const (
	defaultWait = time.Minute
	maxWait     = 10 * time.Minute
)

// untilKind is what a wait waits for.
type untilKind uint8

const (
	untilExit untilKind = iota
	untilReady
	untilMatch
)

// waitUntil is a parsed wait_for or until argument.
type waitUntil struct {
	kind    untilKind
	re      *regexp.Regexp
	pattern string
	// after: only lines after this cursor match (0: from the start of
	// the current run); cursorGiven: the caller gave it (0 too), so the
	// next line is waited for (control.NextMatcher).
	after       uint64
	cursorGiven bool
}

// argGiven says whether the call's arguments name key (a 0 given is
// given).
func argGiven(req *sdk.CallToolRequest, key string) bool {
	var args map[string]json.RawMessage
	return req != nil && req.Params != nil && json.Unmarshal(req.Params.Arguments, &args) == nil && args[key] != nil
}

// parseUntil reads "exit", "ready" or a regular expression.
func parseUntil(field, s string) (waitUntil, error) {
	switch strings.TrimSpace(s) {
	case "", "exit":
		return waitUntil{kind: untilExit}, nil
	case "ready":
		return waitUntil{kind: untilReady}, nil
	}
	re, err := compilePattern(field, s)
	if err != nil {
		return waitUntil{}, err
	}
	return waitUntil{kind: untilMatch, re: re, pattern: s}, nil
}

// maxPatternBytes bounds a regular expression argument.
const maxPatternBytes = 4 << 10

// compilePattern compiles a regular expression argument, or says what is
// wrong with it and where (jobs.CompilePattern's words).
func compilePattern(field, p string) (*regexp.Regexp, error) {
	if len(p) > maxPatternBytes {
		return nil, fmt.Errorf("%s is %d bytes long; a pattern of at most %d bytes, please", field, len(p), maxPatternBytes)
	}
	return jobs.CompilePattern(field, p)
}

// OutputLine is a line of output as the tools return it. Stream has the
// API's names (jobs.Stream).
type OutputLine struct {
	Seq    uint64 `json:"seq,omitempty" jsonschema:"the line's number: read_output with this cursor reads what came after it; absent for a line still being written"`
	Stream string `json:"stream" jsonschema:"stdout, stderr, or meta for jobtop's own notes (a run's marker, a health note), as the API names them"`
	Text   string `json:"text"`
}

func outputLine(l jobs.Line, maxBytes int) OutputLine {
	return OutputLine{Seq: l.Seq, Stream: l.Stream.String(), Text: cutText(plain(l.Text), maxBytes)}
}

// text is the line as the text form shows it.
func (l OutputLine) text() string { return streamMark(l.Stream) + l.Text }

// streamMark is what the text forms put before a line of stream (a
// jobs.Stream's name): nothing for stdout, "[stderr] ", and "[jobtop] "
// for jobtop's own notes, as its log files mark them.
func streamMark(stream string) string {
	switch stream {
	case "", jobs.Stdout.String():
		return ""
	case jobs.Meta.String():
		return "[jobtop] "
	}
	return "[" + stream + "] "
}

// WaitInput is wait_job's arguments.
type WaitInput struct {
	ID      JobRef   `json:"id"`
	Until   string   `json:"until,omitempty" jsonschema:"exit (default): until the job ends; ready: until its ready check passes; anything else is a regex an output line of its current run must match"`
	Cursor  uint64   `json:"cursor,omitempty" jsonschema:"with a regex: only lines after this cursor count (the next_cursor of your last read_output), so a watcher's next 'compiled' line is waited for, not the last one; default: from the start of the current run"`
	Timeout Duration `json:"timeout,omitempty" jsonschema:"how long to wait at most (default 60s, at most 10m); the job keeps running when it passes"`
}

// WaitResult says how a wait ended.
type WaitResult struct {
	Outcome   string       `json:"outcome" jsonschema:"matched, ready, exited, ended (before a line matched or it was ready), or timed_out (the wait ran out; the job goes on)"`
	Matched   *OutputLine  `json:"matched,omitempty" jsonschema:"the line that matched"`
	Waited    string       `json:"waited"`
	Job       JobSummary   `json:"job"`
	LastLines []OutputLine `json:"last_lines,omitempty" jsonschema:"the job's newest lines, when the wait did not find what it waited for"`
	Note      string       `json:"note,omitempty"`
	// wasReady: it ended, but only after its run was ready (why).
	wasReady bool
}

func (s *Server) waitJob(ctx context.Context, req *sdk.CallToolRequest, in WaitInput) (string, WaitResult, error) {
	until, err := parseUntil("until", in.Until)
	if err != nil {
		return "", WaitResult{}, err
	}
	if in.Cursor > 0 && until.kind != untilMatch {
		return "", WaitResult{}, errors.New("cursor applies to a regex until: exit and ready do not read lines")
	}
	until.after = in.Cursor
	until.cursorGiven = argGiven(req, "cursor")
	info, err := s.resolve(ctx, in.ID)
	if err != nil {
		return "", WaitResult{}, err
	}
	if in.Cursor > info.Lines {
		return "", WaitResult{}, fmt.Errorf("cursor %d is past job %d's last line (%d): pass the next_cursor of your last read_output of this job", in.Cursor, info.ID, info.Lines)
	}
	res, err := s.wait(ctx, req, info.ID, until, time.Duration(in.Timeout))
	if err != nil {
		return "", WaitResult{}, err
	}
	return res.text(), res, nil
}

// wait waits for until on job id, at most timeout (0: the default; capped
// at maxWait), telling req's client how long it has waited when it asked.
func (s *Server) wait(ctx context.Context, req *sdk.CallToolRequest, id jobs.ID, until waitUntil, timeout time.Duration) (WaitResult, error) {
	var res WaitResult
	switch {
	case timeout <= 0:
		timeout = defaultWait
	case timeout > maxWait:
		res.Note = fmt.Sprintf("the wait was capped at %v", maxWait)
		timeout = maxWait
	}
	began := time.Now()
	stop := postProgress(ctx, req, until.describe(id), timeout)
	defer stop()
	var info jobs.Info
	var err error
	switch until.kind {
	case untilExit:
		var resp control.WaitResponse
		resp, err = s.opts.Client.WaitJob(ctx, id, timeout)
		info, res.Outcome = resp.Job, pick(resp.Ended, "exited", "timed_out")
	case untilReady:
		var resp control.WaitResponse
		resp, err = s.opts.Client.WaitReady(ctx, id, timeout)
		info = resp.Job
		switch {
		case resp.Ended && info.LastRunWasReady() && info.State == jobs.StateSucceeded:
			// Ready before it ended (a job with no check is ready once
			// it runs): it did not end first.
			res.Outcome, res.Note = "ready", "the job was ready, and has ended since"
		case resp.Ended && info.State == jobs.StateSucceeded:
			// Done before its check passed (a build whose ready line
			// never came): a job that depends on it takes it as ready,
			// and so does jobtop wait --ready.
			res.Outcome, res.Note = "ready", "the job succeeded before its ready check passed: ready, as jobs that depend on it take it"
		case resp.Ended:
			res.Outcome, res.wasReady = "ended", info.LastRunWasReady()
		case info.Ready:
			res.Outcome = "ready"
		default:
			res.Outcome = "timed_out"
		}
	case untilMatch:
		res.Matched, res.Outcome, err = s.waitMatch(ctx, id, until, timeout)
		if err == nil {
			info, err = s.opts.Client.Job(ctx, id)
		}
	}
	if err != nil {
		if ctx.Err() != nil {
			return WaitResult{}, ctx.Err()
		}
		err = s.apiError(err)
		if gone := (*instanceGone)(nil); errors.As(err, &gone) {
			return WaitResult{}, fmt.Errorf("waiting for %s was cut off: %w", until.describe(id), err)
		}
		if broke := (*connectionBroke)(nil); errors.As(err, &broke) {
			return WaitResult{}, broke.words(s.opts.Client, "waiting for "+until.describe(id))
		}
		return WaitResult{}, err
	}
	res.Waited = formatDuration(time.Since(began))
	res.Job = summarize(info, time.Now())
	notes := []string{res.Note, res.why(until, timeout)}
	switch {
	case until.kind != untilReady:
	case info.Readiness == "" && res.Outcome == "ready":
		notes = append(notes, noCheckNote)
	case info.ReadyError != "" && res.Outcome != "ready":
		notes = append(notes, fmt.Sprintf("its ready check (%s) fails: %s", info.Readiness, info.ReadyError))
	}
	res.Note = strings.Join(slices.DeleteFunc(notes, func(n string) bool { return n == "" }), "; ")
	if res.Outcome != "matched" && res.Outcome != "ready" {
		res.LastLines = s.lastLines(ctx, id)
	}
	return res, nil
}

func pick(cond bool, yes, no string) string {
	if cond {
		return yes
	}
	return no
}

// describe says what a wait waits for: "job 3 to end".
func (u waitUntil) describe(id jobs.ID) string {
	switch u.kind {
	case untilReady:
		return fmt.Sprintf("job %d to be ready", id)
	case untilMatch:
		return fmt.Sprintf("a line of job %d matching %q", id, u.pattern)
	}
	return fmt.Sprintf("job %d to end", id)
}

// errMatched ends the output stream once a line matched.
var errMatched = errors.New("matched")

// waitMatch follows the job's output from the start of its current run
// (or until.after, when later) until a line matches until.re (or the line
// being written does), the job ends, or timeout passes.
func (s *Server) waitMatch(ctx context.Context, id jobs.ID, until waitUntil, timeout time.Duration) (*OutputLine, string, error) {
	re := until.re
	wctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	var found *OutputLine
	// Only the current run's lines count: read from where it began.
	job, err := s.opts.Client.Job(wctx, id)
	if err != nil {
		return nil, "", err
	}
	from := max(job.RunCursor, until.after)
	m := control.NewNextMatcher(from, until.cursorGiven, func(l jobs.Line) bool {
		return l.Stream != jobs.Meta && re.MatchString(plain(l.Text))
	})
	if until.cursorGiven {
		now, err := s.opts.Client.ReadOutput(wctx, id, control.AtCursor(from))
		if err != nil {
			return nil, "", err
		}
		m.StaleAt(now.Partial)
	}
	err = s.opts.Client.FollowOutput(wctx, id, control.OutputQuery{Cursor: from}, func(r control.OutputResponse) error {
		if l, ok := m.Find(r); ok {
			ol := outputLine(l, maxLineBytes)
			found = &ol
			return errMatched
		}
		return nil
	})
	switch {
	case errors.Is(err, errMatched):
		return found, "matched", nil
	case err == nil:
		return nil, "ended", nil
	case ctx.Err() != nil:
		return nil, "", ctx.Err()
	case errors.Is(err, context.DeadlineExceeded):
		return nil, "timed_out", nil
	}
	return nil, "", err
}

// Bounds of the last lines shown when a wait did not find its line.
const (
	lastLinesCount = 10
	lastLinesBytes = 2 << 10
)

// lastLines are the job's newest lines, within lastLinesBytes; nil when
// they cannot be read.
func (s *Server) lastLines(ctx context.Context, id jobs.ID) []OutputLine {
	resp, err := s.opts.Client.ReadOutput(ctx, id, control.OutputQuery{Tail: lastLinesCount})
	if err != nil {
		return nil
	}
	lines := append(resp.Lines, resp.Partial...)
	var out []OutputLine
	budget := lastLinesBytes
	for i := len(lines) - 1; i >= 0 && budget > 0; i-- {
		l := outputLine(lines[i], min(budget, 400))
		budget -= len(l.Text)
		out = append(out, l)
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out
}

// why explains an outcome that is not what was waited for.
func (r WaitResult) why(until waitUntil, timeout time.Duration) string {
	switch r.Outcome {
	case "ended":
		if until.kind == untilReady && r.wasReady {
			return "the job was ready, then ended " + r.Job.State
		}
		if until.kind == untilReady {
			return "the job ended before it was ready"
		}
		return fmt.Sprintf("the job ended before a line matched %q", until.pattern)
	case "timed_out":
		what := "it did not end"
		switch until.kind {
		case untilReady:
			what = "it was not ready"
		case untilMatch:
			what = fmt.Sprintf("no line matched %q", until.pattern)
		}
		return fmt.Sprintf("%s within %v; the job keeps running: wait_job waits longer, stop_job stops it", what, timeout)
	}
	return ""
}

// text is the wait's text form.
func (r WaitResult) text() string {
	var b strings.Builder
	switch r.Outcome {
	case "matched":
		if r.Matched.Seq == 0 {
			fmt.Fprintf(&b, "matched after %s, the line being written (no newline yet): %s\n", r.Waited, r.Matched.Text)
			break
		}
		fmt.Fprintf(&b, "matched after %s, line %d: %s\n", r.Waited, r.Matched.Seq, r.Matched.Text)
		fmt.Fprintf(&b, "read_output with cursor %d reads what came after it, cursor 0 everything\n", r.Matched.Seq)
	case "ready":
		fmt.Fprintf(&b, "ready after %s\n", r.Waited)
	case "exited":
		fmt.Fprintf(&b, "ended after %s waiting\n", r.Waited)
	}
	b.WriteString("job " + r.Job.line())
	if r.Note != "" {
		b.WriteString("\n" + r.Note)
	}
	if len(r.LastLines) > 0 {
		b.WriteString("\nits last lines:")
		for _, l := range r.LastLines {
			b.WriteString("\n" + l.text())
		}
	}
	return b.String()
}
