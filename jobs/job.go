package jobs

import (
	"fmt"
	"slices"
	"sync/atomic"
	"time"

	"jobtop/vtscreen"
)

// endRequest records why a run is being ended, which decides its final
// state: a requested stop or kill ends "killed", a timeout "timed_out".
type endRequest uint8

const (
	reqNone endRequest = iota
	reqStop
	reqKill
	reqTimeout
	// reqUnhealthy: the health check failed and the restart policy
	// restarts failed jobs (proberun.go).
	reqUnhealthy
)

// yieldsTo says whether a run being ended for r is to be recorded as ended
// for req instead: a kill beats a stop, and what someone asks for beats
// the engine's own stop of an unhealthy job (so no policy restart
// follows).
func (r endRequest) yieldsTo(req endRequest) bool {
	switch r {
	case reqNone:
		return true
	case reqStop:
		return req == reqKill
	case reqUnhealthy:
		return req == reqStop || req == reqKill
	}
	return false
}

// job is a Spec and its runs. Every field but store and log is guarded by
// Manager.mu.
type job struct {
	id   ID
	spec Spec
	// named says spec.Name was given, not made from the command.
	named bool
	store *OutputStore
	log   *logFile
	// shutDown: Shutdown ended it (stopped its run, dropped it from the
	// queue, cancelled its restart), not the job itself or a request.
	shutDown bool

	state    State
	reason   string // why it waits, or what its restart policy decided
	removing string // what stopped it to remove it (Info.Removing)
	pid      int
	exitCode *int
	signal   Signal
	errText  string
	// depRoot is, when it could not start because a dependency could
	// not be met, the end that caused it (failRoot): its dependants name
	// it instead of repeating errText.
	depRoot    string
	started    *time.Time
	ended      *time.Time
	runs       int
	runCursor  uint64 // the output cursor before the current run's first line
	ready      bool
	readyErr   string // why the ready probe has not passed (proberun.go)
	health     Health // "" without a health check
	healthErr  string // the last failed health check
	proc       *process
	request    endRequest
	sentSignal Signal
	// signalled are the signals SignalJobs sent the current run, a bit
	// each (1 << (sig-1)): one that ends it did not come from outside.
	signalled uint64
	killAt    time.Time // when the grace period of a stop ends

	cols, rows int // a TTY job's terminal size; 0 for the default

	typedAt atomic.Int64 // when Input last wrote to it (UnixNano); see publishOutput

	// cleared is the output cursor at the current run's last clear of
	// its terminal's screen that left the cursor at the top left
	// (termState.cleared), 0 for none: set by the run's reader, read for
	// Info.ClearedCursor and Manager.Screen.
	cleared atomic.Uint64

	lastScreen *vtscreen.Snapshot // the last run ended on this screen (termState.end)
	lastPlaced bool               // and had placed the cursor on the main screen (termState.lastPlaced)

	restartPending bool        // a requested restart waits for this run to end
	ends           int         // times it ended (Info.Ends)
	restartTimer   *time.Timer // a policy restart waits out its backoff
	restartAt      time.Time   // when restartTimer fires
	autoRestarts   int         // policy restarts since the last long run (all of them: MaxOverLife)
	// metDeps are the dependencies this queued run found met: one whose
	// job is removed meanwhile (jobtop clean) stays met.
	metDeps map[string]bool
	// goneAfter are the jobs of spec.After removed since this job was
	// added, as each last ended (afterLocked judges them by it).
	goneAfter map[ID]goneJob

	settled       chan struct{} // closed while the job is settled
	settledClosed bool

	// finishedAt is its place in Manager.finished plus one, 0 when it is
	// not there; finishedEnd is the end it is placed by (ended, then).
	finishedAt  int
	finishedEnd *time.Time
	// kept exempts it from Options.KeepFinished (Manager.Keep): it is
	// never in Manager.finished.
	kept bool

	history runHistory // the runs' start, readiness and end

	usage        Usage // of the current run's process tree
	stopped      bool  // the current run's main process, at the last sample
	peakRSS      int64 // the most of usage.RSS the current (last) run had
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
	m.noteFinishedLocked(j)
	m.hub.publish(j.id, EventState, Info{})
	if settled {
		m.dropOldFinishedLocked()
	}
}

// infoLocked is the job's snapshot.
func (m *Manager) infoLocked(j *job) Info {
	info := j.stateLocked()
	info.ShuttingDown = m.closed
	j.addOutputStats(&info)
	return info
}

// livePIDLocked is the PID of the run's main process, 0 once it has
// exited while the rest of the run is still being stopped: a PID that
// names nothing (or, reused, something else) is not shown as the job's.
// An ended job keeps its last run's.
func (j *job) livePIDLocked() int {
	if p := j.proc; p != nil && p.exited {
		return 0
	}
	return j.pid
}

// stateLocked is the part of the job's snapshot that Manager.mu guards: a
// copy of a few fields, so that listing many jobs holds the lock briefly.
func (j *job) stateLocked() Info {
	info := Info{
		ID:        j.id,
		Name:      j.spec.DisplayName(),
		Command:   j.spec.DisplayCommand(),
		Argv:      j.spec.Argv,
		Dir:       j.spec.Dir,
		State:     j.state,
		Reason:    j.reason,
		Removing:  j.removing,
		ShutDown:  j.shutDown,
		PID:       j.livePIDLocked(),
		Stopped:   j.stoppedLocked(),
		Signal:    j.signal,
		Error:     j.errText,
		Started:   j.started,
		Ended:     j.ended,
		Runs:      j.runs,
		Ends:      j.ends,
		RunCursor: j.runCursor,
		Restarts:  max(j.runs-1, 0),
		Ready:     j.readyLocked(),
		History:   j.history.snapshot(),
		Readiness: j.spec.Ready.String(),
		Usage:     j.usageLocked(),
		Origin:    j.spec.Origin,
		Client:    j.spec.Client,
		TTY:       j.spec.TTY,
		Stdin:     j.spec.Stdin,
		After:     j.spec.After,
		Spec:      j.spec,
	}
	if j.spec.TTY {
		info.Cols, info.Rows = j.termSize()
		info.ClearedCursor = j.cleared.Load()
	}
	if p := j.proc; p != nil && p.term != nil {
		mode := p.term.mode()
		info.Screen, info.AltScreen, info.CatchingUp = mode.on, mode.alt, mode.catchingUp
		info.placedCursor = mode.placed
	} else if j.lastScreen != nil {
		info.Screen, info.AltScreen = true, j.lastScreen.AltScreen
		info.placedCursor = j.lastPlaced
	}
	if j.exitCode != nil {
		code := *j.exitCode
		info.ExitCode = &code
	}
	info.EndRequested = j.ended != nil && !j.state.Active() && j.request != reqNone
	info.KilledFromOutside = j.ended != nil && j.state == StateKilled && info.Signal != 0 && !info.EndRequested &&
		j.signalled&(1<<(uint(info.Signal)-1)) == 0
	info.PeakRSS = j.peakRSS
	if info.Ready && j.state.Active() {
		info.ReadyAt = j.history.readyAt()
	}
	info.Description = j.spec.Description
	if q := j.spec.Notify.Quiet; q > 0 {
		info.NotifyQuiet = q.String()
	}
	j.probeInfoLocked(&info)
	if j.state == StateStopping && j.sentSignal != Signal(sigKill) && !j.killAt.IsZero() {
		at := j.killAt
		info.KillAt = &at
	}
	if j.restartTimer != nil {
		at := j.restartAt
		info.RestartAt = &at
	}
	return info
}

// addOutputStats completes a snapshot with what the job's store and log
// file say; they have locks of their own, so Manager.mu need not be held.
func (j *job) addOutputStats(info *Info) {
	st := j.store.Stats()
	info.LogPath = j.log.Path()
	info.LogFiles = j.log.Files()
	info.LogDropped = j.log.Dropped()
	info.LogError = j.log.Err()
	info.Lines = st.Last
	info.MetaLines = st.Meta
	info.LineCuts = st.Cuts
	info.Bytes = st.Bytes
	if at := j.store.LastAppend(); !at.IsZero() {
		info.LastOutputAt = &at
	}
	info.Dropped = st.Dropped
	info.LastLine = j.store.LastLine()
	if info.Screen && !info.AltScreen && (info.placedCursor || j.store.LastLinePlacesCursor()) {
		// A screen drawn on the main one by placing the cursor: its
		// lines are pieces of its frames, the rows after a home as much
		// as the one it went home in, no line to show.
		info.LastLine = ""
	}
}

// enqueueLocked puts a new or ended job on the queue and lets the scheduler
// start what can start. A job that ran before waits with no run: the
// pid, exit, error and times of its last run are in its history, not
// shown as the queued run's (a restart waiting for a slot is not "queued
// with exit 3").
func (m *Manager) enqueueLocked(j *job) {
	m.queueRunLocked(j, false)
}

// queueRunLocked is enqueueLocked; first puts the run ahead of those
// waiting, for a restart of a run that held a slot: it keeps the slot.
func (m *Manager) queueRunLocked(j *job, first bool) {
	j.state = StateQueued
	j.reason, j.removing = "", ""
	j.metDeps = nil
	j.pid, j.exitCode, j.signal, j.errText, j.depRoot = 0, nil, 0, "", ""
	j.started, j.ended = nil, nil
	if first {
		m.queue = slices.Insert(m.queue, 0, j)
	} else {
		m.queue = append(m.queue, j)
	}
	m.changedLocked(j)
	m.scheduleLocked()
	if j.state == StateQueued && j.reason != ReasonStarting {
		// It waits (for a slot, a dependency): its log file is closed
		// meanwhile, as an ended job's is, so a thousand queued jobs
		// hold no thousand files open; its start opens it again.
		j.log.Park()
		// Should jobtop die, the next instance tells of the queue.
		m.recordKeeper()
	}
}

func (m *Manager) dequeueLocked(j *job) {
	for i, q := range m.queue {
		if q == j {
			m.queue = append(m.queue[:i], m.queue[i+1:]...)
			if j.reason != "" { // it waited, so the record counts it
				m.recordKeeper()
			}
			return
		}
	}
}

// scheduleLocked starts queued jobs, in order, whose dependencies are met
// while slots are free; fails those whose dependencies can no longer be
// met; and keeps each waiting job's reason up to date. It repeats until
// nothing changes, since one start or failure can unblock another.
func (m *Manager) scheduleLocked() {
	// The reason of every job waiting for a slot, made once per count
	// running: a build graph's thousand queued jobs each had it formatted
	// at every end (most of the manager's CPU with max_running 4).
	slotReason, slotReasonFor := "", -1
	for changed := true; changed; {
		changed = false
		for _, j := range append([]*job(nil), m.queue...) {
			ok, wait, fail, root := m.dependenciesLocked(j)
			switch {
			case fail != "":
				m.dequeueLocked(j)
				j.depRoot = root
				m.finishWithoutRunLocked(j, StateError, fail)
				changed = true
			case !ok:
				m.setReasonLocked(j, wait)
			case m.maxRunning > 0 && m.active >= m.maxRunning:
				if slotReasonFor != m.active {
					slotReason, slotReasonFor = fmt.Sprintf("waiting for a free slot (%d running)", m.active), m.active
				}
				m.setReasonLocked(j, slotReason)
			default:
				m.dequeueLocked(j)
				m.startRunLocked(j)
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
	j.ends++
	j.state = state
	j.errText = reason
	j.reason = ""
	j.ended = &now
	j.history.end(now, state, nil, 0)
	j.log.Park()
	m.changedLocked(j)
}

// endRunLocked asks the current run to end: the stop signal to the whole
// run with SIGKILL after its grace for stops and timeouts, SIGKILL at once
// for kills. A run still starting is ended once it has started.
func (m *Manager) endRunLocked(j *job, req endRequest) {
	p := j.proc
	if p == nil {
		return
	}
	if p.empty {
		// Nothing of the run is left, only its output is still read
		// (something outside it holds a pipe): that ends now, and how
		// the run ended stands.
		p.cutDrainLocked()
		return
	}
	if j.request.yieldsTo(req) {
		j.request = req
	}
	p.side.stopProbes()
	if !p.spawned {
		return // startedLocked carries the request out
	}
	if req == reqKill {
		j.sentSignal = Signal(sigKill)
		m.signalLocked(p, sigKill)
		p.side.killStop()
	} else if j.state == StateRunning {
		m.stopSignalLocked(j, p)
	}
	if j.state == StateRunning {
		j.state = StateStopping
		m.changedLocked(j)
	}
}

// finishRunLocked records how a run ended and decides what comes next: a
// requested restart, a policy restart, or nothing.
func (m *Manager) finishRunLocked(j *job, p *process, exit exitStatus) {
	end := runEnd(time.Now(), j.started, p.emptyAt)
	p.stopTimers()
	if p.term != nil {
		p.term.mu.Lock()
		j.lastScreen, j.lastPlaced = p.term.last, p.term.lastPlaced
		p.term.mu.Unlock()
	}
	j.proc = nil
	j.ended = &end
	j.ends++
	j.reason = ""
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
	case exit.code == 0 || slices.Contains(j.spec.SuccessExitCodes, exit.code):
		j.state = StateSucceeded
	default:
		j.state = StateFailed
	}
	j.history.end(end, j.state, j.exitCode, j.signal)
	if ran := end.Sub(*j.started); ran >= policyResetAfter && !j.spec.Restart.MaxOverLife {
		j.autoRestarts = 0
	}
	switch {
	case j.restartPending && !m.closed:
		// The run's end is published with the restart still pending:
		// the job is not finished for a moment, for retention (which
		// dropped a kept job for it, or could drop the job itself, which
		// then ran unlisted), nor settled (its settled channel is not
		// closed only to be made again).
		j.autoRestarts = 0
		m.changedLocked(j)
		j.restartPending = false
		m.queueRunLocked(j, true) // the slot its run held is its own
		return
	case j.request != reqKill && j.request != reqStop && !m.closed:
		m.applyRestartPolicyLocked(j)
	}
	j.restartPending = false
	m.changedLocked(j)
	m.scheduleLocked()
}

// runEnd is when a run ended, for its record (Info.Ended, Runtime, its
// history): at, when the keeper found its last process gone, not now, when
// jobtop learnt it, which can be much later (jobtop was stopped, or busy).
// at is by the keeper's wall clock; it is placed on now's clock as that
// long before now, so the end keeps now's monotonic reading, and it is
// kept between started and now: a wall clock set back or forth meanwhile
// must give neither an end before the start nor one in the future.
// Without a time from the keeper (one too old to send it, or lost), now.
func runEnd(now time.Time, started *time.Time, at time.Time) time.Time {
	if at.IsZero() {
		return now
	}
	end := now.Add(-max(now.Round(0).Sub(at), 0))
	if started != nil && end.Before(*started) {
		return *started
	}
	return end
}

// stoppedLocked is what the last sample found of the main process while
// it runs: paused (Info.Stopped) or not; false once it exited.
func (j *job) stoppedLocked() bool {
	return j.stopped && j.state.Active() && j.livePIDLocked() != 0
}

// usageLocked is the last sample while the job runs, and nothing after.
func (j *job) usageLocked() Usage {
	if !j.state.Active() {
		return Usage{}
	}
	return j.usage
}
