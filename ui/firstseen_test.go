package ui

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/teatest"
	"github.com/stretchr/testify/require"

	"jobtop/jobs"
)

// scriptedEvents is a real manager whose event stream the test writes:
// the batches come in the order the test needs, as the coalescing can
// deliver them.
type scriptedEvents struct {
	*jobs.Manager
	events chan []jobs.Event
}

func newScriptedEvents(mgr *jobs.Manager) *scriptedEvents {
	return &scriptedEvents{Manager: mgr, events: make(chan []jobs.Event)}
}

func (e *scriptedEvents) Subscribe() jobs.EventStream { return fixedStream{e.events} }

// endedJob starts a job on mgr and waits for its end.
func endedJob(t *testing.T, mgr *jobs.Manager, name, command string) jobs.Info {
	t.Helper()
	info := start(t, mgr, name, command)
	ended, err := mgr.Wait(t.Context(), info.ID)
	require.NoError(t, err)
	return ended
}

// A command line's job that fails at once has ended before New lists it
// (jobtop --bell a.sh fail.sh): its end is told all the same, marked
// and rung, since it ended after the TUI began.
func TestJobFailedBeforeTheTUIListedItIsTold(t *testing.T) {
	mgr := newManager(t)
	began := time.Now()
	start(t, mgr, "chatty", "exec sleep 60")
	endedJob(t, mgr, "fail", "echo out; echo err >&2; exit 3")
	var term syncBuffer
	tm, _ := startFlow(t, mgr, Config{Bell: true, Terminal: &term, Began: began})
	waitScreen(t, tm, "job 2 fail failed (exit 3)")
	sendKeys(tm, "q")
	waitScreen(t, tm, "y/n")
	sendKeys(tm, "y")
	requireRungAndMarked(t, tm, &term)
}

// A job that starts after the TUI and ends before the batch that brings
// its first event: that event says it ended, and it is told.
func TestJobFirstSeenEndedInItsFirstEventIsTold(t *testing.T) {
	mgr := newManager(t)
	// Ended before: no news, and nothing left for q to stop (the events
	// of a stop would not come).
	endedJob(t, mgr, "quiet", "exit 0")
	eng := newScriptedEvents(mgr)
	var term syncBuffer
	tm, _ := startFlow(t, eng, Config{Bell: true, Terminal: &term})
	waitScreen(t, tm, "quiet")
	fail := endedJob(t, mgr, "fail", "echo out; echo err >&2; exit 3")
	eng.events <- []jobs.Event{{Kind: jobs.EventAdded, Job: fail}}
	waitScreen(t, tm, "job 2 fail failed (exit 3)")
	sendKeys(tm, "q")
	requireRungAndMarked(t, tm, &term)
}

// A TUI that attaches to a live instance, or reaches a host late, finds
// jobs that ended long before it began: they are no news, listed or in
// a first event.
func TestJobsEndedBeforeTheTUIBeganAreNoNews(t *testing.T) {
	mgr := newManager(t)
	start(t, mgr, "chatty", "exec sleep 60")
	endedJob(t, mgr, "old", "exit 3")
	late := endedJob(t, mgr, "late", "exit 4")
	eng := newScriptedEvents(mgr)
	var term syncBuffer
	m := newSizedModel(t, eng, Config{Bell: true, Terminal: &term, Began: time.Now()}, 100, 30)
	require.Nil(t, m.listedAlerts, "nothing to ring")
	require.NotContains(t, m.statusView(), "failed (exit")
	require.True(t, strings.HasPrefix(rowOf(m, "old"), "    "), "no mark: %q", rowOf(m, "old"))

	m.Update(jobEventsMsg{events: []jobs.Event{{Kind: jobs.EventRemoved, Job: late}}})
	_, ok := m.table.Get(late.ID)
	require.False(t, ok)
	m.Update(jobEventsMsg{events: []jobs.Event{{Kind: jobs.EventAdded, Job: late}}})
	require.NotContains(t, m.statusView(), "failed (exit")
	require.True(t, strings.HasPrefix(rowOf(m, "late"), "    "), "no mark: %q", rowOf(m, "late"))
	require.Empty(t, term.String())
}

// requireRungAndMarked requires the TUI, quit, to have rung the bell once
// and marked the row of the job named fail.
func requireRungAndMarked(t *testing.T, tm *teatest.TestModel, term *syncBuffer) {
	t.Helper()
	require.Eventually(t, func() bool { return term.String() == "\a" }, deadline, 10*time.Millisecond, "the bell")
	fm, ok := tm.FinalModel(t, teatest.WithFinalTimeout(deadline)).(*Model)
	require.True(t, ok)
	require.True(t, strings.HasPrefix(rowOf(fm, "fail"), "  ! "), "the row is marked: %q", rowOf(fm, "fail"))
}
