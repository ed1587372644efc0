package vtfast

import (
	"strings"
	"sync"
	"testing"
	"time"

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
