package ui

import (
	"slices"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"jobtop/ui/termkeys"
)

// handleKey routes a key: in input mode every key is the job's; an open
// question or prompt takes every key; otherwise global keys come first,
// then the focused child's.
//
// The terminal reader delivers runes that arrive in one read (a held key,
// keys sent by a script) as one message; outside the prompts each rune is
// a key of its own.
func (m *Model) handleKey(k tea.KeyMsg) tea.Cmd {
	if m.input.takesKeys() {
		return m.handleInputKey(k)
	}
	if m.input.leftLost {
		m.input.leftLost = false
		if slices.Contains(m.km.LeaveInput.Keys(), k.String()) { // off now, out of input mode
			return nil
		}
	}
	if k.Type == tea.KeyRunes && len(k.Runes) > 1 && !k.Paste && m.prompt == nil && m.find == nil {
		var cmds []tea.Cmd
		for _, r := range k.Runes {
			one := k
			one.Runes = []rune{r}
			cmds = append(cmds, m.handleKey(one))
			m.syncPanes()
			m.settleLayout()
		}
		return tea.Batch(cmds...)
	}
	switch {
	case key.Matches(k, m.km.Redraw):
		return tea.ClearScreen
	case m.quit != quitNone:
		return m.handleQuitKey(k)
	case m.panel != nil:
		return m.handlePanelKey(k)
	case m.confirm != nil:
		return m.handleConfirmKey(k)
	case m.prompt != nil:
		_, cmd := m.prompt.Update(k)
		return cmd
	case m.find != nil:
		return m.handleFindKey(k)
	}
	if m.timeline != nil && m.handleTimelineKey(k) {
		return nil
	}
	if cmd, ok := m.handleGlobalKey(k); ok {
		return cmd
	}
	if m.focus == focusOutput {
		return m.handlePaneKey(k)
	}
	switch {
	case key.Matches(k, m.km.FocusOutput):
		m.focusOutput()
	case key.Matches(k, m.km.TableInput):
		m.focusOutput()
		m.enterInput()
	case !m.km.TableInput.Enabled() && slices.Contains(m.km.TableInput.Keys(), k.String()):
		if sel, ok := m.table.Selected(); ok {
			m.noInputNotice(sel)
		}
	case key.Matches(k, m.km.FilterJobs):
		m.openFind(findJobs)
	case key.Matches(k, m.km.ClearFilter):
		m.table.SetFilter("")
	default:
		m.table.Update(k)
	}
	return nil
}

// handlePaneKey handles a key for the focused pane.
func (m *Model) handlePaneKey(k tea.KeyMsg) tea.Cmd {
	p := m.activePane()
	if cmd, ok := m.handleCopyKey(p, k); ok {
		return cmd
	}
	defer p.followSearch()
	switch {
	case key.Matches(k, m.km.FocusTable):
		m.endZoom() // the table is on screen again, not focused unseen
		m.setFocus(focusTable)
	case key.Matches(k, m.km.Input):
		m.enterInput()
	case !m.km.Input.Enabled() && k.Type == tea.KeyRunes && slices.Contains(m.km.Input.Keys(), k.String()):
		if info, ok := m.table.Get(p.JobID()); ok {
			m.noInputNotice(info)
		}
	case key.Matches(k, m.km.TypeLeaveKey):
		m.enterInput()
		if m.input.on() {
			return m.typeInto(m.input.id, termkeys.Key(k, m.input.pane.screenModes()))
		}
	case key.Matches(k, m.km.Search):
		fromScreen := p.scr != nil
		if fromScreen {
			// A screen has no lines to search: its job's lines show,
			// as on scrolling up (esc in the prompt goes back to it).
			p.leaveScreen()
			p.refresh()
		}
		m.openFind(findInPane)
		m.find.fromScreen = fromScreen
	case key.Matches(k, m.km.ClearSearch):
		p.search, p.logSearch = nil, nil
		if p.searchLeftScreen {
			p.follow = true // the screen it was asked for on, again
		}
		p.searchLeftScreen = false
		p.refresh()
	case key.Matches(k, m.km.LogSearch):
		return m.toggleLogSearch(p)
	case key.Matches(k, m.km.NextMatch) && p.logSearch != nil:
		m.jumpLogMatch(p, true)
	case key.Matches(k, m.km.PrevMatch) && p.logSearch != nil:
		m.jumpLogMatch(p, false)
	case key.Matches(k, m.km.NextMatch):
		m.jumpToMatch(p, true)
	case key.Matches(k, m.km.PrevMatch):
		m.jumpToMatch(p, false)
	case key.Matches(k, m.km.FilterMatches):
		p.search.filter = !p.search.filter
		p.refresh()
		if p.search.hasCurrent {
			p.reveal(p.search.current)
		}
	default:
		p.Update(k)
	}
	return nil
}

// handleGlobalKey handles the keys that work wherever the focus is.
func (m *Model) handleGlobalKey(k tea.KeyMsg) (tea.Cmd, bool) {
	cur, hasCur := m.currentJob()
	switch {
	case key.Matches(k, m.km.Quit):
		return m.requestQuit(), true
	case key.Matches(k, m.km.Help):
		m.openHelp()
	case key.Matches(k, m.km.Zoom), !m.km.Zoom.Enabled() && slices.Contains(m.km.Zoom.Keys(), k.String()):
		m.toggleZoom() // (which says why when there is nothing to zoom)
	case key.Matches(k, m.km.Add):
		m.prompt = newAddPrompt(&m.km, &m.st, m.started)
	case key.Matches(k, m.km.Edit) && hasCur:
		m.openEdit(cur)
	case key.Matches(k, m.km.Reload):
		return m.reload(), true
	case !m.km.Reload.Enabled() && m.cfg.JobFile == "" && slices.Contains(m.km.Reload.Keys(), k.String()):
		m.refuse("no job file to reload: this instance runs none (jobtop -f FILE, or a jobtop.yaml, Procfile or process-compose.yaml where it starts)")
	case key.Matches(k, m.km.Split):
		m.toggleSplit()
	case key.Matches(k, m.km.AllView):
		m.toggleAll()
	case key.Matches(k, m.km.Pager) && m.mode == viewAll: // what the view shows, not one job's log
		return m.openAllPager(), true
	case key.Matches(k, m.km.NextPane):
		m.cycleFocus(1)
	case key.Matches(k, m.km.PrevPane):
		m.cycleFocus(-1)
	case key.Matches(k, m.km.FocusPane):
		m.focusPane(int(k.Runes[0] - '1'))
	case key.Matches(k, m.km.HideEnded):
		m.toggleHideEnded()
	case key.Matches(k, m.km.Timeline):
		m.toggleTimeline()
	case key.Matches(k, m.km.Bell):
		m.bell = !m.bell
		if m.bell {
			m.flash("bell on: a failing job rings it")
		} else {
			m.flash("bell off")
		}
	case m.bulkMode() && m.matchesBulkKey(k): // the marked jobs', selected row or not
		return nil, true
	case !hasCur && m.allViewRefusal(k):
		return nil, true
	case !hasCur:
		return nil, false
	case key.Matches(k, m.km.Pager):
		return m.openPager(cur), true
	case key.Matches(k, m.km.QuietAlert):
		m.toggleQuiet(cur)
	case key.Matches(k, m.km.Stop):
		return m.act(actionStop, cur.ID), true
	case key.Matches(k, m.km.Kill):
		return m.act(actionKill, cur.ID), true
	case key.Matches(k, m.km.Restart):
		return m.act(actionRestart, cur.ID), true
	case key.Matches(k, m.km.Remove):
		return m.act(actionRemove, cur.ID), true
	default:
		return nil, m.explainRefusal(k, cur)
	}
	return nil, true
}

// updateKeys enables exactly the bindings that do something now, so the
// help bar shows only what works and nothing else fires.
func (m *Model) updateKeys() {
	for _, b := range m.km.All() {
		b.SetEnabled(false)
	}
	m.km.Redraw.SetEnabled(!m.input.takesKeys()) // wherever you are, but a job typed into gets ctrl+l
	switch {
	case m.input.takesKeys():
		m.km.LeaveInput.SetEnabled(true)
		return
	case m.quit == quitConfirm:
		m.km.QuitYes.SetEnabled(true)
		m.km.QuitNo.SetEnabled(true)
		return
	case m.quit == quitStopping:
		m.km.KillAll.SetEnabled(m.liveJobs() > 0)
		return
	case m.panel != nil:
		m.panel.UpdateKeys(&m.km)
		return
	case m.confirm != nil:
		m.km.Yes.SetEnabled(true)
		m.km.No.SetEnabled(true)
		return
	case m.prompt != nil:
		m.prompt.UpdateKeys(&m.km)
		return
	case m.find != nil:
		m.find.UpdateKeys(&m.km)
		return
	}
	m.table.UpdateKeys(&m.km)
	m.activePane().UpdateKeys(&m.km)
	_, typable := m.canType()
	m.km.Input.SetEnabled(typable)
	m.km.TableInput.SetEnabled(m.focus == focusTable && m.selectedTypable())
	m.km.TypeLeaveKey.SetEnabled(typable)
	m.copyKeys(m.activePane())
	hasJobs := len(m.table.Jobs()) > 0
	m.km.Add.SetEnabled(true)
	m.km.Edit.SetEnabled(false)
	m.km.Zoom.SetEnabled(m.canZoom())
	m.km.Help.SetEnabled(true)
	m.km.Quit.SetEnabled(true)
	m.km.Reload.SetEnabled(m.canReload())
	m.km.Bell.SetEnabled(true)
	m.km.Split.SetEnabled(hasJobs || m.mode == viewSplit)
	m.km.AllView.SetEnabled(hasJobs || m.mode == viewAll)
	m.km.NextPane.SetEnabled(m.activePane().has)
	m.km.PrevPane.SetEnabled(m.activePane().has)
	m.km.FocusPane.SetEnabled(!m.zoom && len(m.drawn()) > 1)
	if cur, ok := m.currentJob(); ok {
		m.km.Stop.SetEnabled(appliesTo(actionStop, cur))
		m.km.Kill.SetEnabled(appliesTo(actionKill, cur))
		m.km.Restart.SetEnabled(true)
		m.km.Edit.SetEnabled(cur.Command != "" || len(cur.Argv) > 0)
		m.km.Remove.SetEnabled(appliesTo(actionRemove, cur))
		m.km.Pager.SetEnabled(cur.LogPath != "")
		m.km.QuietAlert.SetEnabled(true)
	}
	m.km.Pager.SetHelp(m.km.Pager.Help().Key, "open log")
	if m.mode == viewAll {
		m.km.Pager.SetEnabled(m.all != nil && m.all.has)
		m.km.Pager.SetHelp(m.km.Pager.Help().Key, "open all output")
	}
	m.km.HideEnded.SetEnabled(m.table.HidingEnded() || m.table.Ended() > 0)
	m.updateBulkKeys()
	m.timelineKeys()
}
