package jobs

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// memoryBound is the most a store may keep alive: its byte bound, one
// spare slab, its line index and the lines being built.
func memoryBound(s *OutputStore) int64 {
	return int64(s.opts.MaxBytes + s.slabs.maxSize + s.opts.MaxLines*entrySize + 2*s.opts.MaxLineBytes)
}

// heapInUse is the live heap after a full collection.
func heapInUse() int64 {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return int64(ms.HeapAlloc)
}

// progressLine is line i rewritten n times with "\r", as a progress bar
// does, then ended.
func progressLine(i, n int) string {
	var b strings.Builder
	for k := 1; k <= n; k++ {
		fmt.Fprintf(&b, "line %05d: %4d/%d done\r", i, k, n)
	}
	fmt.Fprintf(&b, "line %05d finished\n", i)
	return b.String()
}

// Rewritten text is never kept: a store fed progress bars holds the
// finished lines only, and the heap grows by what the store counts.
func TestCarriageReturnRewritesAreNotKept(t *testing.T) {
	s := NewOutputStore(StoreOptions{})
	before := heapInUse()
	const lines, rewrites = 2000, 200
	for i := 0; i < lines; i++ {
		s.Append(Stdout, []byte(progressLine(i, rewrites)))
	}
	grew := heapInUse() - before
	st := s.Stats()
	require.Equal(t, lines, st.Retained)
	assert.Equal(t, int64(lines*len("line 00000 finished")), st.Text)
	assert.Less(t, st.Memory, st.Text*2+int64(DefaultMaxLines*entrySize), "only finished lines are held")
	assert.Less(t, grew, st.Memory+(1<<20), "the heap holds what the store counts (store %d, heap grew %d)", st.Memory, grew)
	runtime.KeepAlive(s)
}

// However lines and reads fall, the memory a store keeps alive stays
// within its bound, and its bound is counted, slabs whole.
func TestStoreMemoryStaysWithinItsBound(t *testing.T) {
	for _, opts := range []StoreOptions{
		{MaxBytes: 256 << 10},
		{MaxBytes: 64 << 10, MaxLineBytes: 2 << 10},
		{MaxBytes: 1 << 20, MaxLines: 500},
	} {
		t.Run(fmt.Sprint(opts), func(t *testing.T) {
			s := NewOutputStore(opts)
			rng := rand.New(rand.NewPCG(1, 2))
			for i := 0; i < 3000; i++ {
				var b strings.Builder
				for b.Len() < rng.IntN(8<<10) {
					b.WriteString(strings.Repeat("x", rng.IntN(300)))
					b.WriteByte("\n\r\n"[rng.IntN(3)])
				}
				s.Append(Stream(rng.IntN(2)), []byte(b.String()))
				st := s.Stats()
				require.LessOrEqual(t, st.Memory, memoryBound(s))
				if st.Retained > 1 {
					require.LessOrEqual(t, s.slabs.held, s.opts.MaxBytes, "slabs counted whole stay within MaxBytes")
				}
			}
		})
	}
}

// A finished run lets go of its spare slab and partial buffers.
func TestFlushReleasesWhatOnlyWritingNeeds(t *testing.T) {
	s := NewOutputStore(StoreOptions{MaxBytes: 1 << 20})
	chunk := []byte(strings.Repeat(line80+"\n", 800))
	for i := 0; i < 100; i++ {
		s.Append(Stdout, chunk)
	}
	s.Append(Stdout, []byte("no newline yet"))
	require.NotNil(t, s.slabs.spare, "a store at its bound keeps a spare")
	before := s.Stats()
	want := s.ReadAfter(0, 0)
	s.Flush()
	after := s.Stats()
	assert.Nil(t, s.slabs.spare)
	assert.Less(t, after.Memory, before.Memory)
	assert.Equal(t, int64(after.Retained*entrySize), after.Memory-int64(s.slabs.held), "the index has no room to spare")
	assert.InDelta(t, after.Text, s.slabs.held, float64(len(line80)*after.Retained/(maxSlabSize/len(line80))), "the text is packed: at most a line's slack per slab")
	assert.Equal(t, "no newline yet", s.LastLine(), "the partial line was committed")
	got := s.ReadAfter(0, 0).Lines
	// The partial line, committed, took the oldest line's place.
	assert.True(t, slices.Equal(want.Lines[1:], got[:len(got)-1]), "every line kept as it was")
	assert.Equal(t, "no newline yet", got[len(got)-1].Text)

	// A new run after the flush writes on as before.
	s.Append(Stdout, []byte("next run\n"))
	assert.Equal(t, "next run", s.LastLine())
	assert.LessOrEqual(t, s.Stats().Memory, memoryBound(s))
}

// BenchmarkStoreAppend appends 256 KiB reads of 80-column lines to a store
// at its bound, as a firehose job's reader does (MB/s).
func BenchmarkStoreAppend(b *testing.B) {
	chunk := bytes.Repeat([]byte(line80+"\n"), 256<<10/80)
	s := NewOutputStore(StoreOptions{})
	b.SetBytes(int64(len(chunk)))
	for b.Loop() {
		s.Append(Stdout, chunk)
	}
}

// TestStoreIndexHoldsNoPointers: the line index (10,000 entries a job)
// names slabs by id, so the garbage collector has nothing to scan in it.
func TestStoreIndexHoldsNoPointers(t *testing.T) {
	var hasPointers func(reflect.Type) bool
	hasPointers = func(ty reflect.Type) bool {
		switch ty.Kind() {
		case reflect.Pointer, reflect.Slice, reflect.Map, reflect.Chan, reflect.Func, reflect.Interface, reflect.String, reflect.UnsafePointer:
			return true
		case reflect.Array:
			return hasPointers(ty.Elem())
		case reflect.Struct:
			for i := range ty.NumField() {
				if hasPointers(ty.Field(i).Type) {
					return true
				}
			}
		}
		return false
	}
	require.False(t, hasPointers(reflect.TypeOf(entry{})), "an index entry holds no pointer")
	require.Equal(t, 24, entrySize, "README: 24 bytes a line for the index")
}
