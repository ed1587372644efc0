package jobs

import (
	"bytes"
	"fmt"
	"os"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// partialOrLast is the line being built, else the last committed line.
func partialOrLast(t *testing.T, m *Manager, id ID) string {
	t.Helper()
	out, err := m.Output(id)
	require.NoError(t, err)
	c := out.Tail(1)
	if len(c.Partial) > 0 {
		return c.Partial[len(c.Partial)-1].Text
	}
	if len(c.Lines) > 0 {
		return c.Lines[len(c.Lines)-1].Text
	}
	return ""
}

func waitOutput(t *testing.T, m *Manager, id ID, want string) {
	t.Helper()
	eventually(t, "output "+want, func() bool { return strings.Contains(strings.Join(outputText(t, m, id), "\n"), want) })
}

func TestTTYJobSeesATerminalOfItsSize(t *testing.T) {
	m := newManager(t, Options{})
	info := start(t, m, Spec{TTY: true, Command: "test -t 0 && test -t 1 && test -t 2 && echo isatty; stty size; echo hi > /dev/tty && echo devtty"})
	assert.True(t, info.TTY)
	assert.Equal(t, DefaultCols, info.Cols)
	assert.Equal(t, DefaultRows, info.Rows)
	info = wait(t, m, info.ID)
	require.Equal(t, StateSucceeded, info.State, info.Error)
	assert.Equal(t, []string{"isatty", "50 200", "hi", "devtty"}, outputText(t, m, info.ID),
		"the terminal's \\r\\n ends lines and blanks none")
}

func TestTTYJobKeepsItsColours(t *testing.T) {
	m := newManager(t, Options{})
	info := start(t, m, Spec{TTY: true, Command: "ls --color=auto -d /; printf '\\033[31mred\\033[0m\\n'"})
	wait(t, m, info.ID)
	out := outputText(t, m, info.ID)
	require.Len(t, out, 2, "%q", out)
	assert.Contains(t, out[0], "\x1b[", "ls colours a directory on a terminal")
	assert.Equal(t, "\x1b[31mred\x1b[0m", out[1])
}

func TestTTYJobAnswersAPrompt(t *testing.T) {
	m := newManager(t, Options{})
	info := start(t, m, Spec{TTY: true, Shell: []string{"bash", "-c"}, Command: "read -p 'Overwrite? [y/N] ' a; echo \"answer=$a\""})
	eventually(t, "the prompt", func() bool { return partialOrLast(t, m, info.ID) == "Overwrite? [y/N] " })
	require.NoError(t, m.Input(info.ID, []byte("y\r")))
	info = wait(t, m, info.ID)
	assert.Equal(t, StateSucceeded, info.State)
	assert.Equal(t, []string{"Overwrite? [y/N] y", "answer=y"}, outputText(t, m, info.ID))
}

func TestTTYJobCtrlCIsAnInterrupt(t *testing.T) {
	m := newManager(t, Options{})
	info := start(t, m, Spec{TTY: true, Shell: []string{"bash", "-c"}, Command: "trap 'echo got INT; exit 7' INT; echo up; while :; do sleep 0.05; done"})
	waitOutput(t, m, info.ID, "up")
	require.NoError(t, m.Input(info.ID, []byte{3}))
	info = wait(t, m, info.ID)
	assert.Equal(t, StateFailed, info.State)
	assert.Equal(t, []string{"up", "^Cgot INT"}, outputText(t, m, info.ID), "the terminal echoes ^C, as a terminal does")
}

func TestTTYJobSeesResize(t *testing.T) {
	m := newManager(t, Options{})
	info := start(t, m, Spec{TTY: true, Shell: []string{"bash", "-c"}, Command: "trap 'stty size' WINCH; echo up; while :; do sleep 0.05; done"})
	waitOutput(t, m, info.ID, "up")
	require.NoError(t, m.Resize(info.ID, 80, 24))
	waitOutput(t, m, info.ID, "24 80")
	got, err := m.Get(info.ID)
	require.NoError(t, err)
	assert.Equal(t, [2]int{80, 24}, [2]int{got.Cols, got.Rows})
	// The next run starts at the size the job was given.
	_, err = m.Restart(info.ID)
	require.NoError(t, err)
	waitFor(t, m, info.ID, "the second run", func(i Info) bool { return i.Runs == 2 && i.State == StateRunning })
	_, err = m.Replace(info.ID, Spec{TTY: true, Command: "stty size"})
	require.NoError(t, err)
	// Replace keeps the job, and so its size.
	eventually(t, "the new run's size", func() bool {
		out := outputText(t, m, info.ID)
		return len(out) > 0 && out[len(out)-1] == "24 80"
	})
}

func TestInputToStdinPipe(t *testing.T) {
	m := newManager(t, Options{})
	info := start(t, m, Spec{Stdin: StdinPipe, Command: "read a; echo got=$a; read b; echo got=$b"})
	assert.Equal(t, StdinPipe, info.Stdin)
	require.NoError(t, m.Input(info.ID, []byte("hello\n")))
	require.NoError(t, m.Input(info.ID, []byte("world\n")))
	info = wait(t, m, info.ID)
	assert.Equal(t, []string{"got=hello", "got=world"}, outputText(t, m, info.ID))
}

func TestInputRefusals(t *testing.T) {
	m := newManager(t, Options{})
	pipes := start(t, m, Spec{Command: "sleep 600"})
	err := m.Input(pipes.ID, []byte("x"))
	require.ErrorAs(t, err, new(*InvalidActionError))
	assert.Contains(t, err.Error(), "stdin on /dev/null")
	err = m.Resize(pipes.ID, 80, 24)
	assert.EqualError(t, err, "cannot resize job 1: it runs on pipes, not on a terminal")

	done := start(t, m, Spec{TTY: true, Command: "true"})
	wait(t, m, done.ID)
	err = m.Input(done.ID, []byte("x"))
	assert.EqualError(t, err, "cannot send input to job 2: it has ended (succeeded)")
	assert.NoError(t, m.Resize(done.ID, 100, 30), "kept for the next run")
	assert.Error(t, m.Resize(done.ID, 0, 30))
	// In screen mode the emulator holds every cell (about 50 bytes
	// each): a size no terminal has would take gigabytes.
	assert.ErrorContains(t, m.Resize(done.ID, 10_000, 10_000), "out of range")
	assert.ErrorContains(t, m.Resize(done.ID, 2000, 2000), "at most 250000 cells")
	assert.NoError(t, m.Resize(done.ID, 1000, 250), "an 8K screen in a small font")
	assert.ErrorAs(t, m.Input(99, nil), new(*NotFoundError))

	// A job that does not read: Input gives up, and says how much went.
	stuck := start(t, m, Spec{TTY: true, Command: "stty -icanon; echo raw; sleep 600"})
	waitOutput(t, m, stuck.ID, "raw") // a line of 1 MiB is for a terminal out of line mode
	err = m.Input(stuck.ID, make([]byte, 1<<20))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "did not read its input within")
}

// TestInputRefusesALineTheTerminalWouldCut: a terminal in line mode
// keeps at most 4,095 bytes of a line and drops the rest, silently:
// the program read 4,095 of 6,000 and send said it went. Such input is
// refused whole, saying why; a line that fits goes, also one typed in
// parts, and one out of line mode takes any length.
func TestInputRefusesALineTheTerminalWouldCut(t *testing.T) {
	if canonicalLineMax == 0 {
		t.Skip("the line a terminal keeps here is not known")
	}
	m := newManager(t, Options{})
	info := start(t, m, Spec{TTY: true, Shell: []string{"bash", "-c"}, Command: "stty -echo; echo ready; while read -r l; do echo got ${#l}; done"})
	waitOutput(t, m, info.ID, "ready")
	long := bytes.Repeat([]byte("b"), 6000)
	err := m.Input(info.ID, append(long, '\n'))
	require.ErrorAs(t, err, new(*InvalidActionError))
	assert.Contains(t, err.Error(), "keeps at most 4095 bytes of a line")
	require.NoError(t, m.Input(info.ID, append(long[:canonicalLineMax], '\n')))
	waitOutput(t, m, info.ID, "got 4095")
	require.NoError(t, m.Input(info.ID, long[:3000]))
	err = m.Input(info.ID, append(long[:2000], '\n'))
	assert.ErrorContains(t, err, "nothing was sent", "3,000 and 2,000 make one line")
	require.NoError(t, m.Input(info.ID, append(long[:1000], '\n')))
	waitOutput(t, m, info.ID, "got 4000")
}

func TestTTYJobsLeaveNothingBehind(t *testing.T) {
	for _, tc := range []struct {
		name  string
		cmd   string
		end   func(m *Manager, id ID) error
		state State
	}{
		{"stop", tree + "wait", func(m *Manager, id ID) error { return m.Stop(id) }, StateKilled},
		{"kill", tree + "wait", func(m *Manager, id ID) error { return m.Kill(id) }, StateKilled},
		{"natural exit", exitOnUSR1, exitNow, StateFailed},
		{"ctrl+c", "trap 'exit 9' INT; " + tree + "while :; do sleep 0.05; done", func(m *Manager, id ID) error { return m.Input(id, []byte{3}) }, StateFailed},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := newManager(t, Options{})
			info, mark := startMarked(t, m, Spec{TTY: true, Command: tc.cmd}, 4)
			require.NoError(t, tc.end(m, info.ID))
			info = wait(t, m, info.ID)
			assert.Equal(t, tc.state, info.State)
			requireNoneLeft(t, mark)
		})
	}
	t.Run("timeout", func(t *testing.T) {
		m := newManager(t, Options{})
		mark := newMark(t)
		info := start(t, m, Spec{TTY: true, Command: tree + "wait", Timeout: 500 * time.Millisecond, Env: map[string]string{"TEST_MARK": mark}})
		info = wait(t, m, info.ID)
		assert.Equal(t, StateTimedOut, info.State)
		requireNoneLeft(t, mark)
	})
	t.Run("restart", func(t *testing.T) {
		m := newManager(t, Options{})
		info, mark := startMarked(t, m, Spec{TTY: true, Command: tree + "wait"}, 4)
		old := marked(mark)
		_, err := m.Restart(info.ID)
		require.NoError(t, err)
		waitFor(t, m, info.ID, "the second run", func(i Info) bool { return i.Runs == 2 && i.State == StateRunning })
		requireAllDead(t, old)
	})
	t.Run("shutdown", func(t *testing.T) {
		m, err := NewManager(Options{LogDir: t.TempDir()})
		require.NoError(t, err)
		mark := newMark(t)
		start(t, m, Spec{TTY: true, Command: tree + "wait", Env: map[string]string{"TEST_MARK": mark}})
		eventually(t, "the job's processes to start", func() bool { return len(marked(mark)) >= 4 })
		require.NoError(t, m.Shutdown(t.Context()))
		requireNoneLeft(t, mark)
	})
	t.Run("an interactive shell, which ignores SIGTERM", func(t *testing.T) {
		// It gets SIGHUP too, as when its terminal closes, rather than
		// wait out its grace (a minute here) for SIGKILL.
		m := newManager(t, Options{})
		info, mark := startMarked(t, m, Spec{TTY: true, Grace: time.Minute,
			Command: "sleep 600 & exec bash --norc --noprofile -i"}, 2)
		waitFor(t, m, info.ID, "the shell's prompt", func(Info) bool {
			return slices.ContainsFunc(outputText(t, m, info.ID), func(l string) bool { return strings.Contains(l, "$") || strings.Contains(l, "#") })
		})
		require.NoError(t, m.Stop(info.ID))
		info = waitWithin(t, m, info.ID, patience)
		assert.Equal(t, Signal(syscall.SIGHUP), info.Signal)
		requireNoneLeft(t, mark)
	})
	t.Run("a handler that ignores SIGTERM once it runs", func(t *testing.T) {
		// A graceful stop that sets SIG_IGN in its own handler (so a
		// second SIGTERM cannot cut its cleanup) is not hung up: whether
		// the stop signal is ignored is read before it is sent (rev46
		// saw 4 in 42 such stops hung up when it was read after).
		m := newManager(t, Options{})
		info := start(t, m, Spec{TTY: true, Grace: time.Minute,
			Command: `trap 'trap "" TERM; echo cleaning; sleep 0.3; echo clean exit; exit 0' TERM; echo ready; while :; do :; done`})
		waitFor(t, m, info.ID, "ready", func(Info) bool { return slices.Contains(outputText(t, m, info.ID), "ready") })
		require.NoError(t, m.Stop(info.ID))
		info = wait(t, m, info.ID)
		assert.NotEqual(t, Signal(syscall.SIGHUP), info.Signal, "not hung up: %v", outputText(t, m, info.ID))
		assert.Contains(t, outputText(t, m, info.ID), "clean exit")
	})
	t.Run("a process that ignores SIGHUP and SIGTERM", func(t *testing.T) {
		m := newManager(t, Options{})
		info, mark := startMarked(t, m, Spec{TTY: true, Grace: 200 * time.Millisecond,
			Command: "trap '' HUP TERM; sleep 600 & wait"}, 2)
		require.NoError(t, m.Stop(info.ID))
		info = wait(t, m, info.ID)
		assert.Equal(t, Signal(syscall.SIGKILL), info.Signal)
		requireNoneLeft(t, mark)
	})
}

// A TTY job's TERM names its terminal, not the one jobtop runs in; a
// spec's own TERM wins.
func TestTTYJobTerm(t *testing.T) {
	t.Setenv("TERM", "screen")
	m := newManager(t, Options{})
	tty := start(t, m, Spec{TTY: true, Command: "echo $TERM"})
	own := start(t, m, Spec{TTY: true, Command: "echo $TERM", Env: map[string]string{"TERM": "dumb"}})
	pipes := start(t, m, Spec{Command: "echo $TERM"})
	for id, want := range map[ID]string{tty.ID: "xterm-256color", own.ID: "dumb", pipes.ID: "screen"} {
		wait(t, m, id)
		assert.Equal(t, []string{want}, outputText(t, m, id))
	}
}

// A TTY job's terminal is jobtop's: what names the terminal jobtop runs
// in (tmux's session and pane, the terminal application) is not handed to
// it, unless its spec sets it. A job on pipes runs beside jobtop, and
// keeps them.
func TestTTYJobIsNotInJobtopsTerminal(t *testing.T) {
	t.Setenv("TMUX", "/tmp/tmux-0/default,4242,0")
	t.Setenv("TMUX_PANE", "%3")
	t.Setenv("TERM_PROGRAM", "tmux")
	t.Setenv("ZELLIJ", "0")            // zellij's: zellij action would act on the user's session
	t.Setenv("COLORTERM", "truecolor") // what the terminal can do, not which it is
	m := newManager(t, Options{})
	show := `echo "${TMUX-none} ${TMUX_PANE-none} ${TERM_PROGRAM-none} ${ZELLIJ-none} ${COLORTERM-none}"`
	tty := start(t, m, Spec{TTY: true, Command: show})
	own := start(t, m, Spec{TTY: true, Command: show, Env: map[string]string{"TMUX": "mine"}})
	pipes := start(t, m, Spec{Command: show})
	for id, want := range map[ID]string{
		tty.ID:   "none none none none truecolor",
		own.ID:   "mine none none none truecolor",
		pipes.ID: "/tmp/tmux-0/default,4242,0 %3 tmux 0 truecolor",
	} {
		wait(t, m, id)
		assert.Equal(t, []string{want}, outputText(t, m, id))
	}
}

func TestCloseInput(t *testing.T) {
	m := newManager(t, Options{})
	pipe := start(t, m, Spec{Stdin: StdinPipe, Command: "sort; echo end"})
	require.NoError(t, m.Input(pipe.ID, []byte("b\na\n")))
	require.NoError(t, m.CloseInput(pipe.ID))
	wait(t, m, pipe.ID)
	assert.Equal(t, []string{"a", "b", "end"}, outputText(t, m, pipe.ID))

	tty := start(t, m, Spec{TTY: true, Command: "stty -echo; echo ready; cat; echo end"})
	waitOutput(t, m, tty.ID, "ready")
	require.NoError(t, m.Input(tty.ID, []byte("x\r")))
	require.NoError(t, m.CloseInput(tty.ID))
	wait(t, m, tty.ID)
	assert.Equal(t, []string{"ready", "x", "end"}, outputText(t, m, tty.ID))

	open := start(t, m, Spec{Stdin: StdinPipe, Command: "sleep 600"})
	require.NoError(t, m.CloseInput(open.ID))
	assert.EqualError(t, m.Input(open.ID, []byte("x")), "cannot send input to job 3: its input was closed (it ended, or its stdin got EOF)")
}

// A resize that comes while the run is starting (the TUI sizes a new
// job's pane at once) is the size the job sees.
func TestTTYJobResizedWhileStarting(t *testing.T) {
	m := newManager(t, Options{})
	info := start(t, m, Spec{TTY: true, Command: "sleep 0.2; stty size"})
	require.NoError(t, m.Resize(info.ID, 81, 23))
	wait(t, m, info.ID)
	assert.Equal(t, []string{"23 81"}, outputText(t, m, info.ID))
}

// TestEOFAfterAPartLine: ending a terminal job's input after text with no
// line end still ends it (a canonical terminal's first ctrl+d only hands
// the line over); after a line end, or for a raw-mode program, one
// ctrl+d is sent.
func TestEOFAfterAPartLine(t *testing.T) {
	m := newManager(t, Options{})
	info := start(t, m, Spec{TTY: true, Command: "wc -c"})
	waitFor(t, m, info.ID, "running", func(i Info) bool { return i.State == StateRunning })
	require.NoError(t, m.Input(info.ID, []byte("abc")))
	require.NoError(t, m.CloseInput(info.ID))
	info = wait(t, m, info.ID)
	assert.Equal(t, StateSucceeded, info.State)
	out := outputText(t, m, info.ID)
	assert.True(t, strings.HasSuffix(strings.TrimSpace(out[len(out)-1]), "3"), "wc counted 3 bytes: %q", out)

	raw := start(t, m, Spec{TTY: true, Command: "stty raw -echo; echo ready; od -An -c -N 5"})
	eventually(t, "raw mode", func() bool { return strings.Contains(strings.Join(outputText(t, m, raw.ID), "\n"), "ready") })
	require.NoError(t, m.Input(raw.ID, []byte("ab")))
	require.NoError(t, m.CloseInput(raw.ID))
	require.NoError(t, m.Input(raw.ID, []byte("yz")))
	raw = wait(t, m, raw.ID)
	out = outputText(t, m, raw.ID)
	assert.Contains(t, strings.Join(out, "\n"), `a   b 004   y   z`, "one ctrl+d to a raw-mode program")
}

// TestEOFAfterAnErasedLine: a line typed and then erased (backspace, word
// erase, ctrl+u) leaves nothing to hand over, so ending input sends one
// ctrl+d: a second would end the next read too.
func TestEOFAfterAnErasedLine(t *testing.T) {
	m := newManager(t, Options{})
	// ctrl+h is no erase key on Linux (^? is), ctrl+v makes the next key
	// a character, and ctrl+w after "foo/bar" leaves "foo/": those lines
	// still have something to hand over.
	for _, typed := range []string{"日本\x7f\x7f", "abc\x7f\x7f\x7f", "ab cd\x17\x17", "abc\x15", "abc\r", "abc\b\b\b", "\x16\x04", "ab !!\x17", "foo/bar\x17"} {
		info := start(t, m, Spec{TTY: true, Command: `cat >/dev/null; echo next; read x; echo "got=$x"`})
		waitFor(t, m, info.ID, "running", func(i Info) bool { return i.State == StateRunning })
		require.NoError(t, m.Input(info.ID, []byte(typed)))
		require.NoError(t, m.CloseInput(info.ID))
		eventually(t, fmt.Sprintf("cat to end after %q: %q", typed, outputText(t, m, info.ID)), func() bool {
			return strings.Contains(strings.Join(outputText(t, m, info.ID), "\n"), "next") // 日 erased leaves the cursor a column in
		})
		require.NoError(t, m.Input(info.ID, []byte("zz\r")))
		wait(t, m, info.ID)
		assert.Contains(t, outputText(t, m, info.ID), "got=zz", "typed %q: the read after it was not ended", typed)
	}
}

// TestEOFAfterARawRead: what a program read in raw mode (a "press any
// key" prompt) leaves no line behind, so ending input after it sends one
// ctrl+d.
func TestEOFAfterARawRead(t *testing.T) {
	m := newManager(t, Options{})
	info := start(t, m, Spec{TTY: true,
		Command: `stty raw -echo; echo raw; dd bs=1 count=1 2>/dev/null >/dev/null; stty sane; cat >/dev/null; echo next; read x; echo "got=$x"`})
	eventually(t, "raw mode", func() bool { return strings.Contains(strings.Join(outputText(t, m, info.ID), "\n"), "raw") })
	require.NoError(t, m.Input(info.ID, []byte("y")))
	eventually(t, "dd to take the key", func() bool {
		return strings.Contains(strings.Join(outputText(t, m, info.ID), "\n"), "raw") && canonicalNow(t, m, info.ID)
	})
	require.NoError(t, m.CloseInput(info.ID))
	eventually(t, "cat to end", func() bool { return strings.Contains(strings.Join(outputText(t, m, info.ID), "\n"), "next") })
	require.NoError(t, m.Input(info.ID, []byte("zz\r")))
	wait(t, m, info.ID)
	assert.Contains(t, outputText(t, m, info.ID), "got=zz", "the read after cat was not ended")
}

// canonicalNow reports whether a TTY job's terminal edits lines now.
func canonicalNow(t *testing.T, m *Manager, id ID) bool {
	m.mu.Lock()
	p := m.jobs[id].proc
	m.mu.Unlock()
	return terminalKeys(p.input).canonical
}

// A resize that meets the job's terminal closed as its run ends is no
// error (the size is kept for the next run): the closed master says so
// as os.ErrClosed, not as the poller's "use of closed file", which the
// API answered with a 400 now and then (TestAPIAnswersAPromptAndReadsTheScreen).
func TestResizeOfAClosedTerminalIsErrClosed(t *testing.T) {
	master, slave, err := openPTY(80, 24)
	require.NoError(t, err)
	slave.Close()
	master.Close()
	assert.ErrorIs(t, setWinsize(master, 100, 30), os.ErrClosed)
}
