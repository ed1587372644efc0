package ui

import (
	"bytes"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/stretchr/testify/require"

	"jobtop/jobs"
	"jobtop/termtext"
)

// boxScreen is a small full-screen program: it takes the alternate
// screen, draws a box in colour with wide characters in it and leaves
// the cursor in the box; it leaves the alternate screen when its fifo is
// written.
func boxScreen(fifo string) string {
	return `printf '\033[?1049h\033[H\033[2J\033[38;5;208m┌──────┐\033[m\r\n│\033[31m日本\033[m x│\r\n└──────┘\033[2;8H'; ` +
		`read x < ` + fifo + `; printf '\033[?1049lback to lines\n'; sleep 60`
}

// screenShows reports whether a pane in screen mode shows text, after
// looking for new frames as the screen poll does (the emulator draws off
// the job's read path, so an event can come before its frame).
func screenShows(m *Model, text string) bool {
	m.Update(screenPollMsg{})
	m.View()
	for _, p := range m.drawn() {
		if p.InScreen() && strings.Contains(ansi.Strip(strings.Join(p.rows, "\n")), text) {
			return true
		}
	}
	return false
}

func TestScreenModeDrawsTheScreenAndLeavesIt(t *testing.T) {
	mgr := newManager(t)
	fifo := mkfifo(t, "leave")
	startTTY(t, mgr, "full", "echo before; "+boxScreen(fifo))
	m := newSizedModel(t, mgr, Config{Styles: colourStyles(t)}, 60, 20)
	pumpUntil(t, m, "the screen", func() bool { return screenShows(m, "│日本 x│") })
	view := m.View()
	requireFits(t, view, 60, 20, "screen")
	plain := lines(ansi.Strip(view))
	y := m.screen.outputY
	require.Contains(t, plain[y], "screen", "the header says the pane shows a screen")
	require.Equal(t, "┌──────┐", strings.TrimRight(plain[y+1], " "), "the screen from its top-left corner, not the lines before it")
	require.Equal(t, "│日本 x│", strings.TrimRight(plain[y+2], " "), "a wide character takes two columns, as on a terminal")
	require.Equal(t, "└──────┘", strings.TrimRight(plain[y+3], " "))
	require.Contains(t, view, "\x1b[38;5;208m┌──────┐", "the program's colours reach the pane")
	require.Contains(t, view, "\x1b[31m日本")
	require.NotContains(t, view, "\x1b[7m", "no cursor: the pane has no focus")

	press(t, m, "enter")
	require.Contains(t, lines(m.View())[y+2], "\x1b[7m│\x1b[0m", "the focused pane draws the cursor on its cell")
	require.Equal(t, "│日本 x│", strings.TrimRight(ansi.Strip(lines(m.View())[y+2]), " "), "the cursor's cell is where it was")
	press(t, m, "k") // its lines (one) fit the pane: they show all the same
	require.False(t, m.single.InScreen())
	require.Equal(t, "before", strings.TrimRight(lines(ansi.Strip(m.View()))[y+1], " "))
	press(t, m, "G")
	pumpUntil(t, m, "the screen again", func() bool { return screenShows(m, "│日本 x│") })

	writeFifo(t, fifo, "\n")
	pumpUntil(t, m, "line mode again", func() bool {
		return !m.single.InScreen() && strings.Contains(m.View(), "back to lines")
	})
	require.Contains(t, paneRows(m), "before", "the lines from before the screen are back")
}

func TestScreenModeInSplitView(t *testing.T) {
	mgr := newManager(t)
	startTTY(t, mgr, "full", boxScreen(mkfifo(t, "never")))
	startTTY(t, mgr, "lines", `i=0; while :; do i=$((i+1)); echo "tick $i"; sleep 0.05; done`)
	m := newSizedModel(t, mgr, Config{}, 100, 24)
	pumpUntil(t, m, "two running", func() bool { return strings.Contains(m.View(), "● 2 running") })
	press(t, m, "s")
	require.Len(t, m.split, 2)
	pumpUntil(t, m, "the screen beside the ticks", func() bool {
		return screenShows(m, "│日本 x│") && strings.Contains(m.View(), "tick 10")
	})
	view := m.View()
	requireFits(t, view, 100, 24, "split")
	require.Contains(t, view, "│┌──────┐")
	require.Contains(t, view, "│└──────┘")
}

// A cluster some terminals draw wider than the program's terminal counts
// it (👨‍👩‍👧: two cells in x/vt, up to six elsewhere) is counted at its
// widest, so the row is cut rather than wrapped.
func TestScreenRowsNeverWrap(t *testing.T) {
	mgr := newManager(t)
	startTTY(t, mgr, "wide", `while [ "$(stty size)" = "50 200" ]; do sleep 0.05; done; `+
		`printf '\033[?1049h\033[H👨‍👩‍👧👨‍👩‍👧👨‍👩‍👧👨‍👩‍👧👨‍👩‍👧👨‍👩‍👧👨‍👩‍👧👨‍👩‍👧👨‍👩‍👧👨‍👩‍👧\r\nend'; sleep 60`)
	m := newSizedModel(t, mgr, Config{Styles: colourStyles(t)}, 40, 12)
	pumpUntil(t, m, "the screen", func() bool { return screenShows(m, "end") })
	requireFits(t, m.View(), 40, 12, "wide clusters")
}

func TestWithCursor(t *testing.T) {
	for _, c := range []struct {
		line, plain string
		x           int
		want        string
	}{
		{"abc", "abc", 1, "a<b>c"},
		{"abc", "abc", 5, "abc  < >"},
		{"\x1b[31mred\x1b[m", "red", 1, "\x1b[31mr\x1b[m\x1b[31m<e>\x1b[31md\x1b[m"},
		// The cell under the cursor keeps its own colours (reversed by
		// the cursor), not the row's first ones, nor none.
		{"\x1b[31;44mab\x1b[32mcd\x1b[m", "abcd", 2, "\x1b[31;44mab\x1b[32m\x1b[m\x1b[31;44m\x1b[32m<c>\x1b[31;44m\x1b[32md\x1b[m"},
		{"ab\x1b[1mc", "abc", 5, "ab\x1b[1mc  \x1b[1m< >\x1b[1m"}, // a row left bold: so are the cells past it
		{"日本x", "日本x", 2, "日<本>x"},
	} {
		require.Equal(t, c.want, withCursor(c.line, c.plain, c.x, "<", ">", emulatorCell), "%q at %d", c.line, c.x)
	}
	require.Equal(t, "abc", withCursor("abc", "abc", 1, "", "", emulatorCell), "no colours: no cursor")

	// Columns are counted as the row was laid out: the emulator's screen
	// rune by rune at wcwidth (a soft hyphen takes a cell, a variation
	// selector joins the cell before it), jobtop's own rows by cluster
	// at the most a terminal draws it (✔️ two cells).
	for _, c := range []struct {
		line string
		x    int
		cell cellReader
		want string
	}{
		{"a\u00adbc", 2, emulatorCell, "a\u00ad<b>c"},
		{"\u0600x", 1, emulatorCell, "\u0600<x>"},
		{"\u2714\ufe0fx", 1, emulatorCell, "\u2714\ufe0f<x>"},
		{"\x1b[31m\u2714\ufe0f\x1b[32mx", 1, emulatorCell, "\x1b[31m\u2714\ufe0f\x1b[32m\x1b[31m\x1b[32m<x>\x1b[31m\x1b[32m"},
		{"\u2714\ufe0fx", 2, clusterCell, "\u2714\ufe0f<x>"},
		{"\u2714\ufe0fx", 1, clusterCell, "<\u2714\ufe0f>x"}, // inside the cluster: it is drawn whole
		{"a\u00adbc", 2, clusterCell, "a\u00ad<b>c"},
	} {
		plain := termtext.Visible(c.line, false)
		require.Equal(t, c.want, withCursor(c.line, plain, c.x, "<", ">", c.cell), "%q at %d", c.line, c.x)
	}
}

func TestCopyFromAScreenCopiesWhatItShows(t *testing.T) {
	var term bytes.Buffer
	mgr := newManager(t)
	fifo := mkfifo(t, "leave")
	startTTY(t, mgr, "full", "echo before; "+boxScreen(fifo))
	m := newSizedModel(t, mgr, Config{Styles: colourStyles(t), Terminal: &term}, 60, 20)
	pumpUntil(t, m, "the screen", func() bool { return screenShows(m, "│日本 x│") })
	press(t, m, "enter")

	press(t, m, "Y")
	got := clipboard(t, &term)
	require.Equal(t, []string{"┌──────┐\n│日本 x│\n└──────┘\n"}, got,
		"Y on a screen copies its rows as shown, without colours, cursor or trailing blanks")
	require.Equal(t, "copied 3 lines on screen", m.notice.text)

	term.Reset()
	press(t, m, "v")
	require.Nil(t, m.single.sel, "a screen has no lines to select")
	require.False(t, m.km.Select.Enabled(), "the help does not offer v on a screen")
	press(t, m, "y")
	require.Empty(t, term.String())
}

func TestASelectionEndsWhenThePaneTurnsToAScreen(t *testing.T) {
	var term bytes.Buffer
	mgr := newManager(t)
	fifo := mkfifo(t, "draw")
	startTTY(t, mgr, "full", "echo before; read x < "+fifo+"; "+boxScreen(mkfifo(t, "leave")))
	m := newSizedModel(t, mgr, Config{Terminal: &term}, 60, 20)
	pumpUntil(t, m, "the line", func() bool { return strings.Contains(strings.Join(paneRows(m), "\n"), "before") })
	press(t, m, "enter", "v")
	require.NotNil(t, m.single.sel)

	writeFifo(t, fifo, "\n")
	pumpUntil(t, m, "the screen", func() bool { return screenShows(m, "│日本 x│") })
	require.Nil(t, m.single.sel, "the lines selected are no longer shown")
	require.NotContains(t, m.single.headerView(), "select")
	press(t, m, "y")
	require.Empty(t, clipboard(t, &term), "y copies nothing the pane does not show")
}

// inlineScreen runs a terminal job that prints 100 lines, then redraws
// its last one in place (a screen on the main screen), in a 60x20 model
// showing that screen.
func inlineScreen(t *testing.T) (*jobs.Manager, *Model) {
	t.Helper()
	mgr := newManager(t)
	startTTY(t, mgr, "inline", `seq 100; sleep 0.2; printf '\033[1A\033[2Kredrawn\n'; sleep 60`)
	m := newSizedModel(t, mgr, Config{}, 60, 20)
	pumpUntil(t, m, "the screen", func() bool { return screenShows(m, "redrawn") })
	return mgr, m
}

// TestScrollingUpAScreenShowsTheLines: a screen has no scrollback, so
// scrolling up a pane that shows one (keys or the wheel) shows the job's
// lines, as a terminal's scrollback; back at the bottom, the screen.
func TestScrollingUpAScreenShowsTheLines(t *testing.T) {
	_, m := inlineScreen(t)
	press(t, m, "enter", "k")
	require.False(t, m.single.InScreen(), "up shows the lines")
	require.Contains(t, paneRows(m), "90", "a line above, one row up")
	require.NotContains(t, paneRows(m), "redrawn")
	press(t, m, "G")
	pumpUntil(t, m, "the screen again", func() bool { return screenShows(m, "redrawn") })

	m.Update(tea.MouseMsg{X: 5, Y: m.screen.outputY + 3, Button: tea.MouseButtonWheelUp, Action: tea.MouseActionPress})
	require.False(t, m.single.InScreen(), "the wheel too")
	require.Contains(t, paneRows(m), "90")

	press(t, m, "G")
	pumpUntil(t, m, "the screen again", func() bool { return screenShows(m, "redrawn") })
	press(t, m, "i")
	require.True(t, m.input.on())
	m.Update(tea.MouseMsg{X: 5, Y: m.screen.outputY + 3, Button: tea.MouseButtonWheelUp, Action: tea.MouseActionPress})
	require.False(t, m.single.InScreen(), "in input mode too, when the program did not ask for the mouse")
}

// Scrolling up a screen shows the job's lines also when they are fewer
// than the pane's rows (nothing to scroll up to): paused on them, until
// G, f or scrolling down brings the screen back.
func TestScrollingUpAScreenShowsFewLines(t *testing.T) {
	mgr := newManager(t)
	startTTY(t, mgr, "alt", `seq 1 5; sleep 0.2; printf '\033[?1049h\033[HALT SCREEN'; sleep 60`)
	for _, height := range []int{30, 14} {
		m := newSizedModel(t, mgr, Config{}, 80, height)
		pumpUntil(t, m, "the screen", func() bool { return screenShows(m, "ALT SCREEN") })
		press(t, m, "enter")
		y := m.screen.outputY
		require.GreaterOrEqual(t, m.single.bodyHeight(), 5, "%d rows: every line fits", height)
		t.Logf("%d rows: the pane has %d", height, m.single.bodyHeight())
		for _, up := range []string{"k", "up", "pgup", "ctrl+u", "g", "home", "wheel"} {
			if up == "wheel" {
				m.Update(tea.MouseMsg{X: 5, Y: y + 2, Button: tea.MouseButtonWheelUp, Action: tea.MouseActionPress})
			} else {
				press(t, m, up)
			}
			view := m.View()
			require.False(t, m.single.InScreen(), "%d rows, %s: the lines show", height, up)
			require.NotContains(t, view, "ALT SCREEN", "%d rows, %s", height, up)
			require.Equal(t, []string{"1", "2", "3", "4", "5"}, paneRows(m)[:5], "%d rows, %s", height, up)
			header := lines(view)[y]
			require.Contains(t, header, "paused", "%d rows, %s", height, up)
			require.NotContains(t, header, "screen", "%d rows, %s", height, up)
			requireFits(t, view, 80, height, up)

			back := map[string]string{"k": "G", "up": "end", "pgup": "f", "ctrl+u": "j"}[up]
			if up == "wheel" {
				m.Update(tea.MouseMsg{X: 5, Y: y + 2, Button: tea.MouseButtonWheelDown, Action: tea.MouseActionPress})
			} else if back != "" {
				press(t, m, back)
			} else {
				press(t, m, "k") // still paused on the lines
				require.False(t, m.single.InScreen(), "%d rows, %s then k", height, up)
				press(t, m, "ctrl+d")
			}
			pumpUntil(t, m, "the screen again after "+up, func() bool { return screenShows(m, "ALT SCREEN") })
			require.Contains(t, lines(m.View())[y], "screen", "%d rows, after %s", height, up)
		}
	}
}

// / on a pane showing a screen searches the job's lines, as scrolling up
// shows them: it did nothing, and the text typed after it hit jobtop's
// keys (/root: r restarted the job, o opened the pager).
func TestSearchFromAScreenSearchesTheLines(t *testing.T) {
	mgr, m := inlineScreen(t)
	press(t, m, "enter", "/")
	require.NotNil(t, m.find, "/ opens the search prompt")
	typeText(t, m, "42")
	press(t, m, "enter")
	require.False(t, m.single.InScreen(), "the lines show, as on scrolling up")
	require.Contains(t, paneRows(m), "42")
	require.Contains(t, lines(m.View())[m.screen.outputY], "match 1/1")
	info, err := mgr.Get(1)
	require.NoError(t, err)
	require.Equal(t, 1, info.Runs, "nothing typed reached jobtop's keys")
}

// esc in the search prompt opened on a screen goes back to the screen,
// as if the search had not been asked for.
func TestSearchCancelledOnAScreenGoesBackToIt(t *testing.T) {
	_, m := inlineScreen(t)
	press(t, m, "enter", "/")
	require.False(t, m.single.InScreen(), "the lines show behind the prompt")
	typeText(t, m, "4")
	press(t, m, "esc")
	require.Nil(t, m.find)
	pumpUntil(t, m, "the screen again", func() bool { return m.single.InScreen() && screenShows(m, "redrawn") })
}

// esc that clears a search run on a screen goes back to the screen too.
func TestSearchClearedOnAScreenGoesBackToIt(t *testing.T) {
	_, m := inlineScreen(t)
	press(t, m, "enter", "/")
	typeText(t, m, "42")
	press(t, m, "enter")
	require.False(t, m.single.InScreen())
	require.Contains(t, paneRows(m), "42")
	press(t, m, "esc")
	pumpUntil(t, m, "the screen again", func() bool { return m.single.InScreen() && screenShows(m, "redrawn") })
	require.Equal(t, focusOutput, m.focus, "the first esc clears the search, not the focus")

	// A search refined on the lines the first one showed: the same.
	press(t, m, "/")
	typeText(t, m, "42")
	press(t, m, "enter", "/")
	typeText(t, m, "43")
	press(t, m, "enter")
	require.False(t, m.single.InScreen())
	press(t, m, "esc")
	pumpUntil(t, m, "the screen after a refined search", func() bool { return m.single.InScreen() && screenShows(m, "redrawn") })
}
