package jobs

import (
	"context"
	"fmt"
	"os/exec"
	"slices"
	"sync"
	"syscall"
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

// BenchmarkThroughput100 runs 100 jobs at once, each writing 8 MiB of
// 80-column lines, and reports the time against the same 100 writers
// each piped through `cat > file` in the same run (x-cat; goal <= 1.5).
func BenchmarkThroughput100(b *testing.B) {
	const n = 100
	dir := b.TempDir()
	m, err := NewManager(Options{LogDir: dir, SampleInterval: -1})
	if err != nil {
		b.Fatal(err)
	}
	defer m.Shutdown(context.Background()) //nolint:errcheck // benchmark
	writer := "yes '" + line80 + "' | head -c 8M"
	var cat, ours time.Duration
	for i := 0; b.Loop(); i++ {
		// Each side starts with nothing of the other's left to write
		// back: the 800 MiB written before were written back during the
		// next side's run, and the shorter run paid the more for it.
		syscall.Sync()
		t0 := time.Now()
		sh := fmt.Sprintf("for i in $(seq %d); do (%s | cat > %s/cat-%d-$i) & done; wait", n, writer, dir, i)
		if err := exec.Command("bash", "-c", sh).Run(); err != nil {
			b.Fatal(err)
		}
		cat += time.Since(t0)

		syscall.Sync()
		t0 = time.Now()
		var ids []ID
		for range n {
			info, err := m.Start(Spec{Command: writer})
			if err != nil {
				b.Fatal(err)
			}
			ids = append(ids, info.ID)
		}
		for _, id := range ids {
			info, err := m.Wait(context.Background(), id)
			if err != nil || info.Bytes != 8<<20 {
				b.Fatalf("job %d: %v, %d bytes", id, err, info.Bytes)
			}
		}
		ours += time.Since(t0)
		for _, id := range ids {
			m.Remove(id) //nolint:errcheck // benchmark
		}
	}
	b.ReportMetric(float64(ours)/float64(b.N)/1e6, "ms/op-jobtop")
	b.ReportMetric(float64(cat)/float64(b.N)/1e6, "ms/op-cat")
	b.ReportMetric(float64(ours)/float64(cat), "x-cat")
}

// BenchmarkStopCurve starts N sleeping jobs that exit on SIGTERM and
// times Shutdown, for N = 100, 300 and 1,000; us/job staying flat means
// stopping is linear.
func BenchmarkStopCurve(b *testing.B) {
	for _, n := range []int{100, 300, 1000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			var took time.Duration
			for b.Loop() {
				b.StopTimer()
				m, err := NewManager(Options{LogDir: b.TempDir(), SampleInterval: -1})
				if err != nil {
					b.Fatal(err)
				}
				for range n {
					if _, err := m.Start(Spec{Command: "exec sleep 300"}); err != nil {
						b.Fatal(err)
					}
				}
				b.StartTimer()
				t0 := time.Now()
				if err := m.Shutdown(context.Background()); err != nil {
					b.Fatal(err)
				}
				took += time.Since(t0)
			}
			b.ReportMetric(float64(took)/float64(b.N)/1e6, "ms/stop-all")
			b.ReportMetric(float64(took)/float64(b.N*n)/1e3, "us/job")
		})
	}
}

// BenchmarkList1000 is List() with 1,000 jobs (created, not started: the
// cost is the snapshot, not the processes).
func BenchmarkList1000(b *testing.B) {
	m, err := NewManager(Options{LogDir: b.TempDir(), SampleInterval: -1})
	if err != nil {
		b.Fatal(err)
	}
	defer m.Shutdown(context.Background()) //nolint:errcheck // benchmark
	for i := range 1000 {
		if _, err := m.Add(Spec{Name: fmt.Sprintf("job%d", i), Command: "exec sleep 300 --some --args"}); err != nil {
			b.Fatal(err)
		}
	}
	for b.Loop() {
		if len(m.List()) != 1000 {
			b.Fatal("not 1,000")
		}
	}
}

// BenchmarkShortJobsBeside1000 runs 200 short jobs one after another
// (start to end) beside 1,000 sleeping ones, against the same with none
// beside them (x-alone; flat means a job's end does not cost a look at
// every process).
func BenchmarkShortJobsBeside1000(b *testing.B) {
	short := func(m *Manager) time.Duration {
		t0 := time.Now()
		for range 200 {
			info, err := m.Start(Spec{Command: "echo hi"})
			if err != nil {
				b.Fatal(err)
			}
			m.Wait(context.Background(), info.ID) //nolint:errcheck // benchmark
		}
		return time.Since(t0)
	}
	alone, err := NewManager(Options{LogDir: b.TempDir(), SampleInterval: -1})
	if err != nil {
		b.Fatal(err)
	}
	defer alone.Shutdown(context.Background()) //nolint:errcheck // benchmark
	crowd, err := NewManager(Options{LogDir: b.TempDir(), SampleInterval: -1})
	if err != nil {
		b.Fatal(err)
	}
	defer crowd.Shutdown(context.Background()) //nolint:errcheck // benchmark
	for range 1000 {
		if _, err := crowd.Start(Spec{Command: "exec sleep 300"}); err != nil {
			b.Fatal(err)
		}
	}
	var a, c time.Duration
	for b.Loop() {
		a += short(alone)
		c += short(crowd)
	}
	b.ReportMetric(float64(a)/float64(b.N*200)/1e6, "ms/job-alone")
	b.ReportMetric(float64(c)/float64(b.N*200)/1e6, "ms/job-beside-1000")
	b.ReportMetric(float64(c)/float64(a), "x-alone")
}

// keptManagers are the managers BenchmarkStartBesideKept and
// BenchmarkEndBesideKept compare: one with no job kept, one with 5,000
// finished jobs kept under a limit they do not reach, and one at its
// limit of 5,000, which drops the oldest at every end. The 5,000 are
// named as the benchmarks' jobs are (sleep, sleep-2, ...): they failed to
// start, so they cost no process.
func keptManagers(b *testing.B) (empty, kept, full *Manager) {
	b.Helper()
	const crowd = 5000
	mk := func(keep, n int) *Manager {
		m, err := NewManager(Options{LogDir: b.TempDir(), SampleInterval: -1, KeepFinished: keep})
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { m.Shutdown(context.Background()) }) //nolint:errcheck // benchmark
		for range n {
			if info, err := m.Start(Spec{Argv: []string{"/nonexistent/sleep"}}); err != nil || info.State != StateError {
				b.Fatalf("%v, %s", err, info.State)
			}
		}
		return m
	}
	return mk(1<<20, 0), mk(1<<20, crowd), mk(crowd, crowd)
}

// BenchmarkStartBesideKept starts 200 sleeping jobs one after another, as
// BenchmarkStart does, beside 5,000 finished jobs kept, against none
// (x-empty; goal about 1: a start does not look at every job kept).
func BenchmarkStartBesideKept(b *testing.B) {
	const n = 200
	empty, kept, _ := keptManagers(b)
	run := func(m *Manager) time.Duration {
		t0 := time.Now()
		ids := startSleepers(b, m, n)
		took := time.Since(t0)
		m.KillJobs(ids)
		for _, id := range ids {
			m.Wait(context.Background(), id) //nolint:errcheck // benchmark
			if err := m.Remove(id); err != nil {
				b.Fatal(err)
			}
		}
		return took
	}
	var e, k time.Duration
	for b.Loop() {
		e += run(empty)
		k += run(kept)
	}
	b.ReportMetric(float64(e)/float64(b.N*n)/1e3, "us/start-empty")
	b.ReportMetric(float64(k)/float64(b.N*n)/1e3, "us/start-kept-5000")
	b.ReportMetric(float64(k)/float64(e), "x-empty")
}

// startSleepers starts n jobs that sleep, one after another.
func startSleepers(b *testing.B, m *Manager, n int) []ID {
	ids := make([]ID, 0, n)
	for range n {
		info, err := m.Start(Spec{Command: "exec sleep 300"})
		if err != nil {
			b.Fatal(err)
		}
		ids = append(ids, info.ID)
	}
	return ids
}

// BenchmarkEndBesideKept kills 200 sleeping jobs at once and times until
// every one has settled, beside 5,000 finished jobs kept (under the
// limit, and at it: every end drops the oldest), against none (x-empty,
// x-empty-dropping; goal about 1: an end does not look at every job kept).
func BenchmarkEndBesideKept(b *testing.B) {
	const n = 200
	empty, kept, full := keptManagers(b)
	run := func(m *Manager, remove bool) time.Duration {
		ids := startSleepers(b, m, n)
		t0 := time.Now()
		m.KillJobs(ids)
		for _, id := range ids {
			m.Wait(context.Background(), id) //nolint:errcheck // benchmark
		}
		took := time.Since(t0)
		if remove {
			for _, id := range ids {
				if err := m.Remove(id); err != nil {
					b.Fatal(err)
				}
			}
		}
		return took
	}
	var e, k, f time.Duration
	for b.Loop() {
		e += run(empty, true)
		k += run(kept, true)
		f += run(full, false) // its limit drops as many as end
	}
	b.ReportMetric(float64(e)/float64(b.N*n)/1e3, "us/end-empty")
	b.ReportMetric(float64(k)/float64(b.N*n)/1e3, "us/end-kept-5000")
	b.ReportMetric(float64(f)/float64(b.N*n)/1e3, "us/end-dropping")
	b.ReportMetric(float64(k)/float64(e), "x-empty")
	b.ReportMetric(float64(f)/float64(e), "x-empty-dropping")
}

// BenchmarkQueueBehindSlots runs 2,000 jobs queued at once behind
// max_running 4 and reports the time per job against 200 jobs queued the
// same way, in the same run (x-short-queue; goal about 1): a job's end
// must not cost more with a longer queue behind it (a build graph's).
func BenchmarkQueueBehindSlots(b *testing.B) {
	run := func(n int) time.Duration {
		m, err := NewManager(Options{LogDir: b.TempDir(), SampleInterval: -1, MaxRunning: 4, KeepFinished: n})
		if err != nil {
			b.Fatal(err)
		}
		defer m.Shutdown(context.Background()) //nolint:errcheck // benchmark
		t0 := time.Now()
		ids := make([]ID, 0, n)
		for range n {
			info, err := m.StartSoon(Spec{Argv: []string{"true"}})
			if err != nil {
				b.Fatal(err)
			}
			ids = append(ids, info.ID)
		}
		for _, id := range ids { // the last to start may not end last
			if _, err := m.Wait(context.Background(), id); err != nil {
				b.Fatal(err)
			}
		}
		return time.Since(t0) / time.Duration(n)
	}
	var short, long time.Duration
	for b.Loop() {
		short += run(200)
		long += run(2000)
	}
	b.ReportMetric(float64(long)/float64(b.N)/1e3, "us/job")
	b.ReportMetric(float64(long)/float64(short), "x-short-queue")
}
