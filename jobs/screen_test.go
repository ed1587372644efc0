package jobs

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"jobtop/termtext"
	"jobtop/vtscreen"
)

var (
	fullscreenOnce sync.Once
	fullscreenPath string
	fullscreenErr  error
)

// fullscreen builds the PTY tests' full-screen program once.
func fullscreen(t *testing.T) string {
	t.Helper()
	fullscreenOnce.Do(func() {
		dir, err := filepath.Abs(filepath.Join("..", "e2e", "testdata", "fullscreen"))
		if err != nil {
			fullscreenErr = err
			return
		}
		fullscreenPath = filepath.Join(testBinDir, "fullscreen")
		out, err := exec.Command("go", "build", "-o", fullscreenPath, dir).CombinedOutput()
		if err != nil {
			fullscreenErr = err
			t.Log(string(out))
		}
	})
	require.NoError(t, fullscreenErr)
	return fullscreenPath
}

// screenOf polls the job's screen until pred holds and returns it.
func screenOf(t *testing.T, m *Manager, id ID, what string, pred func(vtscreen.Snapshot) bool) vtscreen.Snapshot {
	t.Helper()
	var snap vtscreen.Snapshot
	eventually(t, what, func() bool {
		var err error
		snap, err = m.Screen(id)
		require.NoError(t, err)
		return pred(snap)
	})
	return snap
}

func TestFullScreenProgramIsDrawnTypedIntoResizedAndLeft(t *testing.T) {
	m := newManager(t, Options{})
	sub := m.Subscribe()
	sawScreen := make(chan bool, 1)
	go func() {
		saw := false
		for batch := range sub.C() {
			for _, ev := range batch {
				saw = saw || ev.Job.Screen
			}
		}
		sawScreen <- saw
	}()
	info := start(t, m, Spec{TTY: true, Argv: []string{fullscreen(t)}})
	waitFor(t, m, info.ID, "screen mode", func(i Info) bool { return i.Screen })
	snap := screenOf(t, m, info.ID, "the box", func(s vtscreen.Snapshot) bool {
		return strings.Contains(s.Lines[0], "fullscreen 200x50") && strings.HasPrefix(s.Lines[49], "└")
	})
	assert.True(t, snap.AltScreen)
	assert.Equal(t, [2]int{200, 50}, [2]int{snap.Cols, snap.Rows})
	assert.Equal(t, "│wide: 日本語 end", strings.TrimRight(strings.TrimSuffix(snap.Lines[3], "│"), " "))
	assert.Contains(t, snap.ANSI[2], "\x1b[31mred", "colours reach the screen")

	require.NoError(t, m.Input(info.ID, []byte("ab\x03")))
	screenOf(t, m, info.ID, "the keys, the cursor after them", func(s vtscreen.Snapshot) bool {
		return strings.Contains(s.Lines[1], "keys: ab^C") && s.CursorY == 1 && s.CursorX == 11
	})

	require.NoError(t, m.Resize(info.ID, 100, 30))
	snap = screenOf(t, m, info.ID, "the resized box", func(s vtscreen.Snapshot) bool {
		return strings.Contains(s.Lines[0], "fullscreen 100x30") && s.Rows == 30 && strings.HasPrefix(s.Lines[29], "└")
	})
	assert.Equal(t, 100, snap.Cols)

	require.NoError(t, m.Input(info.ID, []byte("q")))
	info = wait(t, m, info.ID)
	assert.Equal(t, StateSucceeded, info.State)
	assert.False(t, info.Screen, "back to lines")
	out := outputText(t, m, info.ID)
	assert.Equal(t, "fullscreen: bye", out[len(out)-1], "the store has it all, as lines")
	snap, err := m.Screen(info.ID)
	require.NoError(t, err)
	assert.False(t, snap.AltScreen)
	assert.Equal(t, "fullscreen: bye", snap.Lines[snap.CursorY-1], "a line-mode screen is the tail")

	sub.Close()
	assert.True(t, <-sawScreen, "an event said the job draws a screen")
}

// TestARunEndingOnTheAlternateScreenKeepsIt: a full-screen program that
// ends without giving the alternate screen back (it crashed, or was
// killed) leaves its last screen, as a terminal shows it, not its lines
// with the cursor moves stripped; the next run starts in lines again. A
// program that addressed the cursor outside the alternate screen and
// ended while drawing keeps its screen too.
func TestARunEndingOnTheAlternateScreenKeepsIt(t *testing.T) {
	m := newManager(t, Options{})
	draw := `printf '\033[?1049h\033[2J\033[Htop line\033[5;5Hbox here'`
	// It draws when told, so its next run waits in lines.
	info := start(t, m, Spec{TTY: true, Command: "stty -echo; read first; " + draw + "; read go; exit 3"})
	waitFor(t, m, info.ID, "running", func(i Info) bool { return i.State == StateRunning })
	require.NoError(t, m.Input(info.ID, []byte("\r")))
	waitFor(t, m, info.ID, "screen mode", func(i Info) bool { return i.Screen })
	screenOf(t, m, info.ID, "the drawing", func(s vtscreen.Snapshot) bool { return strings.HasPrefix(s.Lines[4], "    box here") })
	require.NoError(t, m.Input(info.ID, []byte("\r")))
	info = wait(t, m, info.ID)
	assert.Equal(t, StateFailed, info.State)
	assert.True(t, info.Screen, "the pane keeps the screen it ended on")
	snap, err := m.Screen(info.ID)
	require.NoError(t, err)
	assert.True(t, snap.AltScreen)
	assert.Equal(t, "top line", strings.TrimRight(snap.Lines[0], " "))
	assert.Equal(t, "    box here", strings.TrimRight(snap.Lines[4], " "))
	assert.False(t, snap.CursorVisible, "no cursor: nothing types there any more")

	_, err = m.Restart(info.ID)
	require.NoError(t, err)
	waitFor(t, m, info.ID, "the next run, in lines", func(i Info) bool { return i.Runs == 2 && i.State == StateRunning && !i.Screen })

	other := start(t, m, Spec{TTY: true, Command: `stty -echo; printf '\033[2J\033[3;1Hplaced\n'; read go; echo after`})
	waitFor(t, m, other.ID, "screen mode", func(i Info) bool { return i.Screen })
	require.NoError(t, m.Input(other.ID, []byte("\r")))
	other = wait(t, m, other.ID)
	assert.True(t, other.Screen, "a run that ends drawing on the main screen keeps its screen too")
	snap, err = m.Screen(other.ID)
	require.NoError(t, err)
	assert.False(t, snap.AltScreen)
	assert.Equal(t, []string{"", "", "placed", "after"}, trimmed(snap.Lines[:4]))
	out := outputText(t, m, other.ID)
	assert.Equal(t, "after", out[len(out)-1], "its lines are kept too")
}

// TestAClearIsNoFullScreenProgram: clear (or ctrl+l at a shell's prompt)
// on the main screen leaves the job in lines, and what follows starts a
// line of its own.
func TestAClearIsNoFullScreenProgram(t *testing.T) {
	m := newManager(t, Options{})
	info := start(t, m, Spec{TTY: true, Command: `printf 'prompt$ '; printf '\033[H\033[2J\033[3J'; printf 'prompt$ '; read go; echo after`})
	eventually(t, "both prompts", func() bool {
		return strings.Count(strings.Join(outputText(t, m, info.ID), "\n"), "prompt$") == 2
	})
	got, err := m.Get(info.ID)
	require.NoError(t, err)
	assert.False(t, got.Screen, "a clear is no full-screen program")
	require.NoError(t, m.Input(info.ID, []byte("\r")))
	wait(t, m, info.ID)
	var out []string
	for _, l := range outputText(t, m, info.ID) {
		out = append(out, termtext.Visible(l, false))
	}
	require.GreaterOrEqual(t, len(out), 3)
	assert.Equal(t, []string{"prompt$ ", "prompt$ ", "after"}, out[len(out)-3:])
}

// TestAClearThenHomeIsNoFullScreenProgram: a dev server clearing before
// each build's log (ESC[2J ESC[3J ESC[H, as create-react-app does), then
// writing lines with colours, stays in lines: on a blank screen, writing
// from home is writing lines from the top.
func TestAClearThenHomeIsNoFullScreenProgram(t *testing.T) {
	m := newManager(t, Options{})
	build := `printf '\033[2J\033[3J\033[H\033[32mCompiled\033[m\nok\n'`
	info := start(t, m, Spec{TTY: true, Command: "stty -echo; echo old; " + build + "; read go; " + build + "; read go"})
	for round := 1; round <= 2; round++ {
		eventually(t, "the build's lines", func() bool {
			return strings.Count(strings.Join(outputText(t, m, info.ID), "\n"), "ok") == round
		})
		got, err := m.Get(info.ID)
		require.NoError(t, err)
		assert.False(t, got.Screen, "round %d: a clear, home and lines are no full-screen program", round)
		require.NoError(t, m.Input(info.ID, []byte("\r")))
	}
	wait(t, m, info.ID)
}

// TestLineModeScreenStartsAtTheClear: after a clear (clear's ESC[H
// ESC[2J ESC[3J, ctrl+l's ESC[H ESC[2J, a dev server's ESC[2J ESC[H) a
// terminal shows the lines since from its top row: so does screen, and
// ClearedCursor says where they start. The lines before stay in the
// store.
func TestLineModeScreenStartsAtTheClear(t *testing.T) {
	m := newManager(t, Options{})
	for _, clear := range []string{`\033[H\033[2J\033[3J`, `\033[H\033[2J`, `\033[2J\033[H`} {
		info := start(t, m, Spec{TTY: true, Command: "stty -echo; echo before 1; echo before 2; printf '" + clear + "'; echo after; printf '$ '; read go"})
		got := waitFor(t, m, info.ID, "the prompt", func(i Info) bool { return i.LastLine == "$ " })
		assert.Equal(t, uint64(2), got.ClearedCursor, "%q: the clear came after line 2", clear)
		snap, err := m.Screen(info.ID)
		require.NoError(t, err)
		assert.Equal(t, []string{"after", "$ "}, snap.Lines[:2], "%q", clear)
		assert.Equal(t, "", snap.Lines[2])
		assert.Equal(t, [2]int{2, 1}, [2]int{snap.CursorX, snap.CursorY})
		assert.Equal(t, []string{"before 1", "before 2", "after"}, outputText(t, m, info.ID)[:3], "the store keeps the lines before")
		require.NoError(t, m.Input(info.ID, []byte("\r")))
		wait(t, m, info.ID)
		snap, err = m.Screen(info.ID)
		require.NoError(t, err)
		assert.Equal(t, "after", snap.Lines[0], "%q: an ended run keeps its screen", clear)
	}
	bare := start(t, m, Spec{TTY: true, Command: `echo before; printf '\033[2J'; echo after`})
	assert.Zero(t, wait(t, m, bare.ID).ClearedCursor, "a clear alone leaves the cursor below the top: the lines since start there")
	pipe := start(t, m, Spec{Command: `echo before; printf '\033[H\033[2J'; echo after`})
	assert.Zero(t, wait(t, m, pipe.ID).ClearedCursor, "a pipe job's output is no terminal's")
}

// A run again goes on below the screen the run before cleared, as in a
// terminal: the clear stays (the lines it hid stay hidden in a pane), and
// jobtop screen shows the new run's lines.
func TestANewRunKeepsTheClearBeforeIt(t *testing.T) {
	m := newManager(t, Options{})
	mark := filepath.Join(t.TempDir(), "ran")
	info := start(t, m, Spec{TTY: true, Command: `stty -echo; if [ -e ` + mark + ` ]; then echo "run 2"; else touch ` + mark + `; echo "run 1"; printf '\033[H\033[2J'; fi; echo done`})
	cleared := wait(t, m, info.ID).ClearedCursor
	assert.NotZero(t, cleared)
	_, err := m.Restart(info.ID)
	require.NoError(t, err)
	got := waitFor(t, m, info.ID, "the second run's end", func(i Info) bool { return i.Runs == 2 && i.State.Done() })
	assert.Equal(t, cleared, got.ClearedCursor)
	snap, err := m.Screen(info.ID)
	require.NoError(t, err)
	assert.Equal(t, []string{"run 2", "done"}, snap.Lines[:2])
}

func TestLineModeScreenIsTheTail(t *testing.T) {
	m := newManager(t, Options{})
	info := start(t, m, Spec{TTY: true, Command: "stty -echo; read go; for i in 1 2 3 4 5; do echo line $i; done; printf '\\033[32mok\\033[0m\\033]0;title\\007 $ '"})
	require.NoError(t, m.Resize(info.ID, 20, 3))
	require.NoError(t, m.Input(info.ID, []byte("\r")))
	wait(t, m, info.ID)
	snap, err := m.Screen(info.ID)
	require.NoError(t, err)
	assert.Equal(t, []string{"line 4", "line 5", "ok $ "}, snap.Lines)
	assert.Equal(t, "\x1b[32mok\x1b[0m $ ", snap.ANSI[2], "colours kept, the title change gone")
	assert.Equal(t, [2]int{5, 2}, [2]int{snap.CursorX, snap.CursorY})
	assert.False(t, snap.AltScreen)
}

func TestScreenFeedCatchesUpAndAsksForARedraw(t *testing.T) {
	var redraws, changes atomic.Int32
	f := newScreenFeed(testEmulator(20, 2), func() { redraws.Add(1) }, func() { changes.Add(1) }, func() {})
	defer f.close()
	f.setAlt(true)
	f.push([]byte("stale"))
	f.push(make([]byte, maxScreenBacklog+1)) // more than the backlog: what waits is dropped
	f.push([]byte("\x1b[Hfresh"))
	f.flush() // as the reader does once it has read all there is
	eventually(t, "the feed to catch up", func() bool { return redraws.Load() == 1 && !f.catchingUp.Load() })
	snap := f.screen.Snapshot()
	assert.True(t, snap.AltScreen, "reset onto the alternate screen")
	assert.Equal(t, "fresh", snap.Lines[0])
	assert.Equal(t, int32(2), changes.Load(), "catching up, then caught up")
}

// Catching up keeps the input modes the program asked for: it asked once,
// as it started, and its redraw does not ask again.
func TestScreenFeedCatchingUpKeepsTheModes(t *testing.T) {
	f := newScreenFeed(testEmulator(20, 2), func() {}, func() {}, func() {})
	defer f.close()
	modes := vtscreen.InputModes{AppCursor: true, BracketedPaste: true, Mouse: vtscreen.MouseAny, MouseSGR: true}
	f.setAlt(true)
	f.setModes(modes)
	f.push(append([]byte("\x1b[?1049h"), modes.Sequence()...))
	f.push(make([]byte, maxScreenBacklog+1))
	f.push([]byte("\x1b[Hfresh"))
	f.flush()
	eventually(t, "the feed to catch up", func() bool {
		return !f.catchingUp.Load() && f.screen.Snapshot().Lines[0] == "fresh"
	})
	assert.Equal(t, modes, f.screen.Snapshot().Modes)
}

// A manager given no emulator (jobs used as a library) keeps TTY runs in
// line mode: the full-screen program runs, its output is lines, and
// Screen shows the tail.
func TestWithoutAnEmulatorATTYRunStaysInLines(t *testing.T) {
	m := newManager(t, Options{})
	m.opts.Emulator = nil // newManager gives one; take it back before any run
	info := start(t, m, Spec{TTY: true, Argv: []string{fullscreen(t)}})
	waitFor(t, m, info.ID, "the box drawn, as lines", func(i Info) bool { return strings.Contains(i.LastLine, "└") || i.Lines > 3 })
	snap, err := m.Screen(info.ID)
	require.NoError(t, err)
	assert.False(t, snap.AltScreen, "no emulator, no screen")
	info, err = m.Get(info.ID)
	require.NoError(t, err)
	assert.False(t, info.Screen)
	require.NoError(t, m.Input(info.ID, []byte("q")))
	assert.Equal(t, StateSucceeded, wait(t, m, info.ID).State)
}

// The feed says when it has drawn, after the frame is there: the output
// event the reader published came before it, so a pane that refreshed on
// that one would show the frame before.
func TestScreenFeedSaysWhenItDrew(t *testing.T) {
	seen := make(chan string, 16)
	var f *screenFeed
	f = newScreenFeed(testEmulator(20, 2), func() {}, func() {}, func() { seen <- f.screen.Snapshot().Lines[0] })
	defer f.close()
	f.push([]byte("echo: x"))
	// A push this small waits for the reader's flush (push wakes the
	// writer only past wakeAt): without it, a writer that was already
	// waiting never drew, and the test failed whenever the writer's
	// goroutine ran before the push.
	f.flush()
	select {
	case line := <-seen:
		assert.Equal(t, "echo: x", line, "drawn before it is announced")
	case <-time.After(patience):
		t.Fatal("the feed never said it drew")
	}
}

// A program that asks for its input modes before it takes the screen
// (the mouse, bracketed paste, application cursor keys: as it starts) or
// that stays in lines (a shell asks for bracketed paste at each prompt)
// is typed into by those modes: the screen says so.
func TestScreenKeepsTheModesAskedForBeforeIt(t *testing.T) {
	m := newManager(t, Options{})
	want := vtscreen.InputModes{AppCursor: true, BracketedPaste: true, Mouse: vtscreen.MouseNormal, MouseSGR: true}
	for _, tc := range []struct{ name, command string }{
		{"before the alternate screen", `printf '\033[?1h\033[?2004h\033[?1000h\033[?1006h\033[?1049hdrawn'; sleep 600`},
		{"before the cursor is addressed", `printf '\033[?1h\033[?2004h\033[?1000h\033[?1006h'; sleep 0.2; printf '\033[2;1Hdrawn'; sleep 600`},
		{"in lines", `printf '\033[?1h\033[?2004h\033[?1000h\033[?1006hdrawn'; sleep 600`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			info := start(t, m, Spec{TTY: true, Command: tc.command})
			snap := screenOf(t, m, info.ID, "the drawing", func(s vtscreen.Snapshot) bool {
				return strings.Contains(strings.Join(s.Lines, "\n"), "drawn")
			})
			assert.Equal(t, want, snap.Modes)
			require.NoError(t, m.Kill(info.ID))
		})
	}
}

// TestATerminalsLineEditsArePlayed: on a terminal, a line editor's
// backspaces, cursor moves and erases are played back in the line (being
// typed, and once done), as the terminal showed it. A pipe job's lines
// play them too (as `screen` and a terminal show them); its log file
// keeps the bytes.
func TestATerminalsLineEditsArePlayed(t *testing.T) {
	m := newManager(t, Options{})
	edits := `printf 'prompt$ echo helloo\b\033[K'; read go; printf '\r\nprompt$ echo hello\b\b\bXllo\b\b\b\n'`
	info := start(t, m, Spec{TTY: true, Command: "stty -echo; " + edits})
	eventually(t, "the prompt, as typed", func() bool {
		out := outputText(t, m, info.ID)
		return len(out) > 0 && out[len(out)-1] == "prompt$ echo hello"
	})
	require.NoError(t, m.Input(info.ID, []byte("\r")))
	wait(t, m, info.ID)
	out := outputText(t, m, info.ID)
	assert.Equal(t, []string{"prompt$ echo hello", "prompt$ echo heXllo"}, out[len(out)-2:])

	pipe := start(t, m, Spec{Command: `printf 'a\bb\033[K\n'`})
	info = wait(t, m, pipe.ID)
	assert.Equal(t, []string{"b"}, outputText(t, m, pipe.ID))
	assert.True(t, strings.HasSuffix(readFile(t, info.LogPath), "\na\bb\x1b[K\n"), "the log file keeps the bytes")
}

// TestLineModeAnswersTerminalQueries: a program that asks the terminal
// where the cursor is, or what it is, before (or without) drawing a
// screen gets an answer, as from a fresh terminal its lines went to.
func TestLineModeAnswersTerminalQueries(t *testing.T) {
	m := newManager(t, Options{})
	cmd := `stty raw -echo; printf 'one\r\ntwo\r\nab\033[6n'; IFS= read -r -d R pos; printf '\033[5n'; IFS= read -r -d n ok;` +
		` printf '\033[c'; IFS= read -r -d c da; printf '\033[>c'; IFS= read -r -d c da2;` +
		` printf '\r\n<%s><%s><%s><%s>\r\n' "${pos#?}" "${ok#?}" "${da#?}" "${da2#?}"`
	info := start(t, m, Spec{TTY: true, Argv: []string{"bash", "-c", cmd}})
	info = wait(t, m, info.ID)
	assert.Equal(t, StateSucceeded, info.State)
	out := outputText(t, m, info.ID)
	assert.Equal(t, "<[3;3><[0><[?62;1;6;22><[>1;10;0>", out[len(out)-1])

	// After a clear (clear, ctrl+l), the cursor is on the top row again.
	cleared := `stty raw -echo; printf 'one\r\ntwo\r\n\033[H\033[2Jab\033[6n'; IFS= read -r -d R pos; printf '\r\n<%s>\r\n' "${pos#?}"`
	info = start(t, m, Spec{TTY: true, Argv: []string{"bash", "-c", cleared}})
	info = wait(t, m, info.ID)
	out = outputText(t, m, info.ID)
	assert.Equal(t, "<[1;3>", out[len(out)-1])
}

// TestAScreensDrawingIsNoLines: what a full-screen program draws on the
// alternate screen is shown by its screen, not kept as lines (its cursor
// moves stripped, it reads as a jumble); the lines before and after it
// are, and its bytes count.
func TestAScreensDrawingIsNoLines(t *testing.T) {
	m := newManager(t, Options{})
	info := start(t, m, Spec{TTY: true, Command: `echo before; printf '\033[?1049h\033[5;5Hdrawn\033[1;1Hhere\033[?1049l'; echo after`})
	info = wait(t, m, info.ID)
	var shown []string
	for _, l := range outputText(t, m, info.ID) {
		if v := termtext.Visible(l, false); v != "" {
			shown = append(shown, v)
		}
	}
	assert.Equal(t, []string{"before", "after"}, shown)
	assert.Greater(t, info.Bytes, int64(len("before\r\nafter\r\n")+len("drawnhere")), "the screen's bytes count")
}

// TestACarriageReturnOnAWrappedLine: a "\r" goes back to the start of the
// terminal row the cursor is on, so a typed line that wrapped (readline
// writes "\r" at the wrap) keeps its rows before that one; on a line that
// did not wrap, a "\r" still starts it again (progress bars).
func TestACarriageReturnOnAWrappedLine(t *testing.T) {
	m := newManager(t, Options{})
	info := start(t, m, Spec{TTY: true, Command: `stty -echo; read go; printf '$ %s\r%s\r\n' "$(printf 'x%.0s' $(seq 19))" xEND; printf '10%%\r20%%\r\n'`})
	require.NoError(t, m.Resize(info.ID, 20, 10))
	require.NoError(t, m.Input(info.ID, []byte("\r")))
	wait(t, m, info.ID)
	out := outputText(t, m, info.ID)
	require.GreaterOrEqual(t, len(out), 2)
	assert.Equal(t, []string{"$ " + strings.Repeat("x", 19) + "END", "20%"}, out[len(out)-2:])
}

// TestACarriageReturnKeepsTheRow: on a terminal a "\r" moves the cursor,
// it erases nothing: a line editor that goes back to the start and moves
// right over the prompt (bash's ctrl+u) keeps the prompt.
func TestACarriageReturnKeepsTheRow(t *testing.T) {
	m := newManager(t, Options{})
	info := start(t, m, Spec{TTY: true, Command: `printf 'A$ echo z\r\033[C\033[C\033[Kls\r\n'; printf 'D$ abc\r\033[C\033[C\033[C\033[1@X\r\n'; printf 'E$ abcdef\r\033[4G\033[2P\033[1X\r\n'; printf '100 files\r5 files\r\n'`})
	wait(t, m, info.ID)
	out := outputText(t, m, info.ID)
	require.GreaterOrEqual(t, len(out), 4)
	assert.Equal(t, []string{"A$ls", "D$ Xabc", "E$  def", "5 fileses"}, out[len(out)-4:])
}

// TestLineModeCursorIsTheLineEditors: a line-mode screen's cursor is
// where the line editor left it on the line being typed, not its end.
func TestLineModeCursorIsTheLineEditors(t *testing.T) {
	m := newManager(t, Options{})
	info := start(t, m, Spec{TTY: true, Command: `stty -echo; printf '$ echo abcdef\b\b\b'; read go`})
	snap := screenOf(t, m, info.ID, "the line, the cursor on d", func(s vtscreen.Snapshot) bool {
		return s.Lines[s.CursorY] == "$ echo abcdef" && s.CursorX == 10
	})
	assert.True(t, snap.CursorVisible)
	require.NoError(t, m.Input(info.ID, []byte("\r")))
	wait(t, m, info.ID)
}

// TestLineModeCursorHiddenByTheProgram: a progress bar that hides the
// cursor (ESC[?25l, as pip, npm and cargo do) shows none in line mode,
// as on a terminal, until it shows it again.
func TestLineModeCursorHiddenByTheProgram(t *testing.T) {
	m := newManager(t, Options{})
	info := start(t, m, Spec{TTY: true, Command: `stty -echo; printf '\033[?25lDownloading 50%%'; read go; printf '\033[?25h\r\ndone '; read go`})
	snap := screenOf(t, m, info.ID, "the bar", func(s vtscreen.Snapshot) bool { return s.Lines[s.CursorY] == "Downloading 50%" })
	assert.False(t, snap.CursorVisible)
	out, err := m.Output(info.ID)
	require.NoError(t, err)
	assert.True(t, out.(*OutputStore).CursorHidden())
	require.NoError(t, m.Input(info.ID, []byte("\r")))
	snap = screenOf(t, m, info.ID, "the cursor shown again", func(s vtscreen.Snapshot) bool { return strings.HasPrefix(s.Lines[s.CursorY], "done") })
	assert.True(t, snap.CursorVisible)
	assert.False(t, out.(*OutputStore).CursorHidden())
	require.NoError(t, m.Input(info.ID, []byte("\r")))
	wait(t, m, info.ID)
}

// TestAScreenVisitLeavesTheLine: a line that a full-screen visit cut
// goes on after it, as on a terminal (1049 restores the cursor), and
// the visit leaves no empty line.
func TestAScreenVisitLeavesTheLine(t *testing.T) {
	m := newManager(t, Options{})
	info := start(t, m, Spec{TTY: true, Command: `printf 'p1 partial-before'; printf '\033[?1049h\033[H\033[2Jdrawn1\033[3;3Hdrawn2\033[?1049l'; printf ' rest-after\r\n'`})
	wait(t, m, info.ID)
	assert.Equal(t, []string{"p1 partial-before rest-after"}, outputText(t, m, info.ID))
}

// TestARedrawOverLinesIsAScreen: a program that moves the cursor up to
// draw over what it wrote (an inline TUI such as Claude Code's, a
// multi-line progress display) is shown as a terminal shows it, its
// earlier lines above its frame, not as every frame it drew one after
// the other; once it has written two screens of lines without moving up
// again, it is lines again.
func TestARedrawOverLinesIsAScreen(t *testing.T) {
	m := newManager(t, Options{})
	frame := `printf '+------+\n| %4d |\n+------+\n> typing' $i`
	erase := `printf '\033[2K\033[1A\033[2K\033[1A\033[2K\033[1A\033[2K\033[G'`
	info := start(t, m, Spec{TTY: true, Command: "stty -echo; read go; echo static line; " +
		"for i in 1 2 3 4 5; do [ $i -gt 1 ] && " + erase + "; " + frame + "; done; read go; " +
		"echo; for i in $(seq 12); do echo after $i; done; read go"})
	require.NoError(t, m.Resize(info.ID, 40, 6))
	require.NoError(t, m.Input(info.ID, []byte("\r")))
	waitFor(t, m, info.ID, "screen mode", func(i Info) bool { return i.Screen })
	snap := screenOf(t, m, info.ID, "the last frame", func(s vtscreen.Snapshot) bool {
		return slices.ContainsFunc(s.Lines, func(l string) bool { return strings.TrimRight(l, " ") == "|    5 |" })
	})
	var lines []string
	for _, l := range snap.Lines {
		lines = append(lines, strings.TrimRight(l, " "))
	}
	// The echo of the first enter may come before stty -echo: a blank
	// line above them, then.
	top := slices.Index(lines, "static line")
	require.GreaterOrEqual(t, top, 0, "the line before the redraws is kept: %q", lines)
	assert.Equal(t, []string{"static line", "+------+", "|    5 |", "+------+", "> typing"}, lines[top:top+5],
		"one frame drawn")
	assert.Equal(t, [2]int{8, top + 4}, [2]int{snap.CursorX, snap.CursorY})
	assert.False(t, snap.AltScreen)

	require.NoError(t, m.Input(info.ID, []byte("\r")))
	waitFor(t, m, info.ID, "lines again after two screens of lines", func(i Info) bool { return !i.Screen })
	eventually(t, "the lines, all in the store", func() bool {
		out := outputText(t, m, info.ID)
		return out[len(out)-1] == "after 12"
	})
	require.NoError(t, m.Kill(info.ID))
}

// TestAddressingTheCursorDrawsOverTheLinesBefore: a program that moves
// the cursor to a position on the main screen, or home and then writes
// (procps top redraws its frames so, a loop redrawing its lines), draws
// over the lines it wrote before, as a terminal shows them, however its
// writes were read.
func TestAddressingTheCursorDrawsOverTheLinesBefore(t *testing.T) {
	m := newManager(t, Options{})
	for _, c := range []struct {
		name, draw string
		want       []string
	}{
		{"to a position", `\033[2;1HX`, []string{"L1", "X2", "L3"}},
		{"home, then text", `\033[HX`, []string{"X1", "L2", "L3"}},
		{"home, then text and an erase", `\033[Htop\033[K`, []string{"top", "L2", "L3"}},
	} {
		info := start(t, m, Spec{TTY: true, Command: "stty -echo; printf 'L1\\nL2\\nL3\\n'; read go; printf '" + c.draw + "'; sleep 600"})
		require.NoError(t, m.Resize(info.ID, 40, 6))
		eventually(t, c.name+": the lines stored", func() bool { return slices.Contains(outputText(t, m, info.ID), "L3") })
		require.NoError(t, m.Input(info.ID, []byte("\r")))
		waitFor(t, m, info.ID, c.name+": screen mode", func(i Info) bool { return i.Screen })
		snap := screenOf(t, m, info.ID, c.name+": the drawing", func(s vtscreen.Snapshot) bool {
			return strings.TrimRight(s.Lines[0], " ") == c.want[0] && strings.TrimRight(s.Lines[1], " ") == c.want[1]
		})
		var lines []string
		for _, l := range snap.Lines[:3] {
			lines = append(lines, strings.TrimRight(l, " "))
		}
		assert.Equal(t, c.want, lines, c.name)
		assert.False(t, snap.AltScreen)
		require.NoError(t, m.Kill(info.ID))
	}
}

// TestDrawingFromHomeAcrossReads: what moves the cursor after a home, or
// clears, in reads before the drawing starts, is where the drawing
// starts from, as on a terminal.
func TestDrawingFromHomeAcrossReads(t *testing.T) {
	m := newManager(t, Options{})
	for _, c := range []struct {
		name  string
		steps []string // printf formats, each written once the one before was read
		want  []string
	}{
		{"newlines after the home", []string{`a\nb\nc\n\033[H`, `\n\n`, `X`}, []string{"ready", "a", "X", "c"}},
		{"a home that a clear's lines disarmed", []string{`old\n\033[2J\033[3J\033[H`, `line1\nline2\n`, `line3\n\033[6;1HX`},
			[]string{"line1", "line2", "line3", "", "", "X"}},
		{"a reset", []string{`old1\nold2\n\033c`, `new1\nnew2\n`, `\033[2;1HX`}, []string{"new1", "Xew2"}},
		{"a query after the home", []string{`a\nb\nc\n\033[H\033[c`, `\n\033[6n`, `X`}, []string{"ready", "X", "b", "c"}},
		{"a query cutting a sequence short", []string{`a\nb\nc\n\033[H\033(\033[6n`, `\033]0;t\033[6n`, `X`}, []string{"Xeady", "a", "b", "c"}},
		{"the alternate screen's switch across reads", []string{`a\nb\n\033[?10`, `49h\033[2;1HX`}, []string{"", "X"}},
		{"a clear alone leaves the cursor where it was", []string{`a\nb\nc\nxy\033[2J`, `L1\nL2\n`, `\033[1AX`},
			[]string{"", "", "", "", "  L1", "X2"}},
		{"a clear then a home", []string{`a\nb\nc\nxy\033[2J\033[H`, `L1\nL2\n`, `\033[1AX`}, []string{"L1", "X2", ""}},
		{"a home in a read after the clear", []string{`a\nb\nc\nxy\033[2J`, `\033[HL1\nL2\n`, `\033[1AX`}, []string{"L1", "X2", ""}},
	} {
		cmd := "stty -echo; echo ready"
		for _, st := range c.steps {
			cmd += "; read go; printf '" + st + "'"
		}
		info := start(t, m, Spec{TTY: true, Command: cmd + "; sleep 600"})
		require.NoError(t, m.Resize(info.ID, 40, 8))
		eventually(t, c.name+": ready", func() bool { return slices.Contains(outputText(t, m, info.ID), "ready") })
		var bytes int64
		for i := range c.steps {
			require.NoError(t, m.Input(info.ID, []byte("\r")))
			if i == len(c.steps)-1 {
				break
			}
			eventually(t, fmt.Sprintf("%s: step %d read", c.name, i+1), func() bool {
				got, err := m.Get(info.ID)
				return err == nil && got.Bytes > bytes
			})
			got, _ := m.Get(info.ID)
			bytes = got.Bytes
		}
		// The reader stores what ends in the event (a home's first text)
		// before the emulator starts: until then the screen is the lines.
		waitFor(t, m, info.ID, c.name+": screen mode", func(i Info) bool { return i.Screen })
		snap := screenOf(t, m, info.ID, c.name, func(s vtscreen.Snapshot) bool {
			return strings.Contains(strings.Join(s.Lines, "\n"), "X")
		})
		assert.Equal(t, c.want, trimmed(snap.Lines[:len(c.want)]), "%s: %q %q", c.name, trimmed(snap.Lines), outputText(t, m, info.ID))
		require.NoError(t, m.Kill(info.ID))
	}
}

// TestCursorQueriesInLineMode: a program that asks where the cursor is
// in line mode hears what a terminal would say: after its lines, after
// the moves since a home, where a clear alone left it.
func TestCursorQueriesInLineMode(t *testing.T) {
	m := newManager(t, Options{})
	for _, c := range []struct{ name, before, want string }{
		{"after lines", `a\nb\nxy`, "3;3"},
		{"after a home and a newline", `a\nb\nc\n\033[H\n`, "2;1"},
		{"after a clear alone", `a\nb\nxy\033[2J`, "3;3"},
		{"after a clear and a home", `a\nb\nxy\033[2J\033[H`, "1;1"},
		// Wrapped as a terminal wraps them (rev33: the rows were counted
		// one a line).
		{"after a line that wrapped", `a\n%050d\n`, "4;1"},
		{"at the edge, the wrap pending", `%040d`, "1;40"},
		{"a wide character that did not fit", `%039d漢`, "2;3"},
	} {
		info := start(t, m, Spec{TTY: true, Shell: []string{"bash", "-c"}, Command: `stty -echo -icanon; printf '` + c.before +
			`\033[6n'; IFS= read -r -d R ans; printf 'got %s.\n' "${ans#??}"; sleep 600`})
		require.NoError(t, m.Resize(info.ID, 40, 8))
		eventually(t, c.name, func() bool { return strings.Contains(strings.Join(outputText(t, m, info.ID), "\n"), "got ") })
		assert.Contains(t, strings.Join(outputText(t, m, info.ID), "\n"), "got "+c.want+".", c.name)
		require.NoError(t, m.Kill(info.ID))
	}
}

// TestWhatFollowsAHomeIsKeptWhole: past maxSinceHome, the moves after a
// home are dropped whole, never from the middle of a sequence: drawing
// then starts from the home alone.
func TestWhatFollowsAHomeIsKeptWhole(t *testing.T) {
	var ts termState
	feed := func(b string) {
		for p := []byte(b); len(p) > 0; {
			n, ev := ts.det.Next(p)
			ts.keepSinceHome(p[:n], ev)
			p = p[n:]
		}
	}
	feed("a\r\nb\r\n\x1b[H")
	feed("\r\n")
	assert.Equal(t, "\x1b[H\r\n", string(ts.sinceHome))
	feed(strings.Repeat("\x1b[?25h", maxSinceHome/6) + "\x1b[?2")
	feed("5h\r\n")
	assert.Equal(t, "\x1b[H", string(ts.sinceHome), "cut to the home, and no piece after")
	n, ev := ts.det.Next([]byte("X"))
	assert.Equal(t, 1, n)
	assert.Equal(t, vtscreen.CursorAddressed, ev)
	assert.True(t, ts.det.FromHome())
}

// TestARedrawAfterAClearStartsFromTheClear: the lines a redraw moves up
// into are those a terminal still shows: none from before a clear, nor
// from an earlier run.
func TestARedrawAfterAClearStartsFromTheClear(t *testing.T) {
	m := newManager(t, Options{})
	info := start(t, m, Spec{TTY: true, Command: `stty -echo; echo run $JOBTOP_RUN; echo before; printf '\033[H\033[2J'; echo kept; ` +
		`printf 'frame 1\n'; read go; printf '\033[1A\033[2Kframe 2\n'; sleep 600`})
	redraw := func(run int) { // once its lines are stored: they are what it draws over
		eventually(t, "the first frame", func() bool {
			return len(slices.DeleteFunc(outputText(t, m, info.ID), func(l string) bool { return l != "frame 1" })) == run
		})
		require.NoError(t, m.Input(info.ID, []byte("\r")))
	}
	redraw(1)
	snap := screenOf(t, m, info.ID, "the frame", func(s vtscreen.Snapshot) bool { return strings.HasPrefix(s.Lines[1], "frame 2") })
	assert.Equal(t, "kept", strings.TrimRight(snap.Lines[0], " "), "nothing from before the clear: %q", snap.Lines)
	_, err := m.Restart(info.ID)
	require.NoError(t, err)
	waitFor(t, m, info.ID, "the next run", func(i Info) bool { return i.Runs == 2 && i.State == StateRunning })
	redraw(2)
	snap = screenOf(t, m, info.ID, "the next run's frame", func(s vtscreen.Snapshot) bool {
		return strings.HasPrefix(s.Lines[1], "frame 2") && !strings.Contains(strings.Join(s.Lines, "\n"), "run 1")
	})
	assert.Equal(t, "kept", strings.TrimRight(snap.Lines[0], " "))
	require.NoError(t, m.Kill(info.ID))
}

// TestARedrawOverLinesWrapsThemAsATerminalDid: a line wider than the
// terminal took more than one row when it was written, and the rows a
// redraw moves up over are counted so.
func TestARedrawOverLinesWrapsThemAsATerminalDid(t *testing.T) {
	m := newManager(t, Options{})
	info := start(t, m, Spec{TTY: true, Command: `stty -echo; read go; printf '%030d\nx\n' 0; read go; printf '\033[2AUP'; sleep 600`})
	require.NoError(t, m.Resize(info.ID, 20, 6))
	require.NoError(t, m.Input(info.ID, []byte("\r")))
	eventually(t, "the lines, in line mode", func() bool { return slices.Contains(outputText(t, m, info.ID), "x") })
	require.NoError(t, m.Input(info.ID, []byte("\r")))
	snap := screenOf(t, m, info.ID, "the redraw", func(s vtscreen.Snapshot) bool {
		return strings.Contains(strings.Join(s.Lines, "\n"), "UP")
	})
	top := slices.Index(snap.Lines, strings.Repeat("0", 20))
	require.GreaterOrEqual(t, top, 0, "%q", snap.Lines)
	assert.Equal(t, []string{strings.Repeat("0", 20), "UP00000000", "x"}, trimmed(snap.Lines[top:top+3]))
	require.NoError(t, m.Kill(info.ID))
}

func trimmed(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = strings.TrimRight(l, " ")
	}
	return out
}

func TestCursorBack(t *testing.T) {
	for _, c := range []struct {
		text    string
		x, cols int
		want    string
	}{
		{strings.Repeat("a", 10), 10, 20, ""},
		{strings.Repeat("a", 10), 4, 20, "\x1b[5G"},
		{strings.Repeat("a", 25), 3, 10, "\x1b[2A\x1b[4G"},
		{strings.Repeat("a", 25), 13, 10, "\x1b[1A\x1b[4G"},
		{strings.Repeat("a", 20), 5, 10, "\x1b[1A\x1b[6G"},
		{"\x1b[31m" + strings.Repeat("a", 20) + "\x1b[m", 5, 10, "\x1b[1A\x1b[6G"},
		{"", 0, 10, ""},
		// A wide character that does not fit at the end of a row wraps
		// whole, as a terminal wraps it.
		{"a" + strings.Repeat("日", 150), 299, 200, "\x1b[101G"},
		{"a" + strings.Repeat("日", 5), 5, 4, "\x1b[1A\x1b[3G"},
		{"a" + strings.Repeat("日", 5), 7, 4, "\x1b[1G"},
		{"a" + strings.Repeat("日", 5), 9, 4, "\x1b[3G"},
	} {
		assert.Equal(t, c.want, string(cursorBack(c.text, c.x, c.cols)), "%q %d %d", c.text, c.x, c.cols)
	}
}

// TestAProgramRedrawingFromHomeStaysAScreen: a full-screen program on the
// main screen that redraws each frame from home with plain lines is
// still drawing a screen, however many lines its frames take.
func TestAProgramRedrawingFromHomeStaysAScreen(t *testing.T) {
	m := newManager(t, Options{})
	info := start(t, m, Spec{TTY: true, Command: `stty -echo; read go; printf '\033[2J\033[3;5HTitle'; ` +
		`for f in $(seq 10); do printf '\033[H'; for i in $(seq 5); do echo "frame $f line $i"; done; done; sleep 600`})
	require.NoError(t, m.Resize(info.ID, 40, 6))
	require.NoError(t, m.Input(info.ID, []byte("\r")))
	eventually(t, "the last frame", func() bool { return slices.Contains(outputText(t, m, info.ID), "frame 10 line 5") })
	got, err := m.Get(info.ID)
	require.NoError(t, err)
	assert.True(t, got.Screen, "50 lines on a 6-row terminal, each frame from home")
	require.NoError(t, m.Kill(info.ID))
}

// topLike draws frames as procps top does without the alternate screen:
// each from home, its rows ended by ESC[K CR LF but the last, which the
// next frame's home follows.
const topLike = `stty -echo; read go; printf '\033[H\033[2J'; for f in 1 2 3; do printf '\033[H\033(B\033[m'; ` +
	`for i in 1 2 3 4; do printf 'frame %d row %d\033[K\r\n' $f $i; done; printf 'frame %d row 5\033[K' $f; done; sleep 600`

// TestAProgramDrawingFromHomeHasNoLastLine: top's frames on the main
// screen are pieces of a screen, whichever line is the newest: the row
// it wrote after the home placed the cursor as much as the home's own.
// So while it runs, and once it ended on that screen.
func TestAProgramDrawingFromHomeHasNoLastLine(t *testing.T) {
	m := newManager(t, Options{})
	info := start(t, m, Spec{TTY: true, Command: topLike})
	require.NoError(t, m.Resize(info.ID, 40, 8))
	require.NoError(t, m.Input(info.ID, []byte("\r")))
	screenOf(t, m, info.ID, "the last frame", func(s vtscreen.Snapshot) bool { return s.Lines[4] == "frame 3 row 5" })
	got, err := m.Get(info.ID)
	require.NoError(t, err)
	require.True(t, got.Screen)
	require.False(t, got.AltScreen)
	assert.Equal(t, "", got.LastLine, "a row of top's, not a line it wrote")

	require.NoError(t, m.Kill(info.ID))
	got = waitFor(t, m, info.ID, "the end", func(i Info) bool { return !i.State.Active() })
	require.True(t, got.Screen, "it ended on its screen")
	assert.Equal(t, "", got.LastLine, "it ended drawing its screen")
}

// TestOnePlacementThenLinesKeepsTheLastLine: a program that places the
// cursor once (a title at the top) and then writes lines draws no
// frames: its last line is its newest line.
func TestOnePlacementThenLinesKeepsTheLastLine(t *testing.T) {
	m := newManager(t, Options{})
	info := start(t, m, Spec{TTY: true, Command: `printf '\033[Htitle\n'; for i in 1 2 3; do echo "row $i"; done; sleep 600`})
	got := waitFor(t, m, info.ID, "its rows", func(i Info) bool { return i.LastLine == "row 3" })
	assert.True(t, got.Screen, "drawn from home: a screen")
	require.NoError(t, m.Kill(info.ID))
}

// TestARedrawKeepsItsFrameInSightWhenTheTerminalShrinks: fewer rows keep
// the rows by the cursor, where an inline TUI draws, as a terminal does.
func TestARedrawKeepsItsFrameInSightWhenTheTerminalShrinks(t *testing.T) {
	m := newManager(t, Options{})
	info := start(t, m, Spec{TTY: true, Command: `stty -echo; read go; seq 30; read go; printf '\033[1A\033[2Kframe\n> prompt'; sleep 600`})
	require.NoError(t, m.Resize(info.ID, 40, 20))
	require.NoError(t, m.Input(info.ID, []byte("\r")))
	eventually(t, "the lines", func() bool { return slices.Contains(outputText(t, m, info.ID), "30") })
	require.NoError(t, m.Input(info.ID, []byte("\r")))
	screenOf(t, m, info.ID, "the frame", func(s vtscreen.Snapshot) bool { return strings.HasPrefix(s.Lines[19], "> prompt") })
	require.NoError(t, m.Resize(info.ID, 40, 5))
	snap := screenOf(t, m, info.ID, "the frame, 5 rows high", func(s vtscreen.Snapshot) bool { return s.Rows == 5 })
	assert.Equal(t, []string{"27", "28", "29", "frame", "> prompt"}, trimmed(snap.Lines))
	require.NoError(t, m.Kill(info.ID))
}

// afterAScreen runs a TTY job on a 40x8 terminal in two steps, an enter
// each: first, what ends with a visit to the alternate screen; once back
// in lines, with stored (its lines) true, what redraws. It returns the
// screen the redraw's emulator draws once a row reads shown, its rows
// trimmed, from the row "head".
func afterAScreen(t *testing.T, first, then string, stored func(Info, []string) bool, shown string) ([]string, vtscreen.Snapshot) {
	t.Helper()
	m := newManager(t, Options{})
	info := start(t, m, Spec{TTY: true, Command: `stty -echo; read go; ` + first +
		`; printf '\033[?1049hALT\033[?1049l'; read go; ` + then + `; sleep 600`})
	t.Cleanup(func() { m.Kill(info.ID) }) //nolint:errcheck // the manager's cleanup kills it too
	require.NoError(t, m.Resize(info.ID, 40, 8))
	require.NoError(t, m.Input(info.ID, []byte("\r")))
	eventually(t, "back from the alternate screen", func() bool {
		got, err := m.Get(info.ID)
		return err == nil && !got.Screen && stored(got, outputText(t, m, info.ID))
	})
	require.NoError(t, m.Input(info.ID, []byte("\r")))
	// In screen mode first: the reader stores the redraw's lines before
	// its emulator starts, and until then the screen is those lines.
	eventually(t, "the redraw's screen mode", func() bool {
		got, err := m.Get(info.ID)
		return err == nil && got.Screen
	})
	snap := screenOf(t, m, info.ID, "the redraw", func(s vtscreen.Snapshot) bool {
		return slices.Contains(trimmed(s.Lines), shown)
	})
	lines := trimmed(snap.Lines)
	top := slices.Index(lines, "head")
	require.GreaterOrEqual(t, top, 0, "%q", lines)
	snap.CursorY -= top
	return lines[top:], snap
}

// TestARedrawAfterAScreenStartsFromThatScreen: after a visit to the
// alternate screen (an editor, a pager) or a screen mode that ended, the
// next redraw starts from the screen as it was left, not from the lines
// stored meanwhile (every frame drawn over them).
func TestARedrawAfterAScreenStartsFromThatScreen(t *testing.T) {
	lines, _ := afterAScreen(t, `printf 'head\n'; for f in 1 2 3; do printf 'frame %d a\nframe %d b\n' $f $f; printf '\033[2A'; done; `+
		`printf 'final a\nfinal b\n'`, `printf 'after alt\nx\033[1A'`,
		func(_ Info, out []string) bool { return slices.Contains(out, "final b") }, "after alt")
	assert.Equal(t, []string{"head", "final a a", "final b b", "after alt", "x"}, lines[:5], "as tmux shows it")
}

// TestAKeptScreenKeepsTheRowsBelowTheCursor: a program that moved up
// into its lines and visited the alternate screen comes back to them all,
// the cursor where it was, as in tmux.
func TestAKeptScreenKeepsTheRowsBelowTheCursor(t *testing.T) {
	lines, snap := afterAScreen(t, `printf 'head\nrow1 xxxxxx\nrow2 yyyyyy\n\033[2A'`, `printf 'new\n\033[1A'`,
		func(_ Info, out []string) bool { return slices.Contains(out, "row2 yyyyyy") }, "new1 xxxxxx")
	assert.Equal(t, []string{"head", "new1 xxxxxx", "row2 yyyyyy"}, lines[:3], "as tmux shows it")
	assert.Equal(t, 1, snap.CursorY)
}

// TestAKeptScreenDoesNotDrawItsOpenLineTwice: the line the cursor was on
// as a screen mode ended is in the store too; the next screen draws it
// once.
func TestAKeptScreenDoesNotDrawItsOpenLineTwice(t *testing.T) {
	lines, _ := afterAScreen(t, `printf 'head\nmid\n\033[1Aprompt> '`, `printf 'x\nnext\n\033[1A'`,
		func(got Info, _ []string) bool { return strings.Contains(got.LastLine, "prompt> ") }, "next")
	assert.Equal(t, []string{"head", "prompt> x", "next"}, lines[:3], "as a terminal shows it")
}

// TestBaseScreenOnAnotherSize: a kept screen drawn on a terminal of
// another size is kept as a resize keeps it: the rows by the cursor,
// each cut to the width, the cursor on its row.
func TestBaseScreenOnAnotherSize(t *testing.T) {
	base := &vtscreen.Snapshot{CursorX: 2, CursorY: 1}
	for i := range 10 {
		base.ANSI = append(base.ANSI, fmt.Sprintf("r%d %s", i, strings.Repeat("x", 15)))
	}
	assert.Equal(t, "r0 xxxxxxx\x1b[m\r\nr1 xxxxxxx\x1b[m\r\nr2 xxxxxxx\x1b[m\r\nr3 xxxxxxx\x1b[m\r\nr4 xxxxxxx\x1b[m\x1b[2;3H",
		string(baseScreen(base, 10, 5, false)))
	base.CursorY = 8
	assert.Equal(t, "r4 xxxxxxx\x1b[m\r\nr5 xxxxxxx\x1b[m\r\nr6 xxxxxxx\x1b[m\r\nr7 xxxxxxx\x1b[m\r\nr8 xxxxxxx\x1b[m\x1b[5;1H",
		string(baseScreen(base, 10, 5, true)), "the cursor's row kept, at the bottom; its start when the row is written again")
}

// TestALineModeScreenIsWhatATerminalShows: a line-mode job's screen is
// its newest lines wrapped at the terminal's width, the newest rows of
// them, so however long its lines, it is at most cols x rows of text;
// the cursor is where a terminal has it (checked against tmux).
func TestALineModeScreenIsWhatATerminalShows(t *testing.T) {
	m := newManager(t, Options{})
	for _, c := range []struct {
		name, out string
		want      []string
		x, y      int
	}{
		{"wrapped, coloured, a line being written", `a\n0123456789abcdefghij\033[31mXYZ\033[0m\ntail`,
			[]string{"0123456789", "abcdefghij", "XYZ", "tail"}, 4, 3},
		{"a wide character that does not fit", `abcdefghi中x`, []string{"abcdefghi", "中x", "", ""}, 3, 1},
		{"a tab at the last column", `abcdefghi\tZ`, []string{"abcdefghiZ", "", "", ""}, 9, 0},
		{"lines filling the screen, then a newline", `1\n2\n3\n4\n5\n`, []string{"3", "4", "5", ""}, 0, 3},
	} {
		// Line mode wraps the lines it keeps at the terminal's width now,
		// whatever it was when they came.
		info := start(t, m, Spec{TTY: true, Command: `printf '` + c.out + `'; sleep 600`})
		require.NoError(t, m.Resize(info.ID, 10, 4))
		snap := screenOf(t, m, info.ID, c.name, func(s vtscreen.Snapshot) bool { return slices.Equal(trimmed(s.Lines), c.want) })
		assert.Equal(t, [2]int{c.x, c.y}, [2]int{snap.CursorX, snap.CursorY}, c.name)
		if c.name == "wrapped, coloured, a line being written" {
			assert.Equal(t, "\x1b[31mXYZ\x1b[0m", snap.ANSI[2])
		}
		require.NoError(t, m.Kill(info.ID))
	}

	// A run that ended mid-line leaves the cursor where its edits left it
	// (each as tmux has it, 200x50).
	for _, c := range []struct {
		name string
		spec Spec
		x, y int
	}{
		{"edited", Spec{TTY: true, Command: `printf 'abcdef\rxy'`}, 2, 0},
		{"a carriage return last", Spec{TTY: true, Command: `printf 'abc\r'`}, 0, 0},
		{"a carriage return on a wrapped line", Spec{TTY: true, Command: `printf '%0250d\r' 0`}, 0, 1},
		{"a clear alone keeps the cursor", Spec{TTY: true, Command: `printf 'abc\033[2J'`}, 3, 0},
		{"stderr's line is the newest", Spec{Command: `printf abc; sleep 0.3; printf errlonger >&2`}, 9, 1},
	} {
		info := start(t, m, c.spec)
		waitFor(t, m, info.ID, c.name+": the job to end", func(i Info) bool { return !i.State.Active() })
		snap, err := m.Screen(info.ID)
		require.NoError(t, err)
		assert.Equal(t, [2]int{c.x, c.y}, [2]int{snap.CursorX, snap.CursorY}, "%s: %q", c.name, trimmed(snap.Lines[:3]))
	}

	info := start(t, m, Spec{Command: `head -c 300000 /dev/zero | tr '\0' x; echo; printf last`})
	waitFor(t, m, info.ID, "the job to end", func(i Info) bool { return !i.State.Active() })
	snap, err := m.Screen(info.ID)
	require.NoError(t, err)
	size := 0
	for _, l := range snap.ANSI {
		size += len(l)
	}
	assert.LessOrEqual(t, size, snap.Cols*snap.Rows, "a screen's worth of text")
	assert.Equal(t, "last", snap.Lines[snap.Rows-1], "the run ended in its last line: no row after it")
	assert.Equal(t, [2]int{4, snap.Rows - 1}, [2]int{snap.CursorX, snap.CursorY})
	assert.Equal(t, strings.Repeat("x", snap.Cols), snap.Lines[snap.Rows-3], "the long line wrapped")
}

// A terminal job's new run is a fresh terminal: its screen in line mode
// holds the new run's lines only. It showed the runs before and the
// "── run 2 ──" line between them.
func TestALineModeScreenIsTheRunsOwn(t *testing.T) {
	m := newManager(t, Options{})
	info := start(t, m, Spec{TTY: true, Command: `echo run; echo done`})
	wait(t, m, info.ID)
	snap, err := m.Screen(info.ID)
	require.NoError(t, err)
	assert.Equal(t, []string{"run", "done", ""}, trimmed(snap.Lines)[:3])
	_, err = m.Restart(info.ID)
	require.NoError(t, err)
	wait(t, m, info.ID)
	snap, err = m.Screen(info.ID)
	require.NoError(t, err)
	assert.Equal(t, []string{"run", "done", ""}, trimmed(snap.Lines)[:3])
	assert.Equal(t, [2]int{0, 2}, [2]int{snap.CursorX, snap.CursorY})
}

// A job's screen in line mode is the text a terminal shows: nothing for
// SO and SI (a charset switch), BEL, NUL, DEL or a C1 control, a
// backspace played, line drawing as drawn ("\e(0l" is "┌"), colours
// kept and every other escape sequence gone, the same for a pipe job
// (whose lines keep their other sequences) as for a TTY job. Nothing in it can reach a terminal as a control: no control
// byte, no escape sequence but SGR.
func TestALineModeScreenShowsNoControls(t *testing.T) {
	m := newManager(t, Options{})
	out := `a\016b\017c\007d\bE\001f\177g\302\205h\033]0;title\007i\033[?25lj\033[31mk\033[0m\033(0l\033(B\000m\233Kn\304o\n`
	for _, spec := range []Spec{{Command: `printf '` + out + `'`}, {TTY: true, Command: `printf '` + out + `'`}} {
		info := start(t, m, spec)
		wait(t, m, info.ID)
		snap, err := m.Screen(info.ID)
		require.NoError(t, err)
		assert.Equal(t, "abcEfghijk┌mn\uFFFDo", snap.Lines[0], "tty %v", spec.TTY)
		assert.Equal(t, "abcEfghij\x1b[31mk\x1b[0m┌mn\uFFFDo", snap.ANSI[0], "tty %v", spec.TTY)
		for i := range snap.Lines {
			for _, row := range []string{snap.Lines[i], snap.ANSI[i]} {
				assert.Equal(t, termtext.Printed(row, true), row, "tty %v: row %d %q holds a control or a sequence but SGR", spec.TTY, i, row)
			}
		}
	}
}

// A bar drawn by an erase with a background colour is a row of that
// colour to the terminal's edge in a line-mode screen, a pipe job's as a
// TTY job's (the store plays the TTY job's), and a blank row as plain
// text: trailing blanks are trimmed there.
func TestALineModeScreenDrawsBars(t *testing.T) {
	m := newManager(t, Options{})
	for _, spec := range []Spec{{Command: `printf 'top\n\033[41m\033[K\n\033[0mend\n'`},
		{TTY: true, Command: `printf 'top\n\033[41m\033[K\n\033[0mend\n'`}} {
		info := start(t, m, spec)
		wait(t, m, info.ID)
		snap, err := m.Screen(info.ID)
		require.NoError(t, err)
		assert.Equal(t, []string{"top", "", "end"}, snap.Lines[:3], "tty %v", spec.TTY)
		assert.Equal(t, "\x1b[41m"+strings.Repeat(" ", snap.Cols)+"\x1b[0m", snap.ANSI[1], "tty %v", spec.TTY)
	}
	// Text with a bar after it is the text, as a row.
	info := start(t, m, Spec{Command: `printf 'ab\033[42m\033[K\033[0m\n'`})
	wait(t, m, info.ID)
	snap, err := m.Screen(info.ID)
	require.NoError(t, err)
	assert.Equal(t, "ab", snap.Lines[0])
}

// TestLineDrawingInBothModes: a box a job draws in the DEC Special
// Graphics set reads as its box characters in line mode, a pipe job's
// as a TTY job's (its log file keeps the bytes), and in screen mode,
// where the emulator draws it.
func TestLineDrawingInBothModes(t *testing.T) {
	m := newManager(t, Options{})
	box := `printf '\033(0lqqk\033(B\n'`
	for _, spec := range []Spec{{Command: box}, {TTY: true, Command: box}} {
		info := start(t, m, spec)
		info = wait(t, m, info.ID)
		out := outputText(t, m, info.ID)
		require.NotEmpty(t, out)
		assert.Equal(t, "┌──┐", termtext.Printed(out[0], false), "tty %v", spec.TTY)
		assert.Contains(t, readFile(t, info.LogPath), "\x1b(0lqqk\x1b(B", "tty %v: the log file keeps the bytes", spec.TTY)
	}
	info := start(t, m, Spec{TTY: true, Command: `printf '\033[?1049h\033[H\033(0lqqk\033(B box'; sleep 600`})
	waitFor(t, m, info.ID, "screen mode", func(i Info) bool { return i.Screen })
	screenOf(t, m, info.ID, "the box", func(s vtscreen.Snapshot) bool { return strings.TrimRight(s.Lines[0], " ") == "┌──┐ box" })
	require.NoError(t, m.Kill(info.ID))
}
