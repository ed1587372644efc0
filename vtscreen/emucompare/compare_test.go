package emucompare

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/vt"
	"github.com/hinshun/vt10x"
)

const cols, rows = 200, 50

func frames() [][]byte {
	fs := make([][]byte, 16)
	for i := range fs {
		fs[i] = Frame(cols, rows, i)
	}
	return fs
}

func BenchmarkXVT(b *testing.B) {
	fs := frames()
	e := vt.NewEmulator(cols, rows)
	go drain(e)
	b.SetBytes(int64(len(fs[0])))
	for i := 0; b.Loop(); i++ {
		_, _ = e.Write(fs[i%len(fs)])
	}
}

func BenchmarkVT10x(b *testing.B) {
	fs := frames()
	t := vt10x.New(vt10x.WithSize(cols, rows))
	b.SetBytes(int64(len(fs[0])))
	for i := 0; b.Loop(); i++ {
		_, _ = t.Write(fs[i%len(fs)])
	}
}

func drain(e *vt.Emulator) {
	buf := make([]byte, 256)
	for {
		if _, err := e.Read(buf); err != nil {
			return
		}
	}
}

// TestRatio feeds the same frames to both emulators in one run and logs
// the time per frame and their ratio, so the figure is comparable on a
// loaded machine.
func TestRatio(t *testing.T) {
	fs := frames()
	const n = 600
	e := vt.NewEmulator(cols, rows)
	go drain(e)
	v := vt10x.New(vt10x.WithSize(cols, rows))
	var dx, dv time.Duration
	for round := 0; round < 3; round++ {
		s := time.Now()
		for i := 0; i < n; i++ {
			_, _ = e.Write(fs[i%len(fs)])
		}
		dx += time.Since(s)
		s = time.Now()
		for i := 0; i < n; i++ {
			_, _ = v.Write(fs[i%len(fs)])
		}
		dv += time.Since(s)
	}
	per := func(d time.Duration) time.Duration { return d / (3 * n) }
	t.Logf("frame %d bytes; x/vt %v/frame, vt10x %v/frame, x/vt:vt10x = %.2f",
		len(fs[0]), per(dx), per(dv), float64(dx)/float64(dv))
}

// TestCorrectness checks what screen mode must draw: colours, box drawing
// and wide characters, on both emulators, and logs what each gets wrong.
func TestCorrectness(t *testing.T) {
	in := "\x1b[2J\x1b[H\x1b[31mred\x1b[m ┌─┐ 日本 x\r\n│é│"
	e := vt.NewEmulator(20, 3)
	go drain(e)
	_, _ = e.Write([]byte(in))
	xl := strings.TrimRight(e.String(), "\n")
	red := e.CellAt(0, 0).Style.Fg
	t.Logf("x/vt: %q fg(0,0)=%v wide cell width=%d, next after 日本 at x=%d is %q",
		xl, red, e.CellAt(8, 0).Width, 12, e.CellAt(13, 0).Content)

	v := vt10x.New(vt10x.WithSize(20, 3))
	_, _ = v.Write([]byte(in))
	vl := v.String()
	t.Logf("vt10x: %q fg(0,0)=%v; after 日本 at x=13 is %q (a terminal has 'x' there)",
		strings.TrimRight(vl, "\n "), v.Cell(0, 0).FG, string(v.Cell(13, 0).Char))
	if e.CellAt(13, 0).Content != "x" {
		t.Errorf("x/vt puts %q where a terminal draws x", e.CellAt(13, 0).Content)
	}
}
