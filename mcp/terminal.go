package mcp

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"jobtop/control"
	"jobtop/jobs"
)

// addTerminalTools registers send_input and read_screen: typing into a
// job started with tty: true and reading what its terminal shows.
func (s *Server) addTerminalTools(srv *sdk.Server) {
	addTool(s, srv, &sdk.Tool{
		Name: "send_input",
		Description: `Type into a job started with tty: true (a terminal), as a person at its keyboard would: answer a prompt ("Overwrite? [y/N]"), drive a REPL or a full-screen program. text is typed as given; keys are named keys typed after it, in order: enter, tab, esc, backspace, delete, space, up, down, left, right, home, end, pageup, pagedown, and ctrl+a to ctrl+z (ctrl+c interrupts, ctrl+d ends input). enter: true presses enter at the end.
A job started with stdin: "pipe" (and no tty) takes text the same way on its stdin (enter sends a newline; eof: true closes it). Any other job reads no input. After typing, read_screen (with wait_for) shows the result.`,
		InputSchema: inputSchema[SendInputInput](nil),
	}, s.sendInput)
	addTool(s, srv, &sdk.Tool{
		Name: "read_screen",
		Description: `Read what a job's terminal shows now, as a person would see it: for a full-screen program (an editor, htop, an installer's menu, another agent's TUI) its screen, row by row; for any other job, its newest output lines that fit the terminal (200x50 unless resized). Colours are left out; the answer says where the cursor is (a prompt waiting for input has the cursor at its end).
wait_for: a regex (^ and $ match at each row's start and end); the call waits (up to timeout, default 10s) until the screen text matches it, e.g. after send_input, for the next prompt: "name: $".`,
		InputSchema: inputSchema[ReadScreenInput](nil),
		Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true},
	}, s.readScreen)
}

// SendInputInput is send_input's arguments.
type SendInputInput struct {
	ID    JobRef   `json:"id"`
	Text  string   `json:"text,omitempty" jsonschema:"text to type, as is"`
	Keys  []string `json:"keys,omitempty" jsonschema:"named keys to press after text, in order: enter, tab, esc, backspace, delete, space, up, down, left, right, home, end, pageup, pagedown, ctrl+a ... ctrl+z"`
	Enter bool     `json:"enter,omitempty" jsonschema:"press enter at the end"`
	EOF   bool     `json:"eof,omitempty" jsonschema:"then end the job's input: EOF for a stdin pipe (a program reading all its input, like sort or wc, then finishes; start it with run_job stdin: pipe), ctrl+d on a terminal"`
}

// SendInputOutput is send_input's answer.
type SendInputOutput struct {
	Job   JobSummary `json:"job"`
	Bytes int        `json:"bytes" jsonschema:"bytes typed"`
}

func (s *Server) sendInput(ctx context.Context, _ *sdk.CallToolRequest, in SendInputInput) (string, SendInputOutput, error) {
	info, err := s.resolve(ctx, in.ID)
	if err != nil {
		return "", SendInputOutput{}, err
	}
	if len(in.Text) > control.MaxInputBytes {
		return "", SendInputOutput{}, fmt.Errorf("text is %d bytes; at most %d at once", len(in.Text), control.MaxInputBytes)
	}
	b := []byte(in.Text)
	var modes control.Modes
	if len(in.Keys) > 0 && info.TTY {
		if scr, err := s.opts.Client.ReadScreen(ctx, info.ID, false); err == nil {
			modes = scr.Modes
		}
	}
	for _, k := range in.Keys {
		seq, err := keyBytes(k, modes.AppCursor)
		if err != nil {
			return "", SendInputOutput{}, err
		}
		b = append(b, seq...)
	}
	if in.Enter {
		b = append(b, enterKey(info)...)
	}
	if len(b) == 0 && !in.EOF {
		return "", SendInputOutput{}, errors.New("nothing to type: give text, keys, enter: true or eof: true")
	}
	if len(b) > 0 {
		if err := s.opts.Client.SendInput(ctx, info.ID, b); err != nil {
			return "", SendInputOutput{}, s.apiError(err)
		}
	}
	if in.EOF {
		if err := s.opts.Client.CloseInput(ctx, info.ID); err != nil {
			return "", SendInputOutput{}, s.apiError(err)
		}
	}
	out := SendInputOutput{Job: summarize(info, time.Now()), Bytes: len(b)}
	// A terminal's answer is on its screen; a pipe job's in its output.
	shows := "read_output shows the result"
	if info.TTY {
		shows = "read_screen shows the result"
	}
	switch {
	case len(b) == 0:
		return fmt.Sprintf("closed job %d's input; %s", info.ID, shows), out, nil
	case in.EOF:
		return fmt.Sprintf("typed %s into job %d and closed its input; %s", plural(len(b), "byte"), info.ID, shows), out, nil
	}
	return fmt.Sprintf("typed %s into job %d; %s", plural(len(b), "byte"), info.ID, shows), out, nil
}

// enterKey is what enter sends: a terminal turns "\r" into a line's end;
// a stdin pipe needs the newline itself.
func enterKey(info jobs.Info) string {
	if info.TTY {
		return "\r"
	}
	return "\n"
}

// namedKeys are the bytes a terminal sends for keys (normal cursor mode).
var namedKeys = sync.OnceValue(func() map[string]string {
	return map[string]string{
		"enter": "\r", "return": "\r", "tab": "\t", "esc": "\x1b", "escape": "\x1b",
		"backspace": "\x7f", "delete": "\x1b[3~", "space": " ",
		"up": "\x1b[A", "down": "\x1b[B", "right": "\x1b[C", "left": "\x1b[D",
		"home": "\x1b[H", "end": "\x1b[F", "pageup": "\x1b[5~", "pagedown": "\x1b[6~",
	}
})

// keyBytes is what a terminal sends for the named key; appCursor is the
// program's application cursor mode (arrows as ESC O A).
func keyBytes(name string, appCursor bool) (string, error) {
	k := strings.ToLower(strings.TrimSpace(name))
	if rest, ok := strings.CutPrefix(k, "ctrl+"); ok && len(rest) == 1 && rest[0] >= 'a' && rest[0] <= 'z' {
		return string(rune(rest[0] - 'a' + 1)), nil
	}
	seq, ok := namedKeys()[k]
	if !ok {
		return "", fmt.Errorf("unknown key %q: use enter, tab, esc, backspace, delete, space, up, down, left, right, home, end, pageup, pagedown or ctrl+a to ctrl+z (type text with text)", name)
	}
	if appCursor && len(seq) == 3 && strings.HasPrefix(seq, "\x1b[") && strings.ContainsRune("ABCDHF", rune(seq[2])) {
		seq = "\x1bO" + seq[2:]
	}
	return seq, nil
}

// ReadScreenInput is read_screen's arguments.
type ReadScreenInput struct {
	ID      JobRef   `json:"id"`
	WaitFor string   `json:"wait_for,omitempty" jsonschema:"a regex: wait until the screen's text matches it"`
	Timeout Duration `json:"timeout,omitempty" jsonschema:"how long wait_for waits at most (default 10s, at most 2m)"`
}

// ReadScreenOutput is read_screen's answer.
type ReadScreenOutput struct {
	Job        JobSummary `json:"job"`
	Lines      []string   `json:"lines" jsonschema:"the screen's rows, top first, blank rows at the bottom left out"`
	Cols       int        `json:"cols"`
	Rows       int        `json:"rows"`
	CursorRow  int        `json:"cursor_row" jsonschema:"the cursor's row in lines, from 0"`
	CursorCol  int        `json:"cursor_col" jsonschema:"the cursor's column, from 0"`
	FullScreen bool       `json:"full_screen" jsonschema:"a full-screen program draws this screen; otherwise it is the newest output lines"`
	Matched    *bool      `json:"matched,omitempty" jsonschema:"with wait_for: whether the screen matched before the timeout"`
}

// Bounds of read_screen's waiting.
const (
	defaultScreenWait = 10 * time.Second
	maxScreenWait     = 2 * time.Minute
	screenPoll        = 50 * time.Millisecond
)

func (s *Server) readScreen(ctx context.Context, _ *sdk.CallToolRequest, in ReadScreenInput) (string, ReadScreenOutput, error) {
	info, err := s.resolve(ctx, in.ID)
	if err != nil {
		return "", ReadScreenOutput{}, err
	}
	var re *regexp.Regexp
	if in.WaitFor != "" {
		// Row by row: ^ and $ match at each row's start and end.
		if _, err := compilePattern("wait_for", in.WaitFor); err != nil {
			return "", ReadScreenOutput{}, err
		}
		re = regexp.MustCompile("(?m)" + in.WaitFor)
	}
	wait := time.Duration(in.Timeout)
	if wait <= 0 {
		wait = defaultScreenWait
	}
	wait = min(wait, maxScreenWait)
	deadline := time.Now().Add(wait)
	for {
		scr, err := s.opts.Client.ReadScreen(ctx, info.ID, false)
		if err != nil {
			return "", ReadScreenOutput{}, s.apiError(err)
		}
		matched := re != nil && re.MatchString(strings.Join(scr.Lines, "\n"))
		if re == nil || matched || time.Now().After(deadline) || scr.State.Done() {
			if info, err = s.opts.Client.Job(ctx, info.ID); err != nil {
				return "", ReadScreenOutput{}, s.apiError(err)
			}
			return screenAnswer(info, scr, re, matched)
		}
		select {
		case <-ctx.Done():
			return "", ReadScreenOutput{}, ctx.Err()
		case <-time.After(screenPoll):
		}
	}
}

// screenAnswer is read_screen's answer: a header line, then the rows.
func screenAnswer(info jobs.Info, scr control.ScreenResponse, re *regexp.Regexp, matched bool) (string, ReadScreenOutput, error) {
	lines := scr.Shown(false)
	out := ReadScreenOutput{Job: summarize(info, time.Now()), Lines: lines, Cols: scr.Cols, Rows: scr.Rows,
		CursorRow: scr.CursorY, CursorCol: scr.CursorX, FullScreen: scr.Screen}
	var b strings.Builder
	what := "newest output lines"
	if scr.Screen {
		what = "screen of a full-screen program"
	}
	fmt.Fprintf(&b, "job %d (%s), %s, %dx%d, cursor at row %d col %d", info.ID, info.State, what, scr.Cols, scr.Rows, scr.CursorY, scr.CursorX)
	if re != nil {
		out.Matched = &matched
		if !matched {
			fmt.Fprintf(&b, "; wait_for %q did not match", strings.TrimPrefix(re.String(), "(?m)"))
		}
	}
	if !info.TTY {
		b.WriteString("; it has no terminal (not started with tty: true)")
	}
	b.WriteString(":\n")
	b.WriteString(strings.Join(lines, "\n"))
	return b.String(), out, nil
}
