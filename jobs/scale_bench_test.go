package jobs

import (
	"context"
	"fmt"
	"os/exec"
	"slices"
	"sync"
	"testing"
	"time"
)

// BenchmarkStart starts sleeping jobs one after another, as an API client
// on one connection does, and reports the time per start as a ratio to a
// shell starting `sleep 300 &` in the same run (x-shell; goal <= 2).
func BenchmarkStart(b *testing.B) {
	const n = 200
	m, err := NewManager(Options{LogDir: b.TempDir(), SampleInterval: -1})
	if err != nil {
		b.Fatal(err)
	}
	defer m.Shutdown(context.Background()) //nolint:errcheck // benchmark
	var shell, ours time.Duration
	for b.Loop() {
		t0 := time.Now()
		sh := exec.Command("bash", "-c", fmt.Sprintf("exec >/dev/null 2>&1; for i in $(seq %d); do sleep 300 & done; kill $(jobs -p)", n))
		if err := sh.Run(); err != nil {
			b.Fatal(err)
		}
		shell += time.Since(t0)
		t0 = time.Now()
		var ids []ID
		for range n {
			info, err := m.Start(Spec{Command: "exec sleep 300"})
			if err != nil {
				b.Fatal(err)
			}
			ids = append(ids, info.ID)
		}
		ours += time.Since(t0)
		for _, id := range ids {
			m.Kill(id) //nolint:errcheck // benchmark
		}
		for _, id := range ids {
			m.Wait(context.Background(), id) //nolint:errcheck // benchmark
		}
	}
	b.ReportMetric(float64(ours)/float64(b.N*n)/1e3, "us/start")
	b.ReportMetric(float64(ours)/float64(shell), "x-shell")
}

// BenchmarkListWhileStarting measures the p99 latency of List() while
// 100 jobs start at once, against List() with nothing starting, in the
// same run (x-idle; goal <= 2): starting jobs must not hold the lock that
// List needs.
func BenchmarkListWhileStarting(b *testing.B) {
	m, err := NewManager(Options{LogDir: b.TempDir(), SampleInterval: -1})
	if err != nil {
		b.Fatal(err)
	}
	defer m.Shutdown(context.Background()) //nolint:errcheck // benchmark
	for range 100 {
		m.Start(Spec{Command: "exec sleep 300"}) //nolint:errcheck // benchmark
	}
	p99 := func(busy bool) time.Duration {
		var wg sync.WaitGroup
		stop := make(chan struct{})
		if busy {
			for range 100 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					info, _ := m.Start(Spec{Command: "exec sleep 300"})
					<-stop
					m.Kill(info.ID)                       //nolint:errcheck // benchmark
					m.Wait(context.Background(), info.ID) //nolint:errcheck // benchmark
				}()
			}
		}
		var lat []time.Duration
		for deadline := time.Now().Add(300 * time.Millisecond); time.Now().Before(deadline); {
			t0 := time.Now()
			m.List()
			lat = append(lat, time.Since(t0))
		}
		close(stop)
		wg.Wait()
		slices.Sort(lat)
		return lat[len(lat)*99/100]
	}
	var idle, busy time.Duration
	for b.Loop() {
		idle += p99(false)
		busy += p99(true)
	}
	b.ReportMetric(float64(idle)/float64(b.N)/1e3, "us-p99-idle")
	b.ReportMetric(float64(busy)/float64(b.N)/1e3, "us-p99-starting")
	b.ReportMetric(float64(busy)/float64(idle), "x-idle")
}
