package ui

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"jobtop/jobs"
)

// clearedPane is a pane over a store of lines 1 to 10 and a job on a
// terminal that cleared its screen after line 8: lines 9 and 10 are on
// its screen, the others are its scrollback.
func clearedPane(t *testing.T, bodyRows int) (*outputPane, *jobs.OutputStore) {
	t.Helper()
	store := jobs.NewOutputStore(jobs.StoreOptions{})
	appendLines(store, 1, 10)
	p, _ := testPane(t, store, 40, bodyRows)
	p.SetJob(jobs.Info{ID: 1, Name: "t", State: jobs.StateRunning, TTY: true, ClearedCursor: 8}, true, store)
	return p, store
}

// After a clear, a terminal job's pane shows the lines since from its
// top row, blank below; scrolling up shows the lines before, as a
// terminal's scrollback does, and scrolling down to the screen follows
// again.
func TestPaneShowsATerminalsClearedScreen(t *testing.T) {
	p, store := clearedPane(t, 5)
	require.Equal(t, []string{"line 9", "line 10"}, paneRowsOf(p))
	require.True(t, p.Following())
	require.Equal(t, []string{"", "", ""}, lines(p.View())[3:], "the rows below are blank")

	p.Update(keyMsg("k"))
	require.False(t, p.Following(), "scrolling up pauses")
	require.Equal(t, []string{"line 8", "line 9", "line 10"}, paneRowsOf(p), "the line before the clear is one row up")
	p.Update(keyMsg("k"))
	p.Update(keyMsg("k"))
	require.Equal(t, []string{"line 6", "line 7", "line 8", "line 9", "line 10"}, paneRowsOf(p))
	p.Update(keyMsg("g"))
	require.Equal(t, "line 1", paneRowsOf(p)[0])
	p.refresh()
	require.Equal(t, "line 1", paneRowsOf(p)[0], "paused where it was")

	p.Update(keyMsg("ctrl+d")) // 2 rows: line 3 on top
	require.Equal(t, "line 3", paneRowsOf(p)[0])
	for range 5 {
		p.Update(keyMsg("j"))
	}
	require.False(t, p.Following(), "line 8 on top: still above the screen")
	require.Equal(t, []string{"line 8", "line 9", "line 10"}, paneRowsOf(p))
	p.Update(keyMsg("j"))
	require.True(t, p.Following(), "down to the screen: following it again")
	require.Equal(t, []string{"line 9", "line 10"}, paneRowsOf(p))

	p.Update(keyMsg("k"))
	p.Update(keyMsg("G"))
	require.Equal(t, []string{"line 9", "line 10"}, paneRowsOf(p), "G goes back to the screen")

	// Once the lines since fill the pane, it scrolls as any.
	appendLines(store, 11, 14)
	p.refresh()
	require.Equal(t, []string{"line 10", "line 11", "line 12", "line 13", "line 14"}, paneRowsOf(p))
}

// A clear with nothing written since is a blank pane (not "no output
// yet"), and wrapped lines after it start on the top row too.
func TestPaneClearedScreenBlankAndWrapped(t *testing.T) {
	p, store := clearedPane(t, 4)
	p.SetJob(jobs.Info{ID: 1, Name: "t", State: jobs.StateRunning, TTY: true, ClearedCursor: 10}, true, store)
	require.Empty(t, paneRowsOf(p))
	require.Equal(t, []string{"", "", "", ""}, lines(p.View())[1:])
	p.Update(keyMsg("k"))
	require.Equal(t, []string{"line 10"}, paneRowsOf(p))

	p.Update(keyMsg("G"))
	p.Update(keyMsg("w"))
	store.Append(jobs.Stdout, []byte(strings.Repeat("x", 50)+"\n"))
	p.refresh()
	require.Equal(t, []string{strings.Repeat("x", 40), strings.Repeat("x", 10)}, paneRowsOf(p))
	p.Update(keyMsg("k"))
	require.Equal(t, []string{"line 10", strings.Repeat("x", 40), strings.Repeat("x", 10)}, paneRowsOf(p))
}

// A pipe job's output is a log: it shows every line (ClearedCursor is
// only ever set for a terminal's).
func TestPaneClearIsATerminalsOnly(t *testing.T) {
	p, store := clearedPane(t, 5)
	p.SetJob(jobs.Info{ID: 1, Name: "t", State: jobs.StateRunning, ClearedCursor: 8}, true, store)
	require.Equal(t, "line 10", paneRowsOf(p)[4])
	require.Len(t, paneRowsOf(p), 5)
}

// A shell on a terminal: `clear` (ESC[H ESC[2J ESC[3J, as clear sends
// for xterm-256color) leaves the pane with the lines since on its top
// row, in the single view, a split view's pane and jobtop screen; the
// lines before stay in the store (logs, search) and one row up; the all
// view shows every line, as it did.
func TestTerminalJobsClearShowsAFreshScreen(t *testing.T) {
	mgr := newManager(t)
	script := `for i in $(seq 1 30); do echo "old $i"; done; printf '$ clear\r\n\033[H\033[2J\033[3J'; echo "new 1"; printf '$ '; exec sleep 60`
	job := startTTY(t, mgr, "sh", script)
	pipe := start(t, mgr, "pipe", script)
	m := newSizedModel(t, mgr, Config{}, 100, 30)
	pumpUntil(t, m, "both jobs' prompts", func() bool {
		a, _ := m.table.Get(job.ID)
		b, _ := m.table.Get(pipe.ID)
		return strings.HasSuffix(a.LastLine, "$ ") && strings.HasSuffix(b.LastLine, "$ ")
	})
	info, _ := m.table.Get(job.ID)
	require.NotZero(t, info.ClearedCursor)
	pipeInfo, _ := m.table.Get(pipe.ID)
	require.Zero(t, pipeInfo.ClearedCursor, "a pipe job's ESC[2J is no terminal's")

	require.Equal(t, []string{"new 1", "$"}, paneRows(m))
	view := m.View()
	require.Contains(t, view, "new 1")
	require.NotContains(t, view, "old 30")

	press(t, m, "enter", "k")
	require.Equal(t, []string{"$ clear", "new 1", "$"}, paneRows(m), "the lines before are one row up")
	press(t, m, "G")

	snap, err := mgr.Screen(job.ID)
	require.NoError(t, err)
	require.Equal(t, "new 1", snap.Lines[0], "jobtop screen shows the terminal's screen too")
	require.Equal(t, "$ ", snap.Lines[1])
	require.Equal(t, 1, snap.CursorY)

	out, err := mgr.Output(job.ID)
	require.NoError(t, err)
	c := out.Tail(100)
	require.True(t, slices.ContainsFunc(c.Lines, func(l jobs.Line) bool { return l.Text == "old 1" }), "the store keeps the lines before")

	// The pipe job shows its lines as a log.
	press(t, m, "esc", "j")
	require.Contains(t, paneRows(m), "old 30")

	// Split: the terminal job's pane shows its screen; the other its lines.
	press(t, m, "space", "k", "space", "s")
	require.Len(t, m.drawn(), 2)
	for _, p := range m.split {
		if p.JobID() == job.ID {
			require.Equal(t, []string{"new 1", "$"}, paneText(p))
		} else {
			require.Contains(t, paneText(p), "old 30")
		}
	}
	press(t, m, "s", "A")
	require.Contains(t, m.View(), "old 30", "the all view shows every line")
}

// A restarted terminal job goes on below the screen its last run
// cleared, as a program run again in the same terminal does: the lines
// the clear hid stay hidden (above, as scrollback), not back in the pane.
func TestPaneKeepsTheClearAcrossARestart(t *testing.T) {
	mgr := newManager(t)
	mark := filepath.Join(t.TempDir(), "ran")
	script := `stty -echo; if [ -e ` + mark + ` ]; then echo "run two"; else touch ` + mark + `; for i in $(seq 1 30); do echo "old $i"; done; printf '\033[H\033[2J\033[3J'; echo "new 1"; fi`
	job := startTTY(t, mgr, "sh", script)
	m := newSizedModel(t, mgr, Config{}, 100, 30)
	pumpUntil(t, m, "the first run's end", func() bool {
		i, _ := m.table.Get(job.ID)
		return i.State.Done() && i.ClearedCursor != 0
	})
	require.NotContains(t, strings.Join(paneRows(m), "\n"), "old 30")
	_, err := mgr.Restart(job.ID)
	require.NoError(t, err)
	pumpUntil(t, m, "the second run's end", func() bool {
		i, _ := m.table.Get(job.ID)
		return i.Runs == 2 && i.State.Done()
	})
	rows := strings.Join(paneRows(m), "\n")
	require.Contains(t, rows, "new 1")
	require.Contains(t, rows, "run two")
	require.NotContains(t, rows, "old 30", "the first run's clear still hides what it cleared")
}
