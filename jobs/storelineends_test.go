package jobs

import (
	"bytes"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// firstLineEnd is where p's first line ends, by a look at all of it: its
// first "\n", or a "\r" before it; -1 for none.
func firstLineEnd(p []byte) int {
	nl := bytes.IndexByte(p, '\n')
	scan := p
	if nl >= 0 {
		scan = p[:nl]
	}
	if cr := bytes.IndexByte(scan, '\r'); cr >= 0 {
		return cr
	}
	return nl
}

// lineEnds, which looks for each "\n" once, finds the line ends a look at
// each suffix finds, in any sequence of shorter suffixes Append reads a
// chunk by.
func TestLineEndsAgreeWithALookAtEachSuffix(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	alphabet := []byte("ab\r\n")
	for range 2000 {
		chunk := make([]byte, rng.IntN(64))
		for i := range chunk {
			chunk[i] = alphabet[rng.IntN(len(alphabet))]
		}
		e := lineEnds{size: len(chunk), nl: notLooked, cr: bytes.IndexByte(chunk, '\r') >= 0}
		for p := chunk; len(p) > 0; {
			got := e.next(p)
			require.Equal(t, firstLineEnd(p), got, "%q in %q", p, chunk)
			step := got + 1 // as Append goes on after a line's end
			if got < 0 || rng.IntN(3) == 0 {
				step = 1 + rng.IntN(len(p)) // as keepPlain and a "\r" run do
			}
			p = p[step:]
		}
	}
}

// BenchmarkStoreCarriageReturns appends 64 KiB reads of text with "\r"
// line ends (bare "x\r", and a 30-column progress bar redrawn with "\r")
// and reports the time against the same bytes with "\n" line ends
// (x-newlines). A "\r" cost a look for a "\n" to the read's end: 2 MiB
// of "x\r" took 4 s of serve's CPU (x-newlines 47 then, 2.4 now;
// the progress bar 29 then, 2.0 now).
func BenchmarkStoreCarriageReturns(b *testing.B) {
	for _, c := range []struct{ name, unit string }{{"x", "x"}, {"bar", "[#####-----] 50% 1234/5678 ..."}} {
		b.Run(c.name, func(b *testing.B) {
			crs := bytes.Repeat([]byte(c.unit+"\r"), 64<<10/(len(c.unit)+1))
			nls := bytes.ReplaceAll(crs, []byte("\r"), []byte("\n"))
			s, lines := NewOutputStore(StoreOptions{}), NewOutputStore(StoreOptions{})
			b.SetBytes(int64(len(crs)))
			var took, base int64
			for b.Loop() {
				took += timeAppend(s, crs)
				base += timeAppend(lines, nls)
			}
			b.ReportMetric(float64(took)/float64(base), "x-newlines")
		})
	}
}

// timeAppend is the nanoseconds one Append of p takes.
func timeAppend(s *OutputStore, p []byte) int64 {
	t0 := time.Now()
	s.Append(Stdout, p)
	return time.Since(t0).Nanoseconds()
}
