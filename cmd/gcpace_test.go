package cmd

import (
	"context"
	"runtime/debug"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"jobtop/jobs"
)

// goalAt is the heap at which the runtime starts the next collection
// under GOGC=percent with live bytes live (its floor, 4 MB at GOGC=100,
// scales with GOGC).
func goalAt(live uint64, percent int) uint64 {
	return max(4<<20*uint64(percent)/100, live+live*uint64(percent)/100)
}

func TestGCPacingLetsTheHeapGrowByTheHeadroomOrDouble(t *testing.T) {
	for _, live := range []uint64{0, 100 << 10, 1 << 20, 3 << 20, 4 << 20, 6 << 20, 7 << 20, 12 << 20, 16 << 20, 200 << 20} {
		p := gcPercent(live)
		want := max(live, 1<<20) + gcHeadroom
		if live >= gcHeadroom {
			want = 2 * live
		}
		got := goalAt(live, p)
		assert.InEpsilon(t, want, got, 0.02, "live %d: GOGC=%d collects at %d, want %d", live, p, got, want)
	}
	assert.Equal(t, 100, gcPercent(1<<30), "a large heap is paced as GOGC=100")
}

func TestGovernMemoryPacesCollectionsUnlessGOGCIsSet(t *testing.T) {
	t.Setenv("GOMEMLIMIT", "1GiB")   // only the pacing here
	before := debug.SetGCPercent(50) // not what pacing sets (100 or more)
	t.Cleanup(func() { debug.SetGCPercent(before) })
	ctx, stop := context.WithCancel(context.Background())
	governMemory(ctx, fixedUse{}, 10*time.Millisecond)
	require.Eventually(t, func() bool {
		p := debug.SetGCPercent(100)
		debug.SetGCPercent(p)
		return p == gcPercent(liveHeap())
	}, 5*time.Second, 10*time.Millisecond, "governMemory sets GOGC from the live heap")
	stop()

	t.Setenv("GOGC", "50")
	debug.SetGCPercent(50)
	ctx, stop = context.WithCancel(context.Background())
	defer stop()
	governMemory(ctx, fixedUse{}, time.Millisecond)
	time.Sleep(50 * time.Millisecond) // fifty intervals: it would have set it by now
	assert.Equal(t, 50, debug.SetGCPercent(50), "a GOGC in the environment wins")
}

// fixedUse is a store that holds nothing.
type fixedUse struct{}

func (fixedUse) MemoryUse() jobs.MemoryUse { return jobs.MemoryUse{} }
