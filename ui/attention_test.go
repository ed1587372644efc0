package ui

import (
	"bytes"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"jobtop/jobs"
)

// rowOf is the table row that shows a job's name.
func rowOf(m *Model, name string) string {
	for _, l := range lines(m.View())[:m.screen.frame.table] {
		if strings.Contains(l, " "+name+" ") {
			return l
		}
	}
	return ""
}

func TestJobEndingOffScreenIsNoticedAndMarkedUntilSeen(t *testing.T) {
	mgr := newManager(t)
	start(t, mgr, "watched", "exec sleep 60")
	gate := mkfifo(t, "gate")
	start(t, mgr, "offscreen", "read x < "+gate+"; echo boom >&2; exit 5")
	m := newSizedModel(t, mgr, Config{}, 100, 30)
	pumpUntil(t, m, "both running", func() bool { return m.stateCountForTest(jobs.StateRunning) == 2 })
	require.Equal(t, "    ", rowOf(m, "offscreen")[:len("    ")], "nothing to see yet")

	writeFifo(t, gate, "go\n")
	pumpUntil(t, m, "the job to fail", func() bool { return m.stateCountForTest(jobs.StateFailed) == 1 })
	require.Contains(t, m.statusView(), "job 2 offscreen failed (exit 5)", "name, state and exit code")
	require.True(t, strings.HasPrefix(rowOf(m, "offscreen"), "  ! "), "the row is marked: %q", rowOf(m, "offscreen"))

	press(t, m, "j")
	require.True(t, strings.HasPrefix(rowOf(m, "offscreen"), "▸   "), "seen once shown: %q", rowOf(m, "offscreen"))
	press(t, m, "k")
	require.True(t, strings.HasPrefix(rowOf(m, "offscreen"), "    "), "and stays seen")
}

func TestJobEndingOnScreenIsNotMarked(t *testing.T) {
	mgr := newManager(t)
	gate := mkfifo(t, "gate")
	start(t, mgr, "shown", "read x < "+gate+"; exit 1")
	m := newSizedModel(t, mgr, Config{}, 100, 30)
	pumpUntil(t, m, "running", func() bool { return m.stateCountForTest(jobs.StateRunning) == 1 })
	writeFifo(t, gate, "go\n")
	pumpUntil(t, m, "the job to fail", func() bool { return m.stateCountForTest(jobs.StateFailed) == 1 })
	require.Contains(t, m.statusView(), "job 1 shown failed (exit 1)")
	require.Zero(t, m.table.Unseen(1))
}

func TestUnseenOutputMarksRows(t *testing.T) {
	mgr := newManager(t)
	gate := mkfifo(t, "gate")
	start(t, mgr, "selected", "exec sleep 60")
	start(t, mgr, "chatty", "read x < "+gate+"; echo news; exec sleep 60")
	m := newSizedModel(t, mgr, Config{}, 100, 30)
	pumpUntil(t, m, "both running", func() bool { return m.stateCountForTest(jobs.StateRunning) == 2 })
	writeFifo(t, gate, "go\n")
	pumpUntil(t, m, "the news", func() bool { info, _ := m.table.Get(2); return info.Lines == 1 })
	require.True(t, strings.HasPrefix(rowOf(m, "chatty"), "  • "), "%q", rowOf(m, "chatty"))

	// A split view that shows the job counts as seeing it.
	press(t, m, "s")
	require.Len(t, m.drawn(), 2)
	require.True(t, strings.HasPrefix(rowOf(m, "chatty"), "    "), "%q", rowOf(m, "chatty"))
}

// syncBuffer is a bytes.Buffer safe for the bell's command goroutine.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// noteTransition rings the bell for failures only, while the bell is on
// (the flow TestFlowBellRingsWhenAJobFails rings it from a real job).
func TestBellRingsOnFailures(t *testing.T) {
	mgr := newManager(t)
	var term syncBuffer
	m := newSizedModel(t, mgr, Config{Bell: true, Terminal: &term}, 100, 30)
	require.Contains(t, m.statusView(), "bell]")
	code := 3
	for _, info := range []jobs.Info{
		{ID: 7, Name: "ok", State: jobs.StateSucceeded},
		{ID: 7, Name: "stopped", State: jobs.StateKilled, Signal: jobs.Signal(15)},
		{ID: 7, Name: "running", State: jobs.StateRunning},
	} {
		runCmd(t, m, m.noteTransition(info))
	}
	require.Empty(t, term.String(), "success, a stop and a start do not ring")
	for _, info := range []jobs.Info{
		{ID: 7, Name: "failed", State: jobs.StateFailed, ExitCode: &code},
		{ID: 7, Name: "slow", State: jobs.StateTimedOut},
		{ID: 7, Name: "missing", State: jobs.StateError, Error: "no such file"},
	} {
		runCmd(t, m, m.noteTransition(info))
	}
	require.Equal(t, "\a\a\a", term.String(), "each failure rings")

	press(t, m, "b")
	require.NotContains(t, m.statusView(), "bell]")
	require.Equal(t, "bell off", m.notice.text)
	runCmd(t, m, m.noteTransition(jobs.Info{ID: 7, State: jobs.StateFailed, ExitCode: &code}))
	require.Equal(t, "\a\a\a", term.String(), "b turned it off")
}
