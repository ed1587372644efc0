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
	key := p.headerKey(p.width, false)
	if key == p.header.key {
		return p.header.text
	}
	defer func() { p.header.key = key }()
	p.header.text = p.drawHeader()
	return p.header.text
}

func (p *outputPane) drawHeader() string {
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
	flag := p.pal.flag
	var flags []string
	if s := p.search; s != nil {
		flags = append(flags, flag.Wrap(p.searchFlag()))
		if s.filter {
			flags = append(flags, flag.Wrap("filter"))
		}
	}
	if p.follow {
		flags = append(flags, flag.Wrap("following"))
	} else {
		paused := "paused"
		if p.below > 0 {
			paused += " ↓" + formatCount(p.below)
		}
		flags = append(flags, p.pal.paused.Wrap(paused))
	}
	if p.wrap {
		flags = append(flags, flag.Wrap("wrap"))
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

// box is a pane drawn in a box of width × height cells, with the header
// in its top edge; the pane's own size must be (width-2) × (height-1).
// Rows are written one at a time, so boxes side by side can be drawn
// into one buffer.
type box struct {
	p              *outputPane
	width, height  int
	top, side, bot string
}

func (p *outputPane) box(width, height int) box {
	chars, style := borderLight, p.pal.border
	if p.focused {
		chars, style = borderHeavy, p.pal.borderFocused
	}
	x := box{p: p, width: width, height: height, side: style.Wrap(chars[3])}
	if key := p.headerKey(width, true); key == p.header.key {
		x.top, x.bot = p.header.text, p.header.bottom
		return x
	} else {
		defer func() { p.header.key = key }()
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
	fill := max(inner-rightW-2-ansi.StringWidth(left), 0)
	x.top = style.Wrap(chars[0]) + mark + title.Wrap(left) + style.Wrap(strings.Repeat(chars[1], fill)) + right + style.Wrap(chars[2])
	x.bot = style.Wrap(chars[4] + strings.Repeat(chars[1], inner) + chars[5])
	p.header.text, p.header.bottom = x.top, x.bot
	return x
}

// headerCache is the last header drawn and what it was drawn from: the
// header changes far less often than the rows, and a split view draws
// four of them every frame.
type headerCache struct {
	key          headerKey
	text, bottom string
}

// headerKey is everything a header is drawn from.
type headerKey struct {
	width               int
	boxed, focused, has bool
	kind                paneKind
	id                  jobs.ID
	name, command       string
	state               jobs.State
	exit                int
	signal              jobs.Signal
	runs, jobCount      int
	follow, wrap        bool
	below               uint64
	search              string
	filter              bool
}

func (p *outputPane) headerKey(width int, boxed bool) headerKey {
	k := headerKey{
		width: width, boxed: boxed, focused: p.focused, has: p.has, kind: p.kind,
		id: p.job.ID, name: p.job.Name, command: p.job.Command, state: p.job.State,
		exit: -1, signal: p.job.Signal, runs: p.job.Runs,
		follow: p.follow, wrap: p.wrap, below: p.below,
	}
	if p.job.ExitCode != nil {
		k.exit = *p.job.ExitCode
	}
	if p.kind == allPane && p.has {
		k.jobCount = len(p.base.(*allSource).ids)
	}
	if p.search != nil {
		k.search, k.filter = p.searchFlag(), p.search.filter
	}
	return k
}

// writeRow writes row i of the box.
func (x box) writeRow(b *strings.Builder, i int) {
	switch {
	case i == 0:
		b.WriteString(x.top)
	case i == x.height-1:
		b.WriteString(x.bot)
	default:
		b.WriteString(x.side)
		row, _ := x.p.bodyRow(i - 1)
		b.WriteString(row)
		writeSpaces(b, x.width-2-x.p.bodyRowWidth(i-1))
		b.WriteString(x.side)
	}
}

// spaces pads rows without allocating.
const spaces = "                                                                "

func writeSpaces(b *strings.Builder, n int) {
	for n > 0 {
		k := min(n, len(spaces))
		b.WriteString(spaces[:k])
		n -= k
	}
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
