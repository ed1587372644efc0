package control

import (
	"fmt"
	"strings"
	"testing"

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
