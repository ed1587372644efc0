package ui

import (
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"jobtop/jobs"
)

// View draws the header and the rows: exactly height lines.
func (p *outputPane) View() string {
	if p.height <= 0 || p.width <= 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString(p.headerView())
	h := p.bodyHeight()
	for i := 0; i < h; i++ {
		b.WriteByte('\n')
		if row, ok := p.bodyRow(i); ok {
			b.WriteString(row)
		}
	}
	return b.String()
}

// bodyRow is the i-th row of the body, and whether it has any text.
func (p *outputPane) bodyRow(i int) (string, bool) {
	switch {
	case i < len(p.rows):
		return p.rows[i], true
	case i == 0 && p.has:
		return p.pal.muted.Wrap(cut(p.emptyText(), p.width)), true
	}
	return "", false
}

// bodyRowWidth is the width in cells of bodyRow(i).
func (p *outputPane) bodyRowWidth(i int) int {
	switch {
	case i < len(p.widths):
		return p.widths[i]
	case i == 0 && p.has:
		return ansi.StringWidth(cut(p.emptyText(), p.width))
	}
	return 0
}

// emptyText is what the body says when it has no lines.
func (p *outputPane) emptyText() string {
	switch {
	case p.search != nil && p.search.filter && !p.search.complete:
		return "(searching…)"
	case p.search != nil && p.search.filter:
		return "(no line matches " + p.search.m.label() + ")"
	case p.kind == allPane:
		return "(no output from any job yet)"
	}
	return "(no output yet)"
}

// headerView is the pane's title: the job, its state and command on the
// left; the search, follow and wrap flags on the right.
func (p *outputPane) headerView() string {
	mark, left, right := p.headerParts()
	left = mark + left
	title := p.pal.title
	if p.focused {
		title = p.pal.titleFocused
	}
	rightW := ansi.StringWidth(right)
	if rightW >= p.width {
		right, rightW = "", 0
	}
	return title.Wrap(fit(left, p.width-rightW, false)) + right
}

// headerParts are the header's focus mark ("▸ " when focused), its left
// text (in the title style, which it re-opens after its own colours) and
// its right flags.
func (p *outputPane) headerParts() (mark, left, right string) {
	title := p.pal.title
	mark = "  "
	if p.focused {
		title, mark = p.pal.titleFocused, "▸ "
	}
	if !p.has {
		return mark, "no job selected", ""
	}
	var b strings.Builder
	if p.kind == allPane {
		b.WriteString("all jobs")
		if p.names != nil {
			b.WriteString("  " + p.pal.muted.Open + plural(len(p.base.(*allSource).ids), "job") + p.pal.muted.Close + title.Open)
		}
	} else {
		info := p.job
		state := p.pal.states[info.State]
		b.WriteString("job " + info.ID.String() + " " + sanitize(info.Name, false) + "  ")
		b.WriteString(state.Open + statusText(info) + state.Close + title.Open)
		if info.Runs > 1 {
			b.WriteString(" · run " + strconv.Itoa(info.Runs))
		}
		if cmd := sanitize(info.Command, false); cmd != info.Name {
			b.WriteString("  " + p.pal.muted.Open + "$ " + cmd + p.pal.muted.Close + title.Open)
		}
	}
	return mark, b.String(), " " + strings.Join(p.flags(), " ")
}

// flags are the pane's modes as the header shows them.
func (p *outputPane) flags() []string {
	st := p.pal.st
	var flags []string
	if s := p.search; s != nil {
		flags = append(flags, st.Flag.Render(p.searchFlag()))
		if s.filter {
			flags = append(flags, st.Flag.Render("filter"))
		}
	}
	if p.follow {
		flags = append(flags, st.Flag.Render("following"))
	} else {
		paused := "paused"
		if p.below > 0 {
			paused += " ↓" + formatCount(p.below)
		}
		flags = append(flags, st.Paused.Render(paused))
	}
	if p.wrap {
		flags = append(flags, st.Flag.Render("wrap"))
	}
	return flags
}

// searchFlag is the search and where it is: "/error match 3/17".
func (p *outputPane) searchFlag() string {
	s := p.search
	label := "/" + sanitize(s.m.label(), false)
	if len([]rune(label)) > 24 {
		label = string([]rune(label)[:23]) + "…"
	}
	n := len(s.index)
	more := ""
	if !s.complete {
		more = "…"
	}
	switch i := s.currentIndex(); {
	case n == 0 && s.complete:
		return label + " no match"
	case i > 0:
		return label + " match " + strconv.Itoa(i) + "/" + strconv.Itoa(n) + more
	}
	return label + " " + plural(n, "match") + more
}

// Borders of the panes of a split view: the focused pane's is heavy, so
// it shows without colour too.
var (
	borderLight = [6]string{"╭", "─", "╮", "│", "╰", "╯"}
	borderHeavy = [6]string{"┏", "━", "┓", "┃", "┗", "┛"}
)

// boxLines draws the pane in a box of width × height cells, the header in
// its top edge; the pane's own size must be (width-2) × (height-1).
func (p *outputPane) boxLines(width, height int, dst []string) []string {
	chars, style := borderLight, p.pal.border
	if p.focused {
		chars, style = borderHeavy, p.pal.borderFocused
	}
	inner := width - 2
	mark, left, right := p.headerParts()
	title := p.pal.title
	if p.focused {
		title = p.pal.titleFocused
	} else {
		mark = style.Wrap(chars[1]) + " "
	}
	right += " " + style.Wrap(chars[1])
	rightW := ansi.StringWidth(right)
	if rightW+len("▸ ")+1 >= inner {
		right, rightW = "", 0
	}
	left = cut(left+" ", inner-rightW-2)
	fill := inner - rightW - 2 - ansi.StringWidth(left)
	dst = append(dst, style.Wrap(chars[0])+mark+title.Wrap(left)+style.Wrap(strings.Repeat(chars[1], fill))+right+style.Wrap(chars[2]))
	side := style.Wrap(chars[3])
	for i := 0; i < height-2; i++ {
		row, _ := p.bodyRow(i)
		pad := max(inner-p.bodyRowWidth(i), 0)
		dst = append(dst, side+row+strings.Repeat(" ", pad)+side)
	}
	return append(dst, style.Wrap(chars[4]+strings.Repeat(chars[1], inner)+chars[5]))
}

// jobNames are the "all" view's line prefixes: each job's name in its own
// colour, padded to the longest name (within limits).
type jobNames struct {
	pal   *palette
	names map[jobs.ID]string
	width int
	cache map[jobs.ID][2]string
	cw    int // prefix width the cache was built for
}

// namePrefixMax bounds the name in the "all" view's prefixes.
const namePrefixMax = 16

func newJobNames(pal *palette) *jobNames {
	return &jobNames{pal: pal, names: map[jobs.ID]string{}, cache: map[jobs.ID][2]string{}}
}

// set records a job's name.
func (n *jobNames) set(id jobs.ID, name string) {
	if n.names[id] == name {
		return
	}
	n.names[id] = name
	n.measure()
}

// forget drops a job's name.
func (n *jobNames) forget(id jobs.ID) {
	if _, ok := n.names[id]; ok {
		delete(n.names, id)
		n.measure()
	}
}

func (n *jobNames) measure() {
	n.width = 0
	for _, name := range n.names {
		n.width = max(n.width, nameWidth(name))
	}
	clear(n.cache)
}

// prefix is a job's prefix in a pane of paneWidth cells, the blank prefix
// of its wrapped rows, and their width.
func (n *jobNames) prefix(id jobs.ID, paneWidth int) (string, string, int) {
	w := min(n.width, namePrefixMax, paneWidth/3, paneWidth-4)
	if w <= 0 {
		return "", "", 0
	}
	if n.cw != w {
		clear(n.cache)
		n.cw = w
	}
	if c, ok := n.cache[id]; ok {
		return c[0], c[1], w + 3
	}
	sep := n.pal.muted.Wrap(" │ ")
	name := fit(sanitize(n.names[id], false), w, false)
	c := [2]string{n.pal.jobName(id).Wrap(name) + sep, strings.Repeat(" ", w) + sep}
	n.cache[id] = c
	return c[0], c[1], w + 3
}
