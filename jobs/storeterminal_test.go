package jobs

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"jobtop/termtext"
)

// TestTerminalLinesKeepTextAndColours: a terminal's lines keep what it
// prints and its colours (SGR), nothing else of the sequences and
// controls it does not print, and their line edits are still played.
func TestTerminalLinesKeepTextAndColours(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		lines    []string
		partial  string
	}{
		{"cursor hidden around a question", "\x1b[?25lProceed? [y/N] \x1b[?25h\n", []string{"Proceed? [y/N] "}, ""},
		{"bash's bracketed paste at its prompt", "\x1b[?2004hroot@vm:~# echo hi\r\nhi\r\n\x1b[?2004hroot@vm:~# ", []string{"root@vm:~# echo hi", "hi"}, "root@vm:~# "},
		{"colours are kept", "\x1b[1;31merror\x1b[0m: \x1b[38;5;2mx\x1b[m\n", []string{"\x1b[1;31merror\x1b[0m: \x1b[38;5;2mx\x1b[m"}, ""},
		{"a charset switch, its line drawing drawn", "\x1b(0lqk\x1b(B ok\n", []string{"┌─┐ ok"}, ""},
		{"shift out and in", "a\x0eb\x0fc\n", []string{"abc"}, ""},
		{"DECALN", "\x1b#8x\n", []string{"x"}, ""},
		{"a reset", "\x1bcx\n", []string{"x"}, ""},
		{"reverse video and scrollback clear", "\x1b[?5hflash\x1b[?5l\x1b[3J\n", []string{"flash"}, ""},
		{"queries", "\x1b[6n\x1b]11;?\x07\x1b[cq\n", []string{"q"}, ""},
		{"a title and the clipboard (OSC 52)", "\x1b]0;owned\x1b\\a\x1b]52;c;ZXZpbA==\x07b\n", []string{"ab"}, ""},
		{"vim's title restore", "\x1b[23;0;0tdone\n", []string{"done"}, ""},
		{"C1 controls, UTF-8 and raw", "\u009b?25la\u009d0;t\u009cb\x9b?25hc\n", []string{"abc"}, ""},
		{"a cursor move on the main screen", "\x1b[5;1Hx\x1b[Ay\n", []string{"xy"}, ""},
		{"tabs, wide text and bytes not UTF-8 stay", "a\tb 日本 \xff\x1b[?25l\n", []string{"a\tb 日本 \xff"}, ""},
		{"a line only of codes is an empty row", "a\n\x1b[?25l\nb\n", []string{"a", "", "b"}, ""},
		{"line edits are played among them", "\x1b[?2004hecho helloo\b\x1b[K\x1b[?25h\r\n", []string{"echo hello"}, ""},
		{"a \\r redraw among them", "\x1b[?25l 50%\r\x1b[?25l100%\x1b[?25h\n", []string{"100%"}, ""},
		{"a \\r on a prompt", "\x1b[?2004h$ ls\r\x1b[C\x1b[C\x1b[K\x1b[?2004l\r\n", []string{"$ "}, ""},
		{"the line being built", "\x1b]0;t\x07\x1b[32mbuil\x1b[?25l", nil, "\x1b[32mbuil"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := NewOutputStore(StoreOptions{})
			s.SetTerminal(true, 80)
			s.Append(Stdout, []byte(tc.in))
			c := s.ReadAfter(0, 0)
			assert.Equal(t, tc.lines, nilIfEmpty(texts(c.Lines)))
			partial := ""
			if len(c.Partial) > 0 {
				partial = c.Partial[0].Text
			}
			assert.Equal(t, tc.partial, partial)
			last := partial
			if last == "" && len(tc.lines) > 0 {
				last = tc.lines[len(tc.lines)-1]
			}
			assert.Equal(t, last, s.LastLine())
		})
	}
}

// TestPipeLinesKeepTheirSequences: off a terminal, lines are kept as
// written (a reader shows them safely: termtext.Visible).
func TestPipeLinesKeepTheirSequences(t *testing.T) {
	s := NewOutputStore(StoreOptions{})
	s.Append(Stdout, []byte("\x1b[?25lProceed?\x1b[?25h\n"))
	assert.Equal(t, []string{"\x1b[?25lProceed?\x1b[?25h"}, texts(s.ReadAfter(0, 0).Lines))
}

// TestTerminalCodesAloneMakeNoLine: what a run's end or a clear cuts of
// a terminal's line that shows nothing (vim's title restore and cursor
// show at its exit, a clear's own sequences) is no line: a terminal
// shows none for it.
func TestTerminalCodesAloneMakeNoLine(t *testing.T) {
	s := NewOutputStore(StoreOptions{})
	s.SetTerminal(true, 80)
	s.Append(Stdout, []byte("edited\r\n\x1b[23;0;0t\x1b[?25h\x1b[>4;m"))
	s.Flush()
	assert.Equal(t, []string{"edited"}, texts(s.ReadAfter(0, 0).Lines))
	open, _ := s.LastLineOpen()
	assert.False(t, open, "the cursor is on a row of its own, after the line")
	assert.Equal(t, "edited", s.LastLine())

	// Colours alone show nothing either: a run that ends with a reset
	// (tput sgr0) made a blank last line, the job's last_line.
	s.Append(Stdout, []byte("\x1b(B\x1b[m"))
	s.Flush()
	s.Append(Stdout, []byte("\x1b[32mok\x1b[0m\n\x1b[?25h\x1b[0m"))
	s.Flush()
	assert.Equal(t, []string{"edited", "\x1b[32mok\x1b[0m"}, texts(s.ReadAfter(0, 0).Lines))
	assert.Equal(t, "\x1b[32mok\x1b[0m", s.LastLine())

	// A prompt's colour reset, the job waiting for input: no blank last
	// line meanwhile (wait --until '^$' matched it).
	s.Append(Stdout, []byte("Name?\n\x1b[0m"))
	assert.Equal(t, "Name?", s.LastLine())
	s.Append(Stdout, []byte("amy\n"))
	assert.Equal(t, "\x1b[0mamy", s.LastLine())

	// A colour set before a clear colours what follows it.
	s.Append(Stdout, []byte("\x1b[31m\x1b[H\x1b[2J"))
	s.BreakLine(false)
	s.Append(Stdout, []byte("red\n\x1b[0m"))
	s.Flush()
	assert.Equal(t, "\x1b[31mred", s.LastLine())

	s.Append(Stdout, []byte("\x1b[H\x1b[2J"))
	s.BreakLine(false)
	s.Append(Stdout, []byte("after\n"))
	assert.Equal(t, []string{"edited", "\x1b[32mok\x1b[0m", "Name?", "\x1b[0mamy", "\x1b[31mred", "after"}, texts(s.ReadAfter(0, 0).Lines))

	// A line that shows something is kept, at a run's end too.
	s.Append(Stdout, []byte("\x1b[?25lprompt$ \x1b[?25h"))
	s.Flush()
	assert.Equal(t, []string{"edited", "\x1b[32mok\x1b[0m", "Name?", "\x1b[0mamy", "\x1b[31mred", "after", "prompt$ "}, texts(s.ReadAfter(0, 0).Lines))
	open, x := s.LastLineOpen()
	assert.True(t, open)
	assert.Equal(t, 8, x)
}

// TestLastLinePlacesCursor: a terminal's newest line written with moves
// of the cursor to a row is kept without them, and says it had them.
func TestLastLinePlacesCursor(t *testing.T) {
	s := NewOutputStore(StoreOptions{})
	s.SetTerminal(true, 80)
	s.Append(Stdout, []byte("\x1b[1;1HCPU 1%\x1b[2;1HMEM 2%"))
	assert.Equal(t, "CPU 1%MEM 2%", s.LastLine())
	assert.True(t, s.LastLinePlacesCursor(), "the line being built")
	s.Append(Stdout, []byte("\n"))
	assert.True(t, s.LastLinePlacesCursor(), "committed")
	s.Append(Stdout, []byte("\x1b[?25lplain\n"))
	assert.False(t, s.LastLinePlacesCursor())

	pipe := NewOutputStore(StoreOptions{})
	pipe.Append(Stdout, []byte("\x1b[1;1Hx\n"))
	require.False(t, pipe.LastLinePlacesCursor(), "only a terminal's lines say so")
}

// TestTerminalMovesAloneShowNothing: a line that only moves the cursor
// along the row and sets colours prints no cell: a terminal shows the
// line before it as the last one. It is dropped at a run's end and
// passed over by LastLine, as a line of codes at the row's start is;
// one that prints spaces after its move shows them and is kept.
func TestTerminalMovesAloneShowNothing(t *testing.T) {
	s := NewOutputStore(StoreOptions{})
	s.SetTerminal(true, 80)
	s.Append(Stdout, []byte("done\n\x1b[5C\x1b[0m"))
	assert.Equal(t, "done", s.LastLine(), "the job waits: no blank last line")
	assert.False(t, s.LastLinePlacesCursor())
	s.Flush()
	assert.Equal(t, []string{"done"}, texts(s.ReadAfter(0, 0).Lines), "dropped at the run's end")
	assert.Equal(t, "done", s.LastLine())

	s.Append(Stdout, []byte("\x1b[3G\x1b[2D\x1b[32m"))
	assert.Equal(t, "done", s.LastLine())
	assert.Equal(t, 0, s.PartialCursor(Stdout))
	s.Flush()
	assert.Equal(t, []string{"done"}, texts(s.ReadAfter(0, 0).Lines))

	// A clear that keeps the cursor: the row shows nothing, the cursor
	// stays in its column on the next.
	s.Append(Stdout, []byte("\x1b[5C\x1b[2J"))
	s.BreakLine(true)
	assert.Equal(t, []string{"done"}, texts(s.ReadAfter(0, 0).Lines))
	assert.Equal(t, 5, s.PartialCursor(Stdout))
	s.Append(Stdout, []byte("x\n"))
	assert.Equal(t, "     x", s.LastLine())

	// Spaces printed after a move are cells shown: kept.
	s.Append(Stdout, []byte("\x1b[5C  \x1b[0m"))
	assert.Equal(t, "       ", s.LastLine())
	s.Flush()
	assert.Equal(t, []string{"done", "     x", "       "}, texts(s.ReadAfter(0, 0).Lines))

	// A tab moves the cursor and prints nothing.
	s.Append(Stdout, []byte("end\n\t"))
	assert.Equal(t, "end", s.LastLine(), "a tab alone is no last line")
	s.Flush()
	assert.Equal(t, []string{"done", "     x", "       ", "end"}, texts(s.ReadAfter(0, 0).Lines))
}

// TestTerminalBarsShowSomething: an erase in line with a background
// colour set draws a row of that colour to the terminal's edge
// (printf '\e[41m\e[K\n', a red bar): it is kept as the terminal's
// width of blanks in that colour, at a run's end too, and it is the last
// line; a line of codes that colour nothing is still no line.
func TestTerminalBarsShowSomething(t *testing.T) {
	bar := "\x1b[41m" + strings.Repeat(" ", 20) + "\x1b[0m"
	s := NewOutputStore(StoreOptions{})
	s.SetTerminal(true, 20)
	s.Append(Stdout, []byte("top\n\x1b[41m\x1b[K\n\x1b[0m"))
	assert.Equal(t, bar, s.LastLine())
	s.Flush()
	assert.Equal(t, []string{"top", bar}, texts(s.ReadAfter(0, 0).Lines))

	s.Append(Stdout, []byte("\x1b[41m\x1b[K"))
	assert.Equal(t, bar, s.LastLine(), "the line being built")
	s.Flush()
	assert.Equal(t, []string{"top", bar, bar}, texts(s.ReadAfter(0, 0).Lines), "kept at a run's end")

	s.Append(Stdout, []byte("\x1b[0m\x1b[?25l\x1b[31m\x1b[K"))
	assert.Equal(t, bar, s.LastLine())
	s.Flush()
	assert.Equal(t, []string{"top", bar, bar}, texts(s.ReadAfter(0, 0).Lines), "no background: nothing shown")

	// A bar under text after a carriage return: the text over it.
	s.Append(Stdout, []byte("\x1b[44m\x1b[K\x1b[0m\rok\n"))
	assert.Equal(t, "ok\x1b[44m"+strings.Repeat(" ", 18)+"\x1b[0m", s.LastLine())
}

// TestTerminalColoursLastPastACarriageReturn: text written after a "\r"
// on a line with edits is drawn in the colours in effect, as on the
// terminal: a bar's label written over it after "\r" is on the bar's
// colour, not on the default background.
func TestTerminalColoursLastPastACarriageReturn(t *testing.T) {
	s := NewOutputStore(StoreOptions{})
	s.SetTerminal(true, 10)
	s.Append(Stdout, []byte("\x1b[41m\x1b[K\rFAIL\x1b[0m\n"))
	assert.Equal(t, "\x1b[41mFAIL      \x1b[0m", s.LastLine())
	s.Append(Stdout, []byte("\x1b[32mab\bc\rd"))
	assert.Equal(t, "\x1b[32mdc\x1b[0m", s.LastLine())
	// A hundred thousand redraws keep it one short line.
	for range 100_000 {
		s.Append(Stdout, []byte("\r\x1b[33m\x1b[Kxy"))
	}
	assert.Equal(t, "\x1b[33mxy\x1b[0m", s.LastLine())
	assert.Less(t, s.Stats().Memory, int64(64<<10))
}

// TestTerminalSaveRestoreSpinnerIsOneLine: a spinner drawn over a saved
// cursor ("\e7|\e8", "\e[s/\e[u"), tens of kilobytes of frames, is one
// line on a terminal, as the last frame left it.
func TestTerminalSaveRestoreSpinnerIsOneLine(t *testing.T) {
	for _, frame := range []string{"\x1b[s%c\x1b[u", "\x1b7\x1b[33m%c\x1b[0m\x1b8"} {
		s := NewOutputStore(StoreOptions{})
		s.SetTerminal(true, 80)
		s.Append(Stdout, []byte("Working "))
		for i := range 20_000 {
			s.Append(Stdout, []byte(fmt.Sprintf(frame, `|/-\`[i%4])))
		}
		s.Append(Stdout, []byte("done\n"))
		assert.Equal(t, []string{"Working done"}, texts(s.ReadAfter(0, 0).Lines), "%q", frame)
	}
}

// TestPipeLinesPlayTheirEdits: a pipe job's lines play their backspaces,
// cursor moves, erases and a saved cursor's restores as a terminal (and
// `jobtop screen`) shows them, wherever its reads end; the line being
// built too. Its other sequences are kept as written, and a line with no
// edit is kept as it is (bells included).
func TestPipeLinesPlayTheirEdits(t *testing.T) {
	for _, tc := range []struct{ in, line string }{
		{"abc\b\bZ\n", "aZc"},
		{"\x1b[31mabc\x1b[2D\x1b[KZ\x1b[0m\n", "\x1b[31maZ\x1b[0m"},
		{"Working \x1b7|\x1b8/\x1b8-\x1b8done\n", "Working done"},
		{"a\x1b[sb\x1b[uc\n", "ac"},
		{"\x1b[?25lno edit\x07\n", "\x1b[?25lno edit\x07"},
	} {
		for split := range len(tc.in) {
			s := NewOutputStore(StoreOptions{})
			s.Append(Stdout, []byte(tc.in[:split]))
			s.Append(Stdout, []byte(tc.in[split:]))
			assert.Equal(t, []string{tc.line}, texts(s.ReadAfter(0, 0).Lines), "%q split at %d", tc.in, split)
		}
	}
	s := NewOutputStore(StoreOptions{})
	s.Append(Stdout, []byte("abc\b\bZ"))
	assert.Equal(t, "aZc", s.ReadAfter(0, 0).Partial[0].Text)
	assert.Equal(t, "aZc", s.LastLine())
	assert.Equal(t, 2, s.PartialCursor(Stdout))
}

// TestPipeSaveRestoreSpinnerIsOneLine: a spinner drawn over a saved
// cursor on a pipe, tens of kilobytes of frames, is one line, as on a
// terminal (TestTerminalSaveRestoreSpinnerIsOneLine); and so is one
// drawn with backspaces.
func TestPipeSaveRestoreSpinnerIsOneLine(t *testing.T) {
	for _, frame := range []string{"\x1b[s%c\x1b[u", "\x1b7\x1b[33m%c\x1b[0m\x1b8", "%c\b"} {
		s := NewOutputStore(StoreOptions{})
		s.Append(Stdout, []byte("Working "))
		for i := range 20_000 {
			s.Append(Stdout, []byte(fmt.Sprintf(frame, `|/-\`[i%4])))
		}
		s.Append(Stdout, []byte("done\n"))
		assert.Equal(t, []string{"Working done"}, texts(s.ReadAfter(0, 0).Lines), "%q", frame)
	}
}

// TestLineDrawingIsDrawn: text a job draws in the DEC Special Graphics
// set (line drawing) is kept as a terminal draws it, on a pipe as on a
// terminal, across lines and reads, and with G1 shifted in and out.
func TestLineDrawingIsDrawn(t *testing.T) {
	for _, tty := range []bool{false, true} {
		in := "\x1b(0lqk\nx x\nmqj\x1b(B ok\n\x1b)0a\x0eqq\x0fb\n"
		for split := range len(in) {
			s := NewOutputStore(StoreOptions{})
			s.SetTerminal(tty, 80)
			s.Append(Stdout, []byte(in[:split]))
			s.Append(Stdout, []byte(in[split:]))
			lines := texts(s.ReadAfter(0, 0).Lines)
			for i := range lines {
				lines[i] = termtext.Printed(lines[i], false)
			}
			assert.Equal(t, []string{"┌─┐", "│ │", "└─┘ ok", "a──b"}, lines, "tty %v, split at %d", tty, split)
		}
	}
	// A new run starts in ASCII.
	s := NewOutputStore(StoreOptions{})
	s.Append(Stdout, []byte("\x1b(0q"))
	s.Flush()
	s.Append(Stdout, []byte("q\n"))
	assert.Equal(t, []string{"\x1b(0─", "q"}, texts(s.ReadAfter(0, 0).Lines))
}

// TestPipeCarriageReturnKeepsThePlayedColours: after a "\r" a pipe's
// line starts again in the colours in effect as its edits leave them: a
// restore of a saved cursor brings back the colours saved with it.
func TestPipeCarriageReturnKeepsThePlayedColours(t *testing.T) {
	s := NewOutputStore(StoreOptions{})
	s.Append(Stdout, []byte("\x1b[32m\x1b7\x1b[31mx\x1b8\ry\n"))
	assert.Equal(t, []string{"\x1b[32my"}, texts(s.ReadAfter(0, 0).Lines))
}
