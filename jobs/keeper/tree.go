package keeper

import (
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"jobtop/jobs/proc"
)

// tree is one look at the keeper's descendants, sorted by run.
type tree struct {
	members map[*run][]proc.Proc
	// endedRuns are descendants of runs that ended: found after their
	// run was seen empty (a process that forks and exits again and again
	// can slip past one look). They are killed.
	endedRuns []proc.Proc
	// strays are descendants of no known run: processes that left a
	// run's session and cleared their environment.
	strays []proc.Proc
	all    []proc.Proc
	// unsure counts the strays that may be a run's: what their
	// environment says is not known yet (runByEnv). What the look says
	// of runs may be short of them.
	unsure int
}

// endedRun stands for any run that has ended, in attributions.
var endedRun = &run{}

// scan reads the process table once and sorts every live descendant of
// the keeper by the run it belongs to. Each child of the keeper is a run's
// main process or was adopted (its parent died); everything below a child
// belongs to the child's run.
func (k *keeper) scan() tree {
	t := tree{members: make(map[*run][]proc.Proc)}
	procs := k.table.read()
	kids := proc.Children(procs)
	l := &look{
		seen:    make(map[procKey]*run, len(k.seen)),
		doubted: make(map[procKey]time.Time, len(k.doubted)),
		now:     time.Now(),
	}
	for _, i := range kids[k.pid] {
		root := procs[i]
		if root.Zombie {
			continue
		}
		r := k.attribute(root, l)
		for _, j := range append([]int{i}, proc.Descendants(procs, kids, root.PID)...) {
			p := procs[j]
			if p.Zombie {
				continue
			}
			t.all = append(t.all, p)
			switch r {
			case nil:
				t.strays = append(t.strays, p)
			case endedRun:
				t.endedRuns = append(t.endedRuns, p)
			default:
				t.members[r] = append(t.members[r], p)
			}
		}
	}
	if !k.subreaper {
		k.adopt(procs, kids, l, &t)
	}
	k.seen, k.doubted, t.unsure = l.seen, l.doubted, l.unsure
	return t
}

// scanSettled is scan, looked again (for at most signalPatience) while
// some process cannot be attributed yet (runByEnv): a stop's signals
// reach it.
// (One that still is after it gets the SIGKILL that ends the grace.)
func (k *keeper) scanSettled() tree {
	t := k.scan()
	for deadline := time.Now().Add(signalPatience); t.unsure > 0 && time.Now().Before(deadline); {
		time.Sleep(settleDelay)
		t = k.scan()
	}
	return t
}

// execPatience is how long a process that shows no environment is taken
// to be half way through an exec (the kernel shows its new environment
// only once the new program is loaded; on a loaded machine the exec can
// be held up a while). Past it, the process was started with none.
const execPatience = 250 * time.Millisecond

// recheckAfter is how long after a first read of a keeper's child's
// environment without JOBTOP_RUN a second one is taken as the answer.
const recheckAfter = 10 * time.Millisecond

// signalPatience is how long a stop or kill waits for an unsure process
// to be known before it signals: less, since it holds the keeper up.
const signalPatience = 50 * time.Millisecond

// look is what one scan learns as it attributes processes, for the next.
type look struct {
	// seen is which run each process was found to belong to.
	seen map[procKey]*run
	// doubted is since when each process not yet attributed has shown
	// no JOBTOP_RUN (runByEnv).
	doubted map[procKey]time.Time
	// unsure counts the processes it could not attribute yet.
	unsure int
	now    time.Time
}

// adopt adds to t, where there is no subreaper, the processes of runs
// that left the keeper's tree (their parent died and init took them): a
// process in a live run's session, or whose environment names a run of
// this keeper, with everything below it. What is neither is left alone:
// it is not the keeper's to stop. Nor is a session of a run that ended
// trusted here, since outside the keeper's tree its ID may have been
// reused by anyone.
func (k *keeper) adopt(procs []proc.Proc, kids map[int][]int, l *look, t *tree) {
	counted := make(map[int]bool, len(t.all))
	for _, p := range t.all {
		counted[p.PID] = true
	}
	counted[k.pid] = true
	for i, root := range procs {
		if counted[root.PID] || root.Zombie {
			continue
		}
		r := k.attributeOutside(root, l)
		if r == nil {
			continue
		}
		for _, j := range append([]int{i}, proc.Descendants(procs, kids, root.PID)...) {
			p := procs[j]
			if counted[p.PID] || p.Zombie {
				continue
			}
			counted[p.PID] = true
			t.all = append(t.all, p)
			if r == endedRun {
				t.endedRuns = append(t.endedRuns, p)
			} else {
				t.members[r] = append(t.members[r], p)
			}
		}
	}
}

// runByEnv is the run a process's JOBTOP_RUN names, if it is one of this
// keeper's: endedRun for a run that has ended, nil for none. sure is
// false while what it names is not known yet: the process shows no
// environment and may be half way through an exec (for execPatience), or
// the variable was not found and recheck has not passed since (for a
// child of the keeper: a wrong "none" leaves a job's process running, so
// it takes two reads apart).
func (k *keeper) runByEnv(p proc.Proc, l *look, recheck time.Duration) (r *run, sure bool) {
	v, ok, err := proc.LookupEnv(p.PID, EnvRun)
	if !ok {
		wait := recheck
		if err == proc.ErrNoEnv {
			wait = execPatience
		}
		key := procKey{p.PID, p.Start}
		since, known := k.doubted[key]
		if !known {
			since = l.now
		}
		if l.now.Sub(since) < wait {
			l.doubted[key] = since
			l.unsure++
			return nil, false
		}
		return nil, true
	}
	tok, id, ok := parseRunEnv(v)
	if !ok || tok != k.token {
		return nil, true
	}
	if r := k.runs[id]; r != nil {
		return r, true
	}
	if k.ended.runs[id] {
		return endedRun, true
	}
	return nil, true
}

// runByCgroup is the run whose cgroup p is in (endedRun for a run that
// has ended), nil for none or where runs have no cgroups: nothing a
// process does to its session, environment or output takes it out of
// its cgroup.
func (k *keeper) runByCgroup(p proc.Proc) *run {
	if k.cg == nil {
		return nil
	}
	id, ok := k.cg.runOf(p.PID)
	if !ok {
		return nil
	}
	if r := k.runs[id]; r != nil {
		return r
	}
	return endedRun
}

// runByOutput is the run whose stdout or stderr p's stdout or stderr is
// (endedRun for a run that has ended, nil for none): a process that left
// its run's session and cleared its environment, as a daemon can, still
// writes to its run's output unless it closed it.
func (k *keeper) runByOutput(p proc.Proc) *run {
	if len(k.byOutput) == 0 && len(k.ended.outputs) == 0 {
		return nil
	}
	for _, f := range proc.OutputFiles(p.PID) {
		if r := k.byOutput[f]; r != nil {
			return r
		}
		if k.ended.outputs[f] {
			return endedRun
		}
	}
	return nil
}

// outputsOf is what runByOutput knows a run by: its stdout and stderr
// (the fds it was started with), those that are a pipe or terminal, which
// jobtop makes for each run alone.
func outputsOf(fds []int) []proc.FileID {
	var out []proc.FileID
	for _, fd := range fds {
		if f, stream, err := proc.FileOf(fd); err == nil && stream && (len(out) == 0 || out[0] != f) {
			out = append(out, f)
		}
	}
	return out
}

// attributeOutside is attribute for a process outside the keeper's tree:
// by a live run's session (its ID cannot be reused while the session has
// members), else by its environment.
func (k *keeper) attributeOutside(p proc.Proc, l *look) *run {
	if r := k.bySID[p.SID]; r != nil {
		return r
	}
	key := procKey{p.PID, p.Start}
	r, known := k.seen[key]
	if !known {
		var sure bool
		if r, sure = k.runByEnv(p, l, 0); !sure {
			return nil
		}
	}
	if r != nil && r != endedRun && k.runs[r.id] != r {
		r = endedRun // its run has ended since
	}
	l.seen[key] = r
	return r
}

// attribute finds the run a child of the keeper belongs to: its main
// process, else the run whose session it is in, else the run whose
// cgroup it is in or whose output it writes to, else the run its
// environment names; endedRun for a run that has ended, nil for none.
// l collects the answers for the next scan. A process that cannot be
// attributed yet (runByEnv) counts as no run's for this scan.
func (k *keeper) attribute(p proc.Proc, l *look) *run {
	if r := k.byPID[p.PID]; r != nil && r.start == p.Start {
		return r
	}
	if r := k.bySID[p.SID]; r != nil {
		return r
	}
	key := procKey{p.PID, p.Start}
	r, known := k.seen[key]
	if !known {
		// By its cgroup or output first: those answers are at hand at
		// once, where a process half way through an exec shows no
		// environment yet.
		if r = k.runByCgroup(p); r == nil {
			r = k.runByOutput(p)
		}
		if r == nil {
			var sure bool
			if r, sure = k.runByEnv(p, l, recheckAfter); !sure {
				return nil
			}
		}
		// The session of a run that ended, last: a process whose
		// environment or output names its run is that run's, even in a
		// session whose ID was reused.
		if r == nil && k.ended.session(p) {
			r = endedRun
		}
	}
	if r != nil && r != endedRun && k.runs[r.id] != r {
		r = endedRun // its run has ended since
	}
	l.seen[key] = r
	return r
}

func signalAll(ps []proc.Proc, sig syscall.Signal) {
	for _, p := range ps {
		signalProc(p, sig)
	}
}

// signalProc signals the process p names, and never another: it opens a
// pidfd and checks the start time through it first, so a PID reused since
// the scan is left alone.
func signalProc(p proc.Proc, sig syscall.Signal) {
	fd, _, ok := openChecked(p, sig)
	if !ok {
		return
	}
	defer unix.Close(fd)
	pidfdSignal(fd, sig) //nolint:errcheck // it may have exited
}

// openChecked opens a pidfd on p and reads p afresh through its PID,
// checking it is still p (same start time): ok is false, and nothing is
// open, when it is gone or its PID was reused. Without pidfds (ENOSYS) it
// signals p the old way (signalWithoutPidfd) and says not ok.
func openChecked(p proc.Proc, sig syscall.Signal) (fd int, now proc.Proc, ok bool) {
	fd, err := pidfdOpen(p.PID)
	if err != nil {
		if err == unix.ENOSYS {
			signalWithoutPidfd(p, sig)
		}
		return -1, proc.Proc{}, false
	}
	if now, err = proc.Get(p.PID); err != nil || now.Start != p.Start {
		unix.Close(fd)
		return -1, proc.Proc{}, false
	}
	return fd, now, true
}

// signalWithoutPidfd is for kernels before 5.3 and systems without
// pidfds (macOS, the BSDs): the start time is checked
// just before the signal, which narrows the PID-reuse window to a few
// microseconds instead of closing it.
func signalWithoutPidfd(p proc.Proc, sig syscall.Signal) {
	if now, err := proc.Get(p.PID); err == nil && now.Start == p.Start {
		syscall.Kill(p.PID, sig) //nolint:errcheck // it may have exited
	}
}

// cacheMaxAge is how old what the process table said of a process may be
// before it is read again.
const cacheMaxAge = time.Second

// procCache is the process table as last read. Each look lists the
// processes (one read of a directory) but reads a process's own entry
// only when it is new, when its PID is another process's now (its
// generation changed, proc.Entry), when its parent has gone or is another
// (it was re-parented), or when what was read is older than cacheMaxAge:
// with thousands of processes, most looks read few. What is signalled is
// checked afresh (signalProc), so a stale entry never misdirects a
// signal; but a PID reused within cacheMaxAge would hide the new process
// behind the old one's entry where the system gives no generation.
type procCache struct {
	byPID map[int]cachedProc
}

type cachedProc struct {
	p    proc.Proc
	gen  uint64 // the process's generation when it was read
	pgen uint64 // its parent's
	read time.Time
}

func newProcCache() procCache { return procCache{byPID: make(map[int]cachedProc)} }

// read is the process table now.
func (c *procCache) read() []proc.Proc {
	es, err := proc.Entries()
	if err != nil {
		return nil
	}
	now := time.Now()
	gen := make(map[int]uint64, len(es))
	for _, e := range es {
		gen[e.PID] = e.Gen
	}
	next := make(map[int]cachedProc, len(es))
	out := make([]proc.Proc, 0, len(es))
	for _, en := range es {
		e, ok := c.byPID[en.PID]
		if !ok || e.p.Zombie || now.Sub(e.read) > cacheMaxAge || e.gen != en.Gen || !sameParent(e, gen) {
			p, err := proc.Get(en.PID)
			if err != nil {
				continue
			}
			e = cachedProc{p: p, gen: en.Gen, pgen: gen[p.PPID], read: now}
		}
		next[en.PID] = e
		out = append(out, e.p)
	}
	c.byPID = next
	return out
}

// sameParent reports whether e's parent is still the process it was.
func sameParent(e cachedProc, gen map[int]uint64) bool {
	if e.p.PPID == 0 {
		return true
	}
	g, ok := gen[e.p.PPID]
	return ok && g == e.pgen
}

// The keeper remembers the newest maxEnded runs that ended, for
// endedMemory: long enough for anything that slipped past a look to be
// found, short enough that a session ID is not reused meanwhile.
const (
	maxEnded    = 4096
	endedMemory = 10 * time.Minute
)

// endedRuns are the runs that ended: their IDs, sessions (a session's
// ID is its run's main PID, with that process's start time) and outputs.
type endedRuns struct {
	runs     map[RunID]bool
	sessions map[int]uint64
	outputs  map[proc.FileID]bool
	order    []endedAt
}

type endedAt struct {
	r  *run
	at time.Time
}

func newEndedRuns() endedRuns {
	return endedRuns{runs: make(map[RunID]bool), sessions: make(map[int]uint64), outputs: make(map[proc.FileID]bool)}
}

func (e *endedRuns) add(r *run) {
	e.forget(time.Now())
	if len(e.order) == maxEnded {
		e.drop()
	}
	e.order = append(e.order, endedAt{r, time.Now()})
	e.runs[r.id] = true
	e.sessions[r.pid] = r.start
	if !r.tty { // a pipe's inode is not reused for a long time
		for _, f := range r.outputs {
			e.outputs[f] = true
		}
	}
}

// forget drops what ended more than endedMemory ago.
func (e *endedRuns) forget(now time.Time) {
	for len(e.order) > 0 && now.Sub(e.order[0].at) > endedMemory {
		e.drop()
	}
}

func (e *endedRuns) drop() {
	old := e.order[0].r
	e.order = e.order[1:]
	delete(e.runs, old.id)
	if e.sessions[old.pid] == old.start {
		delete(e.sessions, old.pid)
	}
	if !old.tty {
		for _, f := range old.outputs {
			delete(e.outputs, f)
		}
	}
}

// session reports whether p is in the session of a run that ended.
func (e *endedRuns) session(p proc.Proc) bool {
	start, ok := e.sessions[p.SID]
	return ok && p.Start >= start
}
