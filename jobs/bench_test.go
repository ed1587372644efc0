package jobs

import (
	"context"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"
	"time"

	"github.com/creack/pty"
)

// w64 writes 64 MiB of 80-column lines.
const w64 = "yes '" + line80 + "' | head -c 64M"

// BenchmarkCapture runs W64 through the manager and, in the same
// iterations, into `cat > /dev/null` and straight into a file in the log
// directory, and reports the manager's time as ratios to both: x-cat
// (target <= 1.5) and x-file, the floor that writing every byte to disk
// sets on this machine.
func BenchmarkCapture(b *testing.B) {
	dir := b.TempDir()
	m, err := NewManager(Options{LogDir: dir})
	if err != nil {
		b.Fatal(err)
	}
	defer m.Shutdown(context.Background()) //nolint:errcheck // benchmark
	var catTime, fileTime, jobTime time.Duration
	for i := 0; b.Loop(); i++ {
		t0 := time.Now()
		if err := exec.Command("/bin/sh", "-c", w64+" | cat > /dev/null").Run(); err != nil {
			b.Fatal(err)
		}
		catTime += time.Since(t0)

		t0 = time.Now()
		file := filepath.Join(dir, "direct-"+strconv.Itoa(i))
		if err := exec.Command("/bin/sh", "-c", w64+" > "+file).Run(); err != nil {
			b.Fatal(err)
		}
		fileTime += time.Since(t0)

		t0 = time.Now()
		info, err := m.Start(Spec{Command: w64})
		if err != nil {
			b.Fatal(err)
		}
		info, err = m.Wait(context.Background(), info.ID)
		if err != nil || info.Bytes != 64<<20 {
			b.Fatalf("job: %v, %d bytes", err, info.Bytes)
		}
		jobTime += time.Since(t0)
		if err := m.Remove(info.ID); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(jobTime)/float64(catTime), "x-cat")
	b.ReportMetric(float64(jobTime)/float64(fileTime), "x-file")
	b.ReportMetric(float64(catTime.Milliseconds())/float64(b.N), "cat-ms/op")
}

// BenchmarkGigabyteHeap runs 1 GiB of 80-column lines through the manager
// and reports the peak heap in use, in MiB and as a ratio to the store's
// byte bound (heap/store-cap).
func BenchmarkGigabyteHeap(b *testing.B) {
	for b.Loop() {
		m, err := NewManager(Options{LogDir: b.TempDir(), LogCap: 64 << 20})
		if err != nil {
			b.Fatal(err)
		}
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		base := ms.HeapInuse
		info, err := m.Start(Spec{Command: "yes '" + line80 + "' | head -c 1G"})
		if err != nil {
			b.Fatal(err)
		}
		var peak uint64
		for {
			got, _ := m.Get(info.ID)
			runtime.ReadMemStats(&ms)
			peak = max(peak, ms.HeapInuse)
			if got.State.Done() {
				break
			}
			time.Sleep(10 * time.Millisecond)
		}
		m.Shutdown(context.Background()) //nolint:errcheck // benchmark
		b.ReportMetric(float64(peak-base)/(1<<20), "peak-heap-MiB")
		b.ReportMetric(float64(peak-base)/float64(DefaultMaxBytes), "heap/store-cap")
	}
}

// progressJob writes 10,000 lines, each rewritten 1,000 times with "\r"
// before its newline (about 270 MB).
const progressJob = `awk 'BEGIN { for (i = 0; i < 10000; i++) { for (k = 1; k <= 1000; k++) printf "line %05d: %4d/1000 done\r", i, k; printf "line %05d finished\n", i } }'`

// BenchmarkCarriageReturnHeap runs progressJob through the manager and
// reports the heap after GC that the finished job keeps, in MiB and as a
// ratio to the store's cap + 4 MiB (x-bound, target <= 1).
func BenchmarkCarriageReturnHeap(b *testing.B) {
	for b.Loop() {
		m, err := NewManager(Options{LogDir: b.TempDir(), LogCap: 64 << 20})
		if err != nil {
			b.Fatal(err)
		}
		base := heapInUse()
		info, err := m.Start(Spec{Command: progressJob})
		if err != nil {
			b.Fatal(err)
		}
		info, err = m.Wait(context.Background(), info.ID)
		if err != nil || info.Lines != 10_000 {
			b.Fatalf("job: %v, %d lines", err, info.Lines)
		}
		kept := heapInUse() - base
		out, _ := m.Output(info.ID)
		st := out.Stats()
		m.Shutdown(context.Background()) //nolint:errcheck // benchmark
		b.ReportMetric(float64(kept)/(1<<20), "heap-MiB")
		b.ReportMetric(float64(st.Memory)/(1<<20), "store-MiB")
		b.ReportMetric(float64(kept)/float64(DefaultMaxBytes+4<<20), "x-bound")
	}
}

// BenchmarkCaptureTTY runs W64 as a TTY job and, in the same iterations,
// into `cat > /dev/null`, as the same job on pipes, and on a bare
// pseudo-terminal read by a plain loop (the floor: the kernel's terminal
// layer hands a reader a few KiB at a time), and reports the TTY job's
// time as ratios to each: x-cat, x-pipes and x-pty. (The terminal turns
// each "\n" into "\r\n": the TTY job stores 1/81 more bytes.)
func BenchmarkCaptureTTY(b *testing.B) {
	m, err := NewManager(Options{LogDir: b.TempDir()})
	if err != nil {
		b.Fatal(err)
	}
	defer m.Shutdown(context.Background()) //nolint:errcheck // benchmark
	runJob := func(tty bool) time.Duration {
		t0 := time.Now()
		info, err := m.Start(Spec{Command: w64, TTY: tty})
		if err != nil {
			b.Fatal(err)
		}
		info, err = m.Wait(context.Background(), info.ID)
		if err != nil || info.Bytes < 64<<20 || info.State != StateSucceeded {
			b.Fatalf("job (tty %v): %v, %s, %d bytes", tty, err, info.State, info.Bytes)
		}
		took := time.Since(t0)
		if err := m.Remove(info.ID); err != nil {
			b.Fatal(err)
		}
		return took
	}
	var catTime, pipeTime, ttyTime, ptyTime time.Duration
	for b.Loop() {
		t0 := time.Now()
		if err := exec.Command("/bin/sh", "-c", w64+" | cat > /dev/null").Run(); err != nil {
			b.Fatal(err)
		}
		catTime += time.Since(t0)
		pipeTime += runJob(false)
		ttyTime += runJob(true)
		ptyTime += barePTY(b, w64)
	}
	b.ReportMetric(float64(ttyTime)/float64(catTime), "x-cat")
	b.ReportMetric(float64(ttyTime)/float64(pipeTime), "x-pipes")
	b.ReportMetric(float64(ttyTime)/float64(ptyTime), "x-pty")
	b.ReportMetric(float64(pipeTime)/float64(catTime), "pipes-x-cat")
	b.ReportMetric(float64(catTime.Milliseconds())/float64(b.N), "cat-ms/op")
}

// barePTY times command on a pseudo-terminal of jobtop's default size
// whose master a plain loop reads to the end, and discards.
func barePTY(b *testing.B, command string) time.Duration {
	t0 := time.Now()
	cmd := exec.Command("/bin/sh", "-c", command)
	f, err := pty.StartWithSize(cmd, &pty.Winsize{Cols: DefaultCols, Rows: DefaultRows})
	if err != nil {
		b.Fatal(err)
	}
	buf := make([]byte, readBufSize)
	for {
		if _, err := f.Read(buf); err != nil {
			break // EIO once the terminal is hung up
		}
	}
	f.Close()
	if err := cmd.Wait(); err != nil {
		b.Fatal(err)
	}
	return time.Since(t0)
}
