package keeper

import (
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"jobtop/jobs/proc"
)

// Event is news of a run from the keeper.
type Event struct {
	Run RunID
	// Exited: the run's main process exited with Status and was reaped;
	// Left processes of the run were still alive then. Empty: no process
	// of the run is left. Empty always comes after Exited.
	Kind   EventKind
	Status syscall.WaitStatus
	Left   int
	// At is when it happened, by the keeper's wall clock: Exited, when
	// the main process was reaped; Empty, when the run's last process was
	// found gone (its main process's reaping, if it left none). It can
	// be long before the event is read (this process was stopped, or
	// busy), and is no earlier than the run's start only as far as the
	// wall clock was not set back meanwhile. Zero when the keeper did
	// not say (one older than the field).
	At time.Time
}

// EventKind says what an Event reports.
type EventKind uint8

// The kinds of events.
const (
	Exited EventKind = iota + 1
	Empty
)

// Spawn says how to start a run's main process.
type Spawn struct {
	Run  RunID
	Path string   // the program, already resolved
	Argv []string // Argv[0] included
	Env  []string
	Dir  string
	// Stdin, Stdout and Stderr become the process's fds 0, 1 and 2. The
	// caller keeps its copies and closes them when it likes.
	Stdin, Stdout, Stderr *os.File
	// TTY makes Stdin the process's controlling terminal.
	TTY bool
	// StopSignal and Grace are how the keeper stops the run by itself if
	// jobtop goes away.
	StopSignal syscall.Signal
	Grace      time.Duration
	// Hold are jobtop's own ends of the run's output (the pipes' read
	// ends, or the terminal's master), at most two. The keeper keeps
	// them open while the run lives, so that if jobtop dies the run's
	// writes neither fail (EPIPE) nor hang its terminal up (SIGHUP)
	// before the keeper has stopped it with its grace; it then reads
	// them and appends what the run writes to Log (see drain.go).
	Hold []*os.File
	Log  string
}

// Identity names a keeper process for good.
type Identity struct {
	PID   int    `json:"pid"`
	Start uint64 `json:"start"`
	// Token is in every run's JOBTOP_RUN variable.
	Token string `json:"token"`
	// Cgroup is the directory of the cgroups the keeper puts its runs
	// in, if it does (InCgroup).
	Cgroup string `json:"cgroup,omitempty"`
}

// ErrGone is returned once the keeper process has died.
var ErrGone = errors.New("jobtop's keeper process is gone")

// MaxSilence is how long the keeper may say nothing (it sends a
// heartbeat every second) before the client takes it for stopped or stuck
// and kills it; its runs then end as when it dies. Only time this
// process was running to hear it counts (see watch). A keeper that is
// busy then (proc.Busy: a thread running, waiting for a CPU or for the
// kernel, as on a machine loaded to hundreds of runnable processes or a
// disk under siege) is slow, not stopped: it gets up to maxBusySilence.
const MaxSilence = 10 * time.Second

// maxBusySilence bounds the silence of a keeper that stays busy: one
// spinning in a loop of its own is killed in the end.
const maxBusySilence = 2 * time.Minute

// watchHookSet is what a client's watch asks and allows.
type watchHookSet struct {
	busy    func(pid int) bool
	maxBusy time.Duration
}

// watchHooks are what each client's watch gets at its Start; tests
// replace them.
var watchHooks = watchHookSet{proc.Busy, maxBusySilence}

// watchTick is how often the client looks at the keeper's silence.
const watchTick = MaxSilence / 10

// Client is jobtop's side of one keeper process. Its methods are safe for
// concurrent use; Signal never blocks.
type Client struct {
	conn    *net.UnixConn
	cmd     *exec.Cmd
	id      Identity
	warning string
	// cgroupWarning: CgroupWarning.
	cgroupWarning string
	onEvent       func(Event)
	onLost        func(error)

	writeMu sync.Mutex

	heard    atomic.Uint64 // the keeper's messages so far
	waitOnce sync.Once
	waitErr  error

	// flushMu is held from taking a batch of signals to having written
	// it: Close, which takes it, ends the lifeline only after every
	// batch taken before it was written (a StopBegun written after the
	// lifeline ended was lost, and the keeper sent that run its stop
	// signal: TestAStopCommandUnderWayGetsNoStopSignal, once).
	flushMu  sync.Mutex
	mu       sync.Mutex
	waiting  map[RunID]chan event
	signals  map[signalReq][]RunID
	wake     chan struct{}
	lost     error
	closed   bool
	silent   time.Duration // killed for saying nothing for that long
	done     chan struct{} // closed when the reader has ended
	writerOK chan struct{} // closed when the signal writer has ended
}

// Start starts a keeper process. onEvent receives every Exited and Empty
// event, in order, on one goroutine; onLost is called once if the keeper
// dies while the client is open. Neither may call back into the client.
// The keeper holds a copy of each of holds open until it exits, however
// long after jobtop that is: a lock on the log directory it drains into
// stays held while it drains (a flock belongs to the open file, which
// the copies share).
func Start(onEvent func(Event), onLost func(error), holds ...*os.File) (*Client, error) {
	mine, theirs, err := socketPair()
	if err != nil {
		return nil, err
	}
	cmd := keeperCommand(theirs, holds)
	err = cmd.Start()
	theirs.Close()
	if err != nil {
		mine.Close()
		return nil, fmt.Errorf("starting jobtop's keeper process: %w", err)
	}
	c := &Client{conn: mine, cmd: cmd, onEvent: onEvent, onLost: onLost,
		waiting: make(map[RunID]chan event), signals: make(map[signalReq][]RunID),
		wake: make(chan struct{}, 1), done: make(chan struct{}), writerOK: make(chan struct{})}
	r := newReceiver(mine)
	var hello event
	fds, err := r.receive(&hello)
	closeFDs(fds) // none come with it
	if err != nil || hello.Ev != evHello {
		mine.Close()
		cmd.Process.Kill() //nolint:errcheck // it is broken
		cmd.Wait()         //nolint:errcheck // its status is of no use
		return nil, fmt.Errorf("jobtop's keeper process did not start: %v", err)
	}
	c.id = Identity{PID: hello.PID, Start: hello.Start, Token: hello.Token, Cgroup: hello.Cgroup}
	c.warning, c.cgroupWarning = hello.Err, hello.Note
	go c.read(r)
	go c.writeSignals()
	go c.watch(watchHooks)
	return c, nil
}

// watch kills the keeper if it goes silent (a job stopped it with
// SIGSTOP, or it is stuck): its runs must not wait for it for ever. The
// reader then sees the connection end, as when the keeper dies.
//
// The silence is counted in this process's own ticks, not read off a
// clock: when this process was the one stopped (SIGSTOP, ^Z of the TUI,
// a debugger) or starved, a tick comes late and what the keeper sent
// meanwhile waits unread in the socket; a late tick counts as at most two
// ticks, so the keeper is judged only on time this process was running
// to hear it. The wall clock (what the check once used) also jumps when
// it is set, and runs on while the machine sleeps; the monotonic clock
// of time.Now stands still then (CLOCK_MONOTONIC, not BOOTTIME), as the
// keeper does.
func (c *Client) watch(hooks watchHookSet) {
	t := time.NewTicker(watchTick)
	defer t.Stop()
	last, seen := time.Now(), c.heard.Load()
	var silence time.Duration // heard nothing for that long, running
	for {
		select {
		case <-c.done:
			return
		case <-t.C:
			now := time.Now()
			gap := min(now.Sub(last), 2*watchTick)
			last = now
			if h := c.heard.Load(); h != seen {
				seen, silence = h, 0
				continue
			}
			silence += gap
			stuck := silence > MaxSilence && (silence > hooks.maxBusy || !hooks.busy(c.cmd.Process.Pid))
			c.mu.Lock()
			closing := c.closed // its lifeline is cut: it stops the runs, silently
			if !closing && stuck {
				c.silent = silence
				c.mu.Unlock()
				c.cmd.Process.Kill() //nolint:errcheck // it may have died meanwhile
				return
			}
			c.mu.Unlock()
			if closing {
				return
			}
		}
	}
}

// wait reaps the keeper process once.
func (c *Client) wait() error {
	c.waitOnce.Do(func() { c.waitErr = c.cmd.Wait() })
	return c.waitErr
}

// Identity is the keeper process's.
func (c *Client) Identity() Identity { return c.id }

// Warning says the keeper could not become a subreaper, or is "".
func (c *Client) Warning() string { return c.warning }

// CgroupWarning says why the keeper puts its runs in no cgroups, where
// that is not simply the system's way (no cgroup2, none of the user's);
// empty otherwise.
func (c *Client) CgroupWarning() string { return c.cgroupWarning }

// Spawn starts a run and returns its main process's PID and start time.
func (c *Client) Spawn(s Spawn) (Started, error) {
	ch := make(chan event, 1)
	c.mu.Lock()
	if c.lost != nil || c.closed {
		c.mu.Unlock()
		return Started{}, ErrGone
	}
	c.waiting[s.Run] = ch
	c.mu.Unlock()
	req := request{Op: opSpawn, Run: s.Run, Path: s.Path, Argv: s.Argv, Env: s.Env, Dir: s.Dir,
		TTY: s.TTY, StopSignal: int(s.StopSignal), GraceMS: s.Grace.Milliseconds(), Log: s.Log}
	fds := []int{int(s.Stdin.Fd()), int(s.Stdout.Fd()), int(s.Stderr.Fd())}
	req.Hold = len(s.Hold)
	err := withFDs(s.Hold, func(held []int) error {
		c.writeMu.Lock()
		defer c.writeMu.Unlock()
		return send(c.conn, req, append(fds, held...)...)
	})
	if err != nil {
		c.mu.Lock()
		delete(c.waiting, s.Run)
		c.mu.Unlock()
		return Started{}, fmt.Errorf("asking jobtop's keeper process to start the job: %w", err)
	}
	select {
	case ev := <-ch:
		if ev.Err != "" {
			return Started{}, errors.New(ev.Err)
		}
		return Started{PID: ev.PID, Start: ev.Start, Note: ev.Note}, nil
	case <-c.done:
		return Started{}, ErrGone
	}
}

// Started is a run's main process as Spawn started it.
type Started struct {
	PID   int
	Start uint64 // its start time (proc.Proc.Start)
	// Note is a line for the run's output, before any of its own: the
	// run has no cgroup, and why (empty for none).
	Note string
}

// withFDs calls send with the descriptors of the files a Spawn holds,
// each kept open (and in its mode: Fd would make a file the poller reads
// blocking) until send returns. The message carries copies of them.
func withFDs(files []*os.File, send func(fds []int) error) error {
	if len(files) > maxFDs-3 {
		return fmt.Errorf("at most %d files to hold, not %d", maxFDs-3, len(files))
	}
	var with func(files []*os.File, fds []int) error
	with = func(files []*os.File, fds []int) error {
		if len(files) == 0 {
			return send(fds)
		}
		rc, err := files[0].SyscallConn()
		if err != nil {
			return fmt.Errorf("the run's output to hold: %w", err)
		}
		cerr := rc.Control(func(fd uintptr) { err = with(files[1:], append(fds, int(fd))) })
		if cerr != nil {
			return fmt.Errorf("the run's output to hold: %w", cerr)
		}
		return err
	}
	return with(files, make([]int, 0, len(files)))
}

// StopBegun, given to Signal, tells the keeper that a stop of the run
// began without a signal (its stop command runs): should jobtop go, the
// keeper sends it no stop signal and keeps that stop's deadline, as for
// one whose stop signal was sent.
const StopBegun = syscall.Signal(0)

// Signal sends sig to every process of the run, soon, and does nothing
// else. Requests made close together go as one, so signalling many runs
// costs one look at the process table.
func (c *Client) Signal(run RunID, sig syscall.Signal) { c.ask(run, signalReq{sig: sig}) }

// Stop sends sig, a stop signal, as Signal does, then SIGCONT to the
// same processes, as systemd and timeout(1) do: a process paused by
// SIGSTOP or ^Z holds the signal pending until it is continued, so its
// handler would never run and the grace would end in SIGKILL. A signal
// that stops a process itself (SIGTSTP as a stop signal) is not undone.
// The keeper takes the run for stopping, as for its own stop signal.
func (c *Client) Stop(run RunID, sig syscall.Signal) { c.ask(run, signalReq{sig: sig, stop: true}) }

// signalReq is one kind of signal request: the signal, and whether it
// is a stop's (Stop).
type signalReq struct {
	sig  syscall.Signal
	stop bool
}

func (c *Client) ask(run RunID, r signalReq) {
	c.mu.Lock()
	c.signals[r] = append(c.signals[r], run)
	c.mu.Unlock()
	select {
	case c.wake <- struct{}{}:
	default:
	}
}

func (c *Client) writeSignals() {
	defer close(c.writerOK)
	for {
		select {
		case <-c.wake:
		case <-c.done:
			return
		}
		c.flushMu.Lock()
		c.mu.Lock()
		batch := c.signals
		c.signals = make(map[signalReq][]RunID)
		c.mu.Unlock()
		c.writeSignalBatch(batch)
		c.flushMu.Unlock()
	}
}

// writeSignalBatch sends a batch of signals, SIGKILL first: a kill asked
// for after a stop must not wait behind it.
func (c *Client) writeSignalBatch(batch map[signalReq][]RunID) {
	for _, r := range orderSignals(batch) {
		c.writeMu.Lock()
		send(c.conn, request{Op: opSignal, Runs: batch[r], Signal: int(r.sig), Stop: r.stop}) //nolint:errcheck // a dead keeper is reported by the reader
		c.writeMu.Unlock()
	}
}

func orderSignals(batch map[signalReq][]RunID) []signalReq {
	out := make([]signalReq, 0, len(batch))
	for _, kill := range []bool{true, false} {
		for r := range batch {
			if (r.sig == syscall.SIGKILL) == kill {
				out = append(out, r)
			}
		}
	}
	return out
}

func (c *Client) read(r *receiver) {
	defer close(c.done)
	for {
		var ev event
		fds, err := r.receive(&ev)
		closeFDs(fds)
		if err != nil {
			c.mu.Lock()
			closed, silent := c.closed, c.silent
			c.lost = ErrGone
			c.mu.Unlock()
			if closed {
				return
			}
			// A message that does not decode leaves the keeper alive:
			// cutting its lifeline has it stop its runs now, for the
			// reason given here, not 10 s later for silence.
			c.conn.Close()
			c.wait() //nolint:errcheck // it is gone; its status says nothing more
			if silent > 0 {
				err = fmt.Errorf("it said nothing for %v (stopped or stuck), so it was killed", silent.Round(time.Second))
			}
			if c.onLost != nil {
				c.onLost(fmt.Errorf("%w: %v", ErrGone, err))
			}
			return
		}
		c.heard.Add(1)
		switch ev.Ev {
		case evSpawned:
			c.mu.Lock()
			ch := c.waiting[ev.Run]
			delete(c.waiting, ev.Run)
			c.mu.Unlock()
			if ch != nil {
				ch <- ev
			}
		case evExit:
			c.onEvent(Event{Run: ev.Run, Kind: Exited, Status: syscall.WaitStatus(ev.Status), Left: ev.Left, At: wireTime(ev.At)})
		case evEmpty:
			c.onEvent(Event{Run: ev.Run, Kind: Empty, At: wireTime(ev.At)})
		}
	}
}

// Close ends the lifeline. The keeper stops whatever is still running
// (with each run's stop signal and grace) and exits; Close waits for that.
func (c *Client) Close() error {
	c.flushMu.Lock()
	c.mu.Lock()
	c.closed = true
	pending := c.signals // asked for before Close: they go first
	c.signals = make(map[signalReq][]RunID)
	c.mu.Unlock()
	c.writeSignalBatch(pending)
	c.flushMu.Unlock()
	c.conn.CloseWrite() //nolint:errcheck // Close below ends it anyway
	<-c.done
	<-c.writerOK
	c.conn.Close()
	return c.wait()
}

// wireTime is a time the keeper sent: zero stays zero (not 1970).
func wireTime(ns int64) time.Time {
	if ns == 0 {
		return time.Time{}
	}
	return time.Unix(0, ns)
}
