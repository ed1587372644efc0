package cmd

import (
	"context"
	"os"
	"runtime/debug"
	"time"

	"jobtop/jobs"
)

// memoryLimit is the soft memory limit an instance gives the Go runtime
// for what its jobs' stores hold: 1.5 times their text plus 8 MiB (the
// README promises an RSS within 1.5x + 30 MB: the program's own pages
// take about 10 MB of that, and the runtime may pass a soft limit by a
// little), or, when lines are short and the index outweighs the text,
// what the stores keep alive plus 20 MiB; and 1 MiB per running job for
// its read buffers. Without it the heap doubles before each collection:
// an instance holding 80 MB of output sat at twice that.
func memoryLimit(u jobs.MemoryUse) int64 {
	return max(u.Text*3/2+8<<20, u.Memory+20<<20) + int64(u.Running)<<20
}

// memoryUser says what the output a process holds takes: a
// *jobs.Manager's stores in an instance, a *control.Client's (or
// *control.Hosts') mirror in an attached TUI.
type memoryUser interface{ MemoryUse() jobs.MemoryUse }

// governMemory sets the runtime's memory limit from what the stores (or
// mirrors) of m hold, every interval, until ctx ends. When the limit
// falls (jobs ended, and their read buffers with them, or jobs were
// removed), memory is handed back to the system at once: nothing else
// would collect it while the process sits idle (the runtime forces a
// collection only every 2 minutes, and its scavenger returns pages only
// after one, slowly). A GOMEMLIMIT in the environment wins: then it does nothing.
func governMemory(ctx context.Context, m memoryUser, interval time.Duration) {
	if os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	go func() {
		t := time.NewTicker(interval)
		defer t.Stop()
		for {
			limit := memoryLimit(m.MemoryUse())
			if before := debug.SetMemoryLimit(limit); limit < before-8<<20 {
				debug.FreeOSMemory()
			}
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
		}
	}()
}
