package jobs

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"jobtop/termtext"
)

// newLineStore is a store of a pipe job's output, or of a terminal's
// (80 columns), whose lines end with nl ("\n" or a terminal's "\r\n").
func newLineStore(tty bool) (s *OutputStore, nl string) {
	s = NewOutputStore(StoreOptions{})
	s.SetTerminal(tty, 80)
	if tty {
		return s, "\r\n"
	}
	return s, "\n"
}

// TestColoursLastAcrossLines: a colour set on one line and reset on a
// later one colours the lines between, as a terminal (tmux, xterm)
// draws them: each line stored starts with the colours in effect where
// the line before ended. A line after the reset has no escape at all.
func TestColoursLastAcrossLines(t *testing.T) {
	for _, tty := range []bool{false, true} {
		s, nl := newLineStore(tty)
		s.Append(Stdout, []byte(strings.ReplaceAll("\x1b[31mline1\nline2\x1b[0m\nplain\n", "\n", nl)))
		assert.Equal(t, []string{"\x1b[31mline1", "\x1b[31mline2\x1b[0m", "plain"}, texts(s.ReadAfter(0, 0).Lines), "tty %v", tty)

		// Read by read, wherever the reads end (inside the colour too).
		in := strings.ReplaceAll("\x1b[1m\x1b[44ma\nb\n\nc\x1b[0m\nd\n", "\n", nl)
		for split := range len(in) {
			s, _ := newLineStore(tty)
			s.Append(Stdout, []byte(in[:split]))
			s.Append(Stdout, []byte(in[split:]))
			assert.Equal(t, []string{"\x1b[1m\x1b[44ma", "\x1b[1;44mb", "", "\x1b[1;44mc\x1b[0m", "d"},
				texts(s.ReadAfter(0, 0).Lines), "tty %v, split at %d: an empty line stays empty, its pen goes on", tty, split)
		}
	}
}

// TestTerminalColoursLastAcrossEditedLines: a terminal's line whose edits
// are played (a restore of a saved cursor brings back the colours saved
// with it) leaves the colours in effect at its end, as played.
func TestTerminalColoursLastAcrossEditedLines(t *testing.T) {
	s, _ := newLineStore(true)
	s.Append(Stdout, []byte("\x1b[32m\x1b7\x1b[31mx\x1b8y\r\nnext\x1b[0m\r\n"))
	assert.Equal(t, []string{"\x1b[32my\x1b[0m", "\x1b[32mnext\x1b[0m"}, texts(s.ReadAfter(0, 0).Lines))
}

// TestColoursStayOnTheirStream: stdout's colours never reach stderr's
// lines, nor the reverse: each stream has its own pen.
func TestColoursStayOnTheirStream(t *testing.T) {
	for _, tty := range []bool{false, true} {
		s, nl := newLineStore(tty)
		s.Append(Stdout, []byte("\x1b[31mout"+nl))
		s.Append(Stderr, []byte("err"+nl+"\x1b[33mwarn"+nl))
		s.Append(Stdout, []byte("out2"+nl))
		s.Append(Stderr, []byte("err2"+nl))
		c := s.ReadAfter(0, 0)
		assert.Equal(t, []string{"\x1b[31mout", "err", "\x1b[33mwarn", "\x1b[31mout2", "\x1b[33merr2"}, texts(c.Lines), "tty %v", tty)
	}
}

// TestCarriedColoursAloneAreNoLine: a job that ends right after a
// coloured line has that one line: the colours waiting for the next line
// are no line and no line being built (no partial line, no last line of
// their own, no cursor moved, nothing at the run's end or a meta line).
func TestCarriedColoursAloneAreNoLine(t *testing.T) {
	for _, tty := range []bool{false, true} {
		s, nl := newLineStore(tty)
		s.Append(Stdout, []byte("\x1b[31mred"+nl))
		c := s.ReadAfter(0, 0)
		assert.Equal(t, []string{"\x1b[31mred"}, texts(c.Lines), "tty %v", tty)
		assert.Empty(t, c.Partial, "tty %v", tty)
		assert.Empty(t, s.Tail(5).Partial, "tty %v", tty)
		assert.Equal(t, "\x1b[31mred", s.LastLine(), "tty %v", tty)
		assert.Zero(t, s.PartialCursor(Stdout), "tty %v", tty)

		s.BreakLine(true)
		s.AppendMeta("── stopping ──")
		s.Append(Stdout, []byte("x"+nl))
		s.Flush()
		c = s.ReadAfter(0, 0)
		assert.Equal(t, []string{"\x1b[31mred", "── stopping ──", "\x1b[31mx"}, texts(c.Lines), "tty %v", tty)
		assert.Empty(t, c.Partial, "tty %v", tty)
		open, _ := s.LastLineOpen()
		assert.False(t, open, "tty %v", tty)
	}
}

// TestMetaLinesTakeNoColours: jobtop's own lines get no pen; the job's
// next line still does (a terminal has no meta lines), and so does the
// rest of a line a meta line cut.
func TestMetaLinesTakeNoColours(t *testing.T) {
	for _, tty := range []bool{false, true} {
		s, nl := newLineStore(tty)
		s.Append(Stdout, []byte("\x1b[31mred"+nl+"half"))
		s.AppendMeta("── healthy again ──")
		s.Append(Stdout, []byte("rest"+nl))
		assert.Equal(t, []string{"\x1b[31mred", "\x1b[31mhalf", "── healthy again ──", "\x1b[31mrest"},
			texts(s.ReadAfter(0, 0).Lines), "tty %v", tty)
	}
}

// TestTerminalColoursOfALineThatShowsNothingGoOn: a terminal's line that
// shows nothing (a colour set, no text yet) cut by a meta line is no
// line, and its colours colour the job's next text.
func TestTerminalColoursOfALineThatShowsNothingGoOn(t *testing.T) {
	s, _ := newLineStore(true)
	s.Append(Stdout, []byte("\x1b[35m"))
	s.AppendMeta("── stopping ──")
	s.Append(Stdout, []byte("text\r\n"))
	assert.Equal(t, []string{"── stopping ──", "\x1b[35mtext"}, texts(s.ReadAfter(0, 0).Lines))
}

// TestNewRunStartsWithNoColours: the end of a run lets its colours go:
// the next run's lines start with none.
func TestNewRunStartsWithNoColours(t *testing.T) {
	for _, tty := range []bool{false, true} {
		s, nl := newLineStore(tty)
		s.Append(Stdout, []byte("\x1b[31mred"+nl+"still"+nl))
		s.Flush()
		s.AppendMeta("── run 2 ──")
		s.Append(Stdout, []byte("plain"+nl))
		assert.Equal(t, []string{"\x1b[31mred", "\x1b[31mstill", "── run 2 ──", "plain"}, texts(s.ReadAfter(0, 0).Lines), "tty %v", tty)
	}
}

// TestColoursMatchAsText: a line coloured by the line before it is
// matched by its text (as wait --until, search and a ready pattern read
// it: termtext.Printed), its partial line as well.
func TestColoursMatchAsText(t *testing.T) {
	for _, tty := range []bool{false, true} {
		s, nl := newLineStore(tty)
		s.Append(Stdout, []byte("\x1b[31mline1"+nl+"line2"+nl+"line3"))
		c := s.ReadAfter(0, 0)
		require.Len(t, c.Lines, 2)
		require.Len(t, c.Partial, 1)
		assert.Equal(t, "line2", termtext.Printed(c.Lines[1].Text, false), "tty %v", tty)
		assert.Equal(t, "line3", termtext.Printed(c.Partial[0].Text, false), "tty %v", tty)
		assert.Equal(t, "\x1b[31mline3", c.Partial[0].Text, "tty %v: the line being built is drawn red", tty)
		assert.Equal(t, 5, s.PartialCursor(Stdout), "tty %v: the pen takes no cell", tty)
	}
}

// TestCarriedPenIsBounded: a line of hundreds of colour changes, never
// reset, carries at most a folded pen (termtext's bound) to the next
// line, and a line with the pen stays within MaxLineBytes.
func TestCarriedPenIsBounded(t *testing.T) {
	for _, tty := range []bool{false, true} {
		s := NewOutputStore(StoreOptions{MaxLineBytes: 256})
		s.SetTerminal(tty, 80)
		var b strings.Builder
		for i := range 300 {
			b.WriteString("\x1b[3" + string(rune('1'+i%7)) + "m\x1b[4" + string(rune('1'+i%7)) + "mx")
		}
		s.Append(Stdout, []byte(b.String()+"\n"+strings.Repeat("y", 600)+"\n"))
		lines := texts(s.ReadAfter(0, 0).Lines)
		for i, l := range lines {
			assert.LessOrEqual(t, len(l), 256, "tty %v: line %d", tty, i)
		}
		ys := len(lines) - 3 // the line of y, in pieces of at most 256 bytes
		require.Equal(t, strings.Repeat("y", 600), termtext.Printed(strings.Join(lines[ys:], ""), false), "tty %v", tty)
		pen := termtext.Pen(lines[ys-1])
		assert.NotEmpty(t, pen, "tty %v", tty)
		assert.LessOrEqual(t, len(pen), 128, "tty %v: folded", tty)
		for _, l := range lines[ys:] {
			assert.True(t, strings.HasPrefix(l, pen+"y"), "tty %v: %q", tty, l)
		}
	}
}

// TestResetColoursCarryNoPen: colours reset on their own line leave
// none for the next: it is stored as written.
func TestResetColoursCarryNoPen(t *testing.T) {
	for _, tty := range []bool{false, true} {
		s, nl := newLineStore(tty)
		s.Append(Stdout, []byte("\x1b[32mok\x1b[0m"+nl+"plain"+nl))
		s.Append(Stdout, []byte("more"+nl))
		assert.Equal(t, []string{"\x1b[32mok\x1b[0m", "plain", "more"}, texts(s.ReadAfter(0, 0).Lines), "tty %v", tty)
	}
}

// TestJobColoursLastAcrossLines: a pipe job's and a terminal job's
// colour set on one line and reset on a later one colours the lines
// between; a job that ends right after a coloured line has that one
// line; and a restart's run starts with no colours.
func TestJobColoursLastAcrossLines(t *testing.T) {
	m := newManager(t, Options{})
	dir := t.TempDir()
	for _, tty := range []bool{false, true} {
		info := start(t, m, Spec{TTY: tty, Command: `printf '\033[31mline1\nline2\033[0m\nplain\n'`})
		wait(t, m, info.ID)
		assert.Equal(t, []string{"\x1b[31mline1", "\x1b[31mline2\x1b[0m", "plain"}, outputText(t, m, info.ID), "tty %v", tty)

		mark := dir + "/ran-" + map[bool]string{false: "pipes", true: "tty"}[tty]
		info = start(t, m, Spec{TTY: tty, Command: `if [ -e ` + mark + ` ]; then echo plain; else : > ` + mark + `; printf '\033[31mred\n'; fi`})
		wait(t, m, info.ID)
		assert.Equal(t, []string{"\x1b[31mred"}, outputText(t, m, info.ID), "tty %v: one line", tty)
		_, err := m.Restart(info.ID)
		require.NoError(t, err)
		waitFor(t, m, info.ID, "the second run's end", func(i Info) bool { return i.Runs == 2 && i.State.Ended() })
		lines := outputText(t, m, info.ID)
		assert.Equal(t, "plain", lines[len(lines)-1], "tty %v: %q", tty, lines)
	}
}

// TestColoursClosedOneByOneCarryNoPen: colours closed by their own codes
// rather than a reset (chalk's "\e[31m...\e[39m", "\e[1m...\e[22m", as
// Node programs write them) leave none in effect: the next line is
// stored as written, with no escape, and nothing piles up line by line.
func TestColoursClosedOneByOneCarryNoPen(t *testing.T) {
	for _, tty := range []bool{false, true} {
		s, nl := newLineStore(tty)
		for range 50 {
			s.Append(Stdout, []byte("\x1b[31mFAIL\x1b[39m \x1b[1mtest\x1b[22m \x1b[4m\x1b[44mx\x1b[49m\x1b[24m"+nl+"plain"+nl))
		}
		lines := texts(s.ReadAfter(0, 0).Lines)
		require.Len(t, lines, 100)
		for i := 1; i < len(lines); i += 2 {
			require.Equal(t, "plain", lines[i], "tty %v, line %d", tty, i)
			require.Equal(t, "\x1b[31mFAIL\x1b[39m \x1b[1mtest\x1b[22m \x1b[4m\x1b[44mx\x1b[49m\x1b[24m", lines[i-1], "tty %v, line %d", tty, i-1)
		}
	}
}

// TestATerminalResetEndsCarriedColours: a terminal reset (RIS, "\ec", as
// reset(1) writes; DECSTR, "\e[!p") ends the colours in effect, as
// "\e[0m" does: nothing is carried past it.
func TestATerminalResetEndsCarriedColours(t *testing.T) {
	for _, tty := range []bool{false, true} {
		for _, reset := range []string{"\x1bc", "\x1b[!p"} {
			s, nl := newLineStore(tty)
			s.Append(Stdout, []byte(strings.ReplaceAll("\x1b[31mred"+reset+"plain\nnext\n\x1b[32mgreen\n"+reset+"after\n", "\n", nl)))
			lines := texts(s.ReadAfter(0, 0).Lines)
			require.Len(t, lines, 4, "tty %v %q: %q", tty, reset, lines)
			assert.Equal(t, "next", lines[1], "tty %v %q", tty, reset)
			assert.Equal(t, "\x1b[32mgreen", lines[2])
			assert.Equal(t, "after", termtext.Printed(termtext.Pen(lines[3])+lines[3], false), "tty %v %q", tty, reset)
			assert.Empty(t, termtext.Pen(lines[3]), "tty %v %q: %q", tty, reset, lines[3])
		}
	}
}
