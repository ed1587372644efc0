package vtfast

import (
	"testing"

	"jobtop/vtscreen"
)

// emulator is what the benchmarks and differential tests drive: Screen,
// or the x/vt reference.
type emulator interface {
	Write(p []byte)
	Snapshot() vtscreen.Snapshot
	Resize(cols, rows int)
	Close()
}

// BenchmarkScreen measures what screen mode costs per full 200x50 redraw:
// feeding the emulator, and building the frame the pane draws; for this
// package and, in the same run, the x/vt reference (compare the ns/op).
func BenchmarkScreen(b *testing.B) {
	frames := make([][]byte, 8)
	for i := range frames {
		frames[i] = frame(200, 50, i)
	}
	emus := []struct {
		name string
		new  func(cols, rows int) emulator
	}{
		{"vtfast", func(c, r int) emulator { return New(c, r) }},
		{"xvt", func(c, r int) emulator { return newRef(c, r) }},
	}
	for _, e := range emus {
		b.Run(e.name+"/write-frame", func(b *testing.B) {
			s := e.new(200, 50)
			defer s.Close()
			b.SetBytes(int64(len(frames[0])))
			for i := 0; b.Loop(); i++ {
				s.Write(frames[i%len(frames)])
			}
		})
		b.Run(e.name+"/write-frame+snapshot", func(b *testing.B) {
			s := e.new(200, 50)
			defer s.Close()
			b.SetBytes(int64(len(frames[0])))
			for i := 0; b.Loop(); i++ {
				s.Write(frames[i%len(frames)])
				_ = s.Snapshot()
			}
		})
	}
}
