package vtfast

import (
	"fmt"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
	"unsafe"

	"github.com/charmbracelet/x/ansi"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"jobtop/vtscreen"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func newScreen(t *testing.T, cols, rows int) *Screen {
	t.Helper()
	s := New(cols, rows)
	t.Cleanup(s.Close)
	return s
}

func TestColoursAndAttributes(t *testing.T) {
	s := newScreen(t, 40, 3)
	s.Write([]byte("\x1b[31mred\x1b[m \x1b[1;38;5;208mbold\x1b[m \x1b[48;2;1;2;3mbg\x1b[m end"))
	snap := s.Snapshot()
	require.Equal(t, "red bold bg end", snap.Lines[0])
	require.Equal(t, "\x1b[31mred\x1b[m \x1b[1;38;5;208mbold\x1b[m \x1b[48;2;1;2;3mbg\x1b[m end", snap.ANSI[0])
	require.Equal(t, "red bold bg end", ansi.Strip(snap.ANSI[0]))
}

func TestBoxDrawingAndWideCharacters(t *testing.T) {
	s := newScreen(t, 12, 4)
	s.Write([]byte("┌────┐\r\n│日本│x\r\n└────┘"))
	snap := s.Snapshot()
	require.Equal(t, []string{"┌────┐", "│日本│x", "└────┘", ""}, snap.Lines)
	require.Equal(t, 7, ansi.StringWidth(snap.ANSI[1]), "a wide character fills two columns")
	for y := range snap.Rows {
		require.Equal(t, snap.Lines[y], ansi.Strip(snap.ANSI[y]))
	}
	require.Equal(t, 6, snap.CursorX)
	require.Equal(t, 2, snap.CursorY)
}

// Characters Unicode's tables make narrower than glibc's wcwidth (the
// soft hyphen, the Arabic number sign, circled numbers on black squares)
// take the cells a program laying its screen out by wcwidth, and the
// terminal, give them: the number sign a cell of its own, not joined to
// the cell before, and U+3248 two.
func TestCharactersTakeTheirWcwidth(t *testing.T) {
	s := newScreen(t, 20, 2)
	s.Write([]byte("co\u00adop x\u0600y \u3248z"))
	snap := s.Snapshot()
	require.Equal(t, "co\u00adop x\u0600y \u3248z", snap.Lines[0])
	require.Equal(t, 13, snap.CursorX)
	s.Write([]byte("\x1b[1;9H!"))
	snap = s.Snapshot()
	require.Equal(t, "co\u00adop x\u0600! \u3248z", snap.Lines[0], "column 9 is the y after the number sign")
}

func TestWideCharacterAtTheEndOfARow(t *testing.T) {
	s := newScreen(t, 10, 1)
	s.Write([]byte("ab日"))
	snap := s.Snapshot()
	require.Equal(t, "ab日", snap.Lines[0])
	require.Equal(t, 4, snap.Widths[0], "the wide character's second column counts")
}

func TestBackgroundBlanksAreKeptPlainBlanksTrimmed(t *testing.T) {
	s := newScreen(t, 10, 1)
	s.Write([]byte("a\x1b[44m  \x1b[m   "))
	snap := s.Snapshot()
	require.Equal(t, "a", snap.Lines[0])
	require.Equal(t, "a\x1b[44m  \x1b[m", snap.ANSI[0])
	require.Equal(t, 3, snap.Widths[0])
}

func TestAltScreenEnterAndLeave(t *testing.T) {
	s := newScreen(t, 20, 3)
	s.Write([]byte("shell$ prog"))
	s.Write([]byte("\x1b[?1049h\x1b[H\x1b[2JFULL\x1b[?25l"))
	snap := s.Snapshot()
	require.True(t, snap.AltScreen)
	require.False(t, snap.CursorVisible)
	require.Equal(t, "FULL", snap.Lines[0])
	s.Write([]byte("\x1b[?25h\x1b[?1049l"))
	snap = s.Snapshot()
	require.False(t, snap.AltScreen)
	require.True(t, snap.CursorVisible)
	require.Equal(t, "shell$ prog", snap.Lines[0])
}

func TestResizeAndSeq(t *testing.T) {
	s := newScreen(t, 20, 5)
	a := s.Snapshot()
	require.Equal(t, a.Seq, s.Snapshot().Seq, "no change, same frame")
	s.Resize(30, 7)
	b := s.Snapshot()
	require.NotEqual(t, a.Seq, b.Seq)
	require.Equal(t, 30, b.Cols)
	require.Equal(t, 7, b.Rows)
	require.Len(t, b.Lines, 7)
	s.Resize(30, 7)
	require.Equal(t, b.Seq, s.Snapshot().Seq, "same size is no change")
	s.Write([]byte("x"))
	require.NotEqual(t, b.Seq, s.Snapshot().Seq)
	s.Resize(0, -3)
	cols, rows := s.Size()
	require.Equal(t, [2]int{1, 1}, [2]int{cols, rows})
}

func TestQueriesAreAnsweredAndNeverBlock(t *testing.T) {
	s := newScreen(t, 20, 5)
	// No reply set: answers are dropped, Write must not block on them.
	done := make(chan struct{})
	go func() {
		for range 100 {
			s.Write([]byte("\x1b[6n\x1b[c"))
		}
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Write blocked on the emulator's answers")
	}

	got := make(chan []byte, 8)
	s.SetReply(func(b []byte) { got <- b })
	s.Write([]byte("\x1b[3;5H\x1b[6n"))
	// Answers to the earlier queries may still be on their way.
	deadline := time.After(10 * time.Second)
	for {
		select {
		case b := <-got:
			if strings.Contains(string(b), "\x1b[3;5R") {
				return
			}
		case <-deadline:
			t.Fatal("no cursor position report")
		}
	}
}

func TestHyperlinksAndTitlesDoNotReachTheFrame(t *testing.T) {
	s := newScreen(t, 30, 2)
	s.Write([]byte("\x1b]0;evil title\x07\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\ \x1b]52;c;aGVsbG8=\x07ok"))
	snap := s.Snapshot()
	require.Equal(t, "link ok", snap.Lines[0])
	require.Equal(t, "link ok", snap.ANSI[0])
}

func TestInputModes(t *testing.T) {
	s := newScreen(t, 10, 2)
	s.Write([]byte("\x1b[?1h\x1b[?2004h\x1b[?1002h\x1b[?1006h"))
	require.Equal(t, vtscreen.InputModes{AppCursor: true, BracketedPaste: true, Mouse: vtscreen.MouseButton, MouseSGR: true}, s.Snapshot().Modes)
	s.Write([]byte("\x1b[?1002l\x1b[?1l"))
	require.Equal(t, vtscreen.InputModes{BracketedPaste: true, MouseSGR: true}, s.Modes())
}

func TestConcurrentWriteAndSnapshot(t *testing.T) {
	s := newScreen(t, 80, 24)
	var wg sync.WaitGroup
	stop := make(chan struct{})
	for range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				snap := s.Snapshot()
				require.Len(t, snap.Lines, snap.Rows)
			}
		}()
	}
	for i := range 50 {
		s.Write(frame(80, 24, i))
		if i%10 == 0 {
			s.Resize(80-i/10, 24)
		}
	}
	close(stop)
	wg.Wait()
}

func TestFullFrame(t *testing.T) {
	s := newScreen(t, 200, 50)
	s.Write(frame(200, 50, 0))
	snap := s.Snapshot()
	require.Equal(t, "┌"+strings.Repeat("─", 198)+"┐", snap.Lines[0])
	for y, l := range snap.ANSI {
		require.Equal(t, 200, ansi.StringWidth(l), "row %d", y)
		require.Equal(t, 200, snap.Widths[y], "row %d", y)
	}
	require.Contains(t, snap.Lines[6], "日本語")
}

// TestWhereXVTDiffers covers what x/vt, the differential tests'
// reference, draws otherwise than xterm does: each want was checked by
// writing the same bytes to a tmux 3.3a pane (capture-pane).
func TestWhereXVTDiffers(t *testing.T) {
	cases := []struct {
		name       string
		cols, rows int
		in         []string // written one after another
		want       []string
		x, y       int
	}{
		{"ED 1 erases up to the cursor only", 12, 4,
			[]string{"aaaaaaaaaaaa\r\nbbbbbbbbbbbb\r\ncccccccccccc\r\ndddddddddddd\x1b[2;6H\x1b[K\x1b[3;4H\x1b[1K\x1b[4;3H\x1b[2K\x1b[1;7H\x1b[1J\x1b[3;9H\x1b[J"},
			[]string{"       aaaaa", "bbbbb", "    cccc", ""}, 8, 2},
		{"insert mode inserts", 12, 2,
			[]string{"abcdefghijkl\x1b[1;3H\x1b[2@XY\x1b[1;8H\x1b[3P\x1b[2;1H0123456789\x1b[2;2H\x1b[4h__\x1b[4l"},
			[]string{"abXYcdeij", "0__123456789"}, 3, 1},
		{"lines deleted in a scroll region", 10, 6,
			[]string{"1\r\n2\r\n3\r\n4\r\n5\r\n6\x1b[3;1H\x1b[2LX\x1b[5;1H\x1b[MY\x1b[2;5r\x1b[2;1H\x1b[3MW\x1b[r"},
			[]string{"1", "W", "", "", "", ""}, 0, 0},
		{"a wide character at the last column wraps", 5, 3,
			[]string{"abcd日ef\r\n\x1b[2;5H本"},
			[]string{"abcd", "日ef", "本"}, 2, 2},
		{"deleting a wide character", 12, 2,
			[]string{"日本語x\x1b[1;3H\x1b[2P"},
			[]string{"日語x", ""}, 2, 0},
		{"writing over half a wide character", 12, 2,
			[]string{"日本語x\x1b[1;4Hy"},
			[]string{"日 y語x", ""}, 4, 0},
		{"CSI s and u save and restore", 20, 4,
			[]string{"\x1b[2;3H\x1b[31m\x1b7\x1b[4;9Hx\x1b8y\x1b[m\x1b[3;3H\x1b[sz\x1b[1;1H\x1b[uw"},
			[]string{"", "  y", "  w", "        x"}, 3, 2},
		{"ESC E and ESC D", 8, 3,
			[]string{"a\x1bEb\x1bDc\x1bEd\x1bEe"},
			[]string{" c", "d", "e"}, 1, 2},
		{"controls inside a sequence act", 10, 3,
			[]string{"a\x1b[2\r;3Hb\x1b[\x18c\x1b[1\x1b[2;2Hd"},
			[]string{"a", " dbc", ""}, 2, 1},
		{"shift out to a line-drawing G1", 12, 1,
			[]string{"\x0e\x1b)0q\x0fq"},
			[]string{"─q"}, 2, 0},
		{"a combining mark in the next write", 12, 1,
			[]string{"e", "\u0301", "a", "\u0308", " ok"},
			[]string{"e\u0301a\u0308 ok"}, 5, 0},
		{"the alternate screen keeps the cursor", 10, 3,
			[]string{"main\x1b[?1049h"},
			[]string{"", "", ""}, 4, 0},
	}
	for _, c := range cases {
		s := newScreen(t, c.cols, c.rows)
		for _, in := range c.in {
			s.Write([]byte(in))
		}
		snap := s.Snapshot()
		require.Equal(t, c.want, snap.Lines, c.name)
		require.Equal(t, [2]int{c.x, c.y}, [2]int{snap.CursorX, snap.CursorY}, c.name)
	}
}

func TestErasingKeepsTheBackground(t *testing.T) {
	s := newScreen(t, 6, 2)
	s.Write([]byte("\x1b[44m\x1b[2J\x1b[m\x1b[2;3Hx\x1b[41m\x1b[K\x1b[m"))
	snap := s.Snapshot()
	require.Equal(t, "\x1b[44m      \x1b[m", snap.ANSI[0])
	require.Equal(t, "\x1b[44m  \x1b[mx\x1b[41m   \x1b[m", snap.ANSI[1])
	require.Equal(t, []string{"", "  x"}, snap.Lines)
}

func TestSnapshotRendersOnlyChangedRows(t *testing.T) {
	s := newScreen(t, 20, 4)
	s.Write([]byte("one\r\ntwo\r\nthree"))
	a := s.Snapshot()
	s.Write([]byte("\x1b[2;1HTWO"))
	b := s.Snapshot()
	require.Equal(t, []string{"one", "TWO", "three", ""}, b.Lines)
	require.Equal(t, []string{"one", "two", "three", ""}, a.Lines, "an earlier frame is not changed")
	for _, y := range []int{0, 2} {
		require.Same(t, unsafe.StringData(a.ANSI[y]), unsafe.StringData(b.ANSI[y]), "row %d was not rendered again", y)
	}
	s.Write([]byte("\x1b[H\n\n\n\n")) // scrolls: rows move with their rendering
	c := s.Snapshot()
	require.Equal(t, []string{"TWO", "three", "", ""}, c.Lines)
	require.Same(t, unsafe.StringData(b.ANSI[1]), unsafe.StringData(c.ANSI[0]))
}

func TestResizeKeepsContent(t *testing.T) {
	s := newScreen(t, 10, 4)
	s.Write([]byte("abcdefghij\r\n日本語日本\r\nthird\r\nfourth"))
	s.Resize(5, 2)
	snap := s.Snapshot()
	require.Equal(t, []string{"third", "fourt"}, snap.Lines, "on the main screen the rows above the cursor's scroll off")
	require.Equal(t, [2]int{4, 1}, [2]int{snap.CursorX, snap.CursorY}, "the cursor stays on the screen")
	s.Resize(12, 3)
	snap = s.Snapshot()
	require.Equal(t, []string{"日本語日本", "third", "fourt"}, snap.Lines, "more rows bring back what fewer took off the top, as it was")
	require.Equal(t, [2]int{4, 2}, [2]int{snap.CursorX, snap.CursorY}, "the cursor on its row")
	s.Write([]byte("\x1b[3;12Hx"))
	require.Equal(t, []string{"日本語日本", "third", "fourt      x"}, s.Snapshot().Lines[:3], "the new size is drawn on")
	s.Resize(12, 6)
	require.Equal(t, []string{"abcdefghij", "日本語日本", "third", "fourt      x", "", ""}, s.Snapshot().Lines, "and no more than it took")

	s = newScreen(t, 10, 4)
	s.Write([]byte("日本語日本\r\nx"))
	s.Resize(5, 4)
	require.Equal(t, []string{"日本", "x", "", ""}, s.Snapshot().Lines, "a wide character cut in two is dropped; the cursor's row was on the screen")

	s = newScreen(t, 10, 4)
	s.Write([]byte("\x1b[?1049htop\r\n\r\n\r\nbottom"))
	s.Resize(10, 2)
	require.Equal(t, []string{"", "bottom"}, s.Snapshot().Lines, "the alternate screen keeps the cursor's rows too, as tmux does")
}

// TestResizeAlternateScreenKeepsTheCursorsRows: a program on the
// alternate screen that does not redraw (alt line 1..8, then sleeps)
// keeps, in fewer rows, the rows by the cursor, and the cursor on its
// own row, as on the main screen and in tmux; more rows bring the rest
// back. The screen kept its top rows, the cursor put on "alt line 5".
func TestResizeAlternateScreenKeepsTheCursorsRows(t *testing.T) {
	s := newScreen(t, 40, 12)
	s.Write([]byte("main\x1b[?1049h\x1b[H"))
	for i := 1; i <= 8; i++ {
		s.Write([]byte(fmt.Sprintf("alt line %d\r\n", i)))
	}
	s.Resize(40, 5)
	snap := s.Snapshot()
	require.Equal(t, []string{"alt line 5", "alt line 6", "alt line 7", "alt line 8", ""}, snap.Lines)
	require.Equal(t, [2]int{0, 4}, [2]int{snap.CursorX, snap.CursorY}, "the cursor on its own row, under the last line")
	s.Resize(40, 12)
	snap = s.Snapshot()
	require.Equal(t, []string{"alt line 1", "alt line 2", "alt line 3", "alt line 4", "alt line 5", "alt line 6", "alt line 7", "alt line 8", "", "", "", ""}, snap.Lines, "back to the size it had: as it was")
	require.Equal(t, 8, snap.CursorY)
	s.Write([]byte("\x1b[?1049l"))
	require.Equal(t, "main", s.Snapshot().Lines[0], "the main screen as it was")
}

func TestRepeatIsBounded(t *testing.T) {
	s := newScreen(t, 10, 3)
	s.Write([]byte("a\x1b[999999999b"))
	snap := s.Snapshot()
	// At most a screenful of repeats, then the last wrap scrolls.
	require.Equal(t, []string{"aaaaaaaaaa", "aaaaaaaaaa", "a"}, snap.Lines)
}

func TestDeviceAttributes(t *testing.T) {
	s := newScreen(t, 10, 3)
	got := make(chan string, 4)
	s.SetReply(func(b []byte) { got <- string(b) })
	s.Write([]byte("\x1b[c\x1b[>c\x1b[5n\x1b[2;3H\x1b[?6n"))
	for _, want := range []string{"\x1b[?62;1;6;22c", "\x1b[>1;10;0c", "\x1b[0n", "\x1b[?2;3R"} {
		select {
		case b := <-got:
			require.Equal(t, want, b)
		case <-time.After(10 * time.Second):
			t.Fatalf("no answer %q", want)
		}
	}
}

// TestResizeRowsAsTmux: the main screen's rows a smaller size takes off
// its top, and those that scroll off after them, come back in order when
// it grows, as tmux's history brings them; a clear drops them; the main
// screen keeps its cursor's rows while the alternate one is shown.
func TestResizeRowsAsTmux(t *testing.T) {
	count := func(from, to int) string {
		var b strings.Builder
		for i := from; i <= to; i++ {
			if i > from {
				b.WriteString("\r\n")
			}
			fmt.Fprintf(&b, "%d", i)
		}
		return b.String()
	}
	nums := func(from, to int) []string {
		var out []string
		for i := from; i <= to; i++ {
			out = append(out, strconv.Itoa(i))
		}
		return out
	}
	for _, c := range []struct {
		name  string
		steps func(s *Screen)
		want  []string
		y     int
	}{
		{"shrink, write, grow", func(s *Screen) {
			s.Write([]byte(count(1, 10)))
			s.Resize(40, 5)
			s.Write([]byte("\r\n11\r\n12\r\n13"))
			s.Resize(40, 10)
		}, nums(4, 13), 9},
		{"shrink, clear, grow", func(s *Screen) {
			s.Write([]byte(count(1, 10)))
			s.Resize(40, 5)
			s.Write([]byte("\x1b[2J\x1b[Hnew"))
			s.Resize(40, 10)
		}, append([]string{"new"}, make([]string, 9)...), 0},
		{"shrink on the alternate screen, then leave it", func(s *Screen) {
			s.Write([]byte(count(1, 10) + "\x1b[?1049hALT"))
			s.Resize(40, 5)
			s.Write([]byte("\x1b[?1049l"))
		}, nums(6, 10), 4},
		{"a deleted line is not scrolled off", func(s *Screen) {
			s.Write([]byte(count(1, 10)))
			s.Resize(40, 5)
			s.Write([]byte("\x1b[1;1H\x1b[M\x1b[5;1H"))
			s.Resize(40, 10)
		}, append(append(nums(1, 5), nums(7, 10)...), ""), 9},
		{"ED 3 keeps the screen", func(s *Screen) {
			s.Write([]byte("a\r\nb\r\nc\x1b[3J"))
		}, append([]string{"a", "b", "c"}, make([]string, 7)...), 2},
		{"a saved cursor below the rows, then the alternate screen", func(s *Screen) {
			s.Write([]byte("\x1b[10;1H\x1b7\x1b[1;1Htop"))
			s.Resize(40, 5)
			s.Write([]byte("\x1b[?47h"))
			s.Resize(40, 2)
			s.Write([]byte("\x1b[?47l"))
		}, []string{"top", ""}, 0},
		{"shrink, grow on the alternate screen, then leave it", func(s *Screen) {
			s.Write([]byte(count(1, 10)))
			s.Resize(40, 5)
			s.Write([]byte("\x1b[?1049hALT"))
			s.Resize(40, 10)
			s.Write([]byte("\x1b[?1049l"))
		}, nums(1, 10), 9},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := newScreen(t, 40, 10)
			c.steps(s)
			snap := s.Snapshot()
			require.Equal(t, c.want, snap.Lines)
			require.Equal(t, c.y, snap.CursorY)
		})
	}
}

// The rows kept of the main screen's top are bounded: a shrink, then a
// flood of lines, keeps at most 2 x maxShrunk of them.
func TestKeptRowsAreBounded(t *testing.T) {
	s := newScreen(t, 40, 10)
	s.Write([]byte(strings.Repeat("x\r\n", 10)))
	s.Resize(40, 5)
	s.Write([]byte(strings.Repeat("line\r\n", 10*maxShrunk)))
	s.mu.Lock()
	kept := len(s.t.main.shrunk)
	s.mu.Unlock()
	require.GreaterOrEqual(t, kept, maxShrunk, "the newest rows are kept")
	require.LessOrEqual(t, kept, 2*maxShrunk)
}
