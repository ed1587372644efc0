package jobs

import (
	"time"

	"jobtop/jobs/proc"
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

// treeUsage sums CPU ticks and RSS over a run: its main process, what is
// below it, and what stayed in its session after its parent died (a run's
// session ID is its main PID). stopped says the main process is stopped
// by a signal (paused: Info.Stopped).
func treeUsage(procs []proc.Proc, kids map[int][]int, main int) (cpu uint64, rss int64, stopped bool) {
	counted := make(map[int]bool)
	add := func(i int) {
		if !counted[i] {
			counted[i] = true
			cpu += procs[i].CPU
			rss += procs[i].RSS
		}
	}
	for i, p := range procs {
		if p.PID == main {
			stopped = p.Stopped
		}
		if p.PID == main || p.SID == main {
			add(i)
			for _, d := range proc.Descendants(procs, kids, p.PID) {
				add(d)
			}
		}
	}
	return cpu, rss, stopped
}

// runProcs reads the processes treeUsage may count: those below the
// keeper, which starts every run and, as a child subreaper, gets back
// whatever a run leaves behind. It reads the whole table only where the
// keeper is not a subreaper or the system cannot list a process's
// children.
func (m *Manager) runProcs() ([]proc.Proc, error) {
	kc := m.keeper.Load()
	if kc == nil || kc.Warning() != "" || kc.Identity().PID <= 1 {
		return proc.List()
	}
	procs, ok, err := proc.Tree(kc.Identity().PID)
	if !ok {
		return proc.List()
	}
	return procs, err
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

// sampleOnce takes one sample of every running job, from one read of the
// process table.
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
	procs, err := m.runProcs()
	if err != nil {
		return
	}
	kids := proc.Children(procs)
	usage := make([]struct {
		ticks   uint64
		rss     int64
		stopped bool
	}, len(targets))
	for i, t := range targets {
		usage[i].ticks, usage[i].rss, usage[i].stopped = treeUsage(procs, kids, t.pid)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	for i, t := range targets {
		j := t.j
		if j.pid != t.pid || !j.state.Active() {
			continue // the run ended meanwhile
		}
		ticks := usage[i].ticks
		if !j.sampledAt.IsZero() && j.sampledPID == t.pid && ticks >= j.sampledTicks {
			secs := now.Sub(j.sampledAt).Seconds()
			j.usage.CPU = float64(ticks-j.sampledTicks) / proc.TicksPerSecond / secs * 100
		}
		j.usage.RSS = usage[i].rss
		j.stopped = usage[i].stopped
		j.peakRSS = max(j.peakRSS, usage[i].rss)
		j.sampledAt, j.sampledPID, j.sampledTicks = now, t.pid, ticks
		m.hub.publish(j.id, EventState, Info{})
	}
}
