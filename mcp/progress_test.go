package mcp

import (
	"context"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"
)

// A wait called with a progressToken sends progress notifications while
// it waits; without a token, none.
func TestLongWaitsReportProgress(t *testing.T) {
	e := newEnv(t)
	old := progressEvery
	progressEvery = 50 * time.Millisecond
	t.Cleanup(func() { progressEvery = old })
	id := e.run("srv", "exec sleep 60")

	var mu sync.Mutex
	var notes []*sdk.ProgressNotificationParams
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	st, ct := sdk.NewInMemoryTransports()
	ss, err := e.srv.Connect(ctx, st, nil)
	require.NoError(t, err)
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "patient"}, &sdk.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, req *sdk.ProgressNotificationClientRequest) {
			mu.Lock()
			defer mu.Unlock()
			notes = append(notes, req.Params)
		},
	}).Connect(ctx, ct, nil)
	require.NoError(t, err)
	t.Cleanup(func() {
		cs.Close()
		ss.Wait() //nolint:errcheck // closed on purpose
	})
	count := func() int {
		mu.Lock()
		defer mu.Unlock()
		return len(notes)
	}

	params := &sdk.CallToolParams{Name: "wait_job", Arguments: map[string]any{"id": id, "timeout": 0.6}}
	params.SetProgressToken("wait-1")
	res, err := cs.CallTool(ctx, params)
	require.NoError(t, err)
	require.False(t, res.IsError)
	require.Eventually(t, func() bool { return count() >= 2 }, deadline, 10*time.Millisecond, "notes arrive while it waits")
	mu.Lock()
	first := *notes[0]
	mu.Unlock()
	require.Equal(t, "wait-1", first.ProgressToken)
	require.InDelta(t, 0.6, first.Total, 0.001)
	require.Contains(t, first.Message, "for job 1 to end, at most 600ms")

	res, err = cs.CallTool(ctx, &sdk.CallToolParams{Name: "wait_job", Arguments: map[string]any{"id": id, "timeout": 0.3}})
	require.NoError(t, err)
	require.False(t, res.IsError)
	mu.Lock()
	defer mu.Unlock()
	for _, n := range notes {
		require.Equal(t, "wait-1", n.ProgressToken, "a call without a token gets no notes")
	}
}
