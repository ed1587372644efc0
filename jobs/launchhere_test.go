package jobs

import (
	"runtime/metrics"
	"testing"

	"github.com/stretchr/testify/assert"
)

// goroutinesCreated is how many goroutines this process has created.
func goroutinesCreated() uint64 {
	s := []metrics.Sample{{Name: "/sched/goroutines-created:goroutines"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// TestStartLaunchesOnItsCaller: Start, which waits for its job's launch
// anyway, makes the launch itself rather than on a goroutine of its own:
// a goroutine started and waited for is two handoffs on the critical path
// of every start through the API. What a start does need are its log
// file's two goroutines (the file's creation, the run's start marker) and
// a reader for each of stdout and stderr.
func TestStartLaunchesOnItsCaller(t *testing.T) {
	m := newManager(t, Options{})
	start(t, m, Spec{Command: "exec sleep 30"}) // the keeper started
	least := ^uint64(0)
	for range 5 { // the least of five: other goroutines come and go
		before := goroutinesCreated()
		start(t, m, Spec{Command: "exec sleep 30"})
		least = min(least, goroutinesCreated()-before)
	}
	assert.LessOrEqual(t, least, uint64(4), "the log file's two goroutines and two readers")
}
