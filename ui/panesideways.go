package ui

// Scrolling a pane sideways while wrap is off, as less -S does: ← and →
// (h and l) move the lines half the pane's width; a search's match that
// is off to a side is brought into view.

// contentWidth is the cells a line's text gets: the pane's width, less
// the "all" view's name prefix.
func (p *outputPane) contentWidth() int {
	w := p.width
	if p.kind == allPane && p.names != nil {
		_, _, prefixW := p.names.prefix(0, p.width)
		w -= prefixW
	}
	return max(w, 1)
}

// scrollSideways moves the view half a width left (dir -1) or right
// (+1), never past the end of the widest line shown.
func (p *outputPane) scrollSideways(dir int) {
	if p.wrap || !p.has {
		return
	}
	w := p.contentWidth()
	step := max(w/2, 1)
	if dir < 0 {
		p.xoff = max(p.xoff-step, 0)
		return
	}
	p.xoff = min(p.xoff+step, max(p.widestShown()-w, 0))
}

// widestShown is the width in cells of the widest line on screen.
func (p *outputPane) widestShown() int {
	h := p.bodyHeight()
	src := p.source()
	var lines []viewLine
	if p.follow {
		lines = src.tail(h)
	} else {
		lines = src.from(p.top.key, h)
	}
	widest := 0
	for _, l := range lines {
		widest = max(widest, textWidth(plainText(l.Text)))
	}
	return widest
}

// revealColumn scrolls sideways so the search's match in the line with
// key is in view: a third of the way in when it has to move.
func (p *outputPane) revealColumn(key lineKey) {
	if p.wrap || p.search == nil {
		return
	}
	lines := p.source().from(key, 1)
	if len(lines) == 0 || lines[0].key != key {
		return
	}
	plain := plainText(lines[0].Text)
	spans := p.search.m.find(plain, nil)
	if len(spans) == 0 {
		return
	}
	start := textWidth(plain[:spans[0].start])
	end := start + textWidth(plain[spans[0].start:spans[0].end])
	w := p.contentWidth()
	// The last cell may hold the cut marker.
	if start >= p.xoff && end <= p.xoff+w-1 {
		return
	}
	p.xoff = max(start-w/3, 0)
}
