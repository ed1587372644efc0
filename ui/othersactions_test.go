package ui

import (
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"jobtop/jobs"
)

// What another client does to the jobs of an attached TUI is said: the
// selected job removed is named in the status bar (the selection moved
// to another job without a word), and a job's end stops being news
// when it runs again (restarted from elsewhere).
func TestAttachedTUIHearsOtherClientsActions(t *testing.T) {
	web := jobs.Info{ID: 1, Name: "web", State: jobs.StateRunning, Started: atp(0), PID: 100}
	other := jobs.Info{ID: 2, Name: "other", State: jobs.StateRunning, Started: atp(0), PID: 101}
	code := 1
	fails := jobs.Info{ID: 3, Name: "fails", State: jobs.StateFailed, Started: atp(0), Ended: atp(0), ExitCode: &code}
	e := newFixedEngine(web, other, fails)
	m := newSizedModel(t, e, Config{Attached: true, Now: func() time.Time { return fixedNow }}, 140, 30)
	m.table.Select(3)
	sel, ok := m.table.Selected()
	require.True(t, ok)
	require.Equal(t, jobs.ID(3), sel.ID)

	m.Update(jobEventsMsg{events: []jobs.Event{{Kind: jobs.EventRemoved, Job: fails}}})
	assert.Contains(t, m.View(), "job 3 fails was removed")
	sel, _ = m.table.Selected()
	assert.NotEqual(t, jobs.ID(3), sel.ID)

	killed := web
	killed.State, killed.Signal, killed.Ended = jobs.StateKilled, jobs.Signal(syscall.SIGTERM), atp(0)
	m.Update(jobEventsMsg{events: []jobs.Event{{Kind: jobs.EventState, Job: killed}}})
	assert.Contains(t, m.View(), "job 1 web killed (SIGTERM)")

	again := web
	again.Runs, again.PID = 2, 102
	m.Update(jobEventsMsg{events: []jobs.Event{{Kind: jobs.EventState, Job: again}}})
	assert.NotContains(t, m.View(), "killed (SIGTERM)", "the end of its last run is old news")

	// Another job's end stays up while web runs again.
	ended2 := other
	ended2.State, ended2.Signal, ended2.Ended = jobs.StateKilled, jobs.Signal(syscall.SIGKILL), atp(0)
	m.Update(jobEventsMsg{events: []jobs.Event{{Kind: jobs.EventState, Job: killed}, {Kind: jobs.EventState, Job: ended2}}})
	assert.Contains(t, m.View(), "job 2 other killed (SIGKILL)")
	m.Update(jobEventsMsg{events: []jobs.Event{{Kind: jobs.EventState, Job: again}}})
	assert.Contains(t, m.View(), "job 2 other killed (SIGKILL)", "a notice about another job's end")
}

// This TUI's own removal of several marked jobs is not told as another
// client's: the bulk action's outcome says it.
func TestOwnBulkRemovalIsNotAnotherClients(t *testing.T) {
	code := 1
	a := jobs.Info{ID: 1, Name: "a", State: jobs.StateFailed, Started: atp(0), Ended: atp(0), ExitCode: &code}
	b := jobs.Info{ID: 2, Name: "b", State: jobs.StateFailed, Started: atp(0), Ended: atp(0), ExitCode: &code}
	e := newFixedEngine(a, b)
	m := newSizedModel(t, e, Config{Attached: true, Now: func() time.Time { return fixedNow }}, 140, 30)
	m.table.Select(2)
	cmd := m.actOnAll(actionRemove, []jobs.ID{1, 2})
	require.NotNil(t, cmd)
	m.Update(jobEventsMsg{events: []jobs.Event{{Kind: jobs.EventRemoved, Job: a}, {Kind: jobs.EventRemoved, Job: b}}})
	assert.NotContains(t, m.View(), "was removed")
}

// A removal the instance refused is forgotten: the same job's removal
// by another client later is named, for one job (d) as for marked ones.
func TestRefusedOwnRemovalLeavesLaterRemovalsToBeTold(t *testing.T) {
	code := 1
	a := jobs.Info{ID: 1, Name: "a", State: jobs.StateFailed, Started: atp(0), Ended: atp(0), ExitCode: &code}
	b := jobs.Info{ID: 2, Name: "b", State: jobs.StateFailed, Started: atp(0), Ended: atp(0), ExitCode: &code}
	c := jobs.Info{ID: 3, Name: "c", State: jobs.StateFailed, Started: atp(0), Ended: atp(0), ExitCode: &code}
	e := newFixedEngine(a, b, c) // its Remove refuses
	m := newSizedModel(t, e, Config{Attached: true, Now: func() time.Time { return fixedNow }}, 140, 30)

	m.table.Select(3)
	m.Update(m.act(actionRemove, 3)())
	require.Contains(t, m.View(), errFixed.Error(), "the refusal is said")
	m.Update(jobEventsMsg{events: []jobs.Event{{Kind: jobs.EventRemoved, Job: c}}})
	assert.Contains(t, m.View(), "job 3 c was removed", "removed later, by another client")

	m.table.Select(2)
	m.Update(m.actOnAll(actionRemove, []jobs.ID{1, 2})())
	require.Contains(t, m.View(), "2 refused")
	m.Update(jobEventsMsg{events: []jobs.Event{{Kind: jobs.EventRemoved, Job: b}}})
	assert.Contains(t, m.View(), "job 2 b was removed")
}
