package control

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestTailZero checks that tail=0 reads no lines, as tail -n 0 does, and
// puts next_cursor at the newest line, so a reader can go on from now.
func TestTailZero(t *testing.T) {
	in := startInstance(t)
	ctx := ctxT(t)
	fifo := mkfifo(t)
	info := in.startJob(t, "echo one; echo two >&2; printf 'three\\n'; read l < "+fifo+"; echo four")
	require.Eventually(t, func() bool {
		resp, err := in.client.ReadOutput(ctx, info.ID, OutputQuery{})
		return err == nil && len(resp.Lines) == 3
	}, testTimeout, 10*time.Millisecond)

	assert.Equal(t, "0", OutputQuery{Tail: TailNone}.Values().Get("tail"))
	for _, stream := range []string{"", "stdout", "stderr"} {
		resp, err := in.client.ReadOutput(ctx, info.ID, OutputQuery{Tail: TailNone, Stream: stream})
		require.NoError(t, err)
		assert.Empty(t, resp.Lines, "stream %q", stream)
		assert.Equal(t, uint64(3), resp.NextCursor, "stream %q: the newest line", stream)
		assert.False(t, resp.More)
		assert.False(t, resp.Ended)
	}

	// Following from tail=0 brings only what comes after its first
	// answer.
	var got []string
	first := make(chan struct{})
	followed := make(chan error, 1)
	go func() {
		followed <- in.client.FollowOutput(ctx, info.ID, OutputQuery{Tail: TailNone}, func(r OutputResponse) error {
			if got == nil {
				got = []string{}
				close(first)
			}
			got = append(got, texts(r.Lines)...)
			return nil
		})
	}()
	<-first
	writeFifo(t, fifo, "go\n")
	require.NoError(t, <-followed)
	assert.Equal(t, []string{"four"}, got)

	resp, err := in.client.ReadOutput(ctx, info.ID, OutputQuery{Tail: TailNone})
	require.NoError(t, err)
	assert.Empty(t, resp.Lines)
	assert.Equal(t, uint64(4), resp.NextCursor)
	assert.True(t, resp.Ended, "the job has ended and the answer reaches its last line")

	all, err := in.client.ReadAllOutput(ctx, AllOutputQuery{Tail: TailNone})
	require.NoError(t, err)
	assert.Empty(t, all.Lines)
	assert.NotZero(t, all.NextCursor)
	rest, err := in.client.ReadAllOutput(ctx, AllOutputQuery{Cursor: all.NextCursor})
	require.NoError(t, err)
	assert.Empty(t, rest.Lines, "next_cursor is the newest arrival")
}

// tail=0 with wait waits for the next line, as a read from the newest
// cursor does (it answered at once, with no line).
func TestTailZeroWaits(t *testing.T) {
	in := startInstance(t)
	ctx := ctxT(t)
	fifo := mkfifo(t)
	// The job holds the fifo open for writing too: reopened for each
	// line, a read could join a write still open after its line was read
	// and see EOF at its close, ending the job (and the next write would
	// wait for a reader for ever).
	info := in.startJob(t, "exec 3<>"+fifo+"; echo before; while read l <&3; do echo \"$l\"; done")
	require.Eventually(t, func() bool {
		resp, err := in.client.ReadOutput(ctx, info.ID, OutputQuery{})
		return err == nil && len(resp.Lines) == 1
	}, testTimeout, 10*time.Millisecond)
	// A line now and then until the answer comes: the wait may have
	// begun after the first (then it waits for the next). A wait may end
	// early with nothing on a loaded machine (its event subscription
	// fell behind and was closed): then it is asked again; one that does
	// not wait at all never brings a line.
	n := 0
	var resp OutputResponse
	for attempt := 0; attempt < 5 && len(resp.Lines) == 0; attempt++ {
		got := make(chan OutputResponse, 1)
		go func() {
			resp, err := in.client.ReadOutput(ctx, info.ID, OutputQuery{Tail: TailNone, Wait: true, Timeout: testTimeout})
			assert.NoError(t, err)
			got <- resp
		}()
		for answered := false; !answered; {
			n++
			writeFifo(t, fifo, fmt.Sprintf("line %d\n", n))
			select {
			case resp = <-got:
				answered = true
			case <-time.After(100 * time.Millisecond):
				require.Less(t, n, 500, "no answer")
			}
		}
	}
	require.NotEmpty(t, resp.Lines, "tail=0 with wait answered with no line: %+v", resp)
	assert.Contains(t, resp.Lines[0].Text, "line ")
}
