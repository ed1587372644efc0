package vtemu

import "testing"

// BenchmarkScreen measures what screen mode costs per full 200x50 redraw:
// feeding the emulator, and building the frame the pane draws.
func BenchmarkScreen(b *testing.B) {
	frames := make([][]byte, 8)
	for i := range frames {
		frames[i] = frame(200, 50, i)
	}
	b.Run("write-frame", func(b *testing.B) {
		s := New(200, 50)
		defer s.Close()
		b.SetBytes(int64(len(frames[0])))
		for i := 0; b.Loop(); i++ {
			s.Write(frames[i%len(frames)])
		}
	})
	b.Run("write-frame+snapshot", func(b *testing.B) {
		s := New(200, 50)
		defer s.Close()
		b.SetBytes(int64(len(frames[0])))
		for i := 0; b.Loop(); i++ {
			s.Write(frames[i%len(frames)])
			_ = s.Snapshot()
		}
	})
}
