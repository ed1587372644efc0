package e2e

import (
	"fmt"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var sizeRE = regexp.MustCompile(`┌ fullscreen (\d+)x(\d+) `)

// fullscreenBox finds the full-screen program's box on screen, from its
// left edge at column x: its top and bottom rows and the size the
// program says it has.
func fullscreenBox(scr []string, x int) (top, bottom, cols, rows int, ok bool) {
	top = -1
	for i, r := range scr {
		cs := cells(r)
		if x >= len(cs) {
			continue
		}
		rest := strings.Join(cs[x:], "")
		switch {
		case top < 0 && sizeRE.MatchString(rest) && strings.HasPrefix(rest, "┌ fullscreen"):
			m := sizeRE.FindStringSubmatch(rest)
			cols, _ = strconv.Atoi(m[1])
			rows, _ = strconv.Atoi(m[2])
			top = i
		case top >= 0 && strings.HasPrefix(rest, "└─"):
			return top, i, cols, rows, true
		}
	}
	return 0, 0, 0, 0, false
}

// rowIs reports whether a row of the screen is text, trailing blanks
// aside (a job's line, not a command that contains it).
func rowIs(scr []string, text string) bool {
	for _, r := range scr {
		if strings.TrimRight(r, " ") == text {
			return true
		}
	}
	return false
}

// cells splits a screen row into its columns: a wide character takes
// two, the second "".
func cells(row string) []string {
	var out []string
	for _, r := range row {
		out = append(out, string(r))
		if ansi.StringWidth(string(r)) == 2 {
			out = append(out, "")
		}
	}
	return out
}

// boxFits reports whether the program's box at column x is drawn whole
// and exactly at the size it was given: as many rows as it says, its
// right edge in the column it says. why says what does not fit.
func boxFits(scr []string, x int) (cols, rows int, why string) {
	top, bottom, cols, rows, ok := fullscreenBox(scr, x)
	if !ok {
		return 0, 0, fmt.Sprintf("no box at column %d", x)
	}
	if bottom-top+1 != rows {
		return 0, 0, fmt.Sprintf("the box at column %d has %d rows, not the %d it was given", x, bottom-top+1, rows)
	}
	for y := top; y <= bottom; y++ {
		cs := cells(scr[y])
		if len(cs) < x+cols || !strings.Contains("┐│┘", cs[x+cols-1]) {
			return 0, 0, fmt.Sprintf("row %d does not end at column %d: %q", y, x+cols, scr[y])
		}
	}
	return cols, rows, ""
}

// waitBoxes waits until a box is drawn to fit at each column.
func waitBoxes(s *session, what string, xs ...int) []string {
	s.t.Helper()
	return s.waitFor(what, func(scr []string) bool {
		for _, x := range xs {
			if _, _, why := boxFits(scr, x); why != "" {
				return false
			}
		}
		return true
	})
}

// The full-screen program is drawn in jobtop's pane as a terminal would
// draw it: its box exactly the pane's size, colours, wide characters;
// typed into in input mode (ctrl+c included); resized with the terminal;
// and left cleanly, the pane back to lines.
func TestFullScreenProgramInAPane(t *testing.T) {
	bin, fs := binary(t), fullscreen(t)
	s := newSession(t, 100, 30, nil, bin, "--name", "full", "--", fs)
	scr := waitBoxes(s, "the box drawn to fit the pane", 0)
	cols, rows, _ := boxFits(scr, 0)
	require.Equal(t, 100, cols, "as wide as the pane")
	require.Contains(t, row(scr, "job 1 full"), "screen", "the header says it is a screen")
	require.Contains(t, row(scr, "wide:"), "│wide: 日本語 end ")
	colours := s.screenWithColours()
	require.Regexp(t, `38;5;208m(\x1b\[[0-9;]*m)*┌ fullscreen`, colours, "the box's colour reaches the terminal")
	require.Regexp(t, `\x1b\[31m(\x1b\[[0-9;]*m)*red`, colours)

	s.keys("Enter", "i")
	s.waitText("INPUT", "keys go to job 1 full")
	s.keys("a", "b", "C-c", "Up")
	s.waitText("keys: ab^C^[[A")
	require.Contains(t, row(s.screen(), "● 1 running"), "INPUT", "ctrl+c went to the job: jobtop did not quit or ask")

	s.tmux("resize-window", "-t", s.name, "-x", "80", "-y", "24")
	scr = s.waitFor("the box redrawn at 80 columns", func(scr []string) bool {
		c, _, why := boxFits(scr, 0)
		return why == "" && c == 80 && len(scr) == 24
	})
	_, rows2, _ := boxFits(scr, 0)
	require.Less(t, rows2, rows)

	s.keys("q")
	scr = s.waitText("fullscreen: bye", "✓ succeeded")
	require.NotContains(t, row(scr, "job 1 full"), "screen", "back in line mode")
	require.Contains(t, strings.Join(scr, "\n"), "job 1 full has ended · keys are dropped", "the job ended: input mode waits for ctrl+a")
	s.keys("q") // typed for the job: dropped, jobtop does not quit
	s.keys("C-a")
	s.waitFor("input mode to end", func(scr []string) bool { return !strings.Contains(strings.Join(scr, "\n"), "INPUT") })
	s.keys("q")
	require.Equal(t, "0", s.waitExit())
}

// Two full-screen programs side by side in a split view, each drawn at
// its pane's size; one typed into while a line job keeps writing.
func TestFullScreenProgramsInASplit(t *testing.T) {
	bin, fs := binary(t), fullscreen(t)
	s := newSession(t, 160, 40, nil, bin, "--name", "left,right,ticker", fs, fs,
		`i=0; while :; do i=$((i+1)); echo "tick $i"; sleep 0.1; done`)
	s.waitText("● 3 running")
	s.keys("s")
	s.waitText("split 3/3")
	// Each box sits inside its pane's border, one column in.
	lefts := func(scr []string) []int {
		var xs []int
		for _, r := range scr {
			if i := strings.Index(r, "│┌ fullscreen"); i >= 0 {
				xs = append(xs, ansi.StringWidth(r[:i])+1)
				if j := strings.LastIndex(r, "│┌ fullscreen"); j != i {
					xs = append(xs, ansi.StringWidth(r[:j])+1)
				}
			}
		}
		return xs
	}
	scr := s.waitFor("two boxes, each drawn to fit its pane", func(scr []string) bool {
		xs := lefts(scr)
		for _, x := range xs {
			if _, _, why := boxFits(scr, x); why != "" {
				return false
			}
		}
		return len(xs) == 2
	})

	s.keys("Enter", "i")
	s.waitText("INPUT")
	tick := func(scr []string) int {
		n := 0
		for _, r := range scr {
			if m := regexp.MustCompile(`tick (\d+)`).FindAllStringSubmatch(r, -1); m != nil {
				v, _ := strconv.Atoi(m[len(m)-1][1])
				n = max(n, v)
			}
		}
		return n
	}
	before := tick(s.screen())
	s.keys("h", "i")
	scr = s.waitFor("the keys in one box and more ticks", func(scr []string) bool {
		return strings.Contains(strings.Join(scr, "\n"), "keys: hi") && tick(scr) > before+3
	})
	require.Equal(t, 1, strings.Count(strings.Join(scr, "\n"), "keys: hi"), "only the pane typed into got the keys")
	require.Contains(t, strings.Join(scr, "\n"), "╔", "the pane typed into has a double box")

	s.tmux("resize-window", "-t", s.name, "-x", "120", "-y", "30")
	scr = s.waitFor("both boxes redrawn smaller", func(scr []string) bool {
		if len(scr) != 30 {
			return false
		}
		n := 0
		for _, r := range scr {
			for _, m := range sizeRE.FindAllStringSubmatch(r, -1) {
				if c, _ := strconv.Atoi(m[1]); c < 70 {
					n++
				}
			}
		}
		return n == 2
	})
	s.keys("C-a", "q", "y")
	require.Equal(t, "0", s.waitExit())
}

// A prompt is answered by typing in input mode, also one that asks on
// /dev/tty (a terminal job's own terminal, not jobtop's).
func TestPromptAnsweredInInputMode(t *testing.T) {
	bin := binary(t)
	s := newSession(t, 120, 30, nil, bin, "--name", "ask",
		`printf 'Overwrite? [y/N] ' > /dev/tty; read a < /dev/tty; echo "answer=$a"; sleep 60`)
	s.waitText("Overwrite? [y/N]")
	s.keys("Enter", "Enter") // focus the pane; enter on a terminal job types into it
	s.waitText("INPUT")
	s.keys("y", "Enter")
	s.waitText("answer=y")
	s.keys("C-a")
	s.waitFor("input mode to end", func(scr []string) bool { return !strings.Contains(strings.Join(scr, "\n"), "INPUT") })
	s.keys("q", "y")
	require.Equal(t, "0", s.waitExit())
}

// ctrl+c in input mode reaches the job (its terminal makes it SIGINT),
// not jobtop; outside input mode ctrl+c is jobtop's quit.
func TestCtrlCInInputModeReachesTheJob(t *testing.T) {
	bin := binary(t)
	s := newSession(t, 120, 30, nil, bin, "--name", "trap",
		`trap 'echo got-INT; exit 7' INT; echo "rea""dy"; while :; do sleep 0.1; done`)
	s.waitFor("ready", func(scr []string) bool { return rowIs(scr, "ready") })
	s.keys("Enter", "i")
	s.waitText("INPUT")
	s.keys("C-c")
	scr := s.waitText("got-INT", "✗ failed (7)")
	require.NotContains(t, strings.Join(scr, "\n"), "stop them and quit?", "jobtop did not take ctrl+c")
	s.keys("C-a", "C-c") // out of input mode: ctrl+c is jobtop's
	require.Equal(t, "0", s.waitExit())
}

// A job on a terminal sees one, of its pane's size, and its colours reach
// the pane.
func TestTerminalJobSeesATerminalAndKeepsColours(t *testing.T) {
	bin := binary(t)
	s := newSession(t, 120, 30, nil, bin, "--name", "tty",
		`while :; do if [ -t 1 ]; then printf '\033[31mis-a-tty\033[m %s\n' "$(stty size)"; fi; sleep 0.2; done`)
	s.waitFor("the job's line", func(scr []string) bool { // the command holds "is-a-tty" too
		return regexp.MustCompile(`is-a-tty \d+ \d+`).MatchString(strings.Join(scr, "\n"))
	})
	colours := s.screenWithColours()
	require.Regexp(t, `\x1b\[31m(\x1b\[[0-9;]*m)*is-a-tty`, colours)
	// The pane is the whole width and the rows below its header.
	scr := s.waitFor("the pane's size", func(scr []string) bool {
		return regexp.MustCompile(`is-a-tty \d+ 120`).MatchString(strings.Join(scr, "\n"))
	})
	require.Contains(t, strings.Join(scr, "\n"), "is-a-tty")
	s.keys("q", "y")
	require.Equal(t, "0", s.waitExit())
}

// An inline TUI (Ink's, as in Claude Code) or a multi-line progress
// display redraws its frame by moving the cursor up over it: the pane
// shows what a terminal shows, the lines before it and its last frame,
// not every frame it drew.
func TestARedrawOverLinesShowsAsInATerminal(t *testing.T) {
	bin := binary(t)
	erase := `printf '\033[2K\033[1A\033[2K\033[1A\033[2K\033[1A\033[2K\033[G'`
	s := newSession(t, 100, 30, nil, bin, "--name", "inline", "echo static line; "+
		"for i in $(seq 20); do [ $i -gt 1 ] && "+erase+"; printf '+----------+\n| frame %2d |\n+----------+\n> prompt' $i; sleep 0.02; done; sleep 600")
	scr := s.waitText("| frame 20 |")
	require.Contains(t, row(scr, "job 1 inline"), "screen", "the header says it is a screen")
	header := slices.IndexFunc(scr, func(r string) bool { return strings.Contains(r, "job 1 inline") })
	all := strings.Join(scr[header+1:], "\n") // the pane (the table shows the last line too)
	assert.Len(t, regexp.MustCompile(`(?m)^static line *$`).FindAllString(all, -1), 1, "the line before the frames, once: %s", all)
	assert.Equal(t, 2, strings.Count(all, "+----------+"), "one frame: %s", all)
	assert.NotContains(t, all, "| frame 19 |")
	assert.Equal(t, 1, strings.Count(all, "> prompt"))
	s.keys("q", "y")
	require.Equal(t, "0", s.waitExit())
}

// Escape sequences a terminal job writes never reach the real terminal:
// in line mode they are stripped as for pipes, in screen mode the
// emulator takes them and the pane draws only SGR.
func TestTerminalJobCannotReachTheTerminal(t *testing.T) {
	bin := binary(t)
	evil := `printf 'line\033]52;c;ZXZpbA==\007\033]0;owned\007 mode\n'; sleep 0.5; ` +
		`printf '\033[?1049h\033[Hscreen\033]52;c;ZXZpbA==\007\033]0;owned\007\033]8;;http://x\033\\link\033]8;;\033\\ mode'; sleep 60`
	s := newSession(t, 120, 30, nil, bin, "--name", "evil", evil)
	s.tmux("set-option", "-g", "set-clipboard", "on") // tmux takes OSC 52 from what runs in it
	s.waitText("screen")
	s.waitFor("screen mode", func(scr []string) bool { return strings.Contains(strings.Join(scr, "\n"), "screenlink mode") })
	title := strings.TrimSpace(s.tmux("display-message", "-p", "-t", s.name, "#{pane_title}"))
	require.NotContains(t, title, "owned", "the title was not changed")
	require.Empty(t, s.tmux("list-buffers"), "the clipboard was not written")
	require.NotContains(t, s.screenWithColours(), "http://x", "no hyperlink reaches the terminal")
	s.keys("q", "y")
	require.Equal(t, "0", s.waitExit())
}

// Quitting leaves nothing of terminal jobs running.
func TestQuitLeavesNoTerminalJob(t *testing.T) {
	bin, fs := binary(t), fullscreen(t)
	token := fmt.Sprintf("%d.%d", os.Getpid(), 7171)
	s := newSession(t, 120, 30, nil, bin, "--name", "full,sleeper", fs+" -fps 5 "+token, "sleep 9"+token)
	s.waitText("● 2 running")
	require.NotEmpty(t, processesWith(token))
	s.keys("q", "y")
	require.Equal(t, "0", s.waitExit())
	waitNoneLeft(t, token, deadline)
}

// jobtop attach draws a screen-mode job of the instance and types into
// it: the same screen, at the attached pane's size, over the API.
func TestAttachShowsScreensAndTypes(t *testing.T) {
	bin, fs := binary(t), fullscreen(t)
	in := startServe(t, bin)
	in.cli("run", "--tty", "--name", "full", "--", fs)
	s := newSession(t, 110, 30, in.sessionEnv(), bin, "attach")
	s.waitText("job 1 full")
	scr := waitBoxes(s, "the box drawn to fit the attached pane", 0)
	cols, _, _ := boxFits(scr, 0)
	require.Equal(t, 110, cols)
	s.keys("Enter", "i")
	s.waitText("INPUT")
	s.keys("x", "y", "C-c")
	s.waitText("keys: xy^C")
	s.keys("C-a", "q", "y")
	require.Equal(t, "0", s.waitExit())
	require.Equal(t, "running", in.state("full"), "the job keeps running in the instance")
}
