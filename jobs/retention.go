package jobs

import (
	"container/heap"
	"os"
	"slices"
	"time"
)

// DefaultKeepFinished bounds the finished jobs a manager keeps.
const DefaultKeepFinished = 500

func (o Options) retention() Retention { return o.Sessions.withDefaults() }

// keepFinished is Options.KeepFinished with its default; negative means
// no limit.
func (o Options) keepFinished() int {
	if o.KeepFinished == 0 {
		return DefaultKeepFinished
	}
	return o.KeepFinished
}

// finishedLocked reports whether a job ran (or failed to start) and is
// over: no process, no restart on its way.
func (m *Manager) finishedLocked(j *job) bool {
	return m.settledLocked(j) && j.state != StateCreated
}

// dropOldFinishedLocked removes the finished jobs that ended first while
// more than KeepFinished are kept. Their log files stay on disk. It takes
// them from m.finished, oldest first: its cost is the jobs it drops, not
// the jobs kept.
func (m *Manager) dropOldFinishedLocked() {
	keep := m.opts.keepFinished()
	if keep < 0 {
		return
	}
	for len(m.finished) > keep {
		m.removeLocked(m.finished[0], true) // and out of m.finished
	}
}

// finishedJobs are the finished jobs, as a heap whose top is the one that
// ended first (container/heap). changedLocked keeps it, at every change
// of a job (every way in or out of finished goes through it), and
// removeLocked as a job goes.
type finishedJobs []*job

func (f finishedJobs) Len() int { return len(f) }
func (f finishedJobs) Less(a, b int) bool {
	return endsBefore(f[a].finishedEnd, f[a].id, f[b].finishedEnd, f[b].id)
}
func (f finishedJobs) Swap(a, b int) {
	f[a], f[b] = f[b], f[a]
	f[a].finishedAt, f[b].finishedAt = a+1, b+1
}
func (f *finishedJobs) Push(x any) {
	j := x.(*job)
	*f = append(*f, j)
	j.finishedAt = len(*f)
}
func (f *finishedJobs) Pop() any {
	old := *f
	j := old[len(old)-1]
	old[len(old)-1] = nil
	*f = old[:len(old)-1]
	j.finishedAt = 0
	return j
}

// noteFinishedLocked puts j in m.finished when it is finished, takes it
// out when it is not (restarted, queued again, removed), and moves it when
// its end changed.
func (m *Manager) noteFinishedLocked(j *job) {
	switch finished := m.finishedLocked(j) && m.jobs[j.id] == j && !j.kept; {
	case finished && j.finishedAt == 0:
		j.finishedEnd = j.ended
		heap.Push(&m.finished, j)
	case finished && j.finishedEnd != j.ended:
		j.finishedEnd = j.ended
		heap.Fix(&m.finished, j.finishedAt-1)
	case !finished && j.finishedAt != 0:
		heap.Remove(&m.finished, j.finishedAt-1)
	}
}

// Keep exempts a job from Options.KeepFinished, or (kept false) puts it
// back under it: a job file's jobs are bounded by the file, and stay
// listed however many jobs end (stopping a file of 3,000 jobs kept 500
// of them, and a reload started the rest again as new jobs).
func (m *Manager) Keep(id ID, kept bool) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	j, ok := m.jobs[id]
	if !ok {
		return m.notFound(id)
	}
	j.kept = kept
	m.noteFinishedLocked(j)
	m.dropOldFinishedLocked()
	return nil
}

// endsBefore orders ends: by time (none first), then by ID.
func endsBefore(a *time.Time, aID ID, b *time.Time, bID ID) bool {
	switch {
	case a == nil || b == nil:
		return a == nil && b != nil
	case !a.Equal(*b):
		return a.Before(*b)
	}
	return aID < bID
}

// removeLocked forgets a job; its log file stays on disk (see
// removedLogs). dropped says the cap on finished jobs removes it.
func (m *Manager) removeLocked(j *job, dropped bool) {
	last := m.infoLocked(j)
	m.ends.add(last, j.againKey(), j.store.span(), dropped)
	m.noteGoneLocked(j)
	m.removed.add(j.log.Files(), m.opts.retention().MaxTotal)
	delete(m.jobs, j.id)
	m.unindexLocked(j)
	m.noteFinishedLocked(j) // out of m.finished, as it is no longer m.jobs'
	// m.order is in ID order (add).
	if at, ok := slices.BinarySearch(m.order, j.id); ok {
		m.order = slices.Delete(m.order, at, at+1)
	}
	j.log.Close()
	m.hub.publish(j.id, EventRemoved, last)
}

// Idle reports whether no job is running, stopping, queued or waiting out
// a restart backoff: nothing would happen without someone asking.
func (m *Manager) Idle() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, j := range m.jobs {
		if !m.settledLocked(j) {
			return false
		}
	}
	return true
}

// removedLogs are the log files of the jobs a manager removed, oldest
// first. They stay on disk for people to read, but within the session
// they take at most Retention.MaxTotal together: past it the oldest go,
// so an instance that runs job after job for days does not fill the disk.
type removedLogs struct {
	files []string
	sizes []int64
	total int64
}

// add notes a removed job's files and removes the oldest noted files
// while all of them take more than max bytes (no limit when max < 0).
func (r *removedLogs) add(files []string, max int64) {
	for _, f := range files {
		if st, err := os.Stat(f); err == nil {
			r.files = append(r.files, f)
			r.sizes = append(r.sizes, st.Size())
			r.total += st.Size()
		}
	}
	for max >= 0 && r.total > max && len(r.files) > 0 {
		os.Remove(r.files[0])
		r.total -= r.sizes[0]
		r.files, r.sizes = r.files[1:], r.sizes[1:]
	}
}
