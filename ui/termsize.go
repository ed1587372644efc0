package ui

import "jobtop/jobs"

// termSize is a TTY job's terminal size.
type termSize struct{ cols, rows int }

// offScreenSize is the size of a TTY job's terminal while no pane shows
// it: jobs.Spec's default, wide, so its lines are not wrapped early.
var offScreenSize = termSize{jobs.DefaultCols, jobs.DefaultRows}

// syncTermSizes keeps the terminal of each TTY job the size of the pane
// that shows it (its body: the rows under the header, inside the box),
// and sets it back to offScreenSize when no pane shows it any more. A
// screen covered for a moment (the help, a terminal too small for panes)
// changes nothing, so full-screen programs are not redrawn for it.
func (m *Model) syncTermSizes() {
	if m.terminal() == nil || m.width <= 0 || m.screen.frame.pane == 0 || m.panel != nil {
		return
	}
	want := make(map[jobs.ID]termSize, 4)
	for _, p := range m.drawn() {
		id := p.JobID()
		if info, ok := m.table.Get(id); ok && id != 0 && info.TTY && p.width > 0 && p.bodyHeight() > 0 {
			if _, dup := want[id]; !dup {
				want[id] = termSize{p.width, p.bodyHeight()}
			}
		}
	}
	for id, was := range m.sizes {
		if _, shown := want[id]; shown {
			continue
		}
		if _, ok := m.table.Get(id); !ok {
			delete(m.sizes, id) // removed
		} else if was != offScreenSize {
			want[id] = offScreenSize
		}
	}
	for id, sz := range want {
		if m.sizes[id] != sz && m.tty.resize(id, sz.cols, sz.rows) {
			m.sizes[id] = sz
		}
	}
}
