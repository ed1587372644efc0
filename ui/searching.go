package ui

import tea "github.com/charmbracelet/bubbletea"

// applySearch starts a search in a pane: the matches are found by scans
// off the Update goroutine. Once the output held is scanned the pane
// jumps to a match: the newest when it follows the output, else the first
// from the top of the view; the view stays on it as lines arrive, as
// after n or N (revealMatch).
func (m *Model) applySearch(p *outputPane, mt *matcher) tea.Cmd {
	filter := p.search != nil && p.search.filter
	m.searchGen++
	p.search = newPaneSearch(mt, m.searchGen)
	p.search.filter = filter
	p.search.jumpOnScan = 1
	if p.follow {
		p.search.jumpOnScan = -1
	}
	p.refresh()
	return p.search.scan(p.base)
}

// handleScanDone takes a scan's matches into the pane that asked for
// them, scans on when there is more, and makes a pending jump.
func (m *Model) handleScanDone(msg scanDoneMsg) tea.Cmd {
	for _, p := range m.allPanes() {
		s := p.search
		if s == nil || s.gen != msg.gen {
			continue
		}
		var cmd tea.Cmd
		if s.merge(msg, p.base) {
			cmd = s.scan(p.base)
		}
		if s.complete && s.jumpOnScan != 0 {
			forward := s.jumpOnScan > 0
			s.jumpOnScan = 0
			from := lastKey
			if forward {
				from = p.top.key
			}
			if ref, _, ok := s.step(from, forward, true); ok {
				s.current, s.hasCurrent = ref.key, true
				p.revealMatch(ref.key) // held, as after n or N
			}
		}
		p.refresh()
		return cmd
	}
	return nil // the search was cleared or replaced meanwhile
}

// jumpToMatch moves a pane to its search's next (or previous) match,
// wrapping around the ends.
func (m *Model) jumpToMatch(p *outputPane, forward bool) {
	s := p.search
	// With no match jumped to yet, the search starts on screen: forward
	// from its first row, backward from its last.
	from, inclusive := s.current, false
	switch {
	case s.hasCurrent:
	case forward && len(p.rowKeys) > 0:
		from, inclusive = p.rowKeys[0], true
	case forward:
		from, inclusive = lineKey{}, true
	case len(p.rowKeys) > 0:
		from, inclusive = p.rowKeys[len(p.rowKeys)-1], true
	default:
		from, inclusive = lastKey, true
	}
	ref, wrapped, ok := s.step(from, forward, inclusive)
	if !ok {
		if p.olderInLog() {
			m.refuse("no match for " + s.m.label() + " in memory; its older lines are in the log file: L searches it")
		} else {
			m.flash("no match for " + s.m.label())
		}
		return
	}
	if wrapped && s.hasCurrent {
		if forward {
			m.flash("search wrapped to the first match")
		} else {
			m.flash("search wrapped to the last match")
		}
	}
	s.current, s.hasCurrent = ref.key, true
	p.revealMatch(ref.key)
}

// allPanes are every pane that exists, shown or not.
func (m *Model) allPanes() []*outputPane {
	out := append([]*outputPane{m.single}, m.split...)
	if m.all != nil {
		out = append(out, m.all)
	}
	return out
}
