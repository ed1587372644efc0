package keeper

import (
	"crypto/rand"
	"encoding/hex"
	"net"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"jobtop/jobs/proc"
)

// EnvRun is the environment variable the keeper gives every run:
// "TOKEN.RUN". It lets the keeper (and a later jobtop, if both died) tell
// which run a process that left the run's session belongs to.
const EnvRun = "JOBTOP_RUN"

// orphanTick is how often a keeper whose jobtop is gone checks on the
// processes it is stopping.
const orphanTick = 50 * time.Millisecond

// settleDelay is how long the keeper waits after a child exits before it
// looks at the process table, so that many exits cost one look.
const settleDelay = 5 * time.Millisecond

// heartbeat is how often the keeper tells jobtop it is alive and not
// stuck: a job can stop its keeper (kill -STOP $PPID), and jobtop must
// notice (see MaxSilence).
const heartbeat = time.Second

// keeper is the state of the keeper process: the runs it started and the
// processes they left.
type keeper struct {
	conn  *net.UnixConn
	out   *outbox // what goes to jobtop on conn, sent by a writer of its own
	pid   int
	token string
	// subreaper is false where orphans go to init (macOS): the keeper
	// then finds them by session and environment (tree.go: adopt).
	subreaper bool
	runs      map[RunID]*run
	byPID     map[int]*run // main processes not yet reaped
	bySID     map[int]*run // sessions of runs not yet empty
	// cg puts each run in a cgroup of its own, where the system lets it
	// (cgroup_linux.go); nil where not. cgRefused counts the forks in a
	// row the system would not put in a cgroup (forkRun); at
	// maxCgroupRefusals, cgBroken: runs start without from then on.
	cg        *cgroups
	cgRefused int
	cgBroken  bool
	// byOutput is which run each live run's stdout and stderr (a pipe or
	// terminal of its own) belong to (tree.go: runByOutput).
	byOutput map[proc.FileID]*run
	// seen caches which run an adopted process (a child of the keeper
	// that is no run's main process) belongs to; nil for none.
	seen map[procKey]*run
	// doubted is since when each process not yet attributed has shown
	// no JOBTOP_RUN (tree.go: runByEnv).
	doubted map[procKey]time.Time
	// table is the process table as last read (tree.go); ended remembers
	// runs that ended, so what is found of them later is killed.
	table procCache
	ended endedRuns
	// exited are runs whose main process was reaped and not yet reported;
	// settleAt fires when the process table is to be looked at.
	exited   []*run
	settleAt *time.Timer
	// deferredAt is when settle first put off acting for a process it
	// could not attribute yet; zero when it is not putting off.
	deferredAt time.Time

	// stash holds runs' output for them (stash.go); nil where there is
	// none, and runs keep theirs in held.
	stash *stash
	// noGroupSignal: the system cannot signal a process group through a
	// pidfd (pidfdSignalGroup); runs are signalled process by process.
	noGroupSignal bool
	// Set once jobtop is gone: everything is being stopped.
	orphaned   bool
	drains     sync.WaitGroup // drain.go
	strayKill  time.Time      // when processes of no known run get SIGKILL
	strayTermd bool
}

// run is one run of a job: its main process and whatever it started.
type run struct {
	id    RunID
	pid   int
	start uint64
	// pidfd is the main process's once it has exited, opened before it
	// was reaped (keepPidfd), -1 before then and where there is none. It
	// is kept until the run ends: it still names the process group the
	// main process led (pidfdSignalGroup), and no other process (a signal
	// to the process itself fails from then on).
	pidfd   int
	stopSig syscall.Signal
	grace   time.Duration
	exited  bool
	status  unix.WaitStatus // of the main process, once exited
	reaped  time.Time       // when the main process was reaped
	killed  bool            // SIGKILL was asked for: keep sending it
	killAt  time.Time       // once orphaned: when the grace ends
	// stopAt is when jobtop first had the stop signal sent (a stop, a
	// restart), or said its stop command began (StopBegun): orphaned, the
	// keeper keeps that stop's deadline and sends no stop signal, which
	// would cut a graceful exit short ("press ^C again to force") and
	// reach what a trap or the stop command started to clean up.
	stopAt time.Time
	// held are jobtop's ends of the run's output (Spawn.Hold), until
	// the run ends or they are drained into log (drain.go), when they
	// are not in the stash.
	held    []*os.File
	stashed bool
	log     string
	// outputs are the run's stdout and stderr, as byOutput has them;
	// tty says they are a terminal's, whose number (and so FileID) the
	// next terminal opened may reuse once the run's is closed.
	outputs []proc.FileID
	tty     bool
	// leftNone: its exit was reported with nothing left, so a process of
	// it found later (one settle gave up waiting for) is reported again.
	leftNone bool
}

type procKey struct {
	pid   int
	start uint64
}

// serve runs the keeper until jobtop has gone and every process it
// started has died. It returns the process's exit code.
func serve(conn *net.UnixConn) int {
	// Double-forked and setsid descendants re-parent to the keeper, so it
	// can always find and reap them.
	srErr := errNoSubreaper
	if os.Getenv(noSubreaperEnv) == "" {
		srErr = becomeSubreaper()
	}
	subreaper := srErr == nil
	// The keeper lives exactly as long as its lifeline: stray signals do
	// not end it (it has no terminal: it runs in a session of its own).
	// They are caught and dropped, not ignored: an ignored signal stays
	// ignored across exec, and the jobs would inherit that.
	stray := make(chan os.Signal, 1)
	signal.Notify(stray, syscall.SIGHUP, syscall.SIGINT, syscall.SIGTERM, syscall.SIGQUIT)
	go func() {
		for range stray {
		}
	}()
	chld := make(chan os.Signal, 1)
	signal.Notify(chld, syscall.SIGCHLD)

	var cgWarning string
	k := &keeper{
		conn:      conn,
		out:       newOutbox(conn),
		pid:       os.Getpid(),
		token:     newToken(),
		subreaper: subreaper,
		runs:      make(map[RunID]*run),
		byPID:     make(map[int]*run),
		bySID:     make(map[int]*run),
		byOutput:  make(map[proc.FileID]*run),
		seen:      make(map[procKey]*run),
		table:     newProcCache(),
		ended:     newEndedRuns(),
	}
	if os.Getenv(noSubreaperEnv) == "" {
		k.stash = newStash()
		k.cg, cgWarning = newCgroups(k.token)
	}
	hello := event{Ev: evHello, PID: k.pid, Token: k.token}
	if k.cg != nil {
		hello.Cgroup = k.cg.dir
	}
	if self, err := proc.Get(k.pid); err == nil {
		hello.Start = self.Start
	}
	if srErr != nil && srErr != errNoSubreaper {
		hello.Err = "cannot become a child subreaper: a process that leaves a job's session is followed only by its JOBTOP_RUN variable"
	}
	hello.Note = cgWarning
	k.send(hello)

	reqs := make(chan incoming)
	go readRequests(conn, reqs)
	var tick <-chan time.Time
	beat := time.NewTicker(heartbeat)
	defer beat.Stop()
	// Without a subreaper, no SIGCHLD says that the last process of a run
	// whose main process exited has gone: look again while there is one.
	var poll *time.Ticker
	if !subreaper {
		poll = time.NewTicker(orphanTick)
		defer poll.Stop()
	}
	for {
		select {
		case <-beat.C:
			if !k.orphaned {
				k.out.beat()
			}
		case in, ok := <-reqs:
			if !ok {
				reqs = nil
				k.orphan()
				t := time.NewTicker(orphanTick)
				defer t.Stop()
				tick = t.C
				break
			}
			k.handle(in)
		case <-chld:
			k.reapChildren()
		case <-k.settleC():
			k.settle()
		case <-k.pollC(poll):
			k.settle()
		case <-tick:
			k.reapChildren()
			k.settle()
		}
		if k.orphaned && k.finished() {
			k.drained(drainWait)
			if k.cg != nil {
				k.cg.close()
			}
			return 0
		}
	}
}

type incoming struct {
	req   request
	files []int // fds
}

// readRequests delivers jobtop's requests until the lifeline ends.
func readRequests(conn *net.UnixConn, out chan<- incoming) {
	defer close(out)
	r := newReceiver(conn)
	for {
		var in incoming
		files, err := r.receive(&in.req)
		if err != nil {
			return
		}
		in.files = files
		out <- in
	}
}

// send queues ev for jobtop (outbox.go): the loop never waits for a
// jobtop that does not read.
func (k *keeper) send(ev event) {
	if !k.orphaned {
		k.out.put(ev)
	}
}

func (k *keeper) handle(in incoming) {
	switch in.req.Op {
	case opSpawn:
		in.files = k.spawn(in.req, in.files)
	case opSignal:
		k.signalRuns(in.req.Runs, syscall.Signal(in.req.Signal), in.req.Stop)
	}
	closeFDs(in.files)
}

// spawn starts a run's main process in a session of its own, with the
// fds jobtop sent as its stdin, stdout and stderr, and keeps the fds
// after those (request.Hold) with the run. It returns the fds it did not
// keep.
func (k *keeper) spawn(req request, files []int) []int {
	fail := func(msg string) []int {
		k.send(event{Ev: evSpawned, Run: req.Run, Err: msg})
		return files
	}
	if len(files) != 3+req.Hold || req.Hold < 0 {
		return fail("spawn request without its " + strconv.Itoa(3+req.Hold) + " files")
	}
	if _, dup := k.runs[req.Run]; dup {
		return fail("run " + strconv.FormatUint(uint64(req.Run), 10) + " exists already")
	}
	env := withVar(req.Env, EnvRun, k.token+"."+strconv.FormatUint(uint64(req.Run), 10))
	attr := &syscall.ProcAttr{
		Dir:   req.Dir,
		Env:   env,
		Files: []uintptr{uintptr(files[0]), uintptr(files[1]), uintptr(files[2])},
		Sys:   &syscall.SysProcAttr{Setsid: true, Setctty: req.TTY, Ctty: 0},
	}
	pid, note, err := k.forkRun(req, attr)
	if err != nil {
		return fail(err.Error())
	}
	r := &run{id: req.Run, pid: pid, pidfd: -1, stopSig: syscall.Signal(req.StopSignal),
		grace: time.Duration(req.GraceMS) * time.Millisecond,
		log:   strings.Clone(req.Log)} // not the whole request's memory (unmarshal)
	files, r.held = k.hold(r, files)
	if r.stopSig == 0 {
		r.stopSig = syscall.SIGTERM
	}
	if p, err := proc.Get(pid); err == nil {
		r.start = p.Start
	}
	k.runs[r.id] = r
	k.byPID[pid] = r
	k.bySID[pid] = r // Setsid: the session's ID is the main process's PID
	r.outputs, r.tty = outputsOf(files[1:3]), req.TTY
	for _, f := range r.outputs {
		k.byOutput[f] = r
	}
	k.send(event{Ev: evSpawned, Run: r.id, PID: pid, Start: r.start, Note: note})
	return files
}

// reapChildren collects every exited child, notes runs whose main
// process exited, and asks for a look at the process table soon.
func (k *keeper) reapChildren() {
	reaped := false
	for {
		pid := -1 // any child
		if exited, can := exitedChild(); can {
			if exited <= 0 {
				break
			}
			pid = exited
			k.keepPidfd(k.byPID[pid])
		}
		var ws unix.WaitStatus
		pid, err := unix.Wait4(pid, &ws, unix.WNOHANG, nil)
		if err == unix.EINTR {
			continue
		}
		if pid <= 0 || err != nil {
			break
		}
		reaped = true
		k.noteReaped(pid, ws)
	}
	if reaped || k.orphaned {
		k.scanSoon()
	}
}

// noteReaped notes a reaped child: a run's main process has exited, and
// its PID is never used again (signalRun).
func (k *keeper) noteReaped(pid int, ws unix.WaitStatus) {
	if r := k.byPID[pid]; r != nil {
		delete(k.byPID, pid)
		r.exited, r.status, r.reaped = true, ws, time.Now()
		k.exited = append(k.exited, r)
	}
}

// keepPidfd opens a pidfd for r's main process, which has exited and is
// not reaped yet, to keep until r ends: once the process is reaped, it
// still names the process group the process led (signalRun), and no
// other. While the process lives, the run holds none (signalRun opens
// one when it needs it): a live run's pidfd in the keeper's table would
// be copied by each fork and closed by each exec (see stash.go), about 0.4
// ms of CPU a start with a thousand runs alive.
func (k *keeper) keepPidfd(r *run) {
	if r == nil || r.pidfd >= 0 {
		return
	}
	if fd, err := pidfdOpen(r.pid); err == nil {
		r.pidfd = fd
	}
}

// scanSoon arms the settle timer: exits that come close together are
// settled with one look at the process table.
func (k *keeper) scanSoon() {
	if k.settleAt == nil {
		k.settleAt = time.NewTimer(settleDelay)
	}
}

// settle looks at the process table once and acts on it: reports runs
// whose main process exited (with what they left) and runs that have no
// process left, kills what is found of runs that ended (a process that
// forks and exits again and again can slip past one look), and once
// jobtop is gone, SIGKILLs what its grace has run out for.
func (k *keeper) settle() {
	k.settleAt = nil
	t := k.scan()
	if k.cg != nil {
		k.cg.sweep()
	}
	now := time.Now()
	if t.unsure > 0 {
		// A run's process may be among them: what the look says of
		// runs waits for it to be known, for at most execPatience (a
		// stream of new ones must not hold it up for ever).
		if k.deferredAt.IsZero() {
			k.deferredAt = now
		}
		if now.Sub(k.deferredAt) < execPatience {
			k.scanSoon()
			return
		}
	}
	k.deferredAt = time.Time{}
	for _, r := range k.exited {
		k.send(event{Ev: evExit, Run: r.id, Status: int(r.status), Left: len(t.members[r]), At: r.reaped.UnixNano()})
		r.leftNone = len(t.members[r]) == 0
	}
	k.exited = k.exited[:0]
	for _, r := range k.runs {
		if !r.exited {
			continue
		}
		members := t.members[r]
		if r.leftNone && len(members) > 0 {
			// Found since its exit was reported: jobtop stops it as
			// it stops what any main process leaves.
			k.send(event{Ev: evExit, Run: r.id, Status: int(r.status), Left: len(members), At: r.reaped.UnixNano()})
			r.leftNone = false
		}
		if len(members) == 0 {
			// A run that left nothing when its main process exited
			// ended then; one that left processes, when they were found
			// gone.
			at := now
			if r.leftNone {
				at = r.reaped
			}
			k.send(event{Ev: evEmpty, Run: r.id, At: at.UnixNano()})
			k.ended.add(r)
			if k.cg != nil {
				k.cg.ended(r.id)
			}
			delete(k.runs, r.id)
			delete(k.bySID, r.pid)
			for _, f := range r.outputs {
				delete(k.byOutput, f)
			}
			k.unhold(r)
			r.closePidfd()
			continue
		}
		if r.killed || (k.orphaned && !now.Before(r.killAt)) {
			r.killed = true
			k.signalRun(r, t, syscall.SIGKILL)
		}
	}
	signalAll(t.endedRuns, syscall.SIGKILL)
	if k.orphaned {
		for _, r := range k.runs {
			if !r.exited && (r.killed || !now.Before(r.killAt)) {
				r.killed = true
				k.signalRun(r, t, syscall.SIGKILL)
			}
		}
		if !now.Before(k.strayKill) {
			signalAll(t.strays, syscall.SIGKILL)
		}
	}
}

// settleC is the settle timer's channel, nil when it is not armed.
func (k *keeper) settleC() <-chan time.Time {
	if k.settleAt == nil {
		return nil
	}
	return k.settleAt.C
}

// pollC is poll's channel while a run whose main process exited still
// has processes, nil otherwise (and always where there is a subreaper).
func (k *keeper) pollC(poll *time.Ticker) <-chan time.Time {
	if poll == nil {
		return nil
	}
	for _, r := range k.runs {
		if r.exited {
			return poll.C
		}
	}
	return nil
}

// signalRuns sends sig to every process of the given runs, after one
// look at the process table; stop says it is a stop's (stopRun).
func (k *keeper) signalRuns(ids []RunID, sig syscall.Signal, stop bool) {
	if sig == StopBegun {
		for _, id := range ids {
			if r := k.runs[id]; r != nil && r.stopAt.IsZero() {
				r.stopAt = time.Now()
			}
		}
		return
	}
	t := k.scanSettled()
	for _, id := range ids {
		r := k.runs[id]
		if r == nil {
			continue
		}
		if sig == syscall.SIGKILL {
			r.killed = true
		}
		if (stop || sig == r.stopSig) && r.stopAt.IsZero() {
			r.stopAt = time.Now()
		}
		if stop {
			k.stopRun(r, t, sig)
		} else {
			k.signalRun(r, t, sig)
		}
	}
}

// stopRun sends sig, a stop signal, to every process of r, then SIGCONT
// (as systemd and timeout(1) do): a process paused by SIGSTOP or ^Z
// holds the signal pending until it is continued, so its handler would
// never run and its grace would end in SIGKILL. A stop signal that
// stops a process itself is not undone.
func (k *keeper) stopRun(r *run, t tree, sig syscall.Signal) {
	k.signalRun(r, t, sig)
	switch sig {
	case syscall.SIGSTOP, syscall.SIGTSTP, syscall.SIGTTIN, syscall.SIGTTOU, syscall.SIGCONT, syscall.SIGKILL:
	default:
		k.signalRun(r, t, syscall.SIGCONT)
	}
}

// signalRun sends sig to every process of r. Where the system can, the
// process group the main process leads (or led: the run's session's
// first group) gets it at once, as one signal: a child forked since t was
// read, or being forked, gets it too (the kernel restarts a fork that a
// signal to the group interrupts). So does each other group a process
// of the run leads (a shell's pipelines, a daemon's own session). The
// processes t found outside those groups (a child that left its group
// and its leader exited) get it one by one.
func (k *keeper) signalRun(r *run, t tree, sig syscall.Signal) {
	grouped := make(map[int]bool)
	fd := r.pidfd
	if fd < 0 && !r.exited {
		// The main process is the keeper's child and not reaped yet:
		// its PID cannot have been reused.
		if opened, err := pidfdOpen(r.pid); err == nil {
			fd = opened
			defer unix.Close(opened)
		}
	}
	// Whether the main process ignores the stop signal is read before
	// it is sent: a program may set SIG_IGN in its own handler (so that
	// a second one does not cut its cleanup), and is not to be hung up.
	hangup := r.tty && sig == r.stopSig && !r.exited && fd >= 0 && hangupInstead(r.pid, sig)
	switch {
	case k.signalGroup(fd, sig):
		grouped[r.pid] = true
	case r.exited:
	case fd >= 0:
		pidfdSignal(fd, sig) //nolint:errcheck // it may have exited
	default:
		signalWithoutPidfd(proc.Proc{PID: r.pid, Start: r.start}, sig)
	}
	if hangup {
		// An interactive shell on its terminal ignores SIGTERM: it
		// would wait out its grace. Its terminal closing (SIGHUP, as
		// tmux's kill-pane sends) ends it, and the shell hangs up its
		// own jobs.
		pidfdSignal(fd, syscall.SIGHUP) //nolint:errcheck // it may have exited
	}
	// Group leaders first, so their groups' members are not signalled
	// one by one as well.
	for _, leaders := range []bool{true, false} {
		for _, p := range t.members[r] {
			if (p.PGID == p.PID) == leaders && (p.PID != r.pid || r.exited) {
				k.signalMember(r, p, grouped, sig)
			}
		}
	}
}

// signalMember signals p, a process of r, and never another (as
// signalProc does), unless it is in a group that grouped says was
// signalled whole already. Where p leads a group of r's session or of
// a session of its own (everything in either is r's), the whole group
// gets the signal at once and goes into grouped.
func (k *keeper) signalMember(r *run, p proc.Proc, grouped map[int]bool, sig syscall.Signal) {
	// Read afresh: what t says of p's group may be a second old.
	fd, now, ok := openChecked(p, sig)
	if !ok {
		return
	}
	defer unix.Close(fd)
	switch {
	case grouped[now.PGID]:
	case now.PGID == p.PID && (now.SID == r.pid || now.SID == p.PID) && k.signalGroup(fd, sig):
		grouped[p.PID] = true
	default:
		pidfdSignal(fd, sig) //nolint:errcheck // it may have exited
	}
}

// signalGroup sends sig to the process group whose ID is the PID of fd's
// process, where the system can, and reports whether it did. A system
// that cannot is not asked again.
func (k *keeper) signalGroup(fd int, sig syscall.Signal) bool {
	if fd < 0 || k.noGroupSignal {
		return false
	}
	switch err := pidfdSignalGroup(fd, sig); err {
	case nil, unix.ESRCH: // ESRCH: the group has no process left
		return true
	case unix.EINVAL, unix.ENOSYS: // before Linux 6.9; no pidfds
		k.noGroupSignal = true
	}
	return false
}

// orphan starts stopping everything: jobtop is gone. Each run gets its
// stop signal and SIGKILL once its grace has passed (a run jobtop was
// stopping already keeps that stop's deadline, with no second signal);
// processes of no known run get SIGTERM and SIGKILL after the longest
// grace.
func (k *keeper) orphan() {
	k.orphaned = true
	now := time.Now()
	longest := time.Duration(0)
	t := k.scanSettled()
	k.unstash()
	for _, r := range k.runs {
		k.drain(r)
		if !r.stopAt.IsZero() {
			r.killAt = r.stopAt.Add(r.grace)
			continue
		}
		r.killAt = now.Add(r.grace)
		longest = max(longest, r.grace)
		k.stopRun(r, t, r.stopSig)
	}
	signalAll(t.strays, syscall.SIGTERM)
	signalAll(t.strays, syscall.SIGCONT)
	k.strayKill = now.Add(longest)
	k.conn.Close()
}

// finished reports whether nothing the keeper started is left, reaped
// included.
func (k *keeper) finished() bool {
	if len(k.scan().all) > 0 {
		return false
	}
	// What has exited is reaped as reapChildren does (a main process
	// keeps its pidfd), and what it reaps is noted: signalRun signals a
	// run's unnoted main process by its PID.
	k.reapChildren()
	var ws unix.WaitStatus
	pid, err := unix.Wait4(-1, &ws, unix.WNOHANG, nil)
	if pid > 0 {
		k.noteReaped(pid, ws)
		return false
	}
	return err == unix.ECHILD
}

func (r *run) closePidfd() {
	if r.pidfd >= 0 {
		unix.Close(r.pidfd)
		r.pidfd = -1
	}
}

func newToken() string {
	b := make([]byte, 8)
	rand.Read(b) //nolint:errcheck // never fails on Linux
	return hex.EncodeToString(b)
}

// withVar is env with name set to value, once: a job started inside
// another jobtop's job inherits that one's JOBTOP_RUN, and getenv (like
// the keeper reading /proc/PID/environ) takes the first.
func withVar(env []string, name, value string) []string {
	out := make([]string, 0, len(env)+1)
	for _, kv := range env {
		if !strings.HasPrefix(kv, name+"=") {
			out = append(out, kv)
		}
	}
	return append(out, name+"="+value)
}

// parseRunEnv splits a JOBTOP_RUN value into its token and run.
func parseRunEnv(v string) (token string, id RunID, ok bool) {
	tok, num, found := strings.Cut(v, ".")
	if !found {
		return "", 0, false
	}
	n, err := strconv.ParseUint(num, 10, 64)
	return tok, RunID(n), err == nil
}
