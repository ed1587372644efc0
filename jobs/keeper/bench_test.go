package keeper

import (
	"os"
	"syscall"
	"testing"
	"time"
)

// BenchmarkSpawn is one start through the keeper, against the same
// fork and exec done in the benchmark's own process (x-direct).
func BenchmarkSpawn(b *testing.B) {
	c, err := Start(func(Event) {}, func(error) {})
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	null, _ := os.Open(os.DevNull)
	defer null.Close()
	env := os.Environ()
	var direct, kept time.Duration
	var run RunID
	var pids []int
	for b.Loop() {
		t0 := time.Now()
		pid, err := syscall.ForkExec("/bin/sleep", []string{"sleep", "300"}, &syscall.ProcAttr{Env: env,
			Files: []uintptr{null.Fd(), null.Fd(), null.Fd()}, Sys: &syscall.SysProcAttr{Setsid: true}})
		if err != nil {
			b.Fatal(err)
		}
		direct += time.Since(t0)
		syscall.Kill(pid, syscall.SIGKILL)
		var ws syscall.WaitStatus
		syscall.Wait4(pid, &ws, 0, nil)

		run++
		t0 = time.Now()
		st, err := c.Spawn(Spawn{Run: run, Path: "/bin/sleep", Argv: []string{"sleep", "300"}, Env: env,
			Stdin: null, Stdout: null, Stderr: null})
		if err != nil {
			b.Fatal(err)
		}
		kept += time.Since(t0)
		c.Signal(run, syscall.SIGKILL)
		pids = append(pids, st.PID)
	}
	b.ReportMetric(float64(kept)/float64(b.N)/1e3, "us/spawn")
	b.ReportMetric(float64(direct)/float64(b.N)/1e3, "us/direct")
	b.ReportMetric(float64(kept)/float64(direct), "x-direct")
}

// BenchmarkSpawnBesideHeldRuns is one start through the keeper while a
// thousand runs hold their output with it, against the same start with
// none (x-none; goal about 1): held in the keeper's fd table, two files a
// run would make every fork and exec copy and close them.
func BenchmarkSpawnBesideHeldRuns(b *testing.B) {
	c, err := Start(func(Event) {}, func(error) {})
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	null, _ := os.Open(os.DevNull)
	defer null.Close()
	env := os.Environ()
	var run RunID
	spawn := func(hold []*os.File) time.Duration {
		run++
		t0 := time.Now()
		_, err := c.Spawn(Spawn{Run: run, Path: "/bin/sleep", Argv: []string{"sleep", "300"}, Env: env,
			Stdin: null, Stdout: null, Stderr: null, Hold: hold})
		if err != nil {
			b.Fatal(err)
		}
		return time.Since(t0)
	}
	var alone time.Duration
	for range 100 {
		alone += spawn(nil)
	}
	var pipes []*os.File
	for range 1000 {
		r1, w1, _ := os.Pipe()
		r2, w2, _ := os.Pipe()
		spawn([]*os.File{r1, r2})
		pipes = append(pipes, r1, w1, r2, w2)
	}
	var beside time.Duration
	n := 0
	for b.Loop() {
		beside += spawn(nil)
		n++
	}
	for id := RunID(1); id <= run; id++ {
		c.Signal(id, syscall.SIGKILL)
	}
	for _, f := range pipes {
		f.Close()
	}
	b.ReportMetric(float64(beside)/float64(n)/1e3, "us/spawn")
	b.ReportMetric(float64(beside)/float64(n)/(float64(alone)/100), "x-none")
}
