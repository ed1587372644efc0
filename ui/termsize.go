package ui

import (
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"jobtop/jobs"
)

// termSize is a TTY job's terminal size.
type termSize struct{ cols, rows int }

// offScreenSize is the size of a TTY job's terminal while no pane shows
// it: jobs.Spec's default, wide, so its lines are not wrapped early.
var offScreenSize = termSize{jobs.DefaultCols, jobs.DefaultRows}

// syncTermSizes keeps the terminal of each TTY job the size of the pane
// that shows it (its body: the rows under the header, inside the box),
// and gives it back when no pane shows it any more (giveBack). A screen
// covered for a moment (the help, a terminal too small for panes)
// changes nothing, so full-screen programs are not redrawn for it.
func (m *Model) syncTermSizes() {
	if m.terminal() == nil || m.width <= 0 || m.screen.frame.pane == 0 || m.panel != nil {
		return
	}
	want := make(map[jobs.ID]termSize, 4)
	for _, p := range m.drawn() {
		id := p.JobID()
		if info, ok := m.table.Get(id); ok && id != 0 && id != m.cfg.Within && info.TTY && p.width > 0 && p.bodyHeight() > 0 {
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
			delete(m.lent, id)
		} else if was != offScreenSize {
			m.giveBack(id)
		}
	}
	for id, sz := range want {
		if m.sizes[id] != sz && m.tty.resize(id, sz.cols, sz.rows) {
			m.sizes[id] = sz
			m.noteLent(id, sz)
		}
	}
}

// giveBack is a job's terminal size when this TUI stops showing it: the
// size it had before this TUI first sized it (another TUI's pane that
// still shows it, or offScreenSize), unless someone sized it since (the
// other TUI, typing there; the API), when it keeps that size. Sending
// offScreenSize instead took the job from the other TUI's pane, which,
// having sent its size already, would not send it again.
func (m *Model) giveBack(id jobs.ID) {
	m.sizes[id] = offScreenSize // not shown here
	l := m.lent[id]
	delete(m.lent, id) // shown again, the size before is the one then
	info, ok := m.table.Get(id)
	if !ok || !info.TTY {
		return
	}
	back := offScreenSize
	if l != nil {
		// The size as the table last heard it: one this TUI sent, or,
		// heard before this TUI's came back, the size before.
		if now := (termSize{info.Cols, info.Rows}); now != (termSize{}) && now != l.before && !l.sent[now] {
			return
		}
		back = l.before
	}
	m.tty.resize(id, back.cols, back.rows)
}

// typeInto sends b to a TTY job a person types into, first giving its
// terminal this TUI's pane size when something else (another TUI
// attached to the instance, the API) sized it since: the size follows
// the pane typed in, as tmux's window-size latest does, so a program
// typed into is drawn to fit where the person looks.
func (m *Model) typeInto(id jobs.ID, b []byte) tea.Cmd {
	if len(b) > 0 {
		m.claimTermSize(id)
	}
	return m.tty.input(id, b)
}

// claimTermSize sizes a job's terminal to this TUI's pane again if it has
// another size now.
func (m *Model) claimTermSize(id jobs.ID) {
	sz, shown := m.sizes[id]
	info, ok := m.table.Get(id)
	if !shown || sz == offScreenSize || id == m.cfg.Within || !ok || !info.TTY || info.Cols == 0 || (termSize{info.Cols, info.Rows}) == sz {
		return
	}
	if m.tty.resize(id, sz.cols, sz.rows) {
		m.noteLent(id, sz)
	}
}

// restoreTimeout bounds how long an attached TUI, ending, waits for the
// instance to take back its jobs' terminal sizes.
const restoreTimeout = 2 * time.Second

// lentSize is what an attached TUI did to a job's terminal: the size it
// had before the TUI first resized it, and every size the TUI gave it.
type lentSize struct {
	before termSize
	sent   map[termSize]bool
}

// noteLent records that this TUI sized a job's terminal (see giveBack
// and restoreTermSizes).
func (m *Model) noteLent(id jobs.ID, sz termSize) {
	if m.lent == nil {
		m.lent = make(map[jobs.ID]*lentSize)
	}
	l := m.lent[id]
	if l == nil {
		l = &lentSize{before: offScreenSize, sent: make(map[termSize]bool)}
		if info, ok := m.table.Get(id); ok && info.Cols > 0 && info.Rows > 0 {
			l.before = termSize{info.Cols, info.Rows}
		}
		m.lent[id] = l
	}
	l.sent[sz] = true
}

// restoreTermSizes gives each running job an attached TUI resized back
// the terminal size it had before (the instance's own TUI's pane, or the
// off-screen default): the instance goes on showing it, and its own
// TUI, having sent that size already, would not send it again. A job
// someone else resized since keeps that size. It waits for the input
// and sizes still queued, then for the instance, at most restoreTimeout.
func (m *Model) restoreTermSizes() {
	t := m.terminal()
	if t == nil || len(m.lent) == 0 || !m.cfg.Attached {
		return // the instance's own TUI: the jobs end with it
	}
	end := time.Now().Add(restoreTimeout)
	m.tty.wait(restoreTimeout)
	done := make(chan struct{})
	lent := m.lent
	m.lent = nil
	go func() {
		defer close(done)
		for id, l := range lent {
			info, err := m.engine.Get(id)
			now := termSize{info.Cols, info.Rows}
			if err != nil || !info.TTY || !info.State.Active() || now == l.before || !l.sent[now] {
				continue
			}
			_ = t.Resize(id, l.before.cols, l.before.rows) // an instance gone keeps no size
		}
	}()
	select {
	case <-done:
	case <-time.After(time.Until(end)):
	}
}
