package ui

import "jobtop/jobs"

// laidOut holds laid-out rows, with the width of each and the key of the
// line it belongs to.
type laidOut struct {
	rows   []string
	widths []int
	keys   []lineKey
	cuts   int // rows cut at the pane's edge
}

func (o *laidOut) reset() {
	o.rows, o.widths, o.keys, o.cuts = o.rows[:0], o.widths[:0], o.keys[:0], 0
}

// keep keeps the rows [from, to).
func (o *laidOut) keep(from, to int) {
	o.rows = append(o.rows[:0], o.rows[from:to]...)
	o.widths = append(o.widths[:0], o.widths[from:to]...)
	o.keys = append(o.keys[:0], o.keys[from:to]...)
}

// layout appends the rows of one line at the pane's width: sanitized, cut
// or wrapped, stderr tinted, search matches marked, and in the "all" view
// prefixed with the job's name.
func (p *outputPane) layout(o *laidOut, l viewLine, maxRows int) {
	if l.note != noteNone {
		p.layoutNote(o, l, maxRows)
		return
	}
	var prefix, blank string
	prefixW := 0
	if p.kind == allPane && p.names != nil {
		prefix, blank, prefixW = p.names.prefix(l.job, p.width)
	}
	f := lineFormat{
		width:    max(p.width-prefixW, 1),
		wrap:     p.wrap,
		maxRows:  maxRows,
		keepSGR:  p.pal.st.KeepJobAttributes,
		noColour: !p.pal.st.KeepJobColours,
		widths:   &o.widths,
		cutMark:  !p.wrap,
		cuts:     &o.cuts,
	}
	if !p.wrap {
		f.skip = p.xoff
	}
	switch l.Stream {
	case jobs.Stderr:
		f.base = p.pal.stderr
	case jobs.Meta:
		f.base, f.keepSGR = p.pal.meta, false
	}
	if s := p.search; s != nil && p.pal.match.Open != "" {
		f.marks = s.m.find(plainText(l.Text), nil)
		f.mark = p.pal.match
		if s.hasCurrent && s.current == l.key && l.Seq != 0 {
			f.mark = p.pal.matchCurrent
		}
	}
	first := len(o.rows)
	o.rows = layoutLine(o.rows, l.Text, f)
	for i := first; i < len(o.rows); i++ {
		o.keys = append(o.keys, l.key)
		if prefixW > 0 {
			if i == first {
				o.rows[i] = prefix + o.rows[i]
			} else {
				o.rows[i] = blank + o.rows[i]
			}
			o.widths[i] += prefixW
		}
	}
}

// rowCount is how many rows a line takes.
func (p *outputPane) rowCount(l viewLine) int {
	if !p.wrap {
		return 1
	}
	var o laidOut
	p.layout(&o, l, 0)
	return len(o.rows)
}

// bottomView lays out into o the rows that end with the newest output,
// and returns the position of the first. After a terminal job cleared
// its screen (clearedAt), they start no earlier than the first line
// since, on the top row, as the terminal shows them: fewer rows than h
// leave the rest blank, the lines before are above, as scrollback.
// A view of no rows (a terminal too short for the pane's body) starts
// after the newest line, so scrolling from it still moves by lines.
func (p *outputPane) bottomView(src lineSource, h int, o *laidOut) position {
	o.reset()
	lines := src.tail(max(h, 1))
	if floor, ok := p.clearedAt(); ok {
		k := 0
		for k < len(lines) && !floor.less(lines[k].key) {
			k++
		}
		if lines = lines[k:]; len(lines) == 0 {
			return position{key: floor.next()}
		}
	}
	if len(lines) == 0 {
		return position{}
	}
	if h <= 0 {
		return position{key: lines[len(lines)-1].key.next()}
	}
	start := max(len(lines)-h, 0)
	if !p.wrap {
		for _, l := range lines[start:] {
			p.layout(o, l, 0)
		}
	} else {
		// Wrapped lines take several rows: lay them out from the newest
		// back until they fill the view.
		var chunks []laidOut
		total := 0
		for start = len(lines); start > 0 && total < h; {
			start--
			var c laidOut
			p.layout(&c, lines[start], 0)
			chunks = append(chunks, c)
			total += len(c.rows)
		}
		for i := len(chunks) - 1; i >= 0; i-- {
			c := chunks[i]
			o.rows = append(o.rows, c.rows...)
			o.widths = append(o.widths, c.widths...)
			o.keys = append(o.keys, c.keys...)
		}
	}
	skip := max(len(o.rows)-h, 0)
	o.keep(skip, len(o.rows))
	return position{key: lines[start].key, row: skip}
}

// bottom is the position of the first row of the bottom view.
func (p *outputPane) bottom(src lineSource) position {
	var o laidOut
	return p.bottomView(src, p.bodyHeight(), &o)
}

// refresh reads and lays out the rows the pane shows.
func (p *outputPane) refresh() {
	if p.scr != nil && p.has && p.width > 0 && p.bodyHeight() > 0 {
		p.refreshScreen()
		return
	}
	o := laidOut{rows: p.rows[:0], widths: p.widths[:0], keys: p.rowKeys[:0]}
	defer func() { p.rows, p.widths, p.rowKeys, p.cut = o.rows, o.widths, o.keys, o.cuts > 0 }()
	h := p.bodyHeight()
	if !p.has || h == 0 || p.width <= 0 {
		return
	}
	src := p.source()
	if p.follow {
		p.top = p.bottomView(src, h, &o)
		p.below = 0
		p.drawLineCursor(&o)
		return
	}
	lines := src.from(p.top.key, h)
	if len(lines) == 0 {
		p.top = p.bottomView(src, h, &o)
		p.below = 0
		return
	}
	if lines[0].key != p.top.key {
		p.top = position{key: lines[0].key} // older lines were dropped
	}
	for i, l := range lines {
		first, maxRows := len(o.rows), h-len(o.rows)
		if i == 0 {
			maxRows += p.top.row
		}
		p.layout(&o, l, maxRows)
		if i == 0 && p.top.row > 0 {
			n := min(p.top.row, len(o.rows)-first)
			o.keep(n, len(o.rows))
		}
		if len(o.rows) >= h {
			o.keep(0, h)
			p.below = src.countAfter(l.key)
			return
		}
	}
	// The view reached the end before it was full. Above a cleared
	// screen (clearedAt) it is scrollback: the rows below stay blank, as
	// a terminal's do. Else (the filter was turned on, or the lines above
	// were dropped) it is the bottom, so follow; unless scrolled up from
	// a screen, which following would show again.
	p.below = 0
	if p.cleared() && p.top.before(p.bottom(src)) {
		return
	}
	p.follow = !p.offScreen && !p.held
	p.top = p.bottomView(src, h, &o)
}

// clearedAt is, in a pane of a job on a terminal that cleared its screen
// (Info.ClearedCursor), the key of the last line before the clear: the
// bottom of the pane shows the lines after it from its top row, as the
// terminal does, and those before are reached by scrolling up. ok is
// false for every other pane and source: a pipe job's output is a log,
// not a screen (an ESC[2J in it clears nothing), and the all view, a
// search's filter and the log file's matches are no terminal's screen.
func (p *outputPane) clearedAt() (lineKey, bool) {
	if !p.has || p.kind != jobPane || !p.job.TTY || p.job.ClearedCursor == 0 ||
		p.logSearch != nil || p.search != nil && p.search.filter {
		return lineKey{}, false
	}
	return seqKey(p.job.ClearedCursor), true
}

// cleared reports whether the pane shows a terminal's screen as a clear
// left it (clearedAt).
func (p *outputPane) cleared() bool {
	_, ok := p.clearedAt()
	return ok
}

// scrollUp moves the view n rows up, pausing follow mode when it moves.
func (p *outputPane) scrollUp(n int) {
	p.held = false
	if !p.has {
		return
	}
	src := p.source()
	if p.follow {
		p.top = p.bottom(src)
	}
	pos := p.top
	for n > 0 {
		if p.wrap && pos.row > 0 {
			d := min(n, pos.row)
			pos.row -= d
			n -= d
			continue
		}
		if !p.wrap {
			if prev := src.before(pos.key, n); len(prev) > 0 {
				pos = position{key: prev[0].key}
			}
			break
		}
		prev := src.before(pos.key, 1)
		if len(prev) == 0 {
			break
		}
		pos = position{key: prev[0].key, row: p.rowCount(prev[0]) - 1}
		n--
	}
	if pos != p.top {
		p.top, p.follow = pos, false
	}
}

// scrollDown moves the view n rows down; reaching the bottom resumes
// follow mode.
func (p *outputPane) scrollDown(n int) {
	p.held = false
	if !p.has || p.follow {
		return
	}
	src := p.source()
	bottom := p.bottom(src)
	pos := p.top
	lines := src.from(pos.key, n+1)
	for i, l := range lines {
		if pos.key.less(l.key) {
			pos = position{key: l.key}
		}
		rest := p.rowCount(l) - pos.row
		if n < rest {
			pos.row += n
			break
		}
		n -= rest
		next := l.key.next()
		if i+1 < len(lines) {
			next = lines[i+1].key
		}
		pos = position{key: next}
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
	p.held = false
	if !p.has {
		return
	}
	src := p.source()
	first, ok := src.oldest()
	if !ok {
		return
	}
	if top := (position{key: first}); top.before(p.bottom(src)) {
		p.top, p.follow = top, false
	}
}

// revealMatch brings a search match moved to into view and holds the
// view there (held), whichever match it is: following would scroll it
// away as lines arrive, so the pane stops following until G, f or a
// scroll key, as less stays put on a match.
func (p *outputPane) revealMatch(key lineKey) {
	p.reveal(key)
	if !p.has || p.scr != nil {
		return
	}
	p.follow, p.held = false, true // top is the bottom view's, as refresh left it
	p.refresh()
}

// reveal brings the line with key into view, a third of the way down
// when it has to scroll; the view follows again when that is the bottom.
func (p *outputPane) reveal(key lineKey) {
	if !p.has {
		return
	}
	for _, k := range p.rowKeys {
		if k == key {
			p.revealColumn(key)
			p.refresh() // it is on screen; redraw its marks
			return
		}
	}
	src := p.source()
	top := position{key: key}
	for rows := 0; rows < p.bodyHeight()/3; {
		prev := src.before(top.key, 1)
		if len(prev) == 0 {
			break
		}
		rows += p.rowCount(prev[0])
		top = position{key: prev[0].key}
	}
	if top.before(p.bottom(src)) {
		p.top, p.follow = top, false
	} else {
		p.follow = true
	}
	p.revealColumn(key)
	p.refresh()
}
