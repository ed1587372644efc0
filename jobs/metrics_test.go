package jobs

import (
	"context"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestUsageCoversTheProcessTree(t *testing.T) {
	m := newManager(t, Options{SampleInterval: 100 * time.Millisecond})
	// The shell only waits; the CPU is burnt by its child.
	busy := start(t, m, Spec{Command: "yes > /dev/null & wait"})
	idle := start(t, m, Spec{Command: "sleep 1000"})
	got := waitFor(t, m, busy.ID, "the busy child's CPU to show", func(i Info) bool {
		return i.Usage.CPU > 20
	})
	assert.Greater(t, got.Usage.RSS, int64(100<<10), "a shell and yes hold more than 100 KiB")
	assert.Less(t, got.Usage.CPU, 250.0, "yes is single-threaded; two cores at most")
	idleInfo := waitFor(t, m, idle.ID, "a sample of the idle job", func(i Info) bool { return i.Usage.RSS > 0 })
	assert.Less(t, idleInfo.Usage.CPU, 10.0)

	require.NoError(t, m.Kill(busy.ID))
	assert.Equal(t, Usage{}, wait(t, m, busy.ID).Usage, "an ended job uses nothing")
}

// A process the run left behind (its parent gone, so the keeper's child
// now) still counts: the sample reads what is below the keeper, not only
// what is below the main process.
func TestUsageCountsWhatTheRunLeftBehind(t *testing.T) {
	m := newManager(t, Options{SampleInterval: 100 * time.Millisecond})
	left := start(t, m, Spec{Command: "(yes > /dev/null &); exec sleep 1000"})
	waitFor(t, m, left.ID, "the orphan's CPU to show", func(i Info) bool { return i.Usage.CPU > 20 })
	require.NoError(t, m.Kill(left.ID))
	wait(t, m, left.ID)
}

// TestSampleSeesAPausedJob: a job paused with kill -STOP read as
// running, like one at work. The sample reads its main process's state:
// stopped while paused, not once continued, nor once it ended.
func TestSampleSeesAPausedJob(t *testing.T) {
	m := newManager(t, Options{SampleInterval: 50 * time.Millisecond})
	// No fork once up: a shell stopped while it forks (vfork) does not
	// show as stopped.
	info := start(t, m, Spec{Command: "sleep 600 & echo up; wait"})
	info = waitFor(t, m, info.ID, "up", func(i Info) bool { return i.LastLine == "up" })
	require.NoError(t, syscall.Kill(info.PID, syscall.SIGSTOP))
	waitFor(t, m, info.ID, "the job to show paused", func(i Info) bool { return i.Stopped })
	require.NoError(t, syscall.Kill(info.PID, syscall.SIGCONT))
	got := waitFor(t, m, info.ID, "the job to show running again", func(i Info) bool { return !i.Stopped && i.Usage.RSS > 0 })
	assert.Equal(t, StateRunning, got.State)
	require.NoError(t, syscall.Kill(info.PID, syscall.SIGSTOP))
	waitFor(t, m, info.ID, "the job to show paused", func(i Info) bool { return i.Stopped })
	require.NoError(t, m.Kill(info.ID))
	assert.False(t, wait(t, m, info.ID).Stopped, "an ended job is not paused")
}

func TestSamplingCanBeTurnedOff(t *testing.T) {
	m := newManager(t, Options{SampleInterval: -1})
	assert.Nil(t, m.stopSampler)
}

// BenchmarkSample100Jobs samples 100 running jobs (each a shell and a
// sleep) and reports the cost as a share of one core at one sample a
// second (core-%@1s; target < 5).
func BenchmarkSample100Jobs(b *testing.B) {
	m, err := NewManager(Options{LogDir: b.TempDir(), SampleInterval: -1})
	if err != nil {
		b.Fatal(err)
	}
	defer m.Shutdown(context.Background()) //nolint:errcheck // benchmark
	var last Info
	for i := 0; i < 100; i++ {
		if last, err = m.Start(Spec{Command: "sleep 1000 & wait"}); err != nil {
			b.Fatal(err)
		}
	}
	for deadline := time.Now().Add(patience); len(descendants(last.PID)) == 0; {
		if time.Now().After(deadline) {
			b.Fatal("the jobs' children did not start")
		}
		time.Sleep(10 * time.Millisecond)
	}
	b.ResetTimer()
	start := time.Now()
	for b.Loop() {
		m.sampleOnce()
	}
	perSample := time.Since(start) / time.Duration(b.N)
	b.ReportMetric(float64(perSample)/float64(time.Second)*100, "core-%@1s")
}
