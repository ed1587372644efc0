package jobs

import (
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"jobtop/termtext"
)

// osc8 is a hyperlink's opening sequence longer than 64 bytes.
const osc8 = "\x1b]8;;https://example.com/a/rather/long/path/that/goes/past/sixty-four/bytes?q=1\x1b\\"

// cutSamples are what a long line's cut may fall inside of.
var cutSamples = map[string]string{
	"SGR":             "\x1b[33m",
	"24-bit colour":   "\x1b[38;2;255;128;0m",
	"OSC 8 link":      osc8 + "link\x1b]8;;\x1b\\",
	"OSC 8 with BEL":  strings.ReplaceAll(osc8, "\x1b\\", "\a") + "link",
	"OSC title":       "\x1b]0;" + strings.Repeat("t", 100) + "\a",
	"DCS":             "\x1bPq#0;2;0;0;0\x1b\\",
	"charset":         "\x1b(B",
	"C1 CSI as UTF-8": "\u009b33m",
	"é":               "é",
	"日本":              "日本",
	"emoji":           "😀",
	"braille spinner": "⠋⠙⠹",
}

// pieceLines feeds in to a store in two reads, split at split, and
// returns its lines.
func pieceLines(tty bool, maxLine int, in string, split int) []string {
	s := NewOutputStore(StoreOptions{MaxLineBytes: maxLine})
	s.SetTerminal(tty, 80)
	s.Append(Stdout, []byte(in[:split]))
	s.Append(Stdout, []byte(in[split:]))
	return texts(s.ReadAfter(0, 0).Lines)
}

// requirePieces checks the pieces a long line (in, its newline left out)
// was cut into: each within maxLine and not ending inside a sequence or
// a character, no U+FFFD that in had not, and together in (a terminal's:
// as it prints in, its colours kept), each piece after the first opening
// with the colours in effect where the one before ended, on pipes too.
func requirePieces(t *testing.T, tty bool, maxLine int, in string, lines []string, what string) {
	t.Helper()
	require.Greater(t, len(lines), 1, "%s: cut", what)
	var joined strings.Builder
	for i, l := range lines {
		require.LessOrEqual(t, len(l), maxLine, "%s: piece %d", what, i)
		require.Equal(t, len(l), termtext.Unfinished(l), "%s: piece %d ends inside a sequence: %q", what, i, l)
		if !strings.Contains(in, "\uFFFD") {
			require.NotContains(t, termtext.Visible(l, true), "\uFFFD", "%s: piece %d", what, i)
		}
		if i > 0 {
			pen := termtext.Pen(lines[i-1])
			require.True(t, strings.HasPrefix(l, pen), "%s: piece %d opens with %q: %q", what, i, pen, l)
			l = l[len(pen):]
		}
		joined.WriteString(l)
	}
	want := in
	if tty {
		want = termtext.Printed(in, true)
	}
	require.Equal(t, want, joined.String(), what)
}

// TestLongLineCutAtEveryReadBoundary: wherever a read ends around a
// sequence or a character that a long line's cut falls inside of, the
// cut backs off before it and it goes whole to the next piece: its rest
// never reads as text ("3m") or as U+FFFD; the next piece keeps the
// colour the line had there.
func TestLongLineCutAtEveryReadBoundary(t *testing.T) {
	const maxLine = 256
	for name, sample := range cutSamples {
		for _, tty := range []bool{false, true} {
			for fill := maxLine - len(sample) - 8; fill <= maxLine; fill++ {
				line := "\x1b[32m" + strings.Repeat("x", fill) + sample + "tail\x1b[0m"
				for split := fill - 2; split <= fill+len(sample)+8; split++ {
					what := name
					if tty {
						what += " on a terminal"
					}
					lines := pieceLines(tty, maxLine, line+"\n", split)
					requirePieces(t, tty, maxLine, line, lines, what)
				}
			}
		}
	}
}

// TestLongLineCutByteByByte: one byte a read, the cuts fall where the
// whole line in one read puts them.
func TestLongLineCutByteByByte(t *testing.T) {
	var b strings.Builder
	for range 40 {
		for _, name := range []string{"SGR", "OSC 8 link", "日本", "emoji", "DCS"} {
			b.WriteString(cutSamples[name] + "xyz")
		}
	}
	line := b.String()
	for _, tty := range []bool{false, true} {
		whole := pieceLines(tty, 600, line+"\n", 0)
		requirePieces(t, tty, 600, line, whole, "in one read")
		s := NewOutputStore(StoreOptions{MaxLineBytes: 600})
		s.SetTerminal(tty, 80)
		for i := range len(line) {
			s.Append(Stdout, []byte{line[i]})
		}
		s.Append(Stdout, []byte("\n"))
		assert.Equal(t, whole, texts(s.ReadAfter(0, 0).Lines), "tty %v", tty)
	}
}

// TestLongLineCutBeforeAHyperlink: at the default 16 KiB, an OSC 8 link
// longer than 64 bytes that the cut falls inside of goes whole to the
// next line, whatever the reads (a pipe's 4 KiB ones here).
func TestLongLineCutBeforeAHyperlink(t *testing.T) {
	line := strings.Repeat("x", DefaultMaxLineBytes-40) + osc8 + "link\x1b]8;;\x1b\\ after"
	for _, tty := range []bool{false, true} {
		s := NewOutputStore(StoreOptions{})
		s.SetTerminal(tty, 80)
		in := []byte(line + "\n")
		for len(in) > 0 {
			n := min(len(in), 4096)
			s.Append(Stdout, in[:n])
			in = in[n:]
		}
		lines := texts(s.ReadAfter(0, 0).Lines)
		require.Len(t, lines, 2, "tty %v", tty)
		assert.Equal(t, strings.Repeat("x", DefaultMaxLineBytes-40), lines[0], "tty %v", tty)
		if tty { // a terminal's lines keep their colours alone
			assert.Equal(t, "link after", lines[1])
		} else {
			assert.Equal(t, osc8+"link\x1b]8;;\x1b\\ after", lines[1])
		}
	}
}

// TestLongLineCutInsideASequencePastTheBound: a sequence that started
// more than maxCarry bytes before the cut (a title of 8,000 bytes from
// 10,000 on) is cut inside: no piece grows past MaxLineBytes for it.
func TestLongLineCutInsideASequencePastTheBound(t *testing.T) {
	line := strings.Repeat("x", 10_000) + "\x1b]0;" + strings.Repeat("t", 8000) + "\a" + strings.Repeat("y", 20_000)
	s := NewOutputStore(StoreOptions{})
	s.Append(Stdout, []byte(line+"\n"))
	lines := texts(s.ReadAfter(0, 0).Lines)
	require.Len(t, lines, 3)
	assert.Len(t, lines[0], DefaultMaxLineBytes, "cut inside the title")
	assert.Equal(t, line, strings.Join(lines, ""))
}

// TestLongLineCarriesASequenceWithinTheBound: a title of 3,900 bytes
// that the cut falls inside of, 3,000 bytes in, goes whole to the next
// line.
func TestLongLineCarriesASequenceWithinTheBound(t *testing.T) {
	title := "\x1b]0;" + strings.Repeat("t", 3900) + "\a"
	line := strings.Repeat("x", DefaultMaxLineBytes-3000) + title + "after"
	s := NewOutputStore(StoreOptions{})
	s.Append(Stdout, []byte(line+"\n"))
	assert.Equal(t, []string{strings.Repeat("x", DefaultMaxLineBytes-3000), title + "after"}, texts(s.ReadAfter(0, 0).Lines))
}

// TestLongLineKeepsItsColour: a line in one colour, past MaxLineBytes,
// is that colour on each of its lines, a pipe's as a terminal's (a
// terminal draws the whole line in it); and the line after it too,
// while no reset came.
func TestLongLineKeepsItsColour(t *testing.T) {
	for _, tty := range []bool{false, true} {
		s := NewOutputStore(StoreOptions{})
		s.SetTerminal(tty, 80)
		s.Append(Stdout, []byte("\x1b[1m\x1b[33m"+strings.Repeat("x", 40_000)+"\ny\x1b[0m\n"))
		lines := texts(s.ReadAfter(0, 0).Lines)
		require.Len(t, lines, 4, "tty %v", tty)
		for i, l := range lines[:3] {
			pen := "\x1b[1;33m" // folded into one sequence on the pieces after the first
			if i == 0 {
				pen = "\x1b[1m\x1b[33m"
			}
			assert.True(t, strings.HasPrefix(l, pen+"x"), "tty %v: %.20q", tty, l)
			assert.LessOrEqual(t, len(l), DefaultMaxLineBytes, "tty %v", tty)
		}
		assert.Equal(t, "\x1b[1;33my\x1b[0m", lines[3], "tty %v: the pen is not doubled", tty)
	}
}

// TestTerminalSpinnerOverTheCapStaysOneLine: a spinner drawn with
// backspaces, 16 KiB many times over, in reads that end anywhere (inside
// a colour, inside a braille character), is one line that shows what the
// terminal shows, in its colour, without U+FFFD.
func TestTerminalSpinnerOverTheCapStaysOneLine(t *testing.T) {
	for _, tc := range []struct{ name, frame, want string }{
		{"coloured frames", "\b\x1b[33m|\x1b[0m", "\x1b[36mspin \x1b[0mdone"},
		{"braille", "\b⠋\b⠙\b⠹\b⠸", "\x1b[36mspin done\x1b[0m"},
	} {
		name, frame := tc.name, tc.frame
		for _, read := range []int{4096, 1001, 4093} {
			s := NewOutputStore(StoreOptions{})
			s.SetTerminal(true, 200)
			in := []byte("\x1b[36mspin  " + strings.Repeat(frame, 6000) + "\bdone\x1b[0m\nnext\n")
			for len(in) > 0 {
				n := min(len(in), read)
				s.Append(Stdout, in[:n])
				in = in[n:]
			}
			lines := texts(s.ReadAfter(0, 0).Lines)
			require.Len(t, lines, 2, "%s, reads of %d: %.200q", name, read, lines)
			assert.Equal(t, tc.want, lines[0], "%s, reads of %d: as it shows, in its colours", name, read)
			assert.NotContains(t, lines[0], "\uFFFD", "%s, reads of %d", name, read)
			assert.Equal(t, "next", lines[1])
			assert.LessOrEqual(t, s.Stats().Memory, int64(DefaultMaxBytes))
		}
	}
}

// TestJobLongLineIsCutBeforeItsColour: a pipe job's and a terminal
// job's line of 16,380 x and then a colour (or 16,383 and a character of
// three bytes): the 16 KiB cut falls inside it and backs off.
func TestJobLongLineIsCutBeforeItsColour(t *testing.T) {
	m := newManager(t, Options{})
	for _, tty := range []bool{false, true} {
		for fill, tail := range map[int]string{
			16380: `\033[33mYELLOW\033[0m`,
			16383: `日本`,
		} {
			info := start(t, m, Spec{TTY: tty, Command: "head -c " + strconv.Itoa(fill) + " /dev/zero | tr '\\0' x; printf '" + tail + "\\n'"})
			wait(t, m, info.ID)
			want := strings.NewReplacer(`\033`, "\x1b").Replace(tail)
			assert.Equal(t, []string{strings.Repeat("x", fill), want}, outputText(t, m, info.ID), "tty %v", tty)
		}
	}
}

// TestTerminalCarriageReturnKeepsTheColour: a "\r" moves the cursor and
// leaves the colours as they were: a progress bar's next frame is drawn
// in them, as a terminal draws it.
func TestTerminalCarriageReturnKeepsTheColour(t *testing.T) {
	s := NewOutputStore(StoreOptions{})
	s.SetTerminal(true, 80)
	s.Append(Stdout, []byte("\x1b[33m 50%\r"))
	s.Append(Stdout, []byte(" 60%\r100%\x1b[0m done\n"))
	assert.Equal(t, []string{"\x1b[33m100%\x1b[0m done"}, texts(s.ReadAfter(0, 0).Lines))
}

// A line longer than MaxLineBytes is held as pieces, but it is one line
// the job wrote: Stats and a job's LINES count it once (a 200 MB line
// read as 12.2k lines), on pipes and on a terminal.
func TestLongLineCountsOnce(t *testing.T) {
	for _, tty := range []bool{false, true} {
		s := NewOutputStore(StoreOptions{MaxLineBytes: 64})
		s.SetTerminal(tty, 80)
		s.Append(Stdout, []byte(strings.Repeat("b", 1000)))
		s.Append(Stdout, []byte(strings.Repeat("b", 1000)+"\nEND\n"))
		s.AppendMeta("── run 2 ──")
		s.Append(Stdout, []byte(strings.Repeat("\x1b[33mc", 100)+"\n"))
		st := s.Stats()
		require.Greater(t, st.Last, uint64(30), "tty %v: held in pieces", tty)
		assert.Equal(t, uint64(3), st.Last-st.Meta-st.Cuts, "tty %v: the job wrote 3 lines", tty)
	}
}

// TestJobWithALongLineCountsItOnce: LINES (Info.JobLines) of a real job
// that writes one 200 KB line and another counts 2.
func TestJobWithALongLineCountsItOnce(t *testing.T) {
	m := newManager(t, Options{})
	info := wait(t, m, start(t, m, Spec{Command: `head -c 200000 /dev/zero | tr '\0' b; printf '\nEND\n'`}).ID)
	require.Equal(t, StateSucceeded, info.State)
	require.Greater(t, info.Lines, uint64(12), "held as 16 KiB pieces")
	assert.Equal(t, uint64(2), info.JobLines())
}
