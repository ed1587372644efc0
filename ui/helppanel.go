package ui

import (
	"slices"
	"strings"

	"github.com/charmbracelet/bubbles/key"

	"jobtop/styles"
)

// helpGroup is the keys that work in one place, under a title that says
// where (and what opens it).
type helpGroup struct {
	title string
	keys  []key.Binding
}

// helpGroups are every key of the screen, grouped by where they work,
// whether or not they work this moment (n/N before any search, 1–4
// before any split): the group of where the focus is first.
func (m *Model) helpGroups() []helpGroup {
	k := &m.km
	table := helpGroup{"job table", []key.Binding{k.TableUp, k.TableDown, k.TableTop, k.TableBottom, k.TablePageUp, k.TablePageDown, k.FocusOutput, k.TableInput, k.Mark, k.FilterJobs, k.ClearFilter, k.HideEnded}}
	pane := helpGroup{"output pane (enter)", []key.Binding{k.LineUp, k.LineDown, k.HalfPageUp, k.HalfPageDown, k.Top, k.Bottom, k.Follow, k.Wrap, k.ScrollLeft, k.ScrollRight, k.Search, k.FocusTable}}
	searching := helpGroup{"after a search (/ in a pane)", []key.Binding{k.NextMatch, k.PrevMatch, k.FilterMatches, k.LogSearch, k.ClearSearch}}
	copying := helpGroup{"copy (in a pane)", []key.Binding{k.Select, k.Copy, k.CopyVisible, helpRow("esc", "drop selection")}}
	find := helpGroup{"in the / prompt", []key.Binding{k.Apply, k.ToggleRegex, k.LogInPrompt, withCtrlC(k.Cancel)}}
	everywhere := []key.Binding{k.Add, k.Edit, k.Stop, k.Kill, k.Restart, k.Remove}
	if m.canReload() {
		everywhere = append(everywhere, k.Reload)
	}
	everywhere = append(everywhere, k.Pager, k.Split, k.AllView, k.Timeline, k.NextPane, k.PrevPane, k.Zoom, k.Bell, k.QuietAlert, k.Redraw, k.Help, withCtrlC(k.Quit))
	groups := []helpGroup{table, pane, searching, copying, find}
	if m.focus == focusOutput {
		groups = []helpGroup{pane, searching, copying, find, table}
	}
	return append(groups,
		helpGroup{"everywhere", everywhere},
		helpGroup{"timeline (T)", []key.Binding{k.TimeZoomIn, k.TimeZoomOut, k.FocusOutput, helpRow("T/esc", "close")}},
		helpGroup{"split view (s)", []key.Binding{k.FocusPane, k.NextPane, k.PrevPane, k.Zoom}},
		helpGroup{"typing into a terminal job's pane", []key.Binding{k.Input, k.LeaveInput, typeLeaveKeyTwice(k.TypeLeaveKey), helpRow("ctrl+c", "^C to the job")}},
		helpGroup{"add a job (a, e)", []key.Binding{k.Submit, k.NextField, k.ToggleTTY, k.PromptHistory, withCtrlC(k.Cancel)}},
		helpGroup{"a question on marked jobs (x, X, r, d)", []key.Binding{k.Yes, relabel(k.No, "n/esc/ctrl+c", "no")}},
		helpGroup{"quitting with jobs running", []key.Binding{
			relabel(k.QuitYes, "y/ctrl+c", "yes: stop them, quit"), relabel(k.QuitNo, "n/esc", "no"),
			relabel(k.KillAll, "X/ctrl+c", "while stopping: kill all"),
		}},
		// ctrl+c is no prompt's cancel here: it quits, as everywhere.
		helpGroup{"this help", []key.Binding{k.ClosePanel, k.LineDown, k.LineUp, helpRow("ctrl+c", "quit, as everywhere")}},
	)
}

// helpRow is a row of the help for a key that has no binding of its own
// (esc where it only ends what the place started: a selection, the
// timeline).
func helpRow(keys, desc string) key.Binding {
	return key.NewBinding(key.WithHelp(keys, desc))
}

// relabel is a binding with the help row given, where the help bar's
// short one would leave out keys that fire it too (esc, ctrl+c) or not
// say which press of ctrl+c does what.
func relabel(b key.Binding, keys, desc string) key.Binding {
	b.SetHelp(keys, desc)
	return b
}

// withCtrlC names ctrl+c beside a binding's help key when ctrl+c fires
// it too, which the help bar leaves out for room: ctrl+c quits (asking
// first while jobs run), cancels a prompt, says yes to the quit question
// it asked, and kills what is left while quitting.
func withCtrlC(b key.Binding) key.Binding {
	if h := b.Help(); slices.Contains(b.Keys(), "ctrl+c") && !strings.Contains(h.Key, "ctrl+c") {
		b.SetHelp(h.Key+"/ctrl+c", h.Desc)
	}
	return b
}

// typeLeaveKeyTwice is the leave key typed into the job as the help
// names it: pressed twice in input mode (the first leaves, the second
// types it), beside the row of the leave key pressed once.
func typeLeaveKeyTwice(b key.Binding) key.Binding {
	k := b.Help().Key
	b.SetHelp(k+" "+k, b.Help().Desc)
	return b
}

// helpColumnGap is the space between columns of the help.
const helpColumnGap = 3

// openHelp covers the screen with every key, grouped by where it works.
func (m *Model) openHelp() {
	groups := m.helpGroups()
	var warnings []string
	if wl, ok := m.engine.(WarningLister); ok {
		warnings = wl.Warnings()
	}
	title := "keys — esc, q or ? closes"
	if len(warnings) > 0 {
		title = "the job file's " + plural(len(warnings), "warning") + ", then the keys — esc, q or ? closes"
	}
	m.openPanel(newPanel(&m.km, m.pal, title, func(width int) []string {
		var out []string
		if len(warnings) > 0 {
			out = append(out, m.pal.header.Wrap("job file warnings (jobtop check prints them too)"))
			out = append(out, m.wrappedRows(warnings, width, m.pal.errText)...)
			out = append(out, "")
		}
		return append(out, m.layoutHelp(groups, width)...)
	}))
}

// wrappedRows lays texts out for a panel: a text too long for a row goes
// on, indented, on the next.
func (m *Model) wrappedRows(texts []string, width int, style styles.Seq) []string {
	var out []string
	for _, t := range texts {
		rows := layoutLine(nil, t, lineFormat{width: max(width-2, 1), wrap: true})
		for i, r := range rows {
			if i > 0 {
				r = "  " + r
			}
			out = append(out, style.Wrap(r))
		}
	}
	return out
}

// layoutHelp draws the groups as blocks (a title, then a key and what it
// does per row) flowed into as many columns as the width holds, in
// order, top to bottom and then left to right, the columns as even as
// the blocks allow (so the help is as short as it can be).
func (m *Model) layoutHelp(groups []helpGroup, width int) []string {
	blocks := make([][]string, len(groups))
	blockW := 0
	for i, g := range groups {
		keyW := 0
		for _, b := range g.keys {
			keyW = max(keyW, textWidth(b.Help().Key))
		}
		block := []string{m.pal.header.Wrap(g.title)}
		for _, b := range g.keys {
			h := b.Help()
			block = append(block, "  "+m.pal.flag.Wrap(fit(h.Key, keyW, false))+"  "+h.Desc)
		}
		for _, l := range block {
			blockW = max(blockW, textWidth(l))
		}
		blocks[i] = block
	}
	cols := max(1, (width+helpColumnGap)/(blockW+helpColumnGap))
	total := 0
	for _, b := range blocks {
		total += len(b) + 1 // a blank row after each block
	}
	var columns [][]string
	for target := (total + cols - 1) / cols; ; target++ {
		columns = packBlocks(blocks, target)
		if len(columns) <= cols {
			break
		}
	}
	height := 0
	for _, c := range columns {
		height = max(height, len(c))
	}
	out := make([]string, height)
	for r := range out {
		var b strings.Builder
		for i, c := range columns {
			cell := ""
			if r < len(c) {
				cell = c[r]
			}
			if i < len(columns)-1 {
				cell = fit(cell, blockW+helpColumnGap, false)
			}
			b.WriteString(cell)
		}
		out[r] = strings.TrimRight(b.String(), " ")
	}
	for len(out) > 0 && out[len(out)-1] == "" {
		out = out[:len(out)-1]
	}
	return out
}

// packBlocks puts blocks in columns in order, a blank row after each,
// starting a new column when the next block would make one taller than
// target rows.
func packBlocks(blocks [][]string, target int) [][]string {
	var columns [][]string
	var col []string
	for _, b := range blocks {
		if len(col) > 0 && len(col)+len(b) > target {
			columns = append(columns, col)
			col = nil
		}
		col = append(col, b...)
		col = append(col, "")
	}
	return append(columns, col)
}
