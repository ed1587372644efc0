package jobs

import (
	"os"
	"strconv"
	"strings"
	"time"
)

// DefaultSampleInterval is how often CPU and memory of running jobs are
// sampled when Options.SampleInterval is zero.
const DefaultSampleInterval = 2 * time.Second

// Usage is the resource use of a job's whole process tree.
type Usage struct {
	// CPU is the share of one core used since the last sample, in percent
	// (200 means two cores' worth).
	CPU float64 `json:"cpu_percent"`
	// RSS is the resident memory of all its processes, in bytes.
	RSS int64 `json:"rss_bytes"`
}

// procSample is what one /proc/PID/stat says.
type procSample struct {
	ppid int
	cpu  uint64 // utime+stime+cutime+cstime, in clock ticks
	rss  int64  // pages
}

// Linux reports CPU time in USER_HZ ticks (100 a second on every
// architecture Go supports) and RSS in pages.
const clockTicks = 100

var pageSize = int64(os.Getpagesize())

// readProcs reads the stat line of every process, once.
func readProcs() map[int]procSample {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	procs := make(map[int]procSample, len(entries))
	buf := make([]byte, 1024)
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if s, ok := readProcStat(pid, buf); ok {
			procs[pid] = s
		}
	}
	return procs
}

func readProcStat(pid int, buf []byte) (procSample, bool) {
	f, err := os.Open("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return procSample{}, false
	}
	n, _ := f.Read(buf)
	f.Close()
	s := string(buf[:n])
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return procSample{}, false
	}
	// Fields from the state on: state ppid pgrp session tty tpgid flags
	// minflt cminflt majflt cmajflt utime stime cutime cstime priority
	// nice threads itrealvalue starttime vsize rss.
	f22 := strings.Fields(s[i+1:])
	if len(f22) < 22 {
		return procSample{}, false
	}
	num := func(k int) uint64 { v, _ := strconv.ParseUint(f22[k], 10, 64); return v }
	ppid, _ := strconv.Atoi(f22[1])
	return procSample{
		ppid: ppid,
		cpu:  num(11) + num(12) + num(13) + num(14),
		rss:  int64(num(21)),
	}, true
}

// treeUsage sums CPU ticks and RSS pages over root and its descendants.
func treeUsage(procs map[int]procSample, children map[int][]int, root int) (cpu uint64, rss int64) {
	stack := []int{root}
	for len(stack) > 0 {
		pid := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if p, ok := procs[pid]; ok {
			cpu += p.cpu
			rss += p.rss
		}
		stack = append(stack, children[pid]...)
	}
	return cpu, rss
}

// sampler measures the process trees of running jobs every interval, off
// every job's and every subscriber's goroutine.
func (m *Manager) sampler(interval time.Duration, stop <-chan struct{}) {
	defer close(m.samplerDone)
	ticker := time.NewTicker(interval)
	defer ticker.Stop()
	for {
		select {
		case <-stop:
			return
		case <-ticker.C:
			m.sampleOnce()
		}
	}
}

// sampleOnce takes one sample of every running job.
func (m *Manager) sampleOnce() {
	type target struct {
		j   *job
		pid int
	}
	m.mu.Lock()
	var targets []target
	for _, j := range m.jobs {
		if j.state.Active() && j.pid != 0 {
			targets = append(targets, target{j, j.pid})
		}
	}
	m.mu.Unlock()
	if len(targets) == 0 {
		return
	}
	now := time.Now()
	procs := readProcs()
	children := make(map[int][]int, len(procs))
	for pid, p := range procs {
		children[p.ppid] = append(children[p.ppid], pid)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, t := range targets {
		j := t.j
		if j.pid != t.pid || !j.state.Active() {
			continue // the run ended meanwhile
		}
		ticks, pages := treeUsage(procs, children, t.pid)
		if !j.sampledAt.IsZero() && j.sampledPID == t.pid && ticks >= j.sampledTicks {
			secs := now.Sub(j.sampledAt).Seconds()
			j.usage.CPU = float64(ticks-j.sampledTicks) / clockTicks / secs * 100
		}
		j.usage.RSS = pages * pageSize
		j.sampledAt, j.sampledPID, j.sampledTicks = now, t.pid, ticks
		m.hub.publish(j.id, EventState, Info{})
	}
}
