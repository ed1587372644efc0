package cmd

import (
	"context"
	"os"
	"runtime/debug"
	"runtime/metrics"
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

// gcHeadroom is the least the heap grows by between two collections. At
// GOGC=100 the runtime collects when the heap has doubled, or reached 4
// MB: a TUI with a small heap drawing a full-screen job 60 times a second
// collected 11 times a second, each collection waking both cores. 8 MiB,
// not more: the heap may hold that much garbage at rest, and an idle TUI
// must stay within README's figure (16 MiB took one past it, rev28).
const gcHeadroom = 8 << 20

// gcPercent is the GOGC that lets a heap of live bytes grow by
// gcHeadroom before the next collection, or double when it is larger
// (GOGC=100). The runtime's floor (4 MB at GOGC=100) grows with GOGC, so
// under about 2.9 MiB live the floor is what is set to live+gcHeadroom.
func gcPercent(live uint64) int {
	if live >= gcHeadroom {
		return 100
	}
	l := max(live, 1<<20)
	return int(min(100*gcHeadroom/l, 100*(l+gcHeadroom)/(4<<20)))
}

// liveHeap is the heap the last collection found live.
func liveHeap() uint64 {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s[0].Value.Uint64()
}

// memoryGovernance says what governMemory sets: the memory limit unless
// GOMEMLIMIT is in the environment, the pacing unless GOGC is.
func memoryGovernance() (limit, pace bool) {
	return os.Getenv("GOMEMLIMIT") == "", os.Getenv("GOGC") == ""
}

// governMemoryOnce sets the memory limit (limit) from what m holds,
// handing memory back at once when it falls, and GOGC (pace) from the
// heap that was live.
func governMemoryOnce(m memoryUser, limit, pace bool) {
	if limit {
		bound := memoryLimit(m.MemoryUse())
		if before := debug.SetMemoryLimit(bound); bound < before-8<<20 {
			debug.FreeOSMemory()
		}
	}
	if pace {
		debug.SetGCPercent(gcPercent(liveHeap()))
	}
}

// governMemory sets the runtime's memory limit from what the stores (or
// mirrors) of m hold, every interval, until ctx ends. When the limit
// falls (jobs ended, and their read buffers with them, or jobs were
// removed), memory is handed back to the system at once: nothing else
// would collect it while the process sits idle (the runtime forces a
// collection only every 2 minutes, and its scavenger returns pages only
// after one, slowly). It also paces collections (gcPercent) by the heap
// that was live. A GOMEMLIMIT in the environment wins over the limit, a
// GOGC over the pacing.
func governMemory(ctx context.Context, m memoryUser, interval time.Duration) {
	limit, pace := memoryGovernance()
	if !limit && !pace {
		return
	}
	go func() {
		t := time.NewTicker(interval)
		defer t.Stop()
		for {
			governMemoryOnce(m, limit, pace)
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
		}
	}()
}
