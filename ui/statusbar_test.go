package ui

import (
	"testing"
	"time"
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
