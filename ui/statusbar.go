package ui

import (
	"strconv"
	"strings"
)

// statusView is the status bar: the quit question or progress while
// quitting; otherwise counts per state (and the limit on jobs running at
// once, when the engine has one), the table's filter, the last
// notice and the view's flags (split or all, the active pane's follow and
// wrap, zoom, bell). It is one line, at most the width.
func (m *Model) statusView() string {
	if m.quit != quitNone {
		text := m.quitView()
		if m.input.takesKeys() {
			text = m.inputStatus() + " │ " + text
		}
		return m.st.Prompt.Render(cut(text, m.width))
	}
	if m.confirm != nil {
		return m.st.Prompt.Render(cut(m.confirm.question(), m.width))
	}
	counts := make([]int, len(stateOrder))
	for _, j := range m.table.Jobs() {
		for i, s := range stateOrder {
			if j.State == s {
				counts[i]++
				break
			}
		}
	}
	var parts []string
	for i, s := range stateOrder {
		if counts[i] > 0 {
			parts = append(parts, m.pal.states[s].Wrap(stateSymbol(s)+" "+strconv.Itoa(counts[i])+" "+stateLabel(s)))
		}
	}
	if len(parts) == 0 {
		parts = append(parts, m.pal.muted.Wrap("no jobs"))
	}
	left := strings.Join(parts, "  ")
	if l, ok := m.engine.(RunLimiter); ok {
		if n := l.MaxRunning(); n > 0 {
			left += m.pal.muted.Wrap("  at most " + strconv.Itoa(n) + " at once")
		}
	}
	lead := "" // before the counts, and before a notice that comes first
	if m.input.takesKeys() {
		lead = m.inputStatus() + m.pal.muted.Wrap(" │ ")
	}
	left = lead + left
	if hosts := m.hostsView(); hosts != "" {
		left += m.pal.muted.Wrap(" │ ") + hosts
	} else if m.cfg.Attached && m.cfg.Instance != "" {
		// Another's instance: a plain jobtop in another project's
		// directory attaches to the one on the user's socket.
		left += m.pal.muted.Wrap(" │ attached to " + m.cfg.Instance)
	}

	if starting := m.ownStartsText(); starting != "" {
		left += m.pal.muted.Wrap(" │ ") + starting
	}
	if f := m.table.Filter(); f != "" {
		left += m.pal.muted.Wrap(" │ ") + "/" + sanitize(f, false) + " " + strconv.Itoa(m.table.Len()) + "/" + strconv.Itoa(len(m.table.Jobs()))
	}

	pane := m.activePane()
	var flags []string
	switch m.mode {
	case viewSplit:
		flags = append(flags, "split "+strconv.Itoa(len(m.drawn()))+"/"+strconv.Itoa(len(m.split)))
	case viewAll:
		flags = append(flags, "all")
	}
	if pane.Following() {
		flags = append(flags, "follow")
	} else {
		flags = append(flags, "paused")
	}
	if pane.Wrapping() {
		flags = append(flags, "wrap")
	}
	if m.zoom {
		flags = append(flags, "zoom")
	}
	if m.table.HidingEnded() {
		flags = append(flags, "ended hidden")
	}
	if m.bell {
		flags = append(flags, "bell")
	}
	flagText := strings.Join(flags, " ")
	c := &m.statusBar
	if c.width == m.width && c.left == left && c.flags == flagText && c.notice == m.notice && c.text != "" {
		return c.text
	}
	right := m.st.StatusBar.Render(" [" + flagText + "]")
	rightW := textWidth(right)
	if rightW > m.width/2 {
		right, rightW = "", 0
	}

	line := left
	if m.notice.text != "" {
		style := m.st.Notice
		if m.notice.isErr {
			style = m.st.NoticeError
		}
		note, sep := style.Render(sanitize(m.notice.text, false)), m.pal.muted.Wrap(" │ ")
		line += sep + note
		if m.notice.isErr && textWidth(line) > m.width-rightW {
			// An error that does not fit beside the counts and hosts
			// comes before them (after input mode's status, which
			// says where keys go), and they follow it, cut: its
			// reason is at its end ("cannot stop job 4 on
			// 127.0.0.1:34055: it has ended"), and matters more now
			// than they do.
			line = lead + note + sep + strings.TrimPrefix(left, lead)
		}
	}
	line = cut(line, m.width-rightW)
	pad := m.width - rightW - textWidth(line)
	c.width, c.left, c.flags, c.notice = m.width, left, flagText, m.notice
	c.text = line + strings.Repeat(" ", max(pad, 0)) + right
	return c.text
}

// statusBar is the status bar as last drawn and what it was drawn from:
// what it says changes far less often than frames are drawn, and styling
// and measuring it is most of its cost.
type statusBar struct {
	width       int
	left, flags string
	notice      notice
	text        string
}
