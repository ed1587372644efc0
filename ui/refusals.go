package ui

import (
	"slices"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"jobtop/jobs"
)

// explainRefusal says in the status bar why a key that acts on a job
// does nothing to this one, as the CLI does, instead of ignoring it: d on
// a job that has not ended, x or X on one that has. The binding stays
// disabled (help shows only what works); the key is matched by name. It
// reports whether the key was such a key.
func (m *Model) explainRefusal(k tea.KeyMsg, cur jobs.Info) bool {
	for _, a := range []struct {
		b      *key.Binding
		action string
	}{{&m.km.Remove, "remove"}, {&m.km.Stop, "stop"}, {&m.km.Kill, "kill"}} {
		if a.b.Enabled() || !slices.Contains(a.b.Keys(), k.String()) {
			continue
		}
		// Named as the table shows it: with several hosts, the row's ID
		// is the merged table's, not the job's.
		shown := shownID(cur)
		text := (&jobs.InvalidActionError{ID: shown, State: cur.State, Action: a.action}).Error()
		text = strings.Replace(text, "job "+shown.String(), m.jobRef(cur.ID), 1)
		switch {
		case a.action == "remove" && m.km.Stop.Enabled():
			text += " with " + m.km.Stop.Help().Key
		case a.action != "remove" && cur.State.Done():
			text += "; " + m.km.Restart.Help().Key + " runs it again"
		}
		m.setNotice(text, true)
		return true
	}
	return false
}

// allViewRefusal says in the status bar what to do when a key that acts
// on one job (x, X, r, d, m) is pressed in the all view focused: its
// lines are every job's, so it has no job of its own, and the table's
// selection, which the keys act on from the table, may be out of sight
// (zoomed) or not the job the pointer was on. As mprocs and
// process-compose act on the process selected in their list, the keys
// act on the table's selection once the table has the focus. It reports
// whether the key was such a key.
func (m *Model) allViewRefusal(k tea.KeyMsg) bool {
	if m.focus != focusOutput || m.activePane().kind != allPane {
		return false
	}
	for _, a := range []struct {
		b    *key.Binding
		does string
	}{
		{&m.km.Stop, "stops"}, {&m.km.Kill, "kills"}, {&m.km.Restart, "restarts"},
		{&m.km.Remove, "removes"}, {&m.km.QuietAlert, "sets the quiet alert of"},
	} {
		if !slices.Contains(a.b.Keys(), k.String()) {
			continue
		}
		back := m.km.FocusTable.Help().Key
		m.refuse(a.b.Help().Key + " " + a.does + " the job selected in the table, and the all view shows every job: " +
			back + " to the table to pick one")
		return true
	}
	return false
}
