package vtfast

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"jobtop/vtscreen"
)

// FuzzScreen writes any bytes, in two pieces with a resize between, and
// checks that Write returns, nothing panics and the frame is well formed:
// every row there, no row wider than the screen, plain rows the styled
// ones stripped, the cursor on the screen.
func FuzzScreen(f *testing.F) {
	for _, s := range diffStreams {
		f.Add([]byte(s.in), uint8(len(s.in)/2), uint8(s.cols), uint8(s.rows))
	}
	f.Add(frame(40, 10, 1), uint8(100), uint8(30), uint8(12))
	f.Fuzz(func(t *testing.T, in []byte, cut, cols, rows uint8) {
		s := New(int(cols%90), int(rows%40))
		defer s.Close()
		at := min(int(cut), len(in))
		done := make(chan struct{})
		go func() {
			defer close(done)
			s.Write(in[:at])
			check(t, s.Snapshot())
			s.Resize(int(cols/3), int(rows/2))
			// A second cut and size: resizes with writes between
			// (smaller, then larger: rows taken, then brought back).
			at2 := at + (len(in)-at)/2
			s.Write(in[at:at2])
			check(t, s.Snapshot())
			s.Resize(int(cols%90)+int(cut%7), int(rows%40)+int(cut%5))
			s.Write(in[at2:])
		}()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Fatal("Write did not return")
		}
		check(t, s.Snapshot())
	})
}

func check(t *testing.T, snap vtscreen.Snapshot) {
	if len(snap.Lines) != snap.Rows || len(snap.ANSI) != snap.Rows || len(snap.Widths) != snap.Rows {
		t.Fatalf("%d rows, %d lines, %d ANSI, %d widths", snap.Rows, len(snap.Lines), len(snap.ANSI), len(snap.Widths))
	}
	if snap.CursorX < 0 || snap.CursorX >= snap.Cols || snap.CursorY < 0 || snap.CursorY >= snap.Rows {
		t.Fatalf("cursor %d,%d on %dx%d", snap.CursorX, snap.CursorY, snap.Cols, snap.Rows)
	}
	for y, row := range snap.ANSI {
		if snap.Widths[y] > snap.Cols {
			t.Fatalf("row %d is %d wide on %d columns: %q", y, snap.Widths[y], snap.Cols, row)
		}
		plain := ansi.Strip(row)
		if strings.TrimRight(plain, " ") != snap.Lines[y] {
			t.Fatalf("row %d: %q is not %q", y, snap.Lines[y], row)
		}
		if strings.ContainsAny(plain, "\x1b\x07\r\n") {
			t.Fatalf("row %d has a control: %q", y, row)
		}
	}
}
