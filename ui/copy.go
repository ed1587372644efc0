package ui

import (
	"encoding/base64"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
)

// Copying text out: v starts a line selection in the focused pane (j/k,
// g/G and search move its end), y copies it, Y copies the lines on screen
// (or, with & on, every line the search matched). The text goes to the
// system clipboard by OSC 52, which terminals, tmux (set-clipboard on)
// and ssh pass on, as plain text: colours and jobtop's own notes left out.

// copyMaxBytes bounds what one copy sends: terminals refuse or cut longer
// OSC 52 sequences (xterm's default limit is about 100 kB of base64).
const copyMaxBytes = 64 << 10

// lineSelection is a pane's selection of whole lines, from the anchor
// (where v was pressed) to the cursor, in either order.
type lineSelection struct {
	anchor, cursor lineKey
	// searched is the search match the cursor last followed.
	searched lineKey
}

func (s *lineSelection) bounds() (lo, hi lineKey) {
	if s.cursor.less(s.anchor) {
		return s.cursor, s.anchor
	}
	return s.anchor, s.cursor
}

func (s *lineSelection) covers(k lineKey) bool {
	lo, hi := s.bounds()
	return !k.less(lo) && !hi.less(k)
}

// startSelection starts a line selection on the search's current match
// when it is on screen, else on the pane's newest line shown (following)
// or its first (paused).
func (p *outputPane) startSelection() bool {
	if !p.has || len(p.rowKeys) == 0 {
		return false
	}
	k := p.rowKeys[0]
	switch {
	case p.search != nil && p.search.hasCurrent && p.onScreen(p.search.current):
		k = p.search.current
	case p.follow:
		k = p.rowKeys[len(p.rowKeys)-1]
	}
	p.sel = &lineSelection{anchor: k, cursor: k}
	if p.search != nil {
		p.sel.searched = p.search.current
	}
	return true
}

// moveSelection moves the selection's cursor: by lines (n, either way),
// or to the oldest (top) or newest (bottom) line held; and keeps it in
// view.
func (p *outputPane) moveSelection(n int, top, bottom bool) {
	src := p.source()
	c := p.sel.cursor
	switch {
	case top:
		if k, ok := src.oldest(); ok {
			c = k
		}
	case bottom:
		if l := src.tail(1); len(l) > 0 {
			c = l[0].key
		}
	case n > 0:
		if l := src.from(c.next(), n); len(l) > 0 {
			c = l[len(l)-1].key
		}
	case n < 0:
		if l := src.before(c, -n); len(l) > 0 {
			c = l[0].key
		}
	}
	p.sel.cursor = c
	p.revealLine(c)
}

// revealLine scrolls the fewest rows that bring a line into view.
func (p *outputPane) revealLine(k lineKey) {
	for _, rk := range p.rowKeys {
		if rk == k {
			p.refresh()
			return
		}
	}
	if len(p.rowKeys) > 0 && p.rowKeys[len(p.rowKeys)-1].less(k) {
		for i := 0; i < p.bodyHeight() && !p.follow && !p.onScreen(k); i++ {
			p.scrollDown(1)
			p.refresh()
		}
		if p.onScreen(k) || p.follow {
			p.refresh()
			return
		}
	}
	p.reveal(k)
}

func (p *outputPane) onScreen(k lineKey) bool {
	for _, rk := range p.rowKeys {
		if rk == k {
			return true
		}
	}
	return false
}

// followSearch moves the selection's cursor to the search's current match
// when it changed (n, N, or the first match of a new search).
func (p *outputPane) followSearch() {
	if p.sel == nil || p.search == nil || !p.search.hasCurrent || p.search.current == p.sel.searched {
		return
	}
	p.sel.searched = p.search.current
	p.sel.cursor = p.search.current
}

// copyCountMax is as far as the lines past a cut copy are counted (an
// all view's selection can hold millions).
const copyCountMax = 100000

// selectedText is the selection's lines as plain text, at most
// copyMaxBytes: n lines of the selection's total (more than n when it
// stopped there; past copyCountMax, counted no further).
func (p *outputPane) selectedText() (text string, n, total int) {
	lo, hi := p.sel.bounds()
	src := p.source()
	var b strings.Builder
	cut := false
	for k := lo; ; {
		batch := src.from(k, 256)
		if len(batch) == 0 {
			break
		}
		for _, l := range batch {
			if hi.less(l.key) {
				return b.String(), n, total
			}
			if l.note != noteNone {
				continue
			}
			total++
			if cut = cut || !appendLine(&b, l.Text); !cut {
				n++
			} else if total > copyCountMax {
				return b.String(), n, total // "of more than 100000"
			}
		}
		k = batch[len(batch)-1].key.next()
	}
	return b.String(), n, total
}

// visibleText is the lines on screen as plain text, each line once
// however many rows it wraps to.
func (p *outputPane) visibleText() (text string, n, total int) {
	if len(p.rowKeys) == 0 {
		return "", 0, 0
	}
	sel := lineSelection{anchor: p.rowKeys[0], cursor: p.rowKeys[len(p.rowKeys)-1]}
	keep := p.sel
	p.sel = &sel
	defer func() { p.sel = keep }()
	return p.selectedText()
}

// screenText is the rows of a pane in screen mode as shown, without
// colours, cursor or trailing blanks; blank rows at the bottom are left
// out. A screen has no lines of output: its rows are all there is.
func (p *outputPane) screenText() (text string, n, total int) {
	rows := make([]string, 0, len(p.rows))
	for _, r := range p.rows {
		rows = append(rows, strings.TrimRight(plainText(ansi.Strip(r)), " "))
	}
	for len(rows) > 0 && rows[len(rows)-1] == "" {
		rows = rows[:len(rows)-1]
	}
	var b strings.Builder
	for _, r := range rows {
		if !appendLine(&b, r) {
			break
		}
		n++
	}
	return b.String(), n, len(rows)
}

// matchedText is every line the pane's search matched, as plain text.
func (p *outputPane) matchedText() (text string, n, total int) {
	src := filteredSource{s: p.search, src: p.base}
	oldest, ok := src.oldest()
	if !ok {
		return "", 0, 0
	}
	sel := lineSelection{anchor: oldest, cursor: lastKey}
	keep := p.sel
	p.sel = &sel
	defer func() { p.sel = keep }()
	return p.selectedText()
}

// appendLine adds a line and a newline, without colours or other escape
// sequences; false when that would pass copyMaxBytes.
func appendLine(b *strings.Builder, text string) bool {
	line := plainText(text)
	if b.Len()+len(line)+1 > copyMaxBytes {
		return false
	}
	b.WriteString(line)
	b.WriteByte('\n')
	return true
}

// handleCopyKey takes the keys of copying in the focused pane: v starts
// or ends a selection, y copies it, Y the lines on screen or the
// matches; while selecting, moving keys move the selection. It reports
// whether it took the key.
func (m *Model) handleCopyKey(p *outputPane, k tea.KeyMsg) (tea.Cmd, bool) {
	switch {
	case p.InScreen() && p.has && slices.Contains(m.km.Select.Keys(), k.String()):
		// Disabled there (the help bar offers only what works), but
		// said, not ignored.
		// Most useful first, short enough for 80 columns.
		text := m.km.CopyVisible.Help().Key + " copies the screen; no lines to select"
		if p.job.Lines > 0 || p.job.LastLine != "" {
			text = m.km.CopyVisible.Help().Key + " copies the screen; " + m.km.LineUp.Help().Key + " shows lines to select"
		}
		m.flash(text)
		return nil, true
	case key.Matches(k, m.km.Select) && p.sel != nil:
		p.sel = nil
	case key.Matches(k, m.km.Select):
		if !p.startSelection() {
			m.refuse("nothing to select: the pane has no output")
		}
	case key.Matches(k, m.km.Copy) && p.sel != nil:
		text, n, total := p.selectedText()
		p.sel = nil
		return m.copyText(text, n, total, "selected"), true
	case key.Matches(k, m.km.CopyVisible) && p.InScreen():
		text, n, total := p.screenText()
		return m.copyText(text, n, total, "on screen"), true
	case key.Matches(k, m.km.CopyVisible):
		text, n, total := p.visibleText()
		what := "on screen"
		if p.search != nil && p.search.filter {
			text, n, total = p.matchedText()
			what = "matching " + p.search.m.label()
		}
		p.sel = nil
		return m.copyText(text, n, total, what), true
	case p.sel == nil:
		return nil, false
	case k.Type == tea.KeyEsc:
		p.sel = nil
	case key.Matches(k, m.km.LineDown):
		p.moveSelection(1, false, false)
	case key.Matches(k, m.km.LineUp):
		p.moveSelection(-1, false, false)
	case key.Matches(k, m.km.HalfPageDown):
		p.moveSelection(max(p.bodyHeight()/2, 1), false, false)
	case key.Matches(k, m.km.HalfPageUp):
		p.moveSelection(-max(p.bodyHeight()/2, 1), false, false)
	case key.Matches(k, m.km.Top):
		p.moveSelection(0, true, false)
	case key.Matches(k, m.km.Bottom):
		p.moveSelection(0, false, true)
	default:
		return nil, false
	}
	p.refresh()
	return nil, true
}

// copyText sends text, n lines of total, to the clipboard and says so in
// the status bar: "copied 648 of 2000 lines matching x" when it stopped
// at copyMaxBytes.
func (m *Model) copyText(text string, n, total int, what string) tea.Cmd {
	switch {
	case total == 0:
		m.refuse("nothing to copy")
		return nil
	case n == 0:
		m.refuse("nothing copied: its first line alone passes the 64 KiB a terminal takes at once")
		return nil
	}
	msg := "copied " + plural(n, "line") + " " + what
	if total > n {
		of := strconv.Itoa(total)
		if total > copyCountMax {
			of = "more than " + strconv.Itoa(copyCountMax)
		}
		msg = fmt.Sprintf("copied %d of %s lines %s (stopped at the 64 KiB a terminal takes at once)", n, of, what)
	}
	m.flash(msg)
	return writeClipboard(m.cfg.Terminal, text)
}

// osc52 is the sequence that puts text on the system clipboard.
func osc52(text string) string {
	return "\x1b]52;c;" + base64.StdEncoding.EncodeToString([]byte(text)) + "\a"
}

// writeClipboard writes the OSC 52 sequence to the terminal, off the
// Update goroutine.
func writeClipboard(w io.Writer, text string) tea.Cmd {
	if w == nil {
		return nil
	}
	seq := osc52(text)
	return func() tea.Msg {
		_, _ = io.WriteString(w, seq)
		return nil
	}
}

// copyKeys enables the copy keys of a focused pane.
func (m *Model) copyKeys(p *outputPane) {
	if !p.focused || !p.has {
		return
	}
	m.km.Select.SetEnabled(!p.InScreen()) // a screen has no lines to select: Y copies it
	m.km.CopyVisible.SetEnabled(true)
	m.km.Copy.SetEnabled(p.sel != nil)
	if p.sel != nil {
		m.km.FocusTable.SetEnabled(false)
	}
}

// shownRow is body row i as drawn: highlighted, without the job's
// colours, when its line is selected.
func (p *outputPane) shownRow(i int) string {
	if p.sel == nil || i >= len(p.rowKeys) || !p.sel.covers(p.rowKeys[i]) {
		return p.rows[i]
	}
	return p.pal.selected.Wrap(ansi.Strip(p.rows[i]))
}
