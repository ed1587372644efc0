package jobs

import (
	"fmt"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"jobtop/jobs/keeper"
)

const (
	sigKill = syscall.SIGKILL
	// drainTimeout bounds how long output is still read once no process of
	// a run is left, in case something the keeper could not follow holds
	// a pipe open: reading stops once nothing has come for drainTimeout,
	// at drainLimit whatever comes (a process outside the run that holds
	// the pipe and writes on), and at once on a stop or kill.
	drainTimeout = 2 * time.Second
)

// drainLimit is the longest output is read once no process of a run is
// left, whatever keeps coming (drainTimeout); a var for tests.
var drainLimit = 10 * time.Second

func (s Signal) sys() syscall.Signal { return syscall.Signal(s) }

// process is one run: its main process and everything it started. Fields
// are guarded by Manager.mu, but for what the readers use.
type process struct {
	run  keeper.RunID
	spec Spec // as the run started: its stop signal and grace apply to it
	// stopWith is the signal a stop asked for in place of the spec's
	// stop signal and stop command (StopWith); 0 for none.
	stopWith Signal
	pid      int
	// start is the main process's start time: with pid, it names it.
	start uint64

	launched chan struct{} // closed once the start succeeded or failed
	spawned  bool          // the main process started
	exited   bool          // the main process exited
	exit     exitStatus    // how, once exited
	left     int           // processes of the run alive when the main one exited
	cleaning bool          // what the main process left is being stopped
	empty    bool          // no process of the run is left
	draining bool          // finishAfterDrain is under way
	// cutDrain, closed by cutDrainLocked, ends finishAfterDrain's read
	// at once: nothing of the run is left to stop.
	cutDrain chan struct{}
	// emptyAt is when the keeper found no process of the run left (zero
	// when it did not say): the run's end (runEnd).
	emptyAt time.Time
	// launchHere: the Start that queued it launches it itself, on its
	// own goroutine (launchLocked).
	launchHere bool

	graceTimer   *time.Timer
	timeoutTimer *time.Timer
	readyTimer   *time.Timer

	side  sidecars // probes and stop command (proberun.go)
	pipes []*os.File
	// input is what Manager.Input writes to: a TTY job's terminal master
	// (also in pipes) or stdin's pipe; nil when the job has no input.
	input     *os.File
	typedLine typedLine // what Input typed of a line not yet ended; see midLine
	// cols and rows are a TTY job's terminal size; term its screen
	// mode (screen.go), nil for a pipe job. openCols and openRows are
	// the size its terminal is opened at (set before launch, then only
	// read, without the lock).
	cols, rows         int
	openCols, openRows int
	term               *termState
	read               atomic.Int64 // bytes read from the pipes
	storing            atomic.Int32 // readers storing what they read (blocked on a slow disk, say)
	readers            sync.WaitGroup
	readyMu            sync.Mutex
	ready              atomic.Pointer[readiness] // nil when not watching output
}

// cutDrainLocked ends the reading of a run that has no process left:
// what holds its pipes is not the run's.
func (p *process) cutDrainLocked() {
	if p.cutDrain == nil {
		p.cutDrain = make(chan struct{})
	}
	select {
	case <-p.cutDrain:
	default:
		close(p.cutDrain)
	}
}

func (p *process) stopTimers() {
	for _, t := range []*time.Timer{p.graceTimer, p.timeoutTimer, p.readyTimer} {
		if t != nil {
			t.Stop()
		}
	}
	p.side.stopProbes()
}

type exitStatus struct {
	code     int
	signaled bool
	signal   Signal
}

func exitFromWait(ws syscall.WaitStatus) exitStatus {
	if ws.Signaled() {
		return exitStatus{signaled: true, signal: Signal(ws.Signal())}
	}
	return exitStatus{code: ws.ExitStatus()}
}

// startedLocked records a run whose main process is up and starts reading
// its output. A stop asked for while it was starting is carried out now.
func (m *Manager) startedLocked(j *job, p *process, pid int, start uint64, files *spawnFiles) {
	p.spawned, p.pid, p.start = true, pid, start
	m.recordKeeper()
	j.pid, j.state, j.reason = pid, StateRunning, ""
	p.input = files.input
	if files.TTY {
		p.term = &termState{}
		if p.cols != p.openCols || p.rows != p.openRows {
			// Resized while it was starting.
			setWinsize(files.outR, p.cols, p.rows) //nolint:errcheck // it runs at the old size
		}
	}
	if p.spec.Timeout > 0 {
		p.timeoutTimer = time.AfterFunc(p.spec.Timeout, func() {
			m.mu.Lock()
			defer m.mu.Unlock()
			if j.proc == p {
				m.endRunLocked(j, reqTimeout)
			}
		})
	}
	if files.note != "" { // before any line of the run's own: none is read yet
		j.store.AppendMeta(files.note)
		j.log.MarkerSoon(files.note)
	}
	m.startReadinessLocked(j, p)
	m.startProbesLocked(j, p)
	for stream, f := range []*os.File{Stdout: files.outR, Stderr: files.errR} {
		if f != nil {
			p.pipes = append(p.pipes, f)
			p.readers.Add(1)
			go m.readStream(j, p, f, Stream(stream))
		}
	}
	m.changedLocked(j)
	if j.request != reqNone {
		req := j.request
		j.request = reqNone
		m.endRunLocked(j, req)
	} else if m.closed {
		m.endRunLocked(j, reqStop)
	}
	m.advanceLocked(j, p)
	if len(m.queue) > 0 {
		m.scheduleLocked() // jobs waiting for this one to start
	}
}

// startFailedLocked ends a run whose main process could not be started.
func (m *Manager) startFailedLocked(j *job, p *process, reason string) {
	delete(m.byRun, p.run)
	j.proc = nil
	m.active--
	m.finishWithoutRunLocked(j, StateError, reason)
	m.runs.Done()
	m.scheduleLocked()
}

// keeperEvent takes the keeper's news of a run.
func (m *Manager) keeperEvent(ev keeper.Event) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.auxEventLocked(ev) {
		return
	}
	j := m.byRun[ev.Run]
	if j == nil || j.proc == nil || j.proc.run != ev.Run {
		return
	}
	p := j.proc
	switch ev.Kind {
	case keeper.Exited:
		p.exited, p.exit, p.left = true, exitFromWait(ev.Status), ev.Left
		m.recordKeeper()
	case keeper.Empty:
		p.empty, p.emptyAt = true, ev.At
	}
	m.advanceLocked(j, p)
}

// keeperLost ends every run when the keeper process dies (or was killed
// for going silent): their processes have lost the one thing that follows
// them, so what is left of them is killed first, then the runs end.
func (m *Manager) keeperLost(err error) {
	m.keeperMu.Lock()
	m.keeper.Store(nil)
	lost := m.keeperID
	m.keeperMu.Unlock()

	m.mu.Lock()
	var mains []keeper.ProcID
	for _, j := range m.byRun {
		if p := j.proc; p != nil && p.spawned && !p.empty {
			mains = append(mains, keeper.ProcID{PID: p.pid, Start: p.start})
		}
	}
	m.mu.Unlock()
	killRunsOf(lost, mains) // a look at the process table: not under the lock

	why := errKeeperGone.Error()
	if strings.Contains(err.Error(), "killed") {
		why = "jobtop's keeper process stopped answering (" + err.Error() + "); the job's processes were killed"
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.auxLostLocked()
	for _, j := range m.byRun {
		p := j.proc
		if p == nil || !p.spawned || p.empty {
			continue
		}
		if !p.exited {
			p.exited, p.exit = true, exitStatus{signaled: true, signal: Signal(sigKill)}
		}
		j.errText = why
		p.empty = true
		m.advanceLocked(j, p)
	}
}

// advanceLocked moves a run on once the keeper reports: what a main
// process that exited by itself left running is stopped the way a stop
// stops it, and a run with no process left is drained and finished.
func (m *Manager) advanceLocked(j *job, p *process) {
	if !p.spawned {
		return
	}
	// (With nothing left, Empty follows Exited at once.)
	if p.exited && !p.empty && p.left > 0 && j.request == reqNone && !p.cleaning {
		p.cleaning = true
		j.reason = "stopping " + plural(p.left, "process") + " left running"
		m.stopSignalLocked(j, p)
		if j.state == StateRunning {
			j.state = StateStopping
		}
		m.changedLocked(j)
	}
	if p.empty && !p.draining {
		p.draining = true
		if p.cutDrain == nil {
			p.cutDrain = make(chan struct{})
		}
		note := ""
		if p.left > 0 && j.request == reqNone {
			note = "stopped " + plural(p.left, "process") + " left running"
		}
		go m.finishAfterDrain(j, p, note)
	}
}

// finishAfterDrain reads what is left in the run's pipes (bounded by
// drainTimeout and drainLimit), then records the end of the run.
func (m *Manager) finishAfterDrain(j *job, p *process, note string) {
	defer m.runs.Done()
	drained := make(chan struct{})
	go func() {
		p.readers.Wait()
		close(drained)
	}()
	// Read what the pipes hold while it comes (a slow disk can take
	// seconds to store what the run left in them); stop once nothing has
	// come for drainTimeout and the pipes are still open (something
	// outside the run holds them), at drainLimit if it writes on, or when
	// a stop or kill cuts it.
	m.mu.Lock()
	cut, within, since := p.cutDrain, drainLimit, j.runCursor
	if j.request != reqNone {
		// Stopped, killed or timed out: the run's own output is in
		// the pipes already; nothing more is waited for.
		within = drainTimeout
	}
	m.mu.Unlock()
	limit := time.NewTimer(within)
	defer limit.Stop()
	quiet := time.NewTicker(drainTimeout)
	defer quiet.Stop()
	for seen := p.read.Load(); ; {
		select {
		case <-drained:
		case <-cut:
		case <-limit.C:
		case <-quiet.C:
			// A reader still storing what it read is not done.
			if now := p.read.Load(); now != seen || p.storing.Load() > 0 {
				seen = now
				continue
			}
		}
		break
	}
	for _, f := range p.pipes {
		f.SetReadDeadline(time.Now()) //nolint:errcheck // unblocks the reader
	}
	<-drained
	for _, f := range p.pipes {
		f.Close()
	}
	if p.input != nil {
		p.input.Close() // the master was in pipes: closed twice is harmless
	}
	if p.term != nil {
		p.term.end() // not under the lock: its emulator's goroutine takes it
	}
	j.store.Flush()
	if note == "" && len(p.spec.Argv) == 0 && saidNoSource(j.store, since, p.spec.TTY) {
		note = sourceHint
	}
	if note != "" {
		j.store.AppendMeta(note)
		j.log.Marker(note)
	}
	// Its probes and stop command end before the run is reported ended
	// (they take the lock), and so does its log file: whoever sees the
	// job ended finds nothing of this run left running or open.
	p.side.stopProbes()
	p.side.wait()
	j.log.Park()
	m.mu.Lock()
	delete(m.byRun, p.run)
	m.finishRunLocked(j, p, p.exit)
	m.mu.Unlock()
	m.hub.publish(j.id, EventOutput, Info{})
}

// stopSignalLocked asks the run to end its own way (its stop command when
// it has one and its main process is alive, else its stop signal to all of
// it, or the signal the stop asked for) and arms the SIGKILL that follows
// its grace.
func (m *Manager) stopSignalLocked(j *job, p *process) {
	if p.stopWith != 0 {
		j.sentSignal = p.stopWith
		m.stopLocked(p, p.stopWith.sys())
	} else if p.spec.StopCommand != "" && !p.exited {
		j.sentSignal = 0
		m.signalLocked(p, keeper.StopBegun) // no signal: the keeper notes the stop
		m.runStopCommandLocked(j, p)
	} else if p.spec.StopInput != "" && p.input != nil && !p.exited {
		j.sentSignal = 0
		m.signalLocked(p, keeper.StopBegun)
		m.typeStopInputLocked(j, p)
	} else {
		j.sentSignal = p.spec.StopSignal
		m.stopLocked(p, p.spec.StopSignal.sys())
	}
	if p.graceTimer != nil {
		return
	}
	j.killAt = time.Now().Add(p.spec.Grace)
	p.graceTimer = time.AfterFunc(p.spec.Grace, func() {
		m.mu.Lock()
		defer m.mu.Unlock()
		if j.proc == p && !p.empty {
			j.sentSignal = Signal(sigKill)
			m.signalLocked(p, sigKill)
		}
	})
}

// signalLocked asks the keeper to signal every process of the run. Jobtop
// itself never signals a job's process: only the keeper, which reaps
// them, knows a PID is still theirs.
func (m *Manager) signalLocked(p *process, sig syscall.Signal) {
	if !p.spawned || p.empty {
		return
	}
	if kc := m.keeper.Load(); kc != nil {
		kc.Signal(p.run, sig)
	}
}

// stopLocked sends the run sig, a stop signal, as signalLocked does, and
// SIGCONT after it (keeper.Client.Stop): a job paused with SIGSTOP or ^Z
// runs its handler instead of waiting out its grace for SIGKILL.
func (m *Manager) stopLocked(p *process, sig syscall.Signal) {
	if !p.spawned || p.empty {
		return
	}
	if kc := m.keeper.Load(); kc != nil {
		kc.Stop(p.run, sig)
	}
}

// plural writes a count and a noun: "1 process", "2 processes".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	if noun == "process" {
		return fmt.Sprintf("%d processes", n)
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
