package cmd

import (
	"runtime/debug"
	"testing"

	"github.com/stretchr/testify/assert"

	"jobtop/jobs"
)

// goalAt is the heap at which the runtime starts the next collection
// under GOGC=percent with live bytes live (its floor, 4 MB at GOGC=100,
// scales with GOGC).
func goalAt(live uint64, percent int) uint64 {
	return max(4<<20*uint64(percent)/100, live+live*uint64(percent)/100)
}

func TestGCPacingLetsTheHeapGrowByTheHeadroomOrDouble(t *testing.T) {
	for _, live := range []uint64{0, 100 << 10, 1 << 20, 2 << 20, 3 << 20, 4 << 20, 6 << 20, 8 << 20, 12 << 20, 200 << 20} {
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

func TestMemoryGovernanceLeavesWhatTheEnvironmentSets(t *testing.T) {
	for _, tc := range []struct {
		gogc, gomemlimit string
		limit, pace      bool
	}{
		{"", "", true, true},
		{"50", "", true, false},
		{"", "1GiB", false, true},
		{"off", "1GiB", false, false},
	} {
		t.Setenv("GOGC", tc.gogc)
		t.Setenv("GOMEMLIMIT", tc.gomemlimit)
		limit, pace := memoryGovernance()
		assert.Equal(t, tc.limit, limit, "GOMEMLIMIT=%q: the limit", tc.gomemlimit)
		assert.Equal(t, tc.pace, pace, "GOGC=%q: the pacing", tc.gogc)
	}
}

func TestGovernMemoryOncePacesCollections(t *testing.T) {
	before := debug.SetGCPercent(50) // not what pacing sets (100 or more)
	t.Cleanup(func() { debug.SetGCPercent(before) })
	before0 := liveHeap()
	governMemoryOnce(fixedUse{}, false, true)
	set := debug.SetGCPercent(50)
	// A collection between the two reads of the live heap moves it.
	assert.Contains(t, []int{gcPercent(before0), gcPercent(liveHeap())}, set)
	governMemoryOnce(fixedUse{}, false, false)
	assert.Equal(t, 50, debug.SetGCPercent(50), "not paced when GOGC is set")
}

// fixedUse is a store that holds nothing.
type fixedUse struct{}

func (fixedUse) MemoryUse() jobs.MemoryUse { return jobs.MemoryUse{} }
