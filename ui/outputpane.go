package ui

import (
	"strconv"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"jobtop/jobs"
	"jobtop/keymap"
)

// outputPane shows the selected job's output. It reads only the lines it
// shows from the job's output store and lays them out when they change
// (refresh); View only joins the rows. Lines are addressed by their
// sequence number; the lines being built (partial lines, e.g. a progress
// bar) follow the newest committed line.
type outputPane struct {
	km  *keymap.KeyMap
	pal *palette

	job    jobs.Info
	has    bool
	reader jobs.OutputReader

	// follow keeps the newest output in view; when it is off, top is the
	// first row shown.
	follow bool
	wrap   bool
	top    position
	// below counts committed lines after the last one shown.
	below uint64

	rows          []string
	width, height int // height includes the header row
	focused       bool
}

// position is a row of the output: a line and a row within it (only
// wrapped lines have more than one).
type position struct {
	seq uint64
	row int
}

func (a position) before(b position) bool {
	return a.seq < b.seq || (a.seq == b.seq && a.row < b.row)
}

func newOutputPane(km *keymap.KeyMap, pal *palette) *outputPane {
	return &outputPane{km: km, pal: pal, follow: true}
}

// Init implements tea.Model.
func (p *outputPane) Init() tea.Cmd { return nil }

// Update scrolls and toggles modes on the pane's keys.
func (p *outputPane) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	k, ok := msg.(tea.KeyMsg)
	if !ok {
		return p, nil
	}
	half := max(p.bodyHeight()/2, 1)
	switch {
	case key.Matches(k, p.km.LineUp):
		p.scrollUp(1)
	case key.Matches(k, p.km.LineDown):
		p.scrollDown(1)
	case key.Matches(k, p.km.HalfPageUp):
		p.scrollUp(half)
	case key.Matches(k, p.km.HalfPageDown):
		p.scrollDown(half)
	case key.Matches(k, p.km.Top):
		p.scrollToTop()
	case key.Matches(k, p.km.Bottom):
		p.follow = true
	case key.Matches(k, p.km.Follow):
		p.follow = !p.follow
	case key.Matches(k, p.km.Wrap):
		p.wrap = !p.wrap
		p.top.row = 0
	default:
		return p, nil
	}
	p.refresh()
	return p, nil
}

// UpdateKeys enables the pane's keys when it has the focus.
func (p *outputPane) UpdateKeys(km *keymap.KeyMap) {
	for _, b := range []*key.Binding{
		&km.LineUp, &km.LineDown, &km.HalfPageUp, &km.HalfPageDown,
		&km.Top, &km.Bottom, &km.Follow, &km.Wrap, &km.FocusTable,
	} {
		b.SetEnabled(p.focused)
	}
}

// SetSize sets the pane's size; height counts the header row.
func (p *outputPane) SetSize(width, height int) {
	if width != p.width || height != p.height {
		p.width, p.height = width, max(height, 0)
		p.refresh()
	}
}

// SetFocused says whether the pane has the focus.
func (p *outputPane) SetFocused(f bool) { p.focused = f }

// Following reports whether follow mode is on.
func (p *outputPane) Following() bool { return p.follow }

// Wrapping reports whether long lines wrap.
func (p *outputPane) Wrapping() bool { return p.wrap }

// JobID is the job shown, or 0.
func (p *outputPane) JobID() jobs.ID {
	if !p.has {
		return 0
	}
	return p.job.ID
}

// SetJob shows a job (has false: none). Showing another job starts in
// follow mode; the same job keeps its position and only refreshes.
func (p *outputPane) SetJob(info jobs.Info, has bool, reader jobs.OutputReader) {
	if !has || reader == nil {
		p.job, p.has, p.reader, p.rows = jobs.Info{}, false, nil, p.rows[:0]
		return
	}
	if !p.has || info.ID != p.job.ID {
		p.follow, p.top, p.below = true, position{}, 0
	}
	p.job, p.has, p.reader = info, true, reader
	p.refresh()
}

// SetInfo updates the shown job's snapshot (state, name) without reading
// output.
func (p *outputPane) SetInfo(info jobs.Info) {
	if p.has && info.ID == p.job.ID {
		p.job = info
	}
}

func (p *outputPane) bodyHeight() int { return max(p.height-1, 0) }

// layout appends the rows of one line at the pane's width.
func (p *outputPane) layout(dst []string, l jobs.Line, maxRows int) []string {
	f := lineFormat{width: p.width, wrap: p.wrap, maxRows: maxRows, keepSGR: p.pal.st.KeepJobColours}
	switch l.Stream {
	case jobs.Stderr:
		f.base = p.pal.stderr
	case jobs.Meta:
		f.base, f.keepSGR = p.pal.meta, false
	}
	return layoutLine(dst, l.Text, f)
}

// rowCount is how many rows a line takes.
func (p *outputPane) rowCount(l jobs.Line) int {
	if !p.wrap {
		return 1
	}
	return len(p.layout(nil, l, 0))
}

// tail reads the newest n committed lines and the partial lines after
// them, numbered on from the newest committed line.
func (p *outputPane) tail(n int) []jobs.Line {
	c := p.reader.Tail(n)
	return appendPartials(c.Lines, c.Partial, c.Next)
}

// window reads up to n lines from line seq on (from the oldest line held
// when seq was dropped), partial lines included when it reaches them.
func (p *outputPane) window(seq uint64, n int) []jobs.Line {
	if last := p.reader.Stats().Last; seq > last+1 {
		seq = last + 1
	}
	c := p.reader.ReadAfter(seq-1, n)
	if len(c.Lines) == n {
		return c.Lines
	}
	last := seq - 1
	if len(c.Lines) > 0 {
		last = c.Lines[len(c.Lines)-1].Seq
	}
	return appendPartials(c.Lines, c.Partial, last)
}

func appendPartials(lines, partial []jobs.Line, last uint64) []jobs.Line {
	for i, l := range partial {
		l.Seq = last + 1 + uint64(i)
		lines = append(lines, l)
	}
	return lines
}

// bottomView lays out the rows that end with the newest output, and
// returns them with the position of the first.
func (p *outputPane) bottomView(h int) ([]string, position) {
	lines := p.tail(h)
	if len(lines) == 0 {
		return nil, position{}
	}
	var chunks [][]string
	total, start := 0, len(lines)
	for start > 0 && total < h {
		start--
		r := p.layout(nil, lines[start], 0)
		chunks = append(chunks, r)
		total += len(r)
	}
	rows := make([]string, 0, total)
	for i := len(chunks) - 1; i >= 0; i-- {
		rows = append(rows, chunks[i]...)
	}
	skip := max(total-h, 0)
	return rows[skip:], position{seq: lines[start].Seq, row: skip}
}

// refresh reads and lays out the rows the pane shows.
func (p *outputPane) refresh() {
	p.rows = p.rows[:0]
	h := p.bodyHeight()
	if !p.has || h == 0 || p.width <= 0 {
		return
	}
	if p.follow {
		p.rows, p.top = p.bottomView(h)
		p.below = 0
		return
	}
	lines := p.window(p.top.seq, h)
	if len(lines) == 0 {
		p.rows, p.top = p.bottomView(h)
		return
	}
	if lines[0].Seq != p.top.seq {
		p.top = position{seq: lines[0].Seq} // older lines were dropped
	}
	for i, l := range lines {
		skip := 0
		if i == 0 {
			skip = p.top.row
		}
		before := len(p.rows)
		p.rows = p.layout(p.rows, l, h-len(p.rows)+skip)
		if skip > 0 {
			n := min(skip, len(p.rows)-before)
			p.rows = append(p.rows[:before], p.rows[before+n:]...)
		}
		if len(p.rows) >= h {
			p.rows = p.rows[:h]
			if last := p.reader.Stats().Last; last > l.Seq {
				p.below = last - l.Seq
			} else {
				p.below = 0
			}
			return
		}
	}
	p.below = 0
}

// scrollUp moves the view n rows up, pausing follow mode when it moves.
func (p *outputPane) scrollUp(n int) {
	if !p.has {
		return
	}
	if p.follow {
		_, p.top = p.bottomView(p.bodyHeight())
	}
	first := p.reader.Stats().First
	pos := p.top
	for n > 0 {
		if p.wrap && pos.row > 0 {
			d := min(n, pos.row)
			pos.row -= d
			n -= d
			continue
		}
		if pos.seq <= first {
			break
		}
		if !p.wrap {
			d := min(uint64(n), pos.seq-first)
			pos.seq -= d
			break
		}
		prev := p.reader.ReadAfter(pos.seq-2, 1).Lines
		if len(prev) == 0 || prev[0].Seq != pos.seq-1 {
			break
		}
		pos = position{seq: prev[0].Seq, row: p.rowCount(prev[0]) - 1}
		n--
	}
	if pos != p.top {
		p.top, p.follow = pos, false
	}
}

// scrollDown moves the view n rows down; reaching the bottom resumes
// follow mode.
func (p *outputPane) scrollDown(n int) {
	if !p.has || p.follow {
		return
	}
	_, bottom := p.bottomView(p.bodyHeight())
	pos := p.top
	for _, l := range p.window(pos.seq, n+1) {
		if l.Seq > pos.seq {
			pos = position{seq: l.Seq}
		}
		rest := p.rowCount(l) - pos.row
		if n < rest {
			pos.row += n
			n = 0
			break
		}
		n -= rest
		pos = position{seq: l.Seq + 1}
	}
	if !pos.before(bottom) {
		p.follow = true
		return
	}
	p.top = pos
}

// scrollToTop shows the oldest line held, pausing follow mode unless all
// of the output fits.
func (p *outputPane) scrollToTop() {
	if !p.has {
		return
	}
	_, bottom := p.bottomView(p.bodyHeight())
	if top := (position{seq: p.reader.Stats().First}); top.before(bottom) {
		p.top, p.follow = top, false
	}
}

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
		switch {
		case i < len(p.rows):
			b.WriteString(p.rows[i])
		case i == 0 && p.has:
			b.WriteString(p.pal.muted.Wrap(cut("(no output yet)", p.width)))
		}
	}
	return b.String()
}

// headerView is the pane's title: the job, its state and command on the
// left, the follow and wrap flags on the right.
func (p *outputPane) headerView() string {
	st := p.pal.st
	title, mark := p.pal.title, "  "
	if p.focused {
		title, mark = p.pal.titleFocused, "▸ "
	}
	if !p.has {
		return title.Wrap(fit(mark+"no job selected", p.width, false))
	}
	var flags []string
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
	right := " " + strings.Join(flags, " ")
	rightW := ansi.StringWidth(right)
	if rightW >= p.width {
		right, rightW = "", 0
	}
	info := p.job
	state := p.pal.states[info.State]
	var b strings.Builder
	b.WriteString(mark + "job " + info.ID.String() + " " + sanitize(info.Name, false) + "  ")
	b.WriteString(state.Open + statusText(info) + state.Close + title.Open)
	if info.Runs > 1 {
		b.WriteString(" · run " + strconv.Itoa(info.Runs))
	}
	if cmd := sanitize(info.Command, false); cmd != info.Name {
		b.WriteString("  " + p.pal.muted.Open + "$ " + cmd + p.pal.muted.Close + title.Open)
	}
	return title.Wrap(fit(b.String(), p.width-rightW, false)) + right
}
