package vtfast

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/require"
)

// The differential tests feed the same bytes to Screen and to the x/vt
// reference, cut at random places, and compare their frames along the way.

// diffStreams are hand-written streams of what full-screen programs draw,
// each on a screen of its size.
var diffStreams = []struct {
	name       string
	cols, rows int
	in         string
}{
	{"text and wrapping", 10, 4, "hello world, this wraps\r\nand CR LF\rX"},
	{"cursor moves", 20, 6, "\x1b[3;5Hx\x1b[2Ay\x1b[3Bz\x1b[4Cw\x1b[2Dv\x1b[Eu\x1b[2Ft\x1b[9Gs\x1b[4`r\x1b[5dq\x1b[99;99Hp\x1b[Ho"},
	{"scroll region", 10, 6, "1\r\n2\r\n3\r\n4\r\n5\r\n6\x1b[2;5r\x1b[5;1H\n\nA\x1b[2;1H\x1bMB\x1bMC\x1b[r\x1b[6;1H\nZ"},
	{"scroll up and down", 8, 5, "a\r\nb\r\nc\r\nd\r\ne\x1b[2S\x1b[H\x1b[1Tq\x1b[2;4r\x1b[3Sr\x1b[r"},
	{"sgr", 60, 4, "\x1b[1mb\x1b[2md\x1b[3mi\x1b[4mu\x1b[5mk\x1b[7mr\x1b[8mh\x1b[9ms\x1b[m n " +
		"\x1b[1;3;4mbiu\x1b[22mx\x1b[23mx\x1b[24mx\x1b[m " +
		"\x1b[31mr\x1b[91mR\x1b[42mg\x1b[102mG\x1b[39mx\x1b[49mx " +
		"\x1b[38;5;208mo\x1b[48;5;17mb\x1b[m\x1b[38;2;10;20;30mt\x1b[48:2::1:2:3mT\x1b[38:5:99mc\x1b[m\r\n" +
		"\x1b[4:3mcurly\x1b[4:0md\x1b[24m\x1b[7;27mn\x1b[1;22m\x1b[0;1;31;44mall\x1b[0m"},
	{"erase lines with a background", 12, 3, "abcdefghijkl\x1b[2;3Hx\x1b[41m\x1b[K\x1b[m\x1b[1;2H\x1b[42m\x1b[3X\x1b[m\x1b[1;8H\x1b[44m\x1b[1K\x1b[m"},
	{"insert and delete characters", 12, 2, "abcdefghijkl\x1b[1;3H\x1b[2@XY\x1b[1;8H\x1b[3P\x1b[2;1H0123456789\x1b[2;4H\x1b[3@\x1b[2P"},
	{"insert and delete lines", 10, 6, "1\r\n2\r\n3\r\n4\r\n5\r\n6\x1b[3;1H\x1b[2LX\x1b[5;1H\x1b[MY\x1b[1;1H\x1b[LZ"},
	{"wide characters", 12, 3, "ab日本語cd\r\n日本語x\x1b[1;3Hz"},
	{"line drawing", 12, 3, "\x1b(0lqqk\r\nx  x\r\nmqqj\x1b(B ok"},
	{"tabs", 30, 3, "a\tb\tc\r\n\x1b[5G\x1bH\r\tX\x1b[3g\x1b[2;1H\tY\x1b[1;20H\x1b[2Zz\x1b[2;1H\x1b[2Iw"},
	{"repeat", 20, 2, "ab\x1b[5bc\x1b[3b"},
	{"origin mode", 10, 6, "\x1b[2;4r\x1b[?6h\x1b[Ha\x1b[9;1Hb\x1b[?6l\x1b[r\x1b[6;6Hc"},
	{"autowrap off", 6, 2, "\x1b[?7labcdefghij\x1b[?7h\r\nabcdefghi"},
	{"alt screen", 10, 3, "main\x1b[?1049h\x1b[Halt\x1b[2;2Hx\x1b[?1049lback"},
	{"alt 1047", 10, 3, "one\x1b[?1047h\x1b[Htwo\x1b[?1047l"},
	{"hidden cursor and modes", 10, 2, "\x1b[?25l\x1b[?1h\x1b[?2004h\x1b[?1000h\x1b[?1006h\x1b[?1004h"},
	{"strings are not drawn", 20, 2, "a\x1b]0;title\x07b\x1b]52;c;eA==\x1b\\c\x1bPq#0;1;1\x1b\\d\x1b_apc\x1b\\e\x1b^pm\x1b\\f\x1bXsos\x1b\\g"},
	{"backspace and cr", 10, 2, "abc\b\bX\rY\x1b[1;10Hz\bq"},
	{"reverse index at top", 6, 3, "a\r\nb\x1b[H\x1bMc\x1bM"},
	{"full reset", 10, 3, "\x1b[31mred\x1b[?1049h\x1b[H\x1b[?25lx\x1bcplain"},
	{"unknown is ignored", 20, 2, "a\x1b[?99999hb\x1b[>4;2mc\x1b[=5ud\x1b[ qe\x1b[1;2;3;4;5;6;7;8;9;10;11;12;13;14;15;16;17;18;19;20;21;22;23;24;25;26;27;28;29;30;31;32;33;34;35mf\x1b#3g\x1b%Gh"},
}

// diffRecordings are the bytes real programs wrote on a PTY of their size
// (testdata/*.bin, recorded from vim, top, less and e2e's fullscreen).
var diffRecordings = []struct {
	file       string
	cols, rows int
}{
	{"vim.bin", 100, 30},
	{"top.bin", 120, 40},
	{"less.bin", 90, 25},
	{"fullscreen.bin", 80, 24},
}

func TestDiffStreams(t *testing.T) {
	for _, s := range diffStreams {
		t.Run(s.name, func(t *testing.T) { diff(t, s.cols, s.rows, []byte(s.in), 20) })
	}
}

func TestDiffRecordings(t *testing.T) {
	for _, r := range diffRecordings {
		t.Run(r.file, func(t *testing.T) {
			b, err := os.ReadFile(filepath.Join("testdata", r.file))
			require.NoError(t, err)
			diff(t, r.cols, r.rows, b, 10)
		})
	}
}

func TestDiffFrames(t *testing.T) {
	var b []byte
	for i := range 4 {
		b = append(b, frame(200, 50, i)...)
	}
	diff(t, 200, 50, b, 4)
	diff(t, 80, 24, frame(80, 24, 3), 4)
}

// diff feeds in to both emulators in rounds, each time cut differently,
// and compares the frames along the way: about a hundred times a round.
func diff(t *testing.T, cols, rows int, in []byte, rounds int) {
	t.Helper()
	rng := rand.New(rand.NewPCG(1, uint64(len(in))))
	for round := range rounds {
		fast, ref := New(cols, rows), newRef(cols, rows)
		maxPiece := len(in)
		if round > 0 {
			maxPiece = min(maxPiece, 64<<(round%4))
		}
		every := max(1, len(in)/maxPiece*2/100)
		for off, n := 0, 0; off < len(in); n++ {
			piece := min(len(in)-off, 1+rng.IntN(maxPiece))
			fast.Write(in[off : off+piece])
			ref.Write(in[off : off+piece])
			off += piece
			if n%every == 0 || off == len(in) {
				requireSameFrame(t, fast, ref, !cursorDiffers(in[:off]), fmt.Sprintf("round %d, after %d bytes", round, off))
			}
		}
		fast.Close()
		ref.Close()
	}
}

// cursorDiffers reports whether the bytes so far end where x/vt puts the
// cursor elsewhere than xterm and tmux do, and this package with them:
// x/vt homes it on entering the alternate screen and not on setting or
// resetting origin mode. The next cursor movement agrees again.
func cursorDiffers(in []byte) bool {
	if i := bytes.LastIndexByte(in, 0x1b); i >= 0 {
		tail := bytes.TrimPrefix(in[i+1:], []byte("["))
		if bytes.IndexFunc(tail, func(r rune) bool { return r >= 0x40 && r <= 0x7e }) < 0 {
			in = in[:i] // a sequence begun: what came before counts
		}
	}
	for _, s := range []string{"\x1b[?1049h", "\x1b[?1047h", "\x1b[?6l", "\x1b[?6h"} {
		if bytes.HasSuffix(in, []byte(s)) {
			return true
		}
	}
	return false
}

// requireSameFrame compares what a pane would show of both.
func requireSameFrame(t *testing.T, fast *Screen, ref *refScreen, cursor bool, where string) {
	t.Helper()
	a, b := fast.Snapshot(), ref.Snapshot()
	require.Equal(t, b.Lines, a.Lines, "lines, %s", where)
	for y := range b.ANSI {
		require.Equal(t, cells(b.ANSI[y]), cells(a.ANSI[y]), "row %d, %s\nref:  %q\nfast: %q", y, where, b.ANSI[y], a.ANSI[y])
	}
	require.Equal(t, b.Widths, a.Widths, "widths, %s", where)
	if cursor {
		require.Equal(t, [2]int{b.CursorX, b.CursorY}, [2]int{a.CursorX, a.CursorY}, "cursor, %s", where)
	}
	if a.AltScreen {
		// x/vt keeps a cursor visibility per screen, xterm and tmux one
		// for the terminal: a program that hid it on the alternate
		// screen has it hidden on the main one until it shows it again.
		require.Equal(t, b.CursorVisible, a.CursorVisible, "cursor visible, %s", where)
	}
	require.Equal(t, b.AltScreen, a.AltScreen, "alt screen, %s", where)
	require.Equal(t, b.Modes, a.Modes, "modes, %s", where)
}

// cells reads a frame row into its characters, each with the SGR
// sequences in force for it since the last reset: the row as a terminal
// draws it, whatever way the sequences were spelled.
func cells(row string) []string {
	var out []string
	var sgr strings.Builder
	for i := 0; i < len(row); {
		if row[i] == 0x1b {
			end := strings.IndexByte(row[i:], 'm')
			seq := row[i : i+end+1]
			if seq == "\x1b[m" || seq == "\x1b[0m" {
				sgr.Reset()
			} else {
				sgr.WriteString(seq)
			}
			i += end + 1
			continue
		}
		_, n := utf8.DecodeRuneInString(row[i:])
		out = append(out, sgr.String()+row[i:i+n])
		i += n
	}
	return out
}
