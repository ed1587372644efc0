package ui

import (
	"strings"

	"github.com/charmbracelet/bubbles/cursor"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"

	"jobtop/jobs"
	"jobtop/keymap"
	"jobtop/styles"
)

// findTarget is what the "/" prompt searches.
type findTarget uint8

const (
	findInPane findTarget = iota // the focused pane's output
	findJobs                     // the job table (a filter)
)

// searchPrompt is the one-line "/" prompt: a search in the focused pane
// (plain text, or a regex with a "re:" prefix or ctrl+r), or the job
// table's filter, applied as it is typed.
type searchPrompt struct {
	km     *keymap.KeyMap
	st     *styles.Styles
	target findTarget
	input  textinput.Model
	regex  bool
	log    bool // search the job's log file (ctrl+l)
	err    string
	width  int
	// before is the table's filter when the prompt opened, and
	// beforeSel the job selected then (esc restores both: the filter
	// typed may have hidden it and moved the selection).
	before    string
	beforeSel jobs.ID
	// fromScreen says the pane showed a screen when the prompt opened:
	// esc goes back to it.
	fromScreen bool
}

func newSearchPrompt(km *keymap.KeyMap, st *styles.Styles, target findTarget, value string) *searchPrompt {
	in := textinput.New()
	in.Prompt = ""
	in.Cursor.SetMode(cursor.CursorStatic)
	in.PlaceholderStyle = st.Muted
	if target == findJobs {
		in.Placeholder = "name, command or state"
	} else {
		in.Placeholder = "text (smart case); re: or ctrl+r for a regex"
	}
	in.SetValue(value)
	in.CursorEnd()
	in.Focus()
	return &searchPrompt{km: km, st: st, target: target, input: in, before: value}
}

// UpdateKeys enables the prompt's keys.
func (p *searchPrompt) UpdateKeys(km *keymap.KeyMap) {
	km.Apply.SetEnabled(true)
	if p.target == findInPane {
		km.Apply.SetHelp("enter", "search")
	} else {
		km.Apply.SetHelp("enter", "filter")
	}
	km.Cancel.SetEnabled(true)
	km.ToggleRegex.SetEnabled(p.target == findInPane)
	km.LogInPrompt.SetEnabled(p.target == findInPane)
	km.Redraw.SetEnabled(p.target != findInPane) // ctrl+l toggles the log file there (and redraws)
}

// SetSize sets the prompt's width. The text field takes up to half of it,
// leaving room for the regex flag and an error after it.
func (p *searchPrompt) SetSize(width int) {
	p.width = width
	p.input.Width = min(max(width/2-10, 10), 40)
}

// check compiles the search as typed, keeping its error to show.
func (p *searchPrompt) check() (*matcher, bool) {
	m, err := newMatcher(p.input.Value(), p.regex)
	p.err = ""
	if err != nil {
		p.err = err.Error()
		return nil, false
	}
	return m, true
}

// View draws the prompt: one line.
func (p *searchPrompt) View() string {
	label := "/ "
	if p.target == findJobs {
		label = "filter jobs / "
	}
	line := p.st.Prompt.Render(label) + p.input.View()
	if p.regex {
		line += p.st.Flag.Render("  [regex]")
	}
	if p.log {
		line += p.st.Flag.Render("  [log file]")
	}
	if p.err != "" {
		line += p.st.PromptError.Render("  ✗ " + p.err)
	}
	return cut(line, p.width)
}

// openFind opens the "/" prompt.
func (m *Model) openFind(t findTarget) {
	value, regex, log := "", false, false
	var sel jobs.ID
	if t == findJobs {
		value = m.table.Filter()
		if info, ok := m.table.Selected(); ok {
			sel = info.ID
		}
	} else if p := m.activePane(); p.search != nil {
		// The search as it was made: a regex turned on with ctrl+r is
		// one again (its text has no "re:"), a search of the log file too.
		value = p.search.m.input
		regex = p.search.m.regex && !strings.HasPrefix(value, regexPrefix)
		log = p.logSearch != nil
	}
	m.find = newSearchPrompt(&m.km, &m.st, t, value)
	m.find.regex, m.find.log, m.find.beforeSel = regex, log, sel
}

// handleFindKey edits the prompt: enter applies, esc cancels, ctrl+r
// turns regex on and off. The table's filter follows what is typed.
func (m *Model) handleFindKey(k tea.KeyMsg) tea.Cmd {
	f := m.find
	k = asText(k)
	switch {
	case key.Matches(k, m.km.Cancel):
		if f.target == findJobs {
			m.table.SetFilter(f.before)
			m.table.Select(f.beforeSel)
		}
		if f.fromScreen {
			m.activePane().follow = true // the screen again, as G
		}
		m.find = nil
		return nil
	case key.Matches(k, m.km.Apply):
		if f.target == findJobs {
			m.find = nil
			return nil
		}
		mt, ok := f.check()
		if !ok {
			return nil
		}
		m.find = nil
		p := m.activePane()
		p.logSearch = nil
		// A search refined on the lines the first one showed still began
		// on the screen.
		p.searchLeftScreen = f.fromScreen || p.searchLeftScreen && p.offScreen
		cmd := m.applySearch(p, mt)
		if f.log {
			cmd = tea.Batch(cmd, m.startLogSearch(p, mt))
		}
		return cmd
	case key.Matches(k, m.km.LogInPrompt) && f.target == findInPane:
		f.log = !f.log
		return tea.ClearScreen // ctrl+l redraws everywhere else: here too
	case key.Matches(k, m.km.ToggleRegex):
		f.regex = !f.regex
		if f.input.Value() != "" {
			f.check()
		}
		return nil
	}
	var cmd tea.Cmd
	f.input, cmd = f.input.Update(k)
	v := f.input.Value()
	switch {
	case f.target == findJobs:
		m.table.SetFilter(v)
	case v != "" && (f.regex || strings.HasPrefix(v, regexPrefix)):
		f.check() // say at once whether the regex is good
	default:
		f.err = ""
	}
	return cmd
}
