package ui

import (
	"fmt"
	"slices"
	"strings"
)

// screenLayout is where things are on the screen, as the last resize
// placed them: View draws it and mouse clicks are read against it.
type screenLayout struct {
	frame frame
	// outputY is the first row of the output area.
	outputY int
	// panes are the boxes of the panes drawn, in screen cells, in the
	// order of drawn().
	panes []rect
	// boxed says the panes are drawn in boxes (a split view).
	boxed bool
}

// resize shares the screen out between the children and tells each its
// size. A split view that does not fit its panes at their minimum size
// draws fewer, and says so once.
func (m *Model) resize() {
	m.help.Width = m.width
	promptLines := 0
	switch {
	case m.prompt != nil:
		promptLines = m.prompt.Height(m.width)
	case m.find != nil:
		promptLines = 1
	}
	panes := m.panes()
	f := layoutFrame(frameSpec{
		height: m.height, jobCount: m.table.Len(), helpLines: m.helpLines(),
		prompt: promptLines, zoom: m.zoom, split: m.mode == viewSplit && len(panes) > 1,
	})
	m.table.SetSize(m.width, f.table)
	if m.timeline != nil {
		m.timeline.SetSize(m.width, f.pane)
	}
	if m.prompt != nil {
		m.prompt.SetSize(m.width, f.prompt)
	}
	if m.find != nil {
		m.find.SetSize(m.width)
	}
	if m.panel != nil {
		m.panel.SetSize(m.width, f.table+f.pane+f.prompt)
	}
	before := len(m.screen.panes)
	s := screenLayout{frame: f, outputY: f.table}
	area := rect{0, f.table, m.width, f.pane}
	switch {
	case m.zoom || m.mode != viewSplit || area.w < boxMinWidth || area.h < boxMinHeight:
		s.panes = []rect{area}
	default:
		s.boxed = true
		for _, r := range layoutPanes(area.w, area.h, len(panes)) {
			s.panes = append(s.panes, rect{r.x, r.y + area.y, r.w, r.h})
		}
	}
	m.screen = s
	if !m.zoom && m.active >= len(s.panes) {
		m.keepActiveDrawn(len(s.panes) - 1)
	}
	for i, p := range m.drawn() {
		r := s.panes[i]
		if s.boxed {
			p.SetSize(r.w-2, r.h-1)
		} else {
			p.SetSize(r.w, r.h)
		}
	}
	switch {
	case s.boxed && len(s.panes) < len(panes) && len(s.panes) != before && m.width > 0:
		m.setNotice(fmt.Sprintf("%s %d panes: showing %d (z zooms one)", tooSmall, len(panes), len(s.panes)), false)
	case len(s.panes) == len(panes) && strings.HasPrefix(m.notice.text, tooSmall):
		m.setNotice("", false) // they all fit again
	}
}

// keepActiveDrawn puts the focused pane of a split view the screen has
// no room for in the last place drawn, the ones after it moving on, so a
// terminal made smaller for a moment keeps the focus (and input mode) on
// the same job; growing it back brings the others back around it.
func (m *Model) keepActiveDrawn(last int) {
	if m.mode == viewSplit && m.active < len(m.split) {
		p := m.split[m.active]
		m.split = slices.Insert(slices.Delete(m.split, m.active, m.active+1), last, p)
	}
	m.active = last
}

// tooSmall starts the notice of a split view that shows fewer panes.
const tooSmall = "too small for"

// outputView draws the output area: one pane, or the boxes of a split
// view side by side, row by row into one buffer.
func (m *Model) outputView() string {
	drawn := m.drawn()
	if !m.screen.boxed {
		return drawn[0].View()
	}
	boxes := make([]box, len(drawn))
	for i, p := range drawn {
		r := m.screen.panes[i]
		boxes[i] = p.box(r.w, r.h)
	}
	var b strings.Builder
	b.Grow(m.screen.frame.pane * (m.width + 16*len(drawn)))
	y0 := m.screen.outputY
	for y := y0; y < y0+m.screen.frame.pane; y++ {
		if y > y0 {
			b.WriteByte('\n')
		}
		for i, r := range m.screen.panes { // in reading order: left to right
			if y >= r.y && y < r.y+r.h {
				boxes[i].writeRow(&b, y-r.y, r.x+r.w-1)
			}
		}
	}
	return b.String()
}
