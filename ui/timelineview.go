package ui

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// toggleTimeline shows the timeline in place of the output, or the output
// again. While it shows, the table has the keys, so the timeline follows
// its selection.
func (m *Model) toggleTimeline() {
	if m.timeline != nil {
		m.timeline = nil
		return
	}
	m.timeline = newTimeline(m.pal)
	m.setFocus(focusTable)
}

// handleTimelineKey takes the timeline's keys while it shows: zoom,
// enter (the selected job's output, in place of the timeline) and esc
// (close it). It reports whether it took the key.
func (m *Model) handleTimelineKey(k tea.KeyMsg) bool {
	switch {
	case key.Matches(k, m.km.TimeZoomIn):
		m.timeline.zoom(true, fitSpan(m.table.Jobs(), m.now()))
	case key.Matches(k, m.km.TimeZoomOut):
		m.timeline.zoom(false, fitSpan(m.table.Jobs(), m.now()))
	case key.Matches(k, m.km.FocusOutput):
		m.timeline = nil
		if m.mode != viewSingle {
			m.mode, m.active, m.zoom = viewSingle, 0, false
		}
		m.focusOutput()
	case k.Type == tea.KeyEsc && !m.table.filter.active():
		m.timeline = nil
	case key.Matches(k, m.km.Split), key.Matches(k, m.km.AllView), key.Matches(k, m.km.NextPane),
		key.Matches(k, m.km.PrevPane), key.Matches(k, m.km.FocusPane):
		m.timeline = nil // the output comes back, and the key acts on it
		return false
	default:
		return false
	}
	return true
}

// timelineKeys enables the timeline's keys while it shows.
func (m *Model) timelineKeys() {
	m.km.Timeline.SetEnabled(len(m.table.Jobs()) > 0 || m.timeline != nil)
	if m.timeline == nil {
		return
	}
	m.km.TimeZoomIn.SetEnabled(true)
	m.km.TimeZoomOut.SetEnabled(true)
	m.km.FocusOutput.SetEnabled(m.table.Len() > 0)
	m.km.FocusTable.SetEnabled(false)
}
