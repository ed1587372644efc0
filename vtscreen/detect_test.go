package vtscreen

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

type seen struct {
	at int // offset just past the sequence
	ev Event
}

// scan runs a Detector over p cut into pieces of size step and returns
// the events with the offsets they were reported at.
func scan(d *Detector, p []byte, step int) []seen {
	var out []seen
	off := 0
	for len(p) > 0 {
		piece := p[:min(step, len(p))]
		for len(piece) > 0 {
			n, ev := d.Next(piece)
			require.Positive(nil, n)
			off += n
			if ev != None {
				out = append(out, seen{off, ev})
			}
			piece = piece[n:]
			p = p[n:]
		}
	}
	return out
}

func TestDetectorEvents(t *testing.T) {
	cases := []struct {
		name string
		in   string
		want []Event
		alt  bool
	}{
		{"plain text", "hello\r\nworld\x1b[31mred\x1b[m\x1b[2K\x1b[3D\x1b[C", nil, false},
		{"cursor up", "frame\r\n\x1b[2K\x1b[1A\x1b[2K\x1b[G\x1b[A\x1b[2F", []Event{CursorUp, CursorUp, CursorUp}, false},
		{"cursor up on the alternate screen is no event", "\x1b[?1049h\x1b[1A", []Event{EnterAlt}, true},
		{"1049 in and out", "a\x1b[?1049hdraw\x1b[?1049lb", []Event{EnterAlt, LeaveAlt}, false},
		{"47 and 1047", "\x1b[?47h\x1b[?47l\x1b[?1047h", []Event{EnterAlt, LeaveAlt, EnterAlt}, true},
		{"in a list", "\x1b[?1;1049;25h", []Event{EnterAlt}, true},
		{"twice is once", "\x1b[?1049h\x1b[?1049h", []Event{EnterAlt}, true},
		{"leave when not in", "\x1b[?1049l", nil, false},
		{"full reset leaves", "\x1b[?1049h\x1bc", []Event{EnterAlt, LeaveAlt}, false},
		{"cursor addressed", "\x1b[5;10Hx\x1b[2J\x1b[Hy\x1b[3;4f\x1b[2H", []Event{CursorAddressed, Cleared, CursorHome, CursorAddressed, CursorAddressed}, false},
		{"home alone is not addressing", "\x1b[H\x1b[1;1H\x1b[;H\x1b[0;1f", []Event{CursorHome, CursorHome, CursorHome, CursorHome}, false},
		{"queries", "\x1b[6n\x1b[5n\x1b[c\x1b[0c\x1b[>c\x1b[?1049h\x1b[6n", []Event{CursorQuery, StatusQuery, AttributesQuery, AttributesQuery, VersionQuery, EnterAlt, CursorQuery}, true},
		{"home, then drawing", "\x1b[Htop - up\x1b[?25l\x1b[K", []Event{CursorHome, CursorAddressed}, false},
		{"home, then text", "L1\r\nL2\r\n\x1b[HX\x1b[H\r\nY", []Event{CursorHome, CursorAddressed, CursorHome, CursorAddressed}, false},
		{"a clear, then a prompt", "\x1b[H\x1b[2J$ ", []Event{CursorHome, Cleared}, false},
		{"a clear, home, then lines", "x\x1b[2J\x1b[3J\x1b[H\x1b[32mCompiled\x1b[m\r\nok\r\n", []Event{Cleared, CursorHome}, false},
		{"an ESC ends a charset's sequence", "\x1b(\x1b[?1049hALT", []Event{EnterAlt}, true},
		{"tmux's passthrough doubles its ESCs", "x\x1bPtmux;\x1b\x1b[?1049h\x1b\\y", nil, false},
		{"an ESC ESC ends an OSC", "x\x1b]0;t\x1b\x1b[?1049hALT", []Event{EnterAlt}, true},
		{"only ST ends a DCS", "x\x1bPq\x1b[?1049hALT\x1b\\\x1b[?1049h", []Event{EnterAlt}, true},
		{"another screen after a home", "\x1b[H\x1b[?1049h\x1b[5;5H\x1b[?1049lX", []Event{CursorHome, EnterAlt, LeaveAlt}, false},
		{"an unterminated string ends at a sequence", "\x1b]0;t\x1b[?1049h", []Event{EnterAlt}, true},
		{"a reset, home, then lines", "x\x1bc\x1b[Hok", []Event{Cleared, CursorHome}, false},
		{"a title and a charset are no text", "x\x1b[2J\x1b]0;dev server\x07\x1b(B\x1b]2;t\x1b\\\x1b[H\x1b[32mok", []Event{Cleared, CursorHome}, false},
		{"after home, a title is no drawing", "x\x1b[H\x1b]0;t\x07\x1bPq\x1b\\y", []Event{CursorHome, CursorAddressed}, false},
		{"a clear, text, then home and text", "\x1b[2J\r\n\x1b[Ha\x1b[Hb", []Event{Cleared, CursorHome, CursorHome, CursorAddressed}, false},
		{"home, then a busybox clear", "\x1b[H\x1b[Jprompt\x1b[m", []Event{CursorHome, Cleared}, false},
		{"clear is a clear", "\x1b[H\x1b[2J\x1b[3J\x1b[J\x1b[1J", []Event{CursorHome, Cleared}, false},
		{"addressing on the alt screen is no event", "\x1b[?1049h\x1b[5;5H\x1b[2J", []Event{EnterAlt}, true},
		{"not a private mode", "\x1b[1049h", nil, false},
		{"aborted by CAN", "\x1b[?10\x18" + "49h", nil, false},
		{"ESC restarts", "\x1b[?10\x1b[?1049h", []Event{EnterAlt}, true},
		{"overlong params", "\x1b[?" + strings.Repeat("1;", 40) + "1049h", nil, false},
		{"OSC text is not CSI", "\x1b]0;[?1049h\x07", nil, false},
	}
	for _, c := range cases {
		for _, step := range []int{1, 2, 3, 7, 1 << 20} {
			var d Detector
			var got []Event
			for _, s := range scan(&d, []byte(c.in), step) {
				got = append(got, s.ev)
			}
			require.Equal(t, c.want, got, "%s, pieces of %d", c.name, step)
			require.Equal(t, c.alt, d.Alt(), "%s, pieces of %d", c.name, step)
		}
	}
}

func TestDetectorSplitsAtTheSequence(t *testing.T) {
	in := []byte("before\x1b[?1049hscreen\x1b[?1049lafter")
	var d Detector
	got := scan(&d, in, 1<<20)
	require.Equal(t, []seen{
		{len("before\x1b[?1049h"), EnterAlt},
		{len("before\x1b[?1049hscreen\x1b[?1049l"), LeaveAlt},
	}, got)
}

func TestDetectorEndsTextAfterHomeAtItsFirstCharacter(t *testing.T) {
	var d Detector
	got := scan(&d, []byte("L1\r\n\x1b[H\r\nXY"), 1<<20)
	require.Equal(t, []seen{
		{len("L1\r\n\x1b[H"), CursorHome},
		{len("L1\r\n\x1b[H\r\nX"), CursorAddressed},
	}, got)
}

func TestDetectorModes(t *testing.T) {
	var d Detector
	scan(&d, []byte("\x1b[?2004h\x1b[?1;1000;1006h\x1b[?1000l"), 3)
	require.Equal(t, InputModes{AppCursor: true, BracketedPaste: true, MouseSGR: true}, d.Modes())
	scan(&d, []byte("\x1bc"), 1)
	require.Equal(t, InputModes{}, d.Modes(), "a full reset resets the modes")
}

// BenchmarkDetectorW64 scans 80-column text with SGR the way a PTY job's
// read path does, against bytes.Count over the same buffer as a baseline
// (one pass over memory): compare the two ns/op in one run.
func BenchmarkDetectorW64(b *testing.B) {
	line := "\x1b[32mok\x1b[m " + strings.Repeat("x", 74) + "\r\n"
	buf := []byte(strings.Repeat(line, 32<<10/len(line)))
	b.Run("detector", func(b *testing.B) {
		b.SetBytes(int64(len(buf)))
		var d Detector
		for b.Loop() {
			for p := buf; len(p) > 0; {
				n, _ := d.Next(p)
				p = p[n:]
			}
		}
	})
	b.Run("baseline-bytes.Count", func(b *testing.B) {
		b.SetBytes(int64(len(buf)))
		for b.Loop() {
			_ = bytes.Count(buf, []byte{'\n'})
		}
	})
}
