package ui

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"jobtop/jobs"
)

// handleKey routes a key: an open question or prompt takes every key;
// otherwise global keys come first, then the focused child's.
//
// The terminal reader delivers runes that arrive in one read (a held key,
// keys sent by a script) as one message; outside the prompt each rune is
// a key of its own.
func (m *Model) handleKey(k tea.KeyMsg) tea.Cmd {
	if k.Type == tea.KeyRunes && len(k.Runes) > 1 && !k.Paste && m.prompt == nil {
		var cmds []tea.Cmd
		for _, r := range k.Runes {
			one := k
			one.Runes = []rune{r}
			cmds = append(cmds, m.handleKey(one))
			m.syncPane()
			m.updateKeys()
		}
		return tea.Batch(cmds...)
	}
	switch {
	case m.quit != quitNone:
		return m.handleQuitKey(k)
	case m.prompt != nil:
		_, cmd := m.prompt.Update(k)
		return cmd
	}
	if cmd, ok := m.handleGlobalKey(k); ok {
		return cmd
	}
	switch m.focus {
	case focusOutput:
		if key.Matches(k, m.km.FocusTable) {
			m.setFocus(focusTable)
			return nil
		}
		m.pane.Update(k)
	default:
		if key.Matches(k, m.km.FocusOutput) {
			m.setFocus(focusOutput)
			return nil
		}
		m.table.Update(k)
	}
	return nil
}

// handleGlobalKey handles the keys that work wherever the focus is.
func (m *Model) handleGlobalKey(k tea.KeyMsg) (tea.Cmd, bool) {
	sel, hasSel := m.table.Selected()
	switch {
	case key.Matches(k, m.km.Quit):
		return m.requestQuit(), true
	case key.Matches(k, m.km.Help):
		m.help.ShowAll = !m.help.ShowAll
	case key.Matches(k, m.km.Zoom):
		m.zoom = !m.zoom
	case key.Matches(k, m.km.Add):
		m.prompt = newAddPrompt(&m.km, &m.st)
	case key.Matches(k, m.km.Reload):
		return m.reload(), true
	case !hasSel:
		return nil, false
	case key.Matches(k, m.km.Stop):
		return m.act(actionStop, sel.ID), true
	case key.Matches(k, m.km.Kill):
		return m.act(actionKill, sel.ID), true
	case key.Matches(k, m.km.Restart):
		return m.act(actionRestart, sel.ID), true
	case key.Matches(k, m.km.Remove):
		return m.act(actionRemove, sel.ID), true
	default:
		return nil, false
	}
	return nil, true
}

func (m *Model) setFocus(f focusArea) {
	m.focus = f
	m.table.SetFocused(f == focusTable)
	m.pane.SetFocused(f == focusOutput)
}

// updateKeys enables exactly the bindings that do something now, so the
// help bar shows only what works and nothing else fires.
func (m *Model) updateKeys() {
	if m.focus == focusOutput && !m.pane.has {
		m.setFocus(focusTable)
	}
	for _, b := range m.km.All() {
		b.SetEnabled(false)
	}
	switch {
	case m.quit == quitConfirm:
		m.km.Yes.SetEnabled(true)
		m.km.No.SetEnabled(true)
		return
	case m.quit == quitStopping:
		m.km.KillAll.SetEnabled(m.liveJobs() > 0)
		return
	case m.prompt != nil:
		m.prompt.UpdateKeys(&m.km)
		return
	}
	m.table.UpdateKeys(&m.km)
	m.pane.UpdateKeys(&m.km)
	m.km.Add.SetEnabled(true)
	m.km.Zoom.SetEnabled(true)
	m.km.Help.SetEnabled(true)
	m.km.Quit.SetEnabled(true)
	m.km.Reload.SetEnabled(m.canReload())
	if sel, ok := m.table.Selected(); ok {
		live := sel.State.Active() || sel.State == jobs.StateQueued
		m.km.Stop.SetEnabled(live && sel.State != jobs.StateStopping)
		m.km.Kill.SetEnabled(live)
		m.km.Restart.SetEnabled(true)
		m.km.Remove.SetEnabled(sel.State.Done())
	}
}
