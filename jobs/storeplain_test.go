package jobs

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// plainishOutput is n writes of lines of many lengths (empty, short,
// longer than maxLine), mostly plain text, some with a "\r" or colours,
// and where each write ends (mid-line or not) left to chance.
func plainishOutput(r *rand.Rand, n, maxLine int) []string {
	var writes []string
	for range n {
		var b strings.Builder
		for range r.IntN(40) {
			switch k := r.IntN(100); {
			case k < 3:
				b.WriteString("\x1b[3" + string(rune('1'+r.IntN(6))) + "m")
			case k < 5:
				b.WriteString("\r")
			case k < 7:
				b.WriteString("\x1b[0m")
			}
			size := r.IntN(maxLine / 2)
			if r.IntN(20) == 0 {
				size = r.IntN(3 * maxLine)
			}
			for range size {
				b.WriteByte(byte('a' + r.IntN(26)))
			}
			b.WriteString("\n")
		}
		text := b.String()
		if cut := r.IntN(len(text) + 1); r.IntN(3) == 0 {
			text = text[:cut] // the next write goes on mid-line
		}
		writes = append(writes, text)
	}
	return writes
}

// TestStorePlainRunsKeepWhatLinesOneByOneKeep: lines appended in runs
// (a read's whole lines kept in one go) are kept as the same output
// appended a byte at a time keeps them, on both streams, across writes
// that end mid-line, lines longer than MaxLineBytes, empty lines, "\r"
// and colours, with the line bound evicting.
func TestStorePlainRunsKeepWhatLinesOneByOneKeep(t *testing.T) {
	for seed := range uint64(20) {
		r := rand.New(rand.NewPCG(seed, 7))
		opts := StoreOptions{MaxLines: 1 + r.IntN(300), MaxLineBytes: 16 + r.IntN(200)}
		runs, bytewise := NewOutputStore(opts), NewOutputStore(opts)
		for i, w := range plainishOutput(r, 300, opts.MaxLineBytes) {
			st := Stream(i % 3 / 2) // stdout twice, then stderr
			runs.Append(st, []byte(w))
			for k := range len(w) {
				bytewise.Append(st, []byte(w[k:k+1]))
			}
			if i%50 == 49 {
				runs.AppendMeta("meta")
				bytewise.AppendMeta("meta")
			}
		}
		got, want := runs.ReadAfter(0, 0), bytewise.ReadAfter(0, 0)
		require.Equal(t, len(want.Lines), len(got.Lines), "seed %d", seed)
		for i := range want.Lines {
			want.Lines[i].Arrival, got.Lines[i].Arrival = 0, 0
		}
		assert.Equal(t, want.Lines, got.Lines, "seed %d", seed)
		assert.Equal(t, texts(want.Partial), texts(got.Partial), "seed %d", seed)
		gs, ws := runs.Stats(), bytewise.Stats()
		gs.Memory, ws.Memory = 0, 0
		assert.Equal(t, ws, gs, "seed %d", seed)
		assert.Equal(t, bytewise.LastLine(), runs.LastLine(), "seed %d", seed)
	}
}

// TestStorePlainRunsStayWithinTheByteBound: runs of plain lines keep a
// small store's memory within its bound, keep the newest lines whole and
// in order, and take every line's number.
func TestStorePlainRunsStayWithinTheByteBound(t *testing.T) {
	for _, maxBytes := range []int{64, 1000, 4 << 10, 100 << 10} {
		s := NewOutputStore(StoreOptions{MaxBytes: maxBytes, MaxLines: 5000})
		r := rand.New(rand.NewPCG(uint64(maxBytes), 1))
		var all []string
		var b strings.Builder
		for i := range 20_000 {
			line := strings.Repeat(string(rune('a'+i%26)), r.IntN(min(maxBytes, 120)))
			all = append(all, line)
			b.WriteString(line + "\n")
			if r.IntN(50) == 0 {
				s.Append(Stdout, []byte(b.String()))
				b.Reset()
			}
		}
		s.Append(Stdout, []byte(b.String()))
		st := s.Stats()
		assert.LessOrEqual(t, st.Memory, memoryBound(s), "bound %d", maxBytes)
		assert.Equal(t, uint64(len(all)), st.Last, "bound %d", maxBytes)
		kept := texts(s.ReadAfter(0, 0).Lines)
		require.NotEmpty(t, kept, "bound %d", maxBytes)
		assert.Equal(t, all[len(all)-len(kept):], kept, "bound %d: the newest lines, whole", maxBytes)
		assert.Equal(t, uint64(len(all)-len(kept)), st.Dropped, "bound %d", maxBytes)
	}
}
