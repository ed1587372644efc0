package ui

import (
	"fmt"
	"slices"

	"jobtop/jobs"
)

// maxPanes is the most panes a split view shows.
const maxPanes = 4

// panes are the panes of the current view.
func (m *Model) panes() []*outputPane {
	switch m.mode {
	case viewSplit:
		return m.split
	case viewAll:
		return []*outputPane{m.all}
	}
	return []*outputPane{m.single}
}

// drawn are the panes on screen: the zoomed one, or as many of the view's
// as fit.
func (m *Model) drawn() []*outputPane {
	panes := m.panes()
	if m.zoom {
		return panes[m.active : m.active+1]
	}
	return panes[:min(max(len(m.screen.panes), 1), len(panes))]
}

// activePane is the pane that has, or last had, the focus.
func (m *Model) activePane() *outputPane { return m.panes()[m.active] }

// syncPanes keeps the panes on their jobs: the single pane on the
// selected job, the split panes on theirs (a pane whose job was removed
// goes), the "all" view on every job.
func (m *Model) syncPanes() {
	sel, ok := m.table.Selected()
	m.syncPane(m.single, sel, ok)
	kept := m.split[:0]
	for _, p := range m.split {
		if info, ok := m.table.Get(p.JobID()); ok {
			p.SetInfo(info)
			kept = append(kept, p)
		}
	}
	clear(m.split[len(kept):])
	m.split = kept
	for _, p := range m.allPanes() {
		p.SetNow(m.table.now) // one clock for the table and the headers
	}
	if m.mode == viewSplit && len(m.split) == 0 {
		m.mode, m.zoom = viewSingle, false
	}
	m.active = min(m.active, len(m.panes())-1)
	m.setFocus(m.focus)
}

// syncPane shows a job in a pane that follows it.
func (m *Model) syncPane(p *outputPane, info jobs.Info, ok bool) {
	if !ok {
		p.SetJob(jobs.Info{}, false, nil)
		return
	}
	if p.JobID() == info.ID {
		p.SetInfo(info)
		return
	}
	reader, err := m.engine.Output(info.ID)
	if err != nil {
		m.setNotice(err.Error(), true)
		p.SetJob(jobs.Info{}, false, nil)
		return
	}
	p.SetJob(info, true, reader)
}

// toggleSplit shows the marked jobs side by side (the running ones when
// none is marked), or goes back to the single pane.
func (m *Model) toggleSplit() {
	m.dropSplitNotice()
	if m.mode == viewSplit {
		m.mode, m.split, m.active, m.zoom = viewSingle, nil, 0, false
		return
	}
	ids := m.table.Marked()
	what := "marked"
	if len(ids) == 0 {
		what = "running"
		for _, j := range m.table.Jobs() {
			if j.State.Active() {
				ids = append(ids, j.ID)
			}
		}
	}
	if len(ids) == 0 {
		m.refuse("nothing to split: mark jobs with space")
		return
	}
	if len(ids) > maxPanes {
		m.setNotice(fmt.Sprintf("showing the first %d of %d %s jobs", maxPanes, len(ids), what), false)
		m.notice.split = true
		ids = ids[:maxPanes]
	}
	m.split = m.split[:0]
	sel, _ := m.table.Selected()
	m.active = 0
	for _, id := range ids {
		info, _ := m.table.Get(id)
		p := newOutputPane(&m.km, m.pal)
		m.syncPane(p, info, true)
		if p.has {
			if id == sel.ID {
				m.active = len(m.split)
			}
			m.split = append(m.split, p)
		}
	}
	if len(m.split) > 0 {
		m.mode, m.zoom = viewSplit, false
	}
}

// toggleAll shows every job's lines as one stream, or goes back to the
// view it was opened from.
func (m *Model) toggleAll() {
	if m.mode == viewAll {
		m.mode, m.active = m.back, 0
		return
	}
	if m.all == nil {
		m.all = newOutputPane(&m.km, m.pal)
		m.allSrc = newAllSource()
	}
	m.back, m.mode, m.active = m.mode, viewAll, 0
	m.syncAll()
}

// syncAll gives the "all" view the jobs there are now.
func (m *Model) syncAll() {
	if m.all == nil {
		return
	}
	ids := make([]jobs.ID, 0, len(m.table.Jobs()))
	for _, j := range m.table.Jobs() {
		ids = append(ids, j.ID)
	}
	m.allSrc.setJobs(ids, func(id jobs.ID) (jobs.OutputReader, bool) {
		r, err := m.engine.Output(id)
		return r, err == nil
	})
	m.all.SetAll(m.allSrc, m.names)
}

// setFocus gives the keys to the table or to the active pane.
func (m *Model) setFocus(f focusArea) {
	if f == focusOutput && !m.activePane().has {
		f = focusTable
	}
	m.focus = f
	m.table.SetFocused(f == focusTable)
	for _, p := range []*outputPane{m.single, m.all} {
		if p != nil {
			p.SetFocused(false)
		}
	}
	for _, p := range m.split {
		p.SetFocused(false)
	}
	if f == focusOutput {
		m.activePane().SetFocused(true)
	}
}

// cycleFocus moves the focus along the table and the panes drawn (only
// the panes while one is zoomed): by +1 (tab) or -1 (shift+tab).
func (m *Model) cycleFocus(by int) {
	n := len(m.panes())
	if !m.zoom {
		n = len(m.drawn())
	}
	// Stops: -1 is the table, 0..n-1 the panes.
	stop := -1
	if m.focus == focusOutput {
		stop = m.active
	}
	lo := -1
	if m.zoom {
		lo = 0
	}
	span := n - lo
	stop = lo + ((stop-lo+by)%span+span)%span
	if stop < 0 {
		m.setFocus(focusTable)
		return
	}
	m.active = stop
	m.setFocus(focusOutput)
}

// toggleZoom zooms the focused pane to the whole screen, or ends the
// zoom. From the table, which the zoom hides, it zooms the selected
// job's output (its pane in a split view) and focuses it, as enter and
// then z would: the keys never go to a table that is not drawn; z again
// gives the table the focus back. The timeline keeps the table's keys
// (j/k move through it), zoomed or not.
func (m *Model) toggleZoom() {
	if m.zoom {
		m.endZoom()
		if m.zoomedFrom == focusTable {
			m.setFocus(focusTable)
		}
		return
	}
	m.zoomedFrom = m.focus
	m.zoomSplit = nil
	if m.focus == focusTable && m.timeline == nil {
		if _, ok := m.table.Selected(); !ok && m.mode == viewSplit {
			// A filter that matches nothing: no job is selected, and a
			// pane the filter hides is not the one to show.
			m.refuse("nothing to zoom: no job is selected")
			return
		}
		if m.mode == viewSplit {
			m.zoomSplit, m.zoomActive = slices.Clone(m.split), m.active
		}
		m.focusOutput()
		if m.focus != focusOutput {
			m.zoomSplit = nil
			m.refuse("nothing to zoom: no job's output is shown")
			return
		}
	}
	m.zoom = true
}

// canZoom says whether z zooms something (or ends a zoom): the help bar
// offers it then only (toggleZoom says why it does nothing otherwise).
func (m *Model) canZoom() bool {
	if m.zoom || m.timeline != nil || m.focus == focusOutput {
		return true
	}
	if _, ok := m.table.Selected(); !ok && m.mode == viewSplit {
		return false
	}
	return m.activePane().has || m.mode == viewSplit
}

// endZoom ends the zoom. One made from the table in a split view is a
// quick look: the panes come back as they were before it (the selected
// job's pane, if it had none, goes again, and the one it pushed out
// comes back), but for the jobs removed meanwhile.
func (m *Model) endZoom() {
	m.zoom = false
	saved := m.zoomSplit
	m.zoomSplit = nil
	if saved == nil || m.mode != viewSplit {
		return
	}
	m.split, m.active = saved, min(m.zoomActive, len(saved)-1)
	m.syncPanes()
}

// focusPane gives the focus to pane i (from 0), when it is drawn.
func (m *Model) focusPane(i int) {
	if i < len(m.drawn()) && !m.zoom {
		m.active = i
		m.setFocus(focusOutput)
	}
}

// focusOutput gives the focus to the output: in a split view, to the
// pane of the selected job if it has one.
func (m *Model) focusOutput() {
	if sel, ok := m.table.Selected(); ok && m.mode == viewSplit {
		m.showInSplit(sel)
	}
	m.setFocus(focusOutput)
}

// showInSplit makes the split's active pane the one showing job: its own
// when it has one on screen; else a pane for it takes the active pane's
// place, the others moving one on (the last of maxPanes goes), so enter
// on any job focuses that job.
func (m *Model) showInSplit(job jobs.Info) {
	drawn := len(m.drawn())
	at := slices.IndexFunc(m.split, func(p *outputPane) bool { return p.JobID() == job.ID })
	switch {
	case at >= 0 && (at < drawn || m.zoom): // zoomed, the active pane is the one drawn
		m.active = at
		return
	case at >= 0: // a pane the screen has no room for: where the focus was
		p := m.split[at]
		m.split = slices.Insert(slices.Delete(m.split, at, at+1), m.active, p)
		return
	}
	p := newOutputPane(&m.km, m.pal)
	m.syncPane(p, job, true)
	if !p.has {
		return
	}
	m.split = slices.Insert(m.split, m.active, p)
	if len(m.split) > maxPanes {
		m.split = m.split[:maxPanes]
	}
}

// currentJob is the job actions apply to: the focused pane's, or the
// selected one. The all view, focused, has none: its lines are every
// job's (allViewRefusal says so).
func (m *Model) currentJob() (jobs.Info, bool) {
	if m.focus == focusOutput {
		p := m.activePane()
		if p.kind == allPane {
			return jobs.Info{}, false
		}
		if id := p.JobID(); id != 0 {
			return m.table.Get(id)
		}
	}
	return m.table.Selected()
}

// onScreen reports whether a job's output is drawn.
func (m *Model) onScreen(id jobs.ID) bool {
	if m.screen.frame.pane == 0 || m.panel != nil || m.timeline != nil {
		return false
	}
	for _, p := range m.drawn() {
		if p.shows(id) {
			return true
		}
	}
	return false
}

// markSeen clears the marks of what was not seen for the jobs on screen.
func (m *Model) markSeen() {
	if m.screen.frame.pane == 0 || m.panel != nil || m.timeline != nil {
		return
	}
	for _, p := range m.drawn() {
		switch {
		case p.kind == allPane && p.has:
			m.table.SeenAll()
		case p.has:
			m.table.Seen(p.job.ID)
		}
	}
}
