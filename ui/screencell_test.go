package ui

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// The table's OUTPUT column says a full-screen program draws a screen,
// rather than showing pieces of it run together; back in line mode it
// shows the job's last line again.
func TestOutputColumnOfAScreenJob(t *testing.T) {
	mgr := newManager(t)
	startTTY(t, mgr, "curses", `printf '\033[?1049h\033[2J\033[3;5Hleft\033[3;40Hright\033[1;1H\033[7mTOP\033[m\033[9;9H'; `+
		`read a; printf '\033[?1049l'; echo "back to lines"; sleep 60`)
	m := newSizedModel(t, mgr, Config{}, 120, 30)
	jobRow := func() string {
		for _, l := range lines(m.View()) {
			if strings.Contains(l, "curses") && strings.Contains(l, "running") {
				return l
			}
		}
		return ""
	}
	pumpUntil(t, m, "screen mode", func() bool {
		info, _ := m.table.Get(1)
		return info.Screen && jobRow() != ""
	})
	row := jobRow()
	require.Contains(t, row, "[screen]")
	for _, piece := range []string{"left", "right", "TOP", "\x1b"} {
		require.NotContains(t, row, piece, "no piece of the screen in %q", row)
	}

	require.NoError(t, mgr.Input(1, []byte("\r")))
	pumpUntil(t, m, "line mode", func() bool { return strings.Contains(jobRow(), "back to lines") })
	require.NotContains(t, jobRow(), "[screen]")
}

// A program drawing over its lines on the main screen (a progress
// display, an inline TUI) shows its last row in the OUTPUT column, as a
// job in lines does: that is where such programs put their status.
func TestOutputColumnOfARedrawOverLines(t *testing.T) {
	mgr := newManager(t)
	startTTY(t, mgr, "progress", `echo building; printf 'status\nstep 1 of 3'; `+
		`for i in 2 3; do printf '\033[2K\033[1A\033[2K\033[Gstatus\nstep %d of 3' $i; done; sleep 60`)
	m := newSizedModel(t, mgr, Config{}, 120, 30)
	row := func() string {
		for _, l := range lines(m.View()) {
			if strings.Contains(l, "progress") && strings.Contains(l, "running") && !strings.Contains(l, "job 1") {
				return l
			}
		}
		return ""
	}
	pumpUntil(t, m, "the last line in screen mode", func() bool {
		info, _ := m.table.Get(1)
		return info.Screen && !info.AltScreen && strings.Contains(row(), "step 3 of 3")
	})
}

// A program that addresses the cursor on the main screen (top without
// the alternate screen) leaves pieces of rows in its last line: the
// OUTPUT column says [screen] for it.
func TestOutputColumnOfAMainScreenProgramPlacingTheCursor(t *testing.T) {
	mgr := newManager(t)
	startTTY(t, mgr, "top", `while :; do printf '\033[1;1HCPU 1%%\033[2;1HMEM 2%%\033[3;1Hload'; sleep 0.05; done`)
	m := newSizedModel(t, mgr, Config{}, 120, 30)
	pumpUntil(t, m, "screen mode", func() bool {
		info, _ := m.table.Get(1)
		return info.Screen && !info.AltScreen && strings.Contains(m.View(), "MEM 2%")
	})
	for _, l := range lines(m.View()) {
		if strings.Contains(l, "top") && strings.Contains(l, "running") && !strings.Contains(l, "job 1") {
			require.Contains(t, l, "[screen]")
			require.NotContains(t, l, "CPU 1%MEM")
		}
	}
}

// A program drawing its frames from home on the main screen, as procps
// top does (rows ended by newlines, the next frame's home after the last
// row), says [screen] in the OUTPUT column all the time it draws, not a
// row of its frame whenever the newest line is one the home is not in.
func TestOutputColumnOfAProgramDrawingFromHome(t *testing.T) {
	mgr := newManager(t)
	info := startTTY(t, mgr, "top", `stty -echo; read go; printf '\033[H\033[2J'; `+
		`for f in $(seq 20); do printf '\033[H\033(B\033[m'; for i in 1 2 3 4; do printf 'frame %d row %d\033[K\r\n' $f $i; done; `+
		`printf 'frame %d row 5\033[K' $f; sleep 0.02; done; sleep 60`)
	require.NoError(t, mgr.Resize(info.ID, 40, 8))
	m := newSizedModel(t, mgr, Config{}, 120, 30)
	jobRow := func() string {
		for _, l := range lines(m.View()) {
			if strings.Contains(l, "top") && strings.Contains(l, "running") && !strings.Contains(l, "job 1") {
				return l
			}
		}
		return ""
	}
	pumpUntil(t, m, "the job's row", func() bool { return jobRow() != "" })
	require.NoError(t, mgr.Input(info.ID, []byte("\r")))
	var rows []string // the job's row in each frame of the TUI in screen mode
	pumpUntil(t, m, "the last frame, in the TUI", func() bool {
		got, _ := m.table.Get(info.ID)
		if got.Screen {
			rows = append(rows, jobRow())
		}
		snap, err := mgr.Screen(info.ID)
		require.NoError(t, err)
		now, err := mgr.Get(info.ID)
		require.NoError(t, err)
		return snap.Lines[4] == "frame 20 row 5" && got.Bytes == now.Bytes
	})
	require.NotEmpty(t, rows)
	// One drawing from home could be a title and lines after it; from the
	// second it draws frames: no row of them shows from the third on.
	for _, row := range rows {
		if strings.Contains(row, "frame 1 ") || strings.Contains(row, "frame 2 ") {
			continue
		}
		require.Contains(t, row, "[screen]")
		require.NotContains(t, row, "frame", "no row of its frame in %q", row)
	}
	require.Contains(t, jobRow(), "[screen]")
}
