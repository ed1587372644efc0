package ui

import (
	"testing"

	"github.com/stretchr/testify/require"

	"jobtop/jobs"
)

// linesModel is a model over one finished pipe job running command, its
// output focused, at 80x20.
func linesModel(t *testing.T, cfg Config, command string) *Model {
	t.Helper()
	mgr := newManager(t)
	start(t, mgr, "lines", command)
	m := newSizedModel(t, mgr, cfg, 80, 20)
	pumpUntil(t, m, "the job", func() bool { return m.stateCountForTest(jobs.StateSucceeded) == 1 })
	press(t, m, "enter")
	return m
}

// TestPanePlaysAPipesBackspacesAndRestores: a pipe job's backspaces and
// a spinner over a saved cursor show in the pane as on a terminal (and
// in `jobtop screen`): "abc\b\bZ" is aZc, not abcZ; the spinner is its
// last frame. A search marks what the row shows.
func TestPanePlaysAPipesBackspacesAndRestores(t *testing.T) {
	st := colourStyles(t)
	m := linesModel(t, Config{Styles: st}, `printf 'abc\b\bZ\nWorking \0337|\0338/\0338-\0338done\n'`)
	require.Equal(t, []string{"aZc", "Working done"}, paneRows(m)[:2])
	search(t, m, "Zc")
	require.Equal(t, "a"+m.pal.matchCurrent.Open+"Zc"+sgrReset, m.single.rows[0])
}

// TestPaneDrawsLineDrawing: a box drawn in the DEC Special Graphics set
// shows as its box characters in the pane, not as "lqqk".
func TestPaneDrawsLineDrawing(t *testing.T) {
	m := linesModel(t, Config{}, `printf '\033(0lqqk\nx  x\nmqqj\033(B ok\n'`)
	require.Equal(t, []string{"┌──┐", "│  │", "└──┘ ok"}, paneRows(m)[:3])
}

// TestPaneCarriesColoursAcrossLines: a colour set on one line and reset
// on the next colours both in the pane, as on a terminal, a pipe job's
// and a TTY job's.
func TestPaneCarriesColoursAcrossLines(t *testing.T) {
	st := colourStyles(t)
	for _, tty := range []bool{false, true} {
		mgr := newManager(t)
		_, err := mgr.Start(jobs.Spec{Name: "red", TTY: tty, Command: `printf '\033[31mred\nstill red\033[0m\nplain\n'`})
		require.NoError(t, err)
		m := newSizedModel(t, mgr, Config{Styles: st}, 80, 20)
		pumpUntil(t, m, "the job", func() bool { return m.stateCountForTest(jobs.StateSucceeded) == 1 })
		press(t, m, "enter")
		require.Equal(t, []string{"\x1b[31mred" + sgrReset, "\x1b[31mstill red" + sgrReset, "plain"}, m.single.rows[:3], "tty %v", tty)
	}
}
