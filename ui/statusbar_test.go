package ui

import (
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"unsafe"

	"github.com/stretchr/testify/require"

	"jobtop/jobs"
)

// The status bar is drawn again when what it says changes (a notice, a
// flag, the width), and reused as it was otherwise.
func TestStatusBarIsReusedUntilItChanges(t *testing.T) {
	e := newFixedEngine(jobs.Info{ID: 1, Name: "one", State: jobs.StateRunning, Started: atp(0)})
	m := newSizedModel(t, e, Config{Now: func() time.Time { return fixedNow }}, 120, 30)
	first := m.statusView()
	require.Contains(t, first, "1 running")
	require.Contains(t, first, "[follow]")
	require.Same(t, unsafe.StringData(first), unsafe.StringData(m.statusView()), "nothing changed: the same text")

	m.setNotice("hello there", false)
	require.Contains(t, m.statusView(), "hello there")
	require.Contains(t, m.View(), "hello there")
	m.bell = !m.bell
	require.Contains(t, m.statusView(), "bell")
	m.Update(resize(80, 30))
	require.Equal(t, 80, textWidth(m.statusView()), "drawn again at the new width")
}

// limitedEngine is a fixed engine with a limit on jobs running at once.
type limitedEngine struct {
	*fixedEngine
	limit int
}

func (e *limitedEngine) MaxRunning() int { return e.limit }

func (e *limitedEngine) MaxRunningChanged() <-chan struct{} { return nil }

// A limit changed from outside (jobtop parallel, a reload by the CLI)
// reaches the status bar with nothing else happening: the model is woken
// to draw it, not left showing the old one until a job changes.
func TestStatusBarRedrawsALimitChangedFromOutside(t *testing.T) {
	mgr := newManager(t)
	require.NoError(t, mgr.SetMaxRunning(3))
	m := newSizedModel(t, mgr, Config{}, 120, 30)
	require.Contains(t, m.statusView(), "at most 3 at once")
	cmd := m.watchLimit()
	require.NotNil(t, cmd, "the model waits for the limit to change")
	woke := make(chan tea.Msg, 1)
	go func() { woke <- cmd() }()
	require.NoError(t, mgr.SetMaxRunning(0))
	select {
	case msg := <-woke:
		require.IsType(t, limitChangedMsg{}, msg)
		_, next := m.Update(msg)
		require.NotNil(t, next, "and waits again")
	case <-time.After(10 * time.Second):
		t.Fatal("no message after the limit changed")
	}
	require.NotContains(t, m.statusView(), "at once")
}

// The status bar shows the engine's limit on jobs running at once beside
// the counts, and nothing for no limit.
func TestStatusBarShowsTheRunningLimit(t *testing.T) {
	e := &limitedEngine{fixedEngine: newFixedEngine(
		jobs.Info{ID: 1, Name: "one", State: jobs.StateRunning, Started: atp(0)},
		jobs.Info{ID: 2, Name: "two", State: jobs.StateQueued, Reason: "waiting for a free slot (1 running)"},
	), limit: 1}
	m := newSizedModel(t, e, Config{Now: func() time.Time { return fixedNow }}, 120, 30)
	require.Contains(t, m.statusView(), "1 queued  at most 1 at once")
	require.Contains(t, m.View(), "at most 1 at once")
	e.limit = 0
	require.NotContains(t, m.statusView(), "at once")
}
