package jobs

import (
	"fmt"
	"time"
)

// endRequest records why a run is being ended, which decides its final
// state: a requested stop or kill ends "killed", a timeout "timed_out".
type endRequest uint8

const (
	reqNone endRequest = iota
	reqStop
	reqKill
	reqTimeout
)

// job is a Spec and its runs. Every field but store and log is guarded by
// Manager.mu.
type job struct {
	id    ID
	spec  Spec
	store *OutputStore
	log   *logFile

	state      State
	reason     string // why it waits, or what its restart policy decided
	pid        int
	exitCode   *int
	signal     Signal
	errText    string
	started    *time.Time
	ended      *time.Time
	runs       int
	ready      bool
	proc       *process
	request    endRequest
	sentSignal Signal

	restartPending bool        // a requested restart waits for this run to end
	restartTimer   *time.Timer // a policy restart waits out its backoff
	autoRestarts   int         // policy restarts since the last long run

	settled       chan struct{} // closed while the job is settled
	settledClosed bool

	usage        Usage // of the current run's process tree
	sampledAt    time.Time
	sampledPID   int
	sampledTicks uint64
}

func (j *job) cancelRestartTimerLocked() {
	if j.restartTimer != nil {
		j.restartTimer.Stop()
		j.restartTimer = nil
	}
}

// settledLocked reports whether the job is over: ended, with no restart on
// its way.
func (m *Manager) settledLocked(j *job) bool {
	return j.state.Done() && !j.restartPending && j.restartTimer == nil
}

// changedLocked publishes a state change, keeps the settled channel in step
// and lets the scheduler react (slots freed, dependencies met).
func (m *Manager) changedLocked(j *job) {
	settled := m.settledLocked(j)
	switch {
	case settled && !j.settledClosed:
		close(j.settled)
		j.settledClosed = true
	case !settled && j.settledClosed:
		j.settled = make(chan struct{})
		j.settledClosed = false
	}
	m.hub.publish(j.id, EventState, Info{})
	if settled {
		m.dropOldFinishedLocked()
	}
}

func (m *Manager) infoLocked(j *job) Info {
	st := j.store.Stats()
	info := Info{
		ID:         j.id,
		Name:       j.spec.DisplayName(),
		Command:    j.spec.DisplayCommand(),
		Argv:       j.spec.Argv,
		Dir:        j.spec.Dir,
		State:      j.state,
		Reason:     j.reason,
		PID:        j.pid,
		Signal:     j.signal,
		Error:      j.errText,
		Started:    j.started,
		Ended:      j.ended,
		Runs:       j.runs,
		Restarts:   max(j.runs-1, 0),
		Ready:      j.ready && j.state.Active(),
		Readiness:  j.spec.Ready.String(),
		Usage:      j.usageLocked(),
		LogPath:    j.log.path,
		LogFiles:   j.log.Files(),
		LogDropped: j.log.Dropped(),
		Lines:      st.Last,
		Bytes:      st.Bytes,
		Dropped:    st.Dropped,
		LastLine:   j.store.LastLine(),
		Spec:       j.spec,
	}
	if j.exitCode != nil {
		code := *j.exitCode
		info.ExitCode = &code
	}
	return info
}

// enqueueLocked puts a new or ended job on the queue and lets the scheduler
// start what can start.
func (m *Manager) enqueueLocked(j *job) {
	j.state = StateQueued
	j.reason = ""
	m.queue = append(m.queue, j)
	m.changedLocked(j)
	m.scheduleLocked()
}

func (m *Manager) dequeueLocked(j *job) {
	for i, q := range m.queue {
		if q == j {
			m.queue = append(m.queue[:i], m.queue[i+1:]...)
			return
		}
	}
}

// scheduleLocked starts queued jobs, in order, whose dependencies are met
// while slots are free; fails those whose dependencies can no longer be
// met; and keeps each waiting job's reason up to date. It repeats until
// nothing changes, since one start or failure can unblock another.
func (m *Manager) scheduleLocked() {
	for changed := true; changed; {
		changed = false
		for _, j := range append([]*job(nil), m.queue...) {
			ok, wait, fail := m.dependenciesLocked(j)
			switch {
			case fail != "":
				m.dequeueLocked(j)
				m.finishWithoutRunLocked(j, StateError, fail)
				changed = true
			case !ok:
				m.setReasonLocked(j, wait)
			case m.opts.MaxRunning > 0 && m.active >= m.opts.MaxRunning:
				m.setReasonLocked(j, fmt.Sprintf("waiting for a free slot (%d running)", m.active))
			default:
				m.dequeueLocked(j)
				m.spawnLocked(j)
				changed = true
			}
		}
	}
}

func (m *Manager) setReasonLocked(j *job, reason string) {
	if j.reason != reason {
		j.reason = reason
		m.hub.publish(j.id, EventState, Info{})
	}
}

// finishWithoutRunLocked ends a job that has no process (queued, or failed
// to start).
func (m *Manager) finishWithoutRunLocked(j *job, state State, reason string) {
	now := time.Now()
	j.state = state
	j.errText = reason
	j.reason = ""
	j.ended = &now
	m.changedLocked(j)
}

// endRunLocked asks the current run to end: the stop signal with a grace
// timer for stops and timeouts, SIGKILL for kills.
func (m *Manager) endRunLocked(j *job, req endRequest) {
	p := j.proc
	if p == nil {
		return
	}
	if j.request == reqNone || (req == reqKill && j.request == reqStop) {
		j.request = req
	}
	if req == reqKill {
		j.sentSignal = Signal(sigKill)
		p.signal(sigKill)
	} else if j.state == StateRunning {
		j.sentSignal = j.spec.StopSignal
		p.signal(j.spec.StopSignal.sys())
		p.graceTimer = time.AfterFunc(j.spec.Grace, func() {
			m.mu.Lock()
			defer m.mu.Unlock()
			if j.proc == p {
				j.sentSignal = Signal(sigKill)
				p.signal(sigKill)
			}
		})
	}
	if j.state == StateRunning {
		j.state = StateStopping
		m.changedLocked(j)
	}
}

// finishRunLocked records how a run ended and decides what comes next: a
// requested restart, a policy restart, or nothing.
func (m *Manager) finishRunLocked(j *job, p *process, exit exitStatus) {
	now := time.Now()
	p.stopTimers()
	j.proc = nil
	j.ended = &now
	m.active--
	j.exitCode, j.signal = nil, 0
	if exit.signaled {
		j.signal = exit.signal
	} else {
		code := exit.code
		j.exitCode = &code
	}
	switch {
	case j.request == reqTimeout:
		j.state = StateTimedOut
		j.errText = fmt.Sprintf("timed out after %v", j.spec.Timeout)
	case j.request != reqNone:
		j.state = StateKilled
		if j.signal == 0 {
			j.signal = j.sentSignal
		}
	case exit.signaled:
		j.state = StateKilled
	case exit.code == 0:
		j.state = StateSucceeded
	default:
		j.state = StateFailed
	}
	if ran := now.Sub(*j.started); ran >= policyResetAfter {
		j.autoRestarts = 0
	}
	switch {
	case j.restartPending && !m.closed:
		j.restartPending = false
		j.autoRestarts = 0
		m.changedLocked(j)
		m.enqueueLocked(j)
		return
	case j.request != reqKill && j.request != reqStop && !m.closed:
		m.applyRestartPolicyLocked(j)
	}
	j.restartPending = false
	m.changedLocked(j)
	m.scheduleLocked()
}

// usageLocked is the last sample while the job runs, and nothing after.
func (j *job) usageLocked() Usage {
	if !j.state.Active() {
		return Usage{}
	}
	return j.usage
}
