package ui

import (
	"fmt"
	"os"
	"strings"

	"github.com/charmbracelet/bubbles/cursor"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"jobtop/jobs"
	"jobtop/keymap"
	"jobtop/styles"
)

// promptHeight is the number of lines the add-a-job prompt takes.
const promptHeight = 3

// addSubmittedMsg carries the job the prompt asks to start, or, with
// replaces, the spec the queued job of that ID is to wait with instead.
type addSubmittedMsg struct {
	spec     jobs.Spec
	replaces jobs.ID
}

// addCancelledMsg says the prompt was closed without starting anything.
type addCancelledMsg struct{}

// addPrompt asks for a command line and an optional name. An empty
// command is refused inline. The job runs on a terminal (a TTY job: a
// person starting a job from the TUI may want to type into it, and its
// colours stay) unless ToggleTTY chooses pipes.
type addPrompt struct {
	km      *keymap.KeyMap
	st      *styles.Styles
	inputs  [2]textinput.Model // command, name
	focused int
	err     string
	width   int
	pipes   bool
	// lineBreak: a line feed (ctrl+j) arrived while the command was
	// typed, as a paste of lines without bracketed paste sends it, with
	// the command as it was then (beforeBreak). Once text follows it, the
	// field holds the lines joined with nothing between them, a command
	// neither line is, not run until the field is emptied; a line feed
	// that ends the paste (one line copied with its newline) is nothing.
	lineBreak   bool
	beforeBreak string
	// controlsShown: the command put in the field had its control
	// characters shown as glyphs (showControls), given back as it runs.
	controlsShown bool
	// history is the commands started from the prompt this session,
	// oldest first; at is the one shown (len(history): the command
	// being typed, kept in draft while an earlier one is shown).
	history []string
	at      int
	draft   string
	// height is what the screen gives the prompt (SetSize).
	height int
	// base is the spec of the job being edited (fill): the job started
	// is it with the command, name and terminal the prompt gives. Zero
	// for a new job.
	base jobs.Spec
	// replaces is the job being edited when it waits to start and never
	// ran, on an engine that can edit it (fillQueued): the edit takes its
	// place. 0 when the edit runs as a new job.
	replaces jobs.ID
}

// lineBreakRefusal says why a command with a line feed in it is not run.
const lineBreakRefusal = "lines pasted without bracketed paste: a command is one line (join them with ; or &&)"

// joinedLines says whether text came after a line feed.
func (p *addPrompt) joinedLines() bool {
	return p.lineBreak && p.inputs[0].Value() != p.beforeBreak
}

const labelWidth = len("command ") + 2

func newAddPrompt(km *keymap.KeyMap, st *styles.Styles, history []string) *addPrompt {
	p := &addPrompt{km: km, st: st, history: history, at: len(history)}
	for i, ph := range []string{"shell command, e.g. make -j8", "optional; defaults to the program's name"} {
		in := textinput.New()
		in.Prompt = ""
		in.Placeholder = ph
		in.PlaceholderStyle = st.Muted
		in.Cursor.SetMode(cursor.CursorStatic)
		p.inputs[i] = in
	}
	p.inputs[0].Focus()
	return p
}

// fill fills the prompt in with a job's command (an argv job's words
// quoted for the shell) and its terminal or pipes, to be edited and run
// as a new job. The name is left to default: a second job of the same
// name would make the name ambiguous to the CLI; the default is the
// command's, made unique ("train-2"). The rest of the job's spec goes
// with it (editedSpec).
func (p *addPrompt) fill(info jobs.Info) {
	command := info.Command
	if len(info.Argv) > 0 {
		command = jobs.ShellLine(info.Argv)
	}
	p.setCommand(command)
	p.draft = command
	p.pipes = !info.TTY
	p.base = editedSpec(info)
}

// fillQueued fills the prompt in with a job that waits to start and
// never ran, to be edited in its place: its name stays, unless one is
// typed.
func (p *addPrompt) fillQueued(info jobs.Info) {
	p.fill(info)
	p.replaces = info.ID
	p.inputs[1].Placeholder = "optional; keeps " + info.Name
}

// editedSpec is what a job edited with e keeps of the job: everything it
// ran with but its command and name (its directory, the variables a job
// file's env:, .env and PORT or jobtop run's --env and environment gave
// it, its restart policy, checks and stop rules), as a restart keeps it.
// It is a person's job: an agent's origin is not. An engine that does
// not give the spec (an attached instance's jobs) gives the directory.
func editedSpec(info jobs.Info) jobs.Spec {
	spec := info.Spec
	if spec.Command == "" && len(spec.Argv) == 0 {
		spec = jobs.Spec{Dir: info.Dir, Stdin: info.Stdin, Description: info.Description}
	}
	spec.Name, spec.Command, spec.Argv = "", "", nil
	spec.Origin, spec.Client = "", ""
	return spec
}

// setCommand puts command in the command field, the cursor at its end,
// its control characters shown (showControls).
func (p *addPrompt) setCommand(command string) {
	shown, mapped := showControls(command)
	p.inputs[0].SetValue(shown)
	p.inputs[0].CursorEnd()
	p.lineBreak = false
	p.controlsShown = mapped
}

// walkHistory shows the command started before (back) or after the one
// shown; past the newest, the command that was being typed.
func (p *addPrompt) walkHistory(back bool) {
	if p.at == len(p.history) {
		p.draft = p.inputs[0].Value()
	}
	switch {
	case back && p.at > 0:
		p.at--
	case !back && p.at < len(p.history):
		p.at++
	default:
		return
	}
	if p.at == len(p.history) {
		p.setCommand(p.draft)
	} else {
		p.setCommand(p.history[p.at])
	}
	p.err = ""
}

// Init implements tea.Model.
func (p *addPrompt) Init() tea.Cmd { return nil }

// Update edits the focused field; enter submits, esc cancels.
func (p *addPrompt) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if k, ok := msg.(tea.KeyMsg); ok {
		if lines := pastedLines(k); lines > 1 {
			// The field would join them with spaces: a different
			// command from either line.
			p.err = fmt.Sprintf("a paste of %d lines was not typed in: a command is one line (join them with ; or &&, or put them in a script)", lines)
			return p, nil
		}
		k = asText(k)
		msg = k
		if k.Type == tea.KeyCtrlJ && p.focused == 0 {
			if !p.lineBreak {
				p.lineBreak, p.beforeBreak = true, p.inputs[0].Value()
			}
			return p, nil
		}
		switch {
		case key.Matches(k, p.km.Cancel):
			return p, func() tea.Msg { return addCancelledMsg{} }
		case key.Matches(k, p.km.Submit):
			return p, p.submit()
		case key.Matches(k, p.km.ToggleTTY):
			p.pipes = !p.pipes
			return p, nil
		case key.Matches(k, p.km.PromptHistory) && p.focused == 0:
			p.walkHistory(k.Type == tea.KeyUp)
			return p, nil
		case key.Matches(k, p.km.NextField):
			p.inputs[p.focused].Blur()
			p.focused = 1 - p.focused
			p.inputs[p.focused].Focus()
			return p, nil
		}
		p.err = ""
	}
	var cmd tea.Cmd
	p.inputs[p.focused], cmd = p.inputs[p.focused].Update(msg)
	switch {
	case p.lineBreak && p.inputs[0].Value() == "":
		p.lineBreak = false
	case p.joinedLines():
		p.err = lineBreakRefusal
	}
	return p, cmd
}

// showControls shows the control characters of a command put in the
// one-line field (an argument's tab or line feed, quoted: fill; a job
// file's multi-line cmd, or one with an ESC), which would make them
// spaces or drop them: a tab as ⇥, a line feed as ⏎, any other as its
// Unicode control picture (␛, ␍). mapped says it did, and runControls
// gives them back to the command that runs. A command that holds one of
// those glyphs itself is left as it is (rev60: a typed "press ⏎" ran as
// two lines): its controls are lost, as before.
func showControls(command string) (shown string, mapped bool) {
	if !strings.ContainsFunc(command, isControl) || strings.ContainsFunc(command, isControlGlyph) {
		return command, false
	}
	return strings.Map(func(r rune) rune {
		switch {
		case r == '\t':
			return '⇥'
		case r == '\n':
			return '⏎'
		case r < 0x20:
			return 0x2400 + r
		case r == 0x7f:
			return '␡'
		}
		return r
	}, command), true
}

// runControls is showControls undone.
func runControls(shown string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r == '⇥':
			return '\t'
		case r == '⏎':
			return '\n'
		case r >= 0x2400 && r < 0x2420:
			return r - 0x2400
		case r == '␡':
			return 0x7f
		}
		return r
	}, shown)
}

// isControl says whether r is a C0 control or DEL.
func isControl(r rune) bool { return r < 0x20 || r == 0x7f }

// isControlGlyph says whether r is one showControls shows a control as.
func isControlGlyph(r rune) bool {
	return r == '⇥' || r == '⏎' || r == '␡' || r >= 0x2400 && r < 0x2420
}

func (p *addPrompt) submit() tea.Cmd {
	command := strings.TrimSpace(p.inputs[0].Value())
	if p.controlsShown {
		command = runControls(command)
	}
	if p.joinedLines() {
		p.err = lineBreakRefusal
		return nil
	}
	if command == "" {
		p.err = "type a command to run (esc cancels)"
		return nil
	}
	spec := p.base
	spec.Command, spec.Name, spec.TTY = command, strings.TrimSpace(p.inputs[1].Value()), !p.pipes
	if spec.TTY {
		spec.Stdin = jobs.StdinNull // it reads its terminal
	}
	if spec.Name != "" {
		if err := jobs.CheckName(spec.Name); err != nil {
			p.err = err.Error()
			return nil
		}
	}
	replaces := p.replaces
	return func() tea.Msg { return addSubmittedMsg{spec: spec, replaces: replaces} }
}

// UpdateKeys enables the prompt's keys.
func (p *addPrompt) UpdateKeys(km *keymap.KeyMap) {
	km.Submit.SetEnabled(true)
	km.NextField.SetEnabled(true)
	km.Cancel.SetEnabled(true)
	km.ToggleTTY.SetEnabled(true)
	km.PromptHistory.SetEnabled(len(p.history) > 0 && p.focused == 0)
}

// SetSize sets the prompt's width, and the height the screen gives it
// (Height asked for).
func (p *addPrompt) SetSize(width, height int) {
	p.width, p.height = width, height
	for i := range p.inputs {
		p.inputs[i].Width = max(width-labelWidth-1, 1)
	}
}

// maxErrorRows is as many rows as an error below the heading takes.
const maxErrorRows = 2

// Height is how many lines the prompt takes at width: promptHeight, and
// the rows of an error too long to show beside the heading.
func (p *addPrompt) Height(width int) int { return promptHeight + len(p.errorRows(width)) }

// errorRows are the rows of the prompt's error under its heading, when
// it does not fit beside it at width (at 80 columns a paste of two lines
// said "…a command is one line (join t…", cut before what to do): up to
// maxErrorRows, wrapped at words.
func (p *addPrompt) errorRows(width int) []string {
	if p.err == "" || textWidth(p.heading()+"  ✗ "+p.err) <= width {
		return nil
	}
	rows := strings.Split(ansi.Wordwrap(p.err, max(width-4, 1), ""), "\n")
	if len(rows) > maxErrorRows {
		rows = rows[:maxErrorRows]
		rows[maxErrorRows-1] += " …"
	}
	for i := range rows {
		lead := "    "
		if i == 0 {
			lead = "  ✗ "
		}
		rows[i] = cut(lead+rows[i], width)
	}
	return rows
}

// heading is the prompt's title: an edited job's says where it runs
// (rev58: the directory it keeps could be gone, and nothing showed it).
func (p *addPrompt) heading() string {
	in := ""
	if p.base.Dir != "" {
		in = " in " + homeShort(p.base.Dir)
	}
	switch {
	case p.replaces != 0:
		return "edit job " + p.replaces.String() + in + ": not started yet, the edit replaces it"
	case in != "":
		return "run as a new job" + in
	}
	return "add a job"
}

// homeShort is dir with the home directory as "~".
func homeShort(dir string) string {
	home, err := os.UserHomeDir()
	if err != nil || home == "" || home == "/" {
		return dir
	}
	if rest, ok := strings.CutPrefix(dir, home); ok && (rest == "" || rest[0] == '/') {
		return "~" + rest
	}
	return dir
}

// View draws the prompt: exactly promptHeight lines, and the rows of an
// error under the heading when the screen gave it room for them.
func (p *addPrompt) View() string {
	heading := p.heading()
	title := p.st.Prompt.Render(cut(heading, p.width))
	on := "  on a terminal (" + p.km.ToggleTTY.Help().Key + ": pipes)"
	if p.pipes {
		on = "  on pipes (" + p.km.ToggleTTY.Help().Key + ": terminal)"
	}
	rest := max(p.width-len(heading), 0)
	below := p.errorRows(p.width)
	if promptHeight+len(below) > p.height {
		below = nil // no room: beside the heading, cut
	}
	if p.err != "" && below == nil {
		title += p.st.PromptError.Render(cut("  ✗ "+p.err, rest))
	} else {
		title += p.st.PromptLabel.Render(cut(on, rest))
	}
	lines := []string{title}
	for _, row := range below {
		lines = append(lines, p.st.PromptError.Render(row))
	}
	for i, label := range []string{"command", "name"} {
		mark := "  "
		if i == p.focused {
			mark = "▸ "
		}
		lbl := p.st.PromptLabel.Render(fit(mark+label, labelWidth, false))
		lines = append(lines, cut(lbl+p.inputs[i].View(), p.width))
	}
	return strings.Join(lines, "\n")
}

// pastedLines is how many lines a bracketed paste holds (a newline at its
// end ends its last line); 0 for a key that is no paste.
func pastedLines(k tea.KeyMsg) int {
	if !k.Paste {
		return 0
	}
	text := strings.TrimRight(strings.ReplaceAll(string(k.Runes), "\r\n", "\n"), "\r\n")
	return strings.Count(text, "\n") + strings.Count(text, "\r") + 1
}
