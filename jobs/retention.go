package jobs

import "os"

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
// more than KeepFinished are kept. Their log files stay on disk.
func (m *Manager) dropOldFinishedLocked() {
	keep := m.opts.keepFinished()
	if keep < 0 {
		return
	}
	var finished []*job
	for _, id := range m.order {
		if j := m.jobs[id]; m.finishedLocked(j) {
			finished = append(finished, j)
		}
	}
	for over := len(finished) - keep; over > 0; over-- {
		oldest := 0
		for i, j := range finished {
			if j.endedBefore(finished[oldest]) {
				oldest = i
			}
		}
		m.removeLocked(finished[oldest])
		finished = append(finished[:oldest], finished[oldest+1:]...)
	}
}

// endedBefore orders finished jobs by when they ended (by ID on a tie).
func (j *job) endedBefore(k *job) bool {
	switch {
	case j.ended == nil || k.ended == nil:
		return j.ended == nil && k.ended != nil
	case !j.ended.Equal(*k.ended):
		return j.ended.Before(*k.ended)
	}
	return j.id < k.id
}

// removeLocked forgets a job; its log file stays on disk (see
// removedLogs).
func (m *Manager) removeLocked(j *job) {
	last := m.infoLocked(j)
	m.noteGoneLocked(j)
	m.removed.add(j.log.Files(), m.opts.retention().MaxTotal)
	delete(m.jobs, j.id)
	m.unindexLocked(j)
	for i, oid := range m.order {
		if oid == j.id {
			m.order = append(m.order[:i], m.order[i+1:]...)
			break
		}
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
