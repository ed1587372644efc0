package ui

import (
	"slices"
	"strconv"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"jobtop/jobs"
)

// bulkConfirm is the question asked before an action on the marked jobs:
// "stop 3 marked jobs? y/n".
type bulkConfirm struct {
	action action
	ids    []jobs.ID // the marked jobs the action applies to
	marked int       // how many jobs are marked
	hidden int       // of ids, how many the table does not show (a filter, H)
}

// bulkDoneMsg reports an action done on several jobs.
type bulkDoneMsg struct {
	action action
	ids    []jobs.ID
	done   int
	errs   []error
	// refused are the jobs whose action was refused.
	refused []jobs.ID
}

// summaryHold is how long the summary of an action on the marked jobs
// ("stopping 3 jobs; 1 refused: ...") stays in the status bar while the
// jobs it stopped or killed end: their ends, the action's expected
// outcome, would replace it within milliseconds.
const summaryHold = 3 * time.Second

// heldSummary is the summary kept, and the jobs whose ends do not
// replace it until when.
type heldSummary struct {
	notice notice
	ids    []jobs.ID
	until  time.Time
}

// bulkVerbs are an action's words: "stop" for the question, "stopping"
// for the notice once asked.
var bulkVerbs = map[action][2]string{
	actionStop:    {"stop", "stopping"},
	actionKill:    {"kill", "killed"},
	actionRestart: {"restart", "restarting"},
	actionRemove:  {"remove", "removed"},
}

// appliesTo reports whether an action does something to a job in its
// state, as the keys for the selected job say: a stop or kill of a job
// waiting to restart cancels the restart, and it cannot be removed
// until then.
func appliesTo(a action, j jobs.Info) bool {
	live := j.State.Active() || j.State == jobs.StateQueued
	switch a {
	case actionStop:
		return live && j.State != jobs.StateStopping || waitsToRestart(j)
	case actionKill:
		return live || waitsToRestart(j)
	case actionRemove:
		return j.State.Done() && !waitsToRestart(j)
	}
	return true
}

// markedFor is the marked jobs an action applies to, and how many jobs
// are marked.
func (m *Model) markedFor(a action) ([]jobs.ID, int) {
	marked := m.table.Marked()
	var ids []jobs.ID
	for _, id := range marked {
		if j, ok := m.table.Get(id); ok && appliesTo(a, j) {
			ids = append(ids, id)
		}
	}
	return ids, len(marked)
}

// askBulk asks before acting on the marked jobs; when the action applies
// to none of them, it says so instead.
func (m *Model) askBulk(a action) {
	ids, marked := m.markedFor(a)
	if len(ids) == 0 {
		m.setNotice(noneCan(a, marked), true)
		return
	}
	m.confirm = &bulkConfirm{action: a, ids: ids, marked: marked, hidden: m.hiddenOf(ids)}
}

// hiddenOf counts the jobs of ids that the table does not show.
func (m *Model) hiddenOf(ids []jobs.ID) int {
	n := 0
	for _, id := range ids {
		if _, shown := m.table.rowIndex(id); !shown {
			n++
		}
	}
	return n
}

// noneCan says that an action applies to none of the marked jobs.
func noneCan(a action, marked int) string {
	if marked == 0 {
		return "no job is marked now: nothing to " + bulkVerbs[a][0]
	}
	if marked == 1 {
		return "the marked job cannot be " + bulkPast(a) + " now"
	}
	return "none of the " + plural(marked, "marked job") + " can be " + bulkPast(a) + " now"
}

// recountBulk keeps the question right while it is asked, as the marked
// jobs end, restart or go: it names the jobs y acts on then. When the
// action applies to none of them any more, the question goes and the
// status bar says why.
func (m *Model) recountBulk() {
	c := m.confirm
	if c == nil {
		return
	}
	ids, marked := m.markedFor(c.action)
	if len(ids) == 0 {
		m.confirm = nil
		m.setNotice(noneCan(c.action, marked), true)
		// Held as a summary is: the marked jobs' ends that closed the
		// question would replace it within milliseconds.
		m.summary = heldSummary{notice: m.notice, ids: m.table.Marked(), until: m.now().Add(summaryHold)}
		return
	}
	c.ids, c.marked, c.hidden = ids, marked, m.hiddenOf(ids)
}

// bulkPast is "stopped", "killed", "restarted", "removed".
func bulkPast(a action) string {
	switch a {
	case actionStop:
		return "stopped"
	case actionKill:
		return "killed"
	case actionRestart:
		return "restarted"
	}
	return "removed"
}

// question is the status line while asking.
func (c *bulkConfirm) question() string {
	verb := bulkVerbs[c.action][0]
	hidden := ""
	switch {
	case c.hidden == 0:
	case c.hidden == len(c.ids) && c.hidden == 1:
		hidden = ", not shown (a filter, or H)"
	case c.hidden == len(c.ids):
		hidden = ", none of them shown (a filter, or H)"
	default:
		hidden = ", " + strconv.Itoa(c.hidden) + " of them not shown (a filter, or H)"
	}
	if len(c.ids) == c.marked {
		return verb + " " + plural(c.marked, "marked job") + hidden + "? y/n"
	}
	others := c.marked - len(c.ids)
	return verb + " " + strconv.Itoa(len(c.ids)) + " of " + plural(c.marked, "marked job") +
		" (" + strconv.Itoa(others) + " cannot be " + bulkPast(c.action) + " now)" + hidden + "? y/n"
}

// handleConfirmKey answers the question: y acts on the jobs, n (or esc)
// does nothing.
func (m *Model) handleConfirmKey(k tea.KeyMsg) tea.Cmd {
	c := m.confirm
	switch {
	case key.Matches(k, m.km.Yes):
		m.confirm = nil
		return m.actOnAll(c.action, c.ids)
	case key.Matches(k, m.km.No):
		m.confirm = nil
	}
	return nil
}

// actOnAll runs an action on several jobs as one command.
func (m *Model) actOnAll(a action, ids []jobs.ID) tea.Cmd {
	engine := m.engine
	if a == actionRemove {
		for _, id := range ids {
			m.removingOwn(id)
		}
	}
	return func() tea.Msg {
		msg := bulkDoneMsg{action: a, ids: ids}
		for i, err := range actOnEach(engine, a, ids) {
			if err != nil {
				msg.errs = append(msg.errs, err)
				msg.refused = append(msg.refused, ids[i])
			} else {
				msg.done++
			}
		}
		return msg
	}
}

// actOnEach runs an action on each job; errs[i] is ids[i]'s error. An
// engine that ends several jobs as one action (JobsEnder) stops or kills
// them so: none of them is started by another's end.
func actOnEach(engine Engine, a action, ids []jobs.ID) (errs []error) {
	if e, ok := engine.(JobsEnder); ok {
		switch a {
		case actionStop:
			return e.StopJobs(ids)
		case actionKill:
			return e.KillJobs(ids)
		}
	}
	errs = make([]error, len(ids))
	for i, id := range ids {
		switch a {
		case actionStop:
			errs[i] = engine.Stop(id)
		case actionKill:
			errs[i] = engine.Kill(id)
		case actionRestart:
			_, errs[i] = engine.Restart(id)
		case actionRemove:
			errs[i] = engine.Remove(id)
		}
	}
	return errs
}

// handleBulkDone says what an action on several jobs did.
func (m *Model) handleBulkDone(msg bulkDoneMsg) tea.Cmd {
	if msg.action == actionRemove {
		for _, id := range msg.refused {
			delete(m.ownRemovals, id) // no removal comes: a later one is another's
		}
	}
	text := bulkVerbs[msg.action][1] + " " + plural(msg.done, "job")
	if len(msg.errs) > 0 {
		m.setNotice(text+"; "+strconv.Itoa(len(msg.errs))+" refused: "+msg.errs[0].Error(), true)
	} else {
		m.setNotice(text, false)
	}
	m.summary = heldSummary{notice: m.notice}
	if msg.action == actionStop || msg.action == actionKill {
		m.summary.ids, m.summary.until = msg.ids, m.now().Add(summaryHold)
	}
	return m.ensureTick()
}

// keepSummary puts back the notice that was up before a job's end was
// noticed, when that notice is the held summary and the job is one its
// action stopped or killed.
func (m *Model) keepSummary(id jobs.ID, before notice) {
	h := m.summary
	if before == h.notice && slices.Contains(h.ids, id) && m.now().Before(h.until) {
		m.notice = before
	}
}

// bulkMode reports whether x, X, r and d act on the marked jobs: jobs are
// marked and the table has the focus (a pane's keys act on its own job).
func (m *Model) bulkMode() bool {
	return m.focus == focusTable && len(m.table.Marked()) > 0
}

// matchesBulkKey asks before acting when k is x, X, r or d in bulk mode.
// The keys act on the marked jobs only: one that applies to none of them
// is disabled (help shows only what works) but still matched, by name,
// so the status bar says so instead of the key doing nothing or being
// taken as the selected job's.
func (m *Model) matchesBulkKey(k tea.KeyMsg) bool {
	for _, b := range []struct {
		binding *key.Binding
		action  action
	}{{&m.km.Stop, actionStop}, {&m.km.Kill, actionKill}, {&m.km.Restart, actionRestart}, {&m.km.Remove, actionRemove}} {
		if slices.Contains(b.binding.Keys(), k.String()) {
			m.askBulk(b.action)
			return true
		}
	}
	return false
}

// updateBulkKeys enables x, X, r and d in bulk mode by what they can do
// to the marked jobs, whatever the selected one's state.
func (m *Model) updateBulkKeys() {
	if !m.bulkMode() {
		return
	}
	for a, b := range map[action]*key.Binding{actionStop: &m.km.Stop, actionKill: &m.km.Kill, actionRestart: &m.km.Restart, actionRemove: &m.km.Remove} {
		ids, _ := m.markedFor(a)
		b.SetEnabled(len(ids) > 0)
	}
}

// toggleHideEnded hides or shows the jobs that have ended (H).
func (m *Model) toggleHideEnded() {
	hide := !m.table.HidingEnded()
	m.table.SetHideEnded(hide)
	if hide {
		m.km.HideEnded.SetHelp("H", "show ended")
		m.setNotice("hiding "+plural(m.table.Ended(), "ended job")+" — H shows them", false)
	} else {
		m.km.HideEnded.SetHelp("H", "hide ended")
		m.flash("showing every job")
	}
}
