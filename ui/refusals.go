package ui

import (
	"slices"

	tea "github.com/charmbracelet/bubbletea"

	"jobtop/jobs"
)

// explainRefusal says in the status bar why a key that acts on a job
// does nothing to this one, as the CLI does, instead of ignoring it: d on
// a job that has not ended. The binding stays disabled (help shows only
// what works); the key is matched by name. It reports whether the key
// was such a key.
func (m *Model) explainRefusal(k tea.KeyMsg, cur jobs.Info) bool {
	if m.km.Remove.Enabled() || !slices.Contains(m.km.Remove.Keys(), k.String()) {
		return false
	}
	err := &jobs.InvalidActionError{ID: cur.ID, State: cur.State, Action: "remove"}
	text := err.Error()
	if m.km.Stop.Enabled() {
		text += " with " + m.km.Stop.Help().Key
	}
	m.setNotice(text, true)
	return true
}
