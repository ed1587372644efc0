package jobs

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// MaxRunning answers without the manager's lock: GET /v1/instance reads
// it, and must answer at once while the manager is busy (a long start,
// a big reload).
func TestMaxRunningAnswersWhileTheManagerIsBusy(t *testing.T) {
	m := newManager(t, Options{MaxRunning: 2})
	require.NoError(t, m.SetMaxRunning(3))
	m.mu.Lock()
	defer m.mu.Unlock() // also when the test fails
	got := make(chan int, 1)
	go func() { got <- m.MaxRunning() }()
	select {
	case n := <-got:
		assert.Equal(t, 3, n)
	case <-time.After(patience):
		t.Fatal("MaxRunning waited for the manager's lock")
	}
}
