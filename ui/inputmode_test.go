package ui

import (
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/stretchr/testify/require"

	"jobtop/jobs"
)

// startTTY starts a shell job on a terminal.
func startTTY(t testing.TB, mgr *jobs.Manager, name, command string) jobs.Info {
	t.Helper()
	info, err := mgr.Start(jobs.Spec{Name: name, Command: command, TTY: true, Grace: 3 * time.Second})
	require.NoError(t, err)
	return info
}

// A prompt on a terminal job is answered by typing into its pane; only
// the leave key is jobtop's while typing.
func TestInputModeAnswersAPrompt(t *testing.T) {
	mgr := newManager(t)
	startTTY(t, mgr, "ask", `printf 'Overwrite? [y/N] '; read a; echo "answer=$a"; sleep 60`)
	m := newSizedModel(t, mgr, Config{}, 100, 30)
	pumpUntil(t, m, "the question", func() bool { return strings.Contains(m.View(), "Overwrite? [y/N]") })

	require.Contains(t, m.helpView(), "i type into job", "the table has the focus: i shows the pane and types")
	require.NotContains(t, m.helpView(), "i/enter type into job")
	press(t, m, "enter")
	require.Contains(t, m.helpView(), "i/enter type into job")
	press(t, m, "i")
	view := m.View()
	require.Contains(t, view, " INPUT  keys go to job 1 ask · ctrl+a leaves", "the status bar says where keys go")
	require.Contains(t, lines(view)[m.screen.outputY], "INPUT", "so does the pane's header")
	require.Contains(t, m.helpView(), "ctrl+a leave input mode")
	require.NotContains(t, m.helpView(), "quit")

	press(t, m, "q", "y") // q is the job's now, not quit
	press(t, m, "enter")
	pumpUntil(t, m, "the answer", func() bool { return strings.Contains(m.View(), "answer=qy") })
	require.Equal(t, quitNone, m.quit)

	press(t, m, "ctrl+a")
	require.False(t, m.input.on())
	require.NotContains(t, m.View(), "INPUT")
	press(t, m, "q")
	require.NotEqual(t, quitNone, m.quit, "q is jobtop's again")
}

// ctrl+c in input mode is the job's: its terminal turns it into SIGINT
// for the job, and jobtop neither quits nor asks.
func TestInputModeCtrlCReachesTheJob(t *testing.T) {
	mgr := newManager(t)
	startTTY(t, mgr, "trap", `trap 'echo got-INT; exit 7' INT; echo "rea""dy"; while :; do sleep 0.1; done`)
	m := newSizedModel(t, mgr, Config{}, 100, 30)
	pumpUntil(t, m, "ready", func() bool { return slices.Contains(paneRows(m), "ready") })
	press(t, m, "enter", "enter") // focus the pane, then type into it
	require.True(t, m.input.on())
	press(t, m, "ctrl+c")
	pumpUntil(t, m, "the job to end on SIGINT", func() bool {
		v := m.View()
		return strings.Contains(v, "got-INT") && strings.Contains(v, "failed (7)")
	})
	require.Equal(t, quitNone, m.quit)
	require.True(t, m.input.on(), "the job ended: input mode waits for its next run, or ctrl+a")
	require.Contains(t, m.View(), "job 1 trap has ended")
}

// The help panel lists input mode's keys, under where they work.
func TestHelpListsInputMode(t *testing.T) {
	m := newSizedModel(t, newManager(t), Config{}, 120, 40)
	press(t, m, "?")
	view := m.View()
	require.Contains(t, view, "typing into a terminal job's pane")
	require.Contains(t, view, "i/enter")
	require.Contains(t, view, "type into job")
	require.Contains(t, view, "ctrl+a")
	require.Contains(t, view, "leave input mode")
	require.Contains(t, view, "type ctrl+a into job")
	require.Contains(t, view, "terminal/pipes")
}

// i on a terminal job's row types into it, as in mprocs: its pane takes
// the focus in input mode (in a split, the row's job's pane, wherever the
// focus was). On a pipe job's row it does nothing, and is not offered.
func TestInputFromTheTable(t *testing.T) {
	mgr := newManager(t)
	startTTY(t, mgr, "echo", `while read l; do echo "got:$l"; done`)
	start(t, mgr, "pipes", "echo on-pipes; sleep 60")
	m := newSizedModel(t, mgr, Config{}, 120, 30)
	pumpUntil(t, m, "both running", func() bool { return strings.Contains(m.View(), "● 2 running") })

	m.table.Select(2)
	m.updateKeys()
	require.NotContains(t, m.helpView(), "type into job")
	press(t, m, "i")
	require.False(t, m.input.on())
	require.Equal(t, focusTable, m.focus, "i on a pipe job's row does nothing")
	require.Contains(t, m.View(), "job 2 pipes runs on pipes and takes no keys: run it with --tty", "but says why")

	press(t, m, "s") // a split: the pipe job's pane is active
	m.table.Select(1)
	m.updateKeys()
	require.Contains(t, m.helpView(), "i type into job")
	press(t, m, "i")
	require.True(t, m.input.on())
	require.Equal(t, jobs.ID(1), m.input.id)
	require.Equal(t, jobs.ID(1), m.activePane().JobID(), "the row's job's pane has the focus")
	require.Contains(t, m.View(), " INPUT  keys go to job 1 echo")
	typeText(t, m, "hello")
	press(t, m, "enter")
	pumpUntil(t, m, "the echo", func() bool { return strings.Contains(m.View(), "got:hello") })
	press(t, m, "ctrl+a")
	require.False(t, m.input.on())
}

// Input mode is only for a job on a terminal that runs.
func TestInputModeNeedsARunningTerminalJob(t *testing.T) {
	mgr := newManager(t)
	start(t, mgr, "pipes", "echo on-pipes; sleep 60")
	m := newSizedModel(t, mgr, Config{}, 100, 30)
	pumpUntil(t, m, "output", func() bool { return strings.Contains(m.View(), "on-pipes") })
	press(t, m, "enter", "i")
	require.False(t, m.input.on())
	require.NotContains(t, m.helpView(), "type into job")
	require.Contains(t, m.View(), "job 1 pipes runs on pipes and takes no keys", "i says why it does nothing")
}

// In a split view, one pane is typed into while the others keep
// updating; its box is drawn double.
func TestInputModeInSplitView(t *testing.T) {
	mgr := newManager(t)
	startTTY(t, mgr, "echo", `while read l; do echo "got:$l"; done`)
	start(t, mgr, "ticker", `i=0; while :; do i=$((i+1)); echo "tick $i"; sleep 0.05; done`)
	m := newSizedModel(t, mgr, Config{}, 120, 30)
	pumpUntil(t, m, "both running", func() bool { return strings.Contains(m.View(), "● 2 running") })
	press(t, m, "s")
	press(t, m, "enter") // focuses job 1's pane, the selected job
	press(t, m, "i")
	require.True(t, m.input.on())
	view := m.View()
	require.Contains(t, view, "╔", "the pane typed into has a double box")
	require.Contains(t, view, "║")
	typeText(t, m, "hello")
	press(t, m, "enter")
	pumpUntil(t, m, "the echo and more ticks", func() bool {
		v := m.View()
		return strings.Contains(v, "got:hello") && strings.Contains(v, "tick 20")
	})
	require.True(t, m.input.on())
	requireFits(t, m.View(), 120, 30, "split, typing")
}

// A terminal job's terminal is the size of the pane that shows it, and
// follows it when the terminal or the layout changes; off screen it is
// 200x50 again.
func TestTerminalFollowsThePane(t *testing.T) {
	mgr := newManager(t)
	size := `while :; do echo "size $(stty size)"; sleep 0.1; done`
	a := startTTY(t, mgr, "a", size)
	b := startTTY(t, mgr, "b", size)
	m := newSizedModel(t, mgr, Config{}, 100, 30)
	body := func() (int, int) { return m.single.width, m.single.bodyHeight() }
	w, h := body()
	waitSize := func(id jobs.ID, cols, rows int) {
		t.Helper()
		pumpUntil(t, m, "the terminal size", func() bool {
			info, err := mgr.Get(id)
			return err == nil && info.Cols == cols && info.Rows == rows
		})
	}
	waitSize(a.ID, w, h)
	pumpUntil(t, m, "the job to see it", func() bool {
		return strings.Contains(m.View(), "size "+strconv.Itoa(h)+" "+strconv.Itoa(w))
	})

	m.Update(resize(80, 24))
	w, h = body()
	waitSize(a.ID, w, h)

	press(t, m, "j") // b is shown, a is not
	waitSize(b.ID, w, h)
	waitSize(a.ID, 200, 50)

	press(t, m, "s") // both side by side, each in its box
	require.Len(t, m.split, 2)
	for _, p := range m.split {
		waitSize(p.JobID(), p.width, p.bodyHeight())
	}
}

// A terminal job that something else sized since (another TUI attached
// to the instance, the API) gets this pane's size back when a person
// types into it here: the size follows the pane typed in. It stayed the
// other's, and the program was drawn for a pane it was not in.
func TestTypingTakesTheTerminalsSizeBack(t *testing.T) {
	mgr := newManager(t)
	a := startTTY(t, mgr, "a", `while :; do echo "size $(stty size)"; sleep 0.1; done`)
	m := newSizedModel(t, mgr, Config{}, 100, 30)
	w, h := m.single.width, m.single.bodyHeight()
	sizeIs := func(what string, cols, rows int) {
		t.Helper()
		pumpUntil(t, m, what, func() bool {
			info, ok := m.table.Get(a.ID)
			return ok && info.Cols == cols && info.Rows == rows
		})
	}
	sizeIs("this pane's size", w, h)
	require.NoError(t, mgr.Resize(a.ID, 40, 10)) // as another TUI showing it does
	sizeIs("the other's size", 40, 10)
	press(t, m, "enter", "i")
	typeText(t, m, "x")
	sizeIs("this pane's size again", w, h)
	pumpUntil(t, m, "the job to see it", func() bool {
		return strings.Contains(m.View(), "size "+strconv.Itoa(h)+" "+strconv.Itoa(w))
	})
}

// A job in line mode that asked for application cursor keys (?1h: a line
// editor with keypad transmit on) gets ESC O A for up, as from a
// terminal; one that did not, ESC [ A.
func TestInputModeCursorKeysFollowTheJobsModes(t *testing.T) {
	mgr := newManager(t)
	startTTY(t, mgr, "keys", `stty raw -echo; printf '\033[?1h'; echo "rea""dy"; od -An -c -N 4; printf '\033[?1l'; echo "aga""in"; od -An -c -N 4; sleep 60`)
	m := newSizedModel(t, mgr, Config{}, 100, 30)
	pumpUntil(t, m, "ready", func() bool { return slices.Contains(paneRows(m), "ready") })
	press(t, m, "enter", "i")
	require.True(t, m.input.on())
	press(t, m, "up", "x")
	pumpUntil(t, m, "the application form", func() bool { return strings.Contains(m.View(), `033   O   A   x`) })
	pumpUntil(t, m, "again", func() bool { return slices.Contains(paneRows(m), "again") })
	press(t, m, "up", "x")
	pumpUntil(t, m, "the normal form", func() bool { return strings.Contains(m.View(), `033   [   A   x`) })
}

// ctrl+a leaves input mode; a second ctrl+a types one into the job (a
// shell's start of line, screen's prefix) and goes on typing.
func TestCtrlATwiceTypesCtrlA(t *testing.T) {
	mgr := newManager(t)
	startTTY(t, mgr, "keys", `stty raw -echo; echo "rea""dy"; od -An -c -N 2; sleep 60`)
	m := newSizedModel(t, mgr, Config{}, 100, 30)
	pumpUntil(t, m, "ready", func() bool { return slices.Contains(paneRows(m), "ready") })
	press(t, m, "enter", "i", "ctrl+a")
	require.False(t, m.input.on(), "ctrl+a leaves")
	press(t, m, "ctrl+a")
	require.True(t, m.input.on(), "typing on")
	press(t, m, "x")
	pumpUntil(t, m, "ctrl+a, then x", func() bool { return strings.Contains(m.View(), `001   x`) })
}

// holdCounter is a manager that counts the holds the UI asks of it.
type holdCounter struct {
	*jobs.Manager
	holds int
}

func (h *holdCounter) HoldOutput() { h.holds++ }

// A key or a click for jobtop asks the engine to hold output back while
// its frame is drawn; a key typed into a job does not (the engine holds
// the other jobs' output when it takes the input).
func TestKeysForJobtopHoldOutputBack(t *testing.T) {
	mgr := newManager(t)
	startTTY(t, mgr, "echo", `echo "rea""dy"; exec cat`)
	e := &holdCounter{Manager: mgr}
	m := newSizedModel(t, e, Config{}, 100, 30)
	pumpUntil(t, m, "ready", func() bool { return slices.Contains(paneRows(m), "ready") })
	press(t, m, "z")
	require.Equal(t, 1, e.holds)
	press(t, m, "z", "enter")
	require.Equal(t, 3, e.holds)
	press(t, m, "i")
	require.True(t, m.input.on())
	holds := e.holds
	press(t, m, "a", "b", "enter")
	pumpUntil(t, m, "the echo", func() bool { return slices.Contains(paneRows(m), "ab") })
	require.Equal(t, holds, e.holds, "keys typed into the job")
}

// Typing into a prompt on a terminal in line mode shows the cursor where
// the job's line editing leaves it, as a terminal would; only while keys
// go to the job, and only on the line being built.
func TestInputModeShowsTheCursorOnAPrompt(t *testing.T) {
	mgr := newManager(t)
	startTTY(t, mgr, "ask", `printf 'name? xyz\b\b'; read a; echo "got=$a"; sleep 60`)
	m := newSizedModel(t, mgr, Config{Styles: colourStyles(t)}, 80, 20)
	pumpUntil(t, m, "the prompt", func() bool { return slices.Contains(paneRows(m), "name? xyz") })
	press(t, m, "enter")
	require.NotContains(t, m.View(), "\x1b[7m", "no cursor before input mode")

	press(t, m, "i")
	require.True(t, m.input.on())
	cursorRow := func() string {
		for _, l := range lines(m.View()) {
			if strings.Contains(l, "\x1b[7m") {
				return l
			}
		}
		return ""
	}
	// The backspaces may come in a read after the text's.
	pumpUntil(t, m, "the cursor where the program's backspaces left it", func() bool { return strings.Contains(cursorRow(), "name? x\x1b[7my\x1b[0mz") })
	press(t, m, "Q")
	pumpUntil(t, m, "the echo", func() bool { return strings.Contains(cursorRow(), "name? xQ\x1b[7mz\x1b[0m") })
	press(t, m, "W", "E")
	pumpUntil(t, m, "the echo past the end", func() bool { return strings.Contains(cursorRow(), "name? xQWE\x1b[7m \x1b[0m") })

	press(t, m, "ctrl+a")
	require.Empty(t, cursorRow(), "no cursor once keys are jobtop's again")
	press(t, m, "i", "enter")
	pumpUntil(t, m, "the answer", func() bool { return slices.Contains(paneRows(m), "got=QWE") })
	require.Empty(t, cursorRow(), "the cursor is below the last whole line: not drawn")
}

// A program that hid the cursor (a progress bar: ESC[?25l) shows none
// in input mode, as on a terminal; shown again, it is drawn again.
func TestInputModeDrawsNoCursorTheProgramHid(t *testing.T) {
	mgr := newManager(t)
	startTTY(t, mgr, "bar", `stty -echo; printf '\033[?25lDownloading 50%%'; read a; printf '\033[?25h\r\nname? '; read a; sleep 60`)
	m := newSizedModel(t, mgr, Config{Styles: colourStyles(t)}, 80, 20)
	pumpUntil(t, m, "the bar", func() bool { return slices.Contains(paneRows(m), "Downloading 50%") })
	press(t, m, "enter", "i")
	require.True(t, m.input.on())
	pumpUntil(t, m, "no cursor: the program hid it", func() bool { return !strings.Contains(m.View(), "\x1b[7m") })
	press(t, m, "enter")
	pumpUntil(t, m, "the cursor on the prompt", func() bool { return strings.Contains(m.View(), "name? \x1b[7m \x1b[0m") })
}

// A prompt longer than the pane wraps; the cursor is on the row its
// column falls on, a wide character that did not fit at a row's end
// counted on the next row, as the pane lays it out.
func TestInputModeCursorOnAWrappedPrompt(t *testing.T) {
	mgr := newManager(t)
	startTTY(t, mgr, "ask", `printf '%s漢> ' "$(printf 'P%.0s' $(seq 1 39))"; read a; sleep 60`)
	m := newSizedModel(t, mgr, Config{Styles: colourStyles(t)}, 40, 20)
	pumpUntil(t, m, "the prompt", func() bool { return strings.Contains(m.View(), "PPPPPPPP") })
	press(t, m, "enter")
	if !m.activePane().Wrapping() {
		press(t, m, "w")
	}
	pumpUntil(t, m, "the prompt wrapped", func() bool { return slices.Contains(paneRows(m), "漢>") })
	press(t, m, "i")
	require.True(t, m.input.on())
	press(t, m, "a", "b")
	pumpUntil(t, m, "the echo, the cursor after it", func() bool {
		for _, l := range lines(m.View()) {
			if strings.Contains(l, "漢> ab\x1b[7m \x1b[0m") {
				return true
			}
		}
		return false
	})
}

// In input mode the wheel on a full-screen program that did not ask for
// the mouse (less, man) is its cursor keys, as a terminal sends them; on
// its main screen the wheel still shows the job's lines.
func TestInputModeWheelOnTheAlternateScreenIsCursorKeys(t *testing.T) {
	mgr := newManager(t)
	startTTY(t, mgr, "pager", `stty -icanon -echo min 1; printf '\033[?1049h\033[HALT READY'; head -c 6 | od -An -c | tr -s ' '; sleep 60`)
	m := newSizedModel(t, mgr, Config{}, 100, 30)
	pumpUntil(t, m, "the screen", func() bool { return screenShows(m, "ALT READY") })
	press(t, m, "enter", "i")
	require.True(t, m.input.on())
	y := m.screen.outputY + 3
	wheel(m, 5, y, tea.MouseButtonWheelDown)
	require.True(t, m.single.InScreen(), "the screen stays: the keys are the program's")
	pumpUntil(t, m, "the keys the program read", func() bool { return screenShows(m, "033 [ B 033 [ B") })
}

// In input mode the wheel over another pane scrolls that pane, as tmux's
// does, and the keys still go to the job typed into; over the table it
// moves nothing.
func TestInputModeWheelScrollsThePaneUnderThePointer(t *testing.T) {
	mgr := newManager(t)
	start(t, mgr, "alpha", "for i in $(seq 1 100); do echo alpha $i; done; exec sleep 60")
	startTTY(t, mgr, "shell", `printf 'name? '; read a; echo "got=$a"; sleep 60`)
	m := newSizedModel(t, mgr, Config{}, 120, 40)
	pumpUntil(t, m, "alpha's lines", func() bool { info, _ := m.table.Get(1); return info.Lines == 100 })
	press(t, m, "space", "j", "space", "s", "2", "i")
	require.True(t, m.input.on())
	require.Equal(t, m.split[1], m.input.pane)
	left := m.screen.panes[0]

	wheel(m, left.x+5, left.y+3, tea.MouseButtonWheelUp)
	require.False(t, m.split[0].Following(), "the pane under the pointer scrolled")
	require.True(t, m.input.on(), "still typing")
	require.Equal(t, m.split[1], m.input.pane)
	require.Equal(t, 1, m.active)
	wheel(m, left.x+5, left.y+3, tea.MouseButtonWheelDown)
	require.True(t, m.split[0].Following(), "back at the bottom it follows again")

	wheel(m, 10, 2, tea.MouseButtonWheelDown)
	sel, _ := m.table.Selected()
	require.Equal(t, jobs.ID(2), sel.ID, "over the table the wheel moves nothing")
	press(t, m, "b", "o", "b", "enter")
	pumpUntil(t, m, "the answer", func() bool { return strings.Contains(m.View(), "got=bob") })
}
