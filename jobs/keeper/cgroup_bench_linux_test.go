package keeper

import (
	"os"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// BenchmarkForkIntoCgroup is what a run's cgroup costs its start and end:
// its directory made and opened, the fork into it, and its removal once
// the process is reaped, against the same fork and exec without
// (x-plain).
func BenchmarkForkIntoCgroup(b *testing.B) {
	cg, _ := newCgroups(newToken())
	if cg == nil {
		b.Skip("no cgroup of its own here")
	}
	defer cg.close()
	null, _ := os.Open(os.DevNull)
	defer null.Close()
	env := os.Environ()
	spawn := func(cgfd int) time.Duration {
		t0 := time.Now()
		sys := &syscall.SysProcAttr{Setsid: true}
		forkInto(sys, cgfd)
		pid, err := syscall.ForkExec("/bin/true", []string{"true"}, &syscall.ProcAttr{Env: env,
			Files: []uintptr{null.Fd(), null.Fd(), null.Fd()}, Sys: sys})
		if err != nil {
			b.Fatal(err)
		}
		d := time.Since(t0)
		var ws syscall.WaitStatus
		syscall.Wait4(pid, &ws, 0, nil) //nolint:errcheck // reaped
		return d
	}
	var plain, into time.Duration
	var run RunID
	for b.Loop() {
		plain += spawn(-1)
		run++
		t0 := time.Now()
		fd, err := cg.open(run)
		if err != nil {
			b.Fatal(err)
		}
		mk := time.Since(t0)
		d := spawn(fd)
		unix.Close(fd)
		t0 = time.Now()
		cg.ended(run)
		into += mk + d + time.Since(t0)
	}
	b.ReportMetric(float64(into)/float64(b.N)/1e3, "us/into")
	b.ReportMetric(float64(plain)/float64(b.N)/1e3, "us/plain")
	b.ReportMetric(float64(into)/float64(plain), "x-plain")
}
