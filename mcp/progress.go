package mcp

import (
	"context"
	"fmt"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// progressEvery is how often a wait tells a client that asked for
// progress (a progressToken) that it is still waiting: clients that cut
// calls after a quiet minute can count that as life.
var progressEvery = 5 * time.Second

// postProgress sends a progress notification every progressEvery while
// a wait of at most timeout lasts, when the call asked for progress;
// stop ends it (and waits until it has ended).
func postProgress(ctx context.Context, req *sdk.CallToolRequest, what string, timeout time.Duration) (stop func()) {
	if req == nil || req.Params == nil || req.Session == nil {
		return func() {}
	}
	token := req.Params.GetProgressToken()
	if token == nil {
		return func() {}
	}
	ctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		began := time.Now()
		tick := time.NewTicker(progressEvery)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			}
			waited := time.Since(began)
			req.Session.NotifyProgress(ctx, &sdk.ProgressNotificationParams{ //nolint:errcheck // a lost note is harmless
				ProgressToken: token,
				Progress:      waited.Seconds(),
				Total:         timeout.Seconds(),
				Message:       fmt.Sprintf("waiting %s for %s, at most %v", formatDuration(waited), what, timeout),
			})
		}
	}()
	return func() {
		cancel()
		wg.Wait()
	}
}
