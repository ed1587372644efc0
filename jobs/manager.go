package jobs

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"jobtop/jobs/keeper"
	"jobtop/vtscreen"
)

// Options configure a Manager. Zero fields take defaults.
type Options struct {
	// MaxRunning caps jobs with a live process; past it new jobs wait
	// queued and start in order as slots free. 0 means no limit.
	MaxRunning int
	// StateDir holds log files (under logs/<session>/); default
	// DefaultStateDir().
	StateDir string
	// LogDir, when set, is used for log files as is instead of a new
	// session directory under StateDir.
	LogDir string
	// LogCap bounds each job's log file (default 1 GiB); it rotates there,
	// so a job's log takes at most twice this.
	LogCap int64
	// Sessions bounds the session directories kept under StateDir/logs,
	// pruned when a manager makes its own.
	Sessions Retention
	// KeepFinished is how many finished jobs are kept (default
	// DefaultKeepFinished; negative: no limit); past it the oldest go.
	KeepFinished int
	// Store bounds each job's in-memory output.
	Store StoreOptions
	// Env is added to every job's environment (e.g. JOBTOP_SOCKET).
	Env map[string]string
	// FrameInterval is the shortest time between event batches to one
	// subscriber (default 1/60 s).
	FrameInterval time.Duration
	// SampleInterval is how often CPU and memory of running jobs are
	// sampled (default DefaultSampleInterval); negative turns it off.
	SampleInterval time.Duration
	// RecordPath, when set, names a file where the manager records its
	// keeper and the main processes of its runs, so that if jobtop and
	// its keeper both die, StopLeftovers can stop what they left.
	RecordPath string
	// IDPath, when set, names a file where managers that follow one
	// another keep the highest job ID one of them took (idmark.go): this
	// one numbers its jobs after it, so an ID never names two jobs of
	// managers on the same file (jobtop keeps one per socket). Unset,
	// IDs start at 1.
	IDPath string
	// Emulator makes the terminal emulator a TTY run draws on while it is
	// in screen mode (a full-screen program). Without one, TTY runs stay
	// in line mode and Screen shows their newest lines. jobtop passes
	// vtfast.New; the engine imports no emulator of its own.
	Emulator func(cols, rows int) Emulator
}

// Emulator is a terminal of a fixed size that a run's output draws on in
// screen mode. One goroutine writes while others take Snapshots and
// resize it.
type Emulator interface {
	// Write draws p; escape sequences split across calls are joined.
	Write(p []byte)
	// Resize changes the terminal's size.
	Resize(cols, rows int)
	// Snapshot returns the current frame.
	Snapshot() vtscreen.Snapshot
	// SetReply sets where answers to the program's queries (cursor
	// position, device attributes) go.
	SetReply(f func([]byte))
	// Close releases what the emulator holds; it is not written after.
	Close()
}

// ErrShutdown is returned for actions on a Manager that was shut down.
var ErrShutdown = errors.New("jobtop is shutting down")

// Manager runs jobs. All its methods are safe for concurrent use.
type Manager struct {
	opts     Options
	logDir   string
	logLocks logDirLocks // held while the manager runs: the log directory is in use
	hub      hub
	paths    pathCache // where programs run directly were found in PATH

	mu     sync.Mutex
	jobs   map[ID]*job
	order  []ID
	lastID atomic.Int64 // IDs are taken without the lock
	queue  []*job       // queued jobs, in start order
	active int          // jobs holding a slot (running or stopping)
	closed bool
	// ending: jobtop is ending (Ending, Shutdown); what is stopped now
	// is stopped by that.
	ending bool

	// names, runAfter and finished index the jobs (index.go,
	// retention.go): what a start or an end looks up costs the same
	// beside any number of jobs kept.
	names    nameIndex
	runAfter map[ID]map[*job]struct{} // the jobs that run after each (Spec.After)
	finished finishedJobs

	// ids is where IDs are marked taken (Options.IDPath; nil without);
	// firstID is the first ID this manager gives: one below it was given
	// by an earlier manager on the same mark.
	ids     *idMark
	firstID ID

	// maxRunning caps active; 0: no limit. Options.MaxRunning at first,
	// SetMaxRunning after.
	maxRunning int
	// limit is maxRunning for MaxRunning, which reads it without the
	// lock (GET /v1/instance answers at once while the manager is busy).
	limit atomic.Int64
	// limitChanged is closed when maxRunning next changes, then replaced.
	limitChanged chan struct{}

	runs    sync.WaitGroup // one per live run, done when it is reaped
	byRun   map[keeper.RunID]*job
	removed removedLogs                        // log files of removed jobs (retention.go)
	ends    removedEnds                        // how removed jobs ended, for Wait
	aux     map[keeper.RunID]chan keeper.Event // commands beside jobs (aux.go)
	nextRun keeper.RunID
	// launchHere is the job whose run's launch the Start adding it makes
	// itself, while that Start queues it (launchLocked); nil otherwise.
	launchHere *job

	// The keeper process that starts and watches every run; started on
	// first use. keeperMu serialises starting and closing it.
	keeperMu     sync.Mutex
	keeper       atomic.Pointer[keeper.Client]
	keeperID     keeper.Identity
	cgroupWarned bool // a keeper's CgroupWarning was printed
	keeperClosed bool
	recordMu     sync.Mutex
	recordTimer  *time.Timer
	// recordWriteMu lets one write of the record at a time: each writes
	// the same file before it takes the record's name.
	recordWriteMu sync.Mutex

	arrival atomic.Uint64 // clock of every job's store: Line.Arrival
	ingest  chan struct{} // at most ingestSlots() readers store output at once
	// launching holds a token for each launch making its files and
	// spawning (at most maxLaunching: see spawnRun).
	launching chan struct{}
	hold      outputHold // readers wait while a frame for a person is drawn (hold.go)

	stopSampler chan struct{}
	samplerOnce sync.Once // closes stopSampler
	samplerDone chan struct{}
}

// NewManager makes a Manager and its log directory.
func NewManager(opts Options) (*Manager, error) {
	if opts.LogCap <= 0 {
		opts.LogCap = DefaultLogCap
	}
	if opts.FrameInterval <= 0 {
		opts.FrameInterval = DefaultFrameInterval
	}
	if opts.MaxRunning < 0 {
		return nil, fmt.Errorf("max running %d is negative", opts.MaxRunning)
	}
	var ids *idMark
	if opts.IDPath != "" {
		var err error
		if ids, err = openIDMark(opts.IDPath); err != nil {
			return nil, err
		}
	}
	logDir, logLocks, err := openLogDir(opts)
	if err != nil {
		return nil, err
	}
	m := &Manager{ids: ids, firstID: 1, opts: opts, logDir: logDir, logLocks: logLocks, jobs: make(map[ID]*job), runAfter: make(map[ID]map[*job]struct{}), byRun: make(map[keeper.RunID]*job), aux: make(map[keeper.RunID]chan keeper.Event),
		ingest: make(chan struct{}, ingestSlots()), launching: make(chan struct{}, maxLaunching),
		maxRunning: opts.MaxRunning, limitChanged: make(chan struct{})}
	m.limit.Store(int64(opts.MaxRunning))
	if ids != nil {
		// (its first block is taken: after the last ID taken before)
		m.firstID = ID(ids.start)
		m.lastID.Store(ids.start - 1)
	}
	if opts.SampleInterval == 0 {
		opts.SampleInterval = DefaultSampleInterval
	}
	if opts.SampleInterval > 0 {
		m.stopSampler, m.samplerDone = make(chan struct{}), make(chan struct{})
		go m.sampler(opts.SampleInterval, m.stopSampler)
	}
	return m, nil
}

// FirstID is the first job ID this manager gives: 1, or, with
// Options.IDPath, the one after the last an earlier manager took.
func (m *Manager) FirstID() ID { return m.firstID }

// notFound is the error for an ID no job has: one below FirstID was
// given by an earlier manager, which the error says.
func (m *Manager) notFound(id ID) error {
	e := &NotFoundError{ID: id}
	if id > 0 && id < m.firstID {
		e.First = m.firstID
	}
	return e
}

// LogDir is where this manager writes job log files.
func (m *Manager) LogDir() string { return m.logDir }

// Start validates spec, creates a job and starts it, or queues it when the
// concurrency limit is reached. A spec without a name gets its program's
// base name, made unique with -2, -3... A job that cannot be started (missing
// directory, unknown program) is still created, in state "error", with
// the reason in Info.Error; err is only for an invalid spec.
func (m *Manager) Start(spec Spec) (Info, error) { return m.add(spec, startNow) }

// StartSoon is Start without waiting for the job's process to start: the
// Info it returns is the queued job's, with no PID yet. A caller that
// starts many jobs and needs only their IDs (a job file's start) lets
// their launches overlap, rather than wait out one keeper round trip
// after another.
func (m *Manager) StartSoon(spec Spec) (Info, error) { return m.add(spec, startSoon) }

// Add creates a job without starting it: it stays "created" until Restart
// starts it.
func (m *Manager) Add(spec Spec) (Info, error) { return m.add(spec, startNot) }

// How add starts the job it adds.
type startMode int

const (
	startNot  startMode = iota // created, not started
	startNow                   // started, its launch waited for
	startSoon                  // started, its launch not waited for
)

func (m *Manager) add(spec Spec, start startMode) (Info, error) {
	if err := spec.Validate(); err != nil {
		return Info{}, err
	}
	if err := spec.CheckSelfDependency(); err != nil {
		return Info{}, err
	}
	if err := m.checkAfter(spec.After); err != nil {
		return Info{}, err
	}
	spec = spec.withDefaults()
	// The log file is made while the job's process starts (a file can
	// take a while to create); nothing waits for it under the lock, so a
	// disk that does not answer holds up only this log. Start and Add
	// return once it is made. A job whose file cannot be made still has
	// its output in the store.
	id := ID(m.lastID.Add(1))
	if m.ids != nil {
		m.ids.cover(id)
	}
	log := openLogFileSoon(filepath.Join(m.logDir, id.String()+".log"), m.opts.LogCap)
	j := &job{
		id:      id,
		spec:    spec,
		store:   m.newStore(),
		log:     log,
		settled: make(chan struct{}),
		state:   StateQueued,
	}
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		log.discard()
		return Info{}, ErrShutdown
	}
	defer m.mu.Unlock()
	j.named = j.spec.Name != ""
	if !j.named {
		j.spec.Name = m.uniqueNameLocked(defaultName(spec))
	}
	m.jobs[id] = j
	m.indexLocked(j)
	// Jobs added at once may arrive here out of ID order.
	at, _ := slices.BinarySearch(m.order, id)
	m.order = slices.Insert(m.order, at, id)
	m.hub.publish(id, EventAdded, Info{})
	switch start {
	case startNow:
		m.launchLocked(j)
		m.awaitLogLocked(j)
	case startSoon:
		m.enqueueLocked(j)
	default:
		j.state = StateCreated
		j.log.Park()
		m.changedLocked(j)
		m.awaitLogLocked(j)
	}
	return m.infoLocked(j), nil
}

// checkAfter refuses a job to run after a job that does not exist. One
// removed between this check and the job's start fails the job instead
// (afterLocked).
func (m *Manager) checkAfter(ids []ID) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, id := range ids {
		if m.jobs[id] == nil {
			return fmt.Errorf("after: %w", m.notFound(id))
		}
	}
	return nil
}

// Describe gives a job a new description (Spec.Description), as a
// reload that changes only that does: text for people, so nothing is
// restarted.
func (m *Manager) Describe(id ID, description string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	j, ok := m.jobs[id]
	if !ok {
		return m.notFound(id)
	}
	j.spec.Description = description
	m.changedLocked(j)
	return nil
}

// MaxRunning is the limit on jobs running at once; 0: no limit.
func (m *Manager) MaxRunning() int { return int(m.limit.Load()) }

// SetMaxRunning changes the limit on jobs running at once (0: no limit),
// as pueue's parallel does: a higher limit starts queued jobs at once, in
// queue order; a lower one stops nothing (the jobs running finish, and
// new ones wait until fewer than n run).
func (m *Manager) SetMaxRunning(n int) error {
	if n < 0 {
		return fmt.Errorf("max running %d is negative", n)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if n != m.maxRunning {
		close(m.limitChanged)
		m.limitChanged = make(chan struct{})
	}
	m.maxRunning = n
	m.limit.Store(int64(n))
	m.scheduleLocked()
	return nil
}

// MaxRunningChanged is closed the next time the limit on jobs running at
// once changes (ask again for the time after): a TUI showing the limit
// redraws it then, whoever changed it.
func (m *Manager) MaxRunningChanged() <-chan struct{} {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.limitChanged
}

// awaitLogLocked waits, without the lock, until the job's log file is
// made (or could not be).
func (m *Manager) awaitLogLocked(j *job) {
	select {
	case <-j.log.opened:
	default:
		m.mu.Unlock()
		<-j.log.opened
		m.mu.Lock()
	}
}

// Replace gives a job a new spec. A running or queued job restarts with it
// (with the grace rules); an ended one uses it when next started.
func (m *Manager) Replace(id ID, spec Spec) (Info, error) { return m.replace(id, spec, true) }

// SetSpec gives a job a new spec for its next start, and restarts
// nothing: a run in progress (one being stopped, say) goes on as it
// started. A queued job waits under the new spec.
func (m *Manager) SetSpec(id ID, spec Spec) (Info, error) { return m.replace(id, spec, false) }

// ReplaceQueued gives a job that waits to start and has never run a new
// spec, in its place in the queue (an empty Name keeps its name), as
// pueue's edit does: what it was to run never runs. A job that has
// started (or ended, or was started since it was looked at) is refused
// with an InvalidActionError: its edit is a new job.
func (m *Manager) ReplaceQueued(id ID, spec Spec) (Info, error) {
	return m.replaceIf(id, spec, false, func(j *job) error {
		if j.state != StateQueued || j.runs > 0 {
			return &InvalidActionError{ID: id, State: j.state, Action: "edit", Why: "it has started"}
		}
		return nil
	})
}

func (m *Manager) replace(id ID, spec Spec, restartActive bool) (Info, error) {
	return m.replaceIf(id, spec, restartActive, nil)
}

// replaceIf is replace when check, if given, finds nothing against it
// under the lock.
func (m *Manager) replaceIf(id ID, spec Spec, restartActive bool, check func(*job) error) (Info, error) {
	if err := spec.Validate(); err != nil {
		return Info{}, err
	}
	m.mu.Lock()
	j, ok := m.jobs[id]
	if !ok {
		m.mu.Unlock()
		return Info{}, m.notFound(id)
	}
	if check != nil {
		if err := check(j); err != nil {
			m.mu.Unlock()
			return Info{}, err
		}
	}
	if spec.Name == "" {
		spec.Name = j.spec.Name
	} else {
		j.named = true
	}
	m.unindexLocked(j)
	j.spec = spec.withDefaults()
	m.indexLocked(j)
	restart := restartActive && j.state.Active()
	if j.state == StateQueued {
		// It waits under its new spec: what its dependencies now ask is
		// judged at once (met, it starts; failed, it fails).
		j.metDeps = nil
		m.scheduleLocked()
	}
	info := m.infoLocked(j)
	m.hub.publish(id, EventState, Info{})
	m.mu.Unlock()
	if restart {
		return m.Restart(id)
	}
	return info, nil
}

func (m *Manager) newStore() *OutputStore {
	s := NewOutputStore(m.opts.Store)
	s.clock = &m.arrival
	return s
}

// List returns every job in the order they were created.
func (m *Manager) List() []Info {
	m.mu.Lock()
	out := make([]Info, len(m.order))
	js := make([]*job, len(m.order))
	for i, id := range m.order {
		js[i] = m.jobs[id]
		out[i] = js[i].stateLocked()
		out[i].ShuttingDown = m.closed
	}
	m.mu.Unlock()
	for i, j := range js {
		j.addOutputStats(&out[i])
	}
	return out
}

// Get returns one job.
func (m *Manager) Get(id ID) (Info, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	j, ok := m.jobs[id]
	if !ok {
		return Info{}, m.notFound(id)
	}
	return m.infoLocked(j), nil
}

// Lookup finds the newest job named name, as a name given for a job
// means (the CLI, the API), in time that does not grow with the jobs.
func (m *Manager) Lookup(name string) (ID, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if j := m.findByNameLocked(name, nil); j != nil {
		return j.id, true
	}
	return 0, false
}

// Output returns the job's output store, for cursor reads.
func (m *Manager) Output(id ID) (OutputReader, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	j, ok := m.jobs[id]
	if !ok {
		return nil, m.notFound(id)
	}
	return j.store, nil
}

// Subscribe starts a subscription to job events. Close it when done.
func (m *Manager) Subscribe() EventStream {
	return m.hub.subscribe(m.opts.FrameInterval, func(id ID) (Info, bool) {
		m.mu.Lock()
		defer m.mu.Unlock()
		j, ok := m.jobs[id]
		if !ok {
			return Info{}, false
		}
		return m.infoLocked(j), true
	})
}

// Stop ends a job gracefully: its stop signal to the whole process group,
// then SIGKILL after the grace period. It returns once the signal is sent;
// use Wait for the end. A queued job is taken off the queue.
func (m *Manager) Stop(id ID) error { return m.end([]ID{id}, reqStop, "stop", 0)[0] }

// StopWith stops a job as Stop does, with sig in place of its stop
// signal (and of its stop command) for this stop only: a SIGINT for a
// Python job whose spec says SIGTERM, so its KeyboardInterrupt handler
// runs. 0 is its own stop signal.
func (m *Manager) StopWith(id ID, sig Signal) error {
	return m.end([]ID{id}, reqStop, "stop", sig)[0]
}

// StopToRemove stops the job as Stop does, for by (see Info.Removing)
// to remove it once it has ended: whoever waits for its end learns why
// it ended. A job that has ended already is only marked, and is no
// error.
func (m *Manager) StopToRemove(id ID, by string) error {
	m.mu.Lock()
	if j, ok := m.jobs[id]; ok {
		j.removing = by
	}
	m.mu.Unlock()
	var invalid *InvalidActionError
	if err := m.Stop(id); err != nil && !errors.As(err, &invalid) {
		return err
	}
	return nil
}

// Kill sends SIGKILL to the job's whole process group now.
func (m *Manager) Kill(id ID) error { return m.end([]ID{id}, reqKill, "kill", 0)[0] }

// SignalJobs sends sig to every process of each job's run, as a stop's
// signal goes to them, and does nothing else: no grace, no SIGKILL, no
// change of state (pueue's kill -s, overmind's kill; SIGSTOP and SIGCONT
// pause and resume a job, as pueue's pause and start). It returns each
// job's error (nil, NotFoundError, or InvalidActionError for a job with
// no process to signal: queued, starting, ended) in the order of ids. A
// run a signal sent so ends is not killed from outside jobtop.
func (m *Manager) SignalJobs(ids []ID, sig Signal) []error {
	errs := make([]error, len(ids))
	if sig <= 0 || sig > 64 {
		for i := range errs {
			errs[i] = fmt.Errorf("signal %d is out of range 1-64", int(sig))
		}
		return errs
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	for i, id := range ids {
		j, ok := m.jobs[id]
		switch {
		case !ok:
			errs[i] = m.notFound(id)
		case j.proc == nil || !j.proc.spawned || j.proc.empty || !j.state.Active():
			errs[i] = &InvalidActionError{ID: id, State: j.state, Action: "signal"}
		default:
			j.signalled |= 1 << (uint(sig) - 1)
			m.signalLocked(j.proc, sig.sys())
		}
	}
	return errs
}

// StopJobs stops several jobs as one action, each as Stop does, and
// returns each one's error (nil, NotFoundError, InvalidActionError) in
// the order of ids. What the end of one lets start (a job whose restart
// is cancelled has completed, for what depends on it) is started once
// all are stopped: a job stopped by the same action is not among it.
func (m *Manager) StopJobs(ids []ID) []error { return m.end(ids, reqStop, "stop", 0) }

// StopJobsWith stops several jobs as StopJobs does, each as StopWith
// does.
func (m *Manager) StopJobsWith(ids []ID, sig Signal) []error { return m.end(ids, reqStop, "stop", sig) }

// KillJobs kills several jobs as one action, as StopJobs stops them.
func (m *Manager) KillJobs(ids []ID) []error { return m.end(ids, reqKill, "kill", 0) }

// end ends the jobs; sig, when not 0, is a stop's signal in place of each
// run's own.
func (m *Manager) end(ids []ID, req endRequest, action string, sig Signal) []error {
	m.mu.Lock()
	defer m.mu.Unlock()
	errs := make([]error, len(ids))
	settle := false
	for i, id := range ids {
		if j, ok := m.jobs[id]; ok && j.proc != nil && sig != 0 {
			j.proc.stopWith = sig
		}
		var settles bool
		settles, errs[i] = m.endLocked(id, req, action)
		settle = settle || settles
	}
	if settle {
		m.scheduleLocked()
	}
	return errs
}

// endLocked ends one job, or says why not. settle says that what waits
// for the job can be settled now (scheduleLocked): it ended without a run
// to wait for.
func (m *Manager) endLocked(id ID, req endRequest, action string) (settle bool, err error) {
	j, ok := m.jobs[id]
	if !ok {
		return false, m.notFound(id)
	}
	if m.ending && (j.proc != nil || j.state == StateQueued || j.state.Active() || j.restartTimer != nil) {
		j.shutDown = true // stopped because jobtop is ending (Ending)
	}
	j.restartPending = false
	switch {
	case j.proc != nil && !j.proc.spawned:
		m.endRunLocked(j, req) // carried out once it has started
	case j.state == StateQueued:
		m.dequeueLocked(j)
		m.finishWithoutRunLocked(j, StateKilled, "stopped before it started")
		return true, nil // what waits for it to complete (or succeed) is settled
	case j.state.Active():
		m.endRunLocked(j, req)
	case j.restartTimer != nil:
		j.cancelRestartTimerLocked()
		j.reason = "restart cancelled"
		m.changedLocked(j)
		return true, nil // no restart is coming: it is over for its dependants
	default:
		return false, &InvalidActionError{ID: id, State: j.state, Action: action}
	}
	return false, nil
}

// Restart stops the job if it is running (with the grace rules) and starts
// a new run of the same spec under the same ID. A finished job is started
// again at once (or queued).
func (m *Manager) Restart(id ID) (Info, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	j, ok := m.jobs[id]
	if !ok {
		return Info{}, m.notFound(id)
	}
	if m.closed {
		return Info{}, ErrShutdown
	}
	switch {
	case j.proc != nil: // running, stopping, or starting
		j.restartPending = true
		m.endRunLocked(j, reqStop)
	case j.state == StateQueued:
	default:
		j.cancelRestartTimerLocked()
		j.autoRestarts = 0
		m.enqueueLocked(j)
		m.awaitLaunchLocked(j)
	}
	return m.infoLocked(j), nil
}

// Remove forgets a finished job. Its log file stays on disk.
func (m *Manager) Remove(id ID) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	j, ok := m.jobs[id]
	if !ok {
		return m.notFound(id)
	}
	if !j.state.Done() {
		return &InvalidActionError{ID: id, State: j.state, Action: "remove"}
	}
	if j.restartPending || j.restartTimer != nil {
		return &InvalidActionError{ID: id, State: j.state, Action: "remove", Why: RefusedWaitingToRestart}
	}
	m.removeLocked(j, false)
	m.scheduleLocked() // what waited for it (never started) can no longer start
	return nil
}

// stopInDependencyOrder stops live jobs in waves, dependants before what
// they depend on, each wave with the grace rules. It returns ctx's error
// if ctx ends first.
func (m *Manager) stopInDependencyOrder(ctx context.Context) error {
	for {
		m.mu.Lock()
		wave := m.stopWaveLocked()
		chans := make([]chan struct{}, 0, len(wave))
		for _, j := range wave {
			j.shutDown = true
			m.endRunLocked(j, reqStop)
			chans = append(chans, j.settled)
		}
		m.mu.Unlock()
		if len(wave) == 0 {
			return nil
		}
		for _, ch := range chans {
			select {
			case <-ch:
			case <-ctx.Done():
				return ctx.Err()
			}
		}
	}
}

// Wait blocks until the job has ended (and no restart is pending) or ctx is
// done, and returns its final snapshot. A job removed once it ended (a
// reload removing it wakes its waiters and removes it at once) is still
// answered with how it ended: the waiter holds it, not its ID; and so is
// one removed before the wait began, of the last keptRemovedEnds removed
// (removedEnds): how it ended and where its output is.
func (m *Manager) Wait(ctx context.Context, id ID) (Info, error) {
	m.mu.Lock()
	j, ok := m.jobs[id]
	if !ok {
		info, ended := m.ends.get(id)
		m.mu.Unlock()
		if ended { // removed once it ended: by retention, rm, a reload
			return info, nil
		}
		return Info{}, m.notFound(id)
	}
	for {
		info := m.infoLocked(j)
		if m.settledLocked(j) || m.jobs[id] != j {
			m.mu.Unlock()
			return info, nil
		}
		ch := j.settled
		m.mu.Unlock()
		select {
		case <-ch:
		case <-ctx.Done():
			return info, ctx.Err()
		}
		m.mu.Lock()
	}
}

// Ending says the instance is ending and stops its jobs through Stop and
// Kill (its TUI quits: they are stopped in its sight, then Shutdown): a
// job stopped or killed from now on is ended by jobtop's end
// (Info.ShutDown), not by someone's request, as one Shutdown stops.
func (m *Manager) Ending() {
	m.mu.Lock()
	m.ending = true
	m.mu.Unlock()
}

// Shutdown stops every job with its grace rules and returns when all are
// reaped. If ctx ends first, the rest are killed at once (and still reaped)
// and ctx's error is returned. Subscriptions are closed at the end.
func (m *Manager) Shutdown(ctx context.Context) error {
	m.mu.Lock()
	m.closed, m.ending = true, true
	for _, j := range m.queue {
		j.shutDown = true
		m.finishWithoutRunLocked(j, StateKilled, "jobtop shut down before it started")
	}
	m.queue = nil
	for _, j := range m.jobs {
		if j.restartTimer != nil {
			// Waiters get the final state: no restart is coming.
			j.cancelRestartTimerLocked()
			j.shutDown = true
			j.reason = "restart cancelled: jobtop shut down"
			m.changedLocked(j)
		}
		if j.restartPending {
			j.shutDown = true
		}
		j.restartPending = false
	}
	m.mu.Unlock()

	err := m.stopInDependencyOrder(ctx)
	// A run whose launch was in flight lands after the stop (it is
	// stopped then, with its grace): the wait for the last runs heeds
	// ctx too.
	runsEnded := make(chan struct{})
	go func() {
		m.runs.Wait()
		close(runsEnded)
	}()
	if err == nil {
		select {
		case <-runsEnded:
		case <-ctx.Done():
			err = ctx.Err()
		}
	}
	if err != nil {
		m.mu.Lock()
		for _, j := range m.jobs {
			if j.proc != nil { // running, stopping, or its launch in flight
				j.shutDown = true
				m.endRunLocked(j, reqKill)
			}
		}
		m.mu.Unlock()
	}
	<-runsEnded
	m.closeKeeper()
	if m.stopSampler != nil { // set once, in NewManager
		m.samplerOnce.Do(func() { close(m.stopSampler) }) // Shutdown may be called twice at once
		<-m.samplerDone
	}
	// Log files still being made are waited for, as long as a disk that
	// answers takes: once Shutdown returns, nothing writes to the log
	// directory, unless a disk does not answer.
	m.mu.Lock()
	logs := make([]*logFile, 0, len(m.jobs))
	for _, j := range m.jobs {
		logs = append(logs, j.log)
	}
	m.mu.Unlock()
	opening, cancel := context.WithTimeout(ctx, drainTimeout)
	defer cancel()
	for _, l := range logs {
		select {
		case <-l.opened:
		case <-opening.Done():
		}
		l.Close()
	}
	m.logLocks.Close() // its keeper has exited: its copy is closed
	if m.ids != nil {
		m.ids.settle(ID(m.lastID.Load()))
	}
	m.hub.closeAll()
	return err
}
