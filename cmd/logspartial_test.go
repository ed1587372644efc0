package cmd

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// logs --json shows a line still being written in "partial" with no
// "seq" (it said "seq": 0, which reads as a line number): its number is
// not known until its newline comes, as another line may take the next
// one first (here the job's stderr), and the cursor does not cover it,
// so a read after next_cursor returns it once complete, with its number.
func TestLogsJSONPartialLineHasNoSeq(t *testing.T) {
	c := newCLI(t)
	c.serve()
	first, second := mkfifo(t), mkfifo(t)
	id := c.startJob("echo one; printf part; read l < " + first + "; echo err >&2; read l < " + second + "; echo rest; exec sleep 60")

	type answer struct {
		Lines      []map[string]any `json:"lines"`
		NextCursor float64          `json:"next_cursor"`
		Partial    []map[string]any `json:"partial"`
	}
	read := func(cursor string) answer {
		var a answer
		require.NoError(t, json.Unmarshal([]byte(c.ok("logs", "--json", "--cursor", cursor, id)), &a))
		return a
	}
	var a answer
	require.Eventually(t, func() bool { a = read("0"); return len(a.Partial) == 1 }, testTimeout, 20*time.Millisecond)
	assert.Equal(t, map[string]any{"stream": "stdout", "text": "part"}, a.Partial[0], "no seq: it has none yet")
	assert.Equal(t, float64(1), a.NextCursor)

	writeFifo(t, first, "go\n")
	require.Eventually(t, func() bool { a = read("1"); return len(a.Lines) == 1 }, testTimeout, 20*time.Millisecond)
	assert.Equal(t, map[string]any{"seq": float64(2), "stream": "stderr", "text": "err", "arrival": a.Lines[0]["arrival"]}, a.Lines[0], "the next number went to another line")
	require.Len(t, a.Partial, 1)
	assert.NotContains(t, a.Partial[0], "seq")

	writeFifo(t, second, "go\n")
	require.Eventually(t, func() bool { a = read("2"); return len(a.Lines) == 1 }, testTimeout, 20*time.Millisecond)
	assert.Equal(t, float64(3), a.Lines[0]["seq"])
	assert.Equal(t, "partrest", a.Lines[0]["text"], "read after the cursor once complete")
	assert.Empty(t, a.Partial)
}
