package control

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"jobtop/jobs"
)

// mirrorAnswer is an answer of n lines of text after cursor.
func mirrorAnswer(cursor uint64, n int, text func(seq uint64) string) OutputResponse {
	var resp OutputResponse
	for i := range n {
		seq := cursor + 1 + uint64(i)
		resp.Lines = append(resp.Lines, jobs.Line{Seq: seq, Text: text(seq), Arrival: 10 * seq, Stream: jobs.Stream(1 + seq%2)})
	}
	resp.NextCursor = cursor + uint64(n)
	return resp
}

// A mirror keeps a job's newest lines within the server's default line
// and text bounds, in about their own size: lines of 16 KiB are held up
// to 16 MiB of text, not 10,000 of them.
func TestMirrorStoreKeepsTheServersBounds(t *testing.T) {
	s := newMirrorStore()
	long := func(seq uint64) string { return fmt.Sprintf("%016d", seq) + strings.Repeat("x", 16<<10-16) }
	for cursor := uint64(0); cursor < 3000; cursor += 500 {
		s.apply(mirrorAnswer(cursor, 500, long))
	}
	st := s.Stats()
	assert.EqualValues(t, 3000, st.Last)
	assert.LessOrEqual(t, st.Text, int64(mirrorBytes))
	assert.Equal(t, mirrorBytes/(16<<10), st.Retained)
	assert.Less(t, st.Memory, st.Text+st.Text/10, "the text is packed")
	all := s.ReadAfter(0, 0)
	require.Len(t, all.Lines, st.Retained)
	assert.EqualValues(t, st.First-1, all.Dropped)
	for i, l := range all.Lines {
		require.Equal(t, long(st.First+uint64(i)), l.Text)
		require.Equal(t, st.First+uint64(i), l.Seq)
		require.Equal(t, 10*l.Seq, l.Arrival)
		require.Equal(t, jobs.Stream(1+l.Seq%2), l.Stream)
	}

	short := func(seq uint64) string { return fmt.Sprint(seq) }
	s = newMirrorStore()
	for cursor := uint64(0); cursor < 25000; cursor += 1000 {
		s.apply(mirrorAnswer(cursor, 1000, short))
	}
	st = s.Stats()
	assert.Equal(t, mirrorLines, st.Retained)
	assert.EqualValues(t, 15001, st.First)
	assert.Equal(t, []string{"24999", "25000"}, texts(s.Tail(2).Lines))
	assert.LessOrEqual(t, st.Memory, st.Text+int64(mirrorLines)*mirrorEntrySize+2*mirrorChunkMax)
}

// heldChunks is what the store's chunks should count: every chunk a held
// line uses, and the one being filled, once each.
func heldChunks(s *mirrorStore) int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	seen := make(map[*mirrorChunk]bool)
	var total int64
	add := func(c *mirrorChunk) {
		if c != nil && !seen[c] {
			seen[c] = true
			total += int64(cap(c.buf))
		}
	}
	for i := range s.n {
		add(s.at(i).chunk)
	}
	add(s.chunk)
	return total
}

// requireHeld checks that the store holds the lines first..last of text,
// in order and numbered as on the server, and counts its chunks right.
func requireHeld(t *testing.T, s *mirrorStore, first, last uint64, text func(uint64) string) {
	t.Helper()
	st := s.Stats()
	require.Equal(t, first, st.First)
	require.Equal(t, last, st.Last)
	require.Equal(t, first-1, st.Dropped)
	all := s.ReadAfter(0, 0)
	require.Equal(t, first-1, all.Dropped)
	require.Len(t, all.Lines, int(last-first+1))
	var size int64
	for i, l := range all.Lines {
		seq := first + uint64(i)
		require.Equal(t, seq, l.Seq)
		require.Equal(t, text(seq), l.Text)
		require.Equal(t, 10*seq, l.Arrival)
		require.Equal(t, jobs.Stream(1+seq%2), l.Stream)
		size += int64(len(l.Text))
	}
	require.Equal(t, size, st.Text)
	require.Equal(t, heldChunks(s), s.chunks, "chunk accounting")
	require.Equal(t, int64(len(s.ring))*mirrorEntrySize+s.chunks, st.Memory)
}

// Backfill prepends older lines before the oldest held: only those that
// end just before it, numbered as on the server, within the bounds (the
// newest win), in chunks of their own that eviction frees.
func TestMirrorStorePrependsOlderLines(t *testing.T) {
	short := func(seq uint64) string { return fmt.Sprint("line ", seq) }
	s := newMirrorStore()
	s.apply(mirrorAnswer(6000, 4000, short)) // a tail read: 6001..10000
	requireHeld(t, s, 6001, 10000, short)

	now := time.Now()
	cursor, max, wait := s.backfillPage(1, 1024, now)
	assert.Zero(t, wait, "a first read from the tail is no jump")
	assert.EqualValues(t, 6000-1024, cursor)
	assert.Equal(t, 1024, max)

	assert.Zero(t, s.prepend(mirrorAnswer(3000, 1000, short).Lines), "lines that do not reach the oldest held")
	assert.Equal(t, 1000, s.prepend(mirrorAnswer(5000, 1000, short).Lines))
	requireHeld(t, s, 5001, 10000, short)
	assert.Equal(t, 1000, s.prepend(mirrorAnswer(4000, 2000, short).Lines), "lines held already are left out")
	requireHeld(t, s, 4001, 10000, short)
	assert.Equal(t, 4000, s.prepend(mirrorAnswer(0, 4000, short).Lines))
	requireHeld(t, s, 1, 10000, short)
	_, max, _ = s.backfillPage(1, 1024, now)
	assert.Zero(t, max, "everything is held")
	assert.LessOrEqual(t, s.Stats().Memory, s.Stats().Text+int64(mirrorLines)*mirrorEntrySize+2*mirrorChunkMax)

	// New lines evict the prepended ones, and their chunks with them.
	for cursor := uint64(10000); cursor < 16000; cursor += 500 {
		s.apply(mirrorAnswer(cursor, 500, short))
		requireHeld(t, s, cursor+500-mirrorLines+1, cursor+500, short)
	}

	// The line bound: a store with 4,000 lines takes 6,000 older ones.
	s = newMirrorStore()
	s.apply(mirrorAnswer(8000, 4000, short))
	cursor, max, _ = s.backfillPage(1, 100_000, now)
	assert.EqualValues(t, 2000, cursor)
	assert.Equal(t, 6000, max)
	assert.Equal(t, 6000, s.prepend(mirrorAnswer(0, 8000, short).Lines))
	requireHeld(t, s, 2001, 12000, short)
	_, max, _ = s.backfillPage(1, 1024, now)
	assert.Zero(t, max, "no room")
	s.apply(mirrorAnswer(12000, 10, short))
	requireHeld(t, s, 2011, 12010, short)

	// The text bound: 16 KiB lines fill 16 MiB, newest first.
	long := func(seq uint64) string { return fmt.Sprintf("%016d", seq) + strings.Repeat("x", 16<<10-16) }
	s = newMirrorStore()
	s.apply(mirrorAnswer(1500, 500, long))
	_, max, _ = s.backfillPage(1, 1024, now)
	assert.Equal(t, 524, max, "no more than fit")
	assert.Equal(t, 524, s.prepend(mirrorAnswer(0, 1500, long).Lines))
	requireHeld(t, s, 2001-1024, 2000, long)
	st := s.Stats()
	assert.EqualValues(t, mirrorBytes, st.Text)
	assert.Less(t, st.Memory, st.Text+st.Text/10, "the text is packed")
	_, max, _ = s.backfillPage(1, 1024, now)
	assert.Zero(t, max, "full")
	for cursor := uint64(2000); cursor < 4000; cursor += 100 {
		s.apply(mirrorAnswer(cursor, 100, long))
		requireHeld(t, s, cursor+100-1024+1, cursor+100, long)
	}

	// A reset (a jump to the tail) makes room for a backfill again, once
	// the job no longer outruns the mirror.
	s.apply(mirrorAnswer(9000, 10, long))
	requireHeld(t, s, 9001, 9010, long)
	now = time.Now()
	_, max, wait = s.backfillPage(1, 1024, now)
	assert.Zero(t, max)
	assert.Positive(t, wait)
	assert.LessOrEqual(t, wait, mirrorBackfillQuiet)
	cursor, max, wait = s.backfillPage(1, 1024, now.Add(mirrorBackfillQuiet))
	assert.Zero(t, wait)
	assert.EqualValues(t, 9000-1014, cursor)
	assert.Equal(t, 1014, max, "as many as fit")
	assert.Equal(t, 100, s.prepend(mirrorAnswer(8900, 100, long).Lines))
	requireHeld(t, s, 8901, 9010, long)
}
