package jobs

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// readInto gives w to s as its reader does: read into the store's room
// (at most max bytes a read), stored where it lies; it checks that
// appendRead hands back for the log file exactly what was read, and
// returns false when the store is not read into.
func readInto(t *testing.T, s *OutputStore, st Stream, w []byte, max int) bool {
	t.Helper()
	for len(w) > 0 {
		room := s.readRoom(st)
		if room.buf == nil {
			s.Append(st, w)
			return false
		}
		n := copy(room.buf[:min(len(room.buf), max)], w)
		got := s.appendRead(st, room, n)
		require.True(t, bytes.Equal(w[:n], got), "the log file gets the bytes read")
		w = w[n:]
	}
	return true
}

// TestStoreReadsInPlaceKeepWhatLinesOneByOneKeep: output read into the
// store, its plain lines kept where they were read, is kept as the same
// output appended a byte at a time keeps it, on both streams taking
// turns, across reads that end mid-line, lines longer than MaxLineBytes,
// empty lines, "\r" and colours, jobtop's own lines and a run's end
// between reads, with the line bound evicting.
func TestStoreReadsInPlaceKeepWhatLinesOneByOneKeep(t *testing.T) {
	for seed := range uint64(12) {
		r := rand.New(rand.NewPCG(seed, 11))
		opts := StoreOptions{MaxLines: 1 + r.IntN(3000), MaxLineBytes: 16 + r.IntN(300)}
		if seed%2 == 1 {
			opts.MaxBytes = 1 << 20 // slabs of 64 KiB: more of them
		}
		reads, bytewise := NewOutputStore(opts), NewOutputStore(opts)
		out := plainishOutput(r, 400, opts.MaxLineBytes)
		for i, w := range out {
			// Mostly plain runs, as a firehose's, some of them big.
			if r.IntN(2) == 0 {
				w = strings.Repeat(line80+"\n", r.IntN(300)) + w
			}
			st := Stream(i % 3 / 2)
			max := 1 + r.IntN(300<<10)
			if r.IntN(2) == 0 {
				max = 1 + r.IntN(200)
			}
			require.True(t, readInto(t, reads, st, []byte(w), max), "the store is read into")
			for k := range len(w) {
				bytewise.Append(st, []byte(w[k:k+1]))
			}
			switch i % 70 {
			case 49:
				reads.AppendMeta("meta")
				bytewise.AppendMeta("meta")
			case 69: // a run's end, and the store's room taken before it
				room := reads.readRoom(Stderr)
				reads.Flush()
				bytewise.Flush()
				n := copy(room.buf, "after the end\nand")
				assert.Equal(t, "after the end\nand", string(reads.appendRead(Stderr, room, n)))
				bytewise.Append(Stderr, []byte("after the end\nand"))
			}
		}
		got, want := reads.ReadAfter(0, 0), bytewise.ReadAfter(0, 0)
		require.Equal(t, len(want.Lines), len(got.Lines), "seed %d", seed)
		for i := 1; i < len(got.Lines); i++ {
			require.Greater(t, got.Lines[i].Arrival, got.Lines[i-1].Arrival, "seed %d: arrivals grow", seed)
		}
		for i := range want.Lines {
			want.Lines[i].Arrival, got.Lines[i].Arrival = 0, 0
		}
		assert.Equal(t, want.Lines, got.Lines, "seed %d", seed)
		assert.Equal(t, texts(want.Partial), texts(got.Partial), "seed %d", seed)
		gs, ws := reads.Stats(), bytewise.Stats()
		assert.LessOrEqual(t, gs.Memory, memoryBound(reads), "seed %d", seed)
		gs.Memory, ws.Memory = 0, 0
		assert.Equal(t, ws, gs, "seed %d", seed)
		assert.Equal(t, bytewise.LastLine(), reads.LastLine(), "seed %d", seed)
		reads.Flush()
		bytewise.Flush()
		assert.Equal(t, texts(bytewise.ReadAfter(0, 0).Lines), texts(reads.ReadAfter(0, 0).Lines), "seed %d: repacked", seed)
	}
}

// TestStoreReadsPlainLinesWhereTheyLie: a firehose's whole lines are
// kept in the slab they were read into, with no copy: only the line a
// read's end splits is copied (into the store's current slab).
func TestStoreReadsPlainLinesWhereTheyLie(t *testing.T) {
	s := NewOutputStore(StoreOptions{})
	chunk := []byte(strings.Repeat(line80+"\n", 3000))
	reads := 0
	for range 100 {
		for w := chunk; len(w) > 0; reads++ {
			room := s.readRoom(Stdout)
			require.NotNil(t, room.buf)
			n := copy(room.buf, w)
			s.appendRead(Stdout, room, n)
			w = w[n:]
		}
	}
	require.Equal(t, 10_000, s.Stats().Retained)
	copied := 0
	if s.slabs.cur != nil {
		copied = s.slabs.cur.lines
	}
	assert.LessOrEqual(t, copied, reads, "at most a line a read was copied")
	assert.Less(t, copied, 10_000/20)
	assert.Equal(t, uint64(300_000), s.Stats().Last)
	assert.Equal(t, line80, s.LastLine())
	for _, l := range s.ReadAfter(0, 0).Lines {
		require.Equal(t, line80, l.Text)
	}
}

// TestStoreReadsStayWithinTheBound: reads into the store, on both
// streams, keep its memory within its bound, and the slabs counted whole
// (the read slabs with them) within MaxBytes.
func TestStoreReadsStayWithinTheBound(t *testing.T) {
	for _, opts := range []StoreOptions{
		{MaxBytes: 1 << 20},
		{MaxBytes: 2 << 20, MaxLineBytes: 2 << 10},
		{MaxLines: 500},
	} {
		t.Run(fmt.Sprint(opts), func(t *testing.T) {
			s := NewOutputStore(opts)
			rng := rand.New(rand.NewPCG(1, 2))
			for i := 0; i < 3000; i++ {
				var b strings.Builder
				for b.Len() < rng.IntN(64<<10) {
					b.WriteString(strings.Repeat("x", rng.IntN(3000)))
					b.WriteByte("\n\r\n\n\n"[rng.IntN(5)])
				}
				require.True(t, readInto(t, s, Stream(rng.IntN(2)), []byte(b.String()), 1+rng.IntN(256<<10)))
				st := s.Stats()
				require.LessOrEqual(t, st.Memory, memoryBound(s))
				if st.Retained > 1 {
					require.LessOrEqual(t, s.slabs.held, s.opts.MaxBytes, "slabs counted whole stay within MaxBytes")
				}
			}
		})
	}
}

// TestReadInPlaceLinesSurviveSlabReuse: lines read, then enough output
// read after them that their slabs are evicted and read into again: what
// was read must not change.
func TestReadInPlaceLinesSurviveSlabReuse(t *testing.T) {
	s := NewOutputStore(StoreOptions{MaxLines: 100})
	write := func(prefix string, n int) {
		var b strings.Builder
		for i := range n {
			fmt.Fprintf(&b, "%s %04d %s\n", prefix, i, strings.Repeat("x", 60))
		}
		require.True(t, readInto(t, s, Stdout, []byte(b.String()), 256<<10))
	}
	for range 50 {
		write("warm-up", 1000)
	}
	write("first", 100)
	read := s.ReadAfter(0, 0).Lines
	last := s.LastLine()
	var want []string
	for _, l := range read {
		want = append(want, strings.Clone(l.Text))
	}
	for range 200 {
		write("later", 1000)
	}
	assert.Equal(t, want, texts(read))
	assert.Equal(t, want[99], last)
}

// A store bounded too tightly for slabs worth reading into, and a
// terminal's, are given reads through a buffer.
func TestSmallStoresAreNotReadInto(t *testing.T) {
	small := NewOutputStore(StoreOptions{MaxBytes: 256 << 10})
	assert.Nil(t, small.readRoom(Stdout).buf)
	tty := NewOutputStore(StoreOptions{})
	tty.SetTerminal(true, 80)
	assert.Nil(t, tty.readRoom(Stdout).buf)
}
