package workspace

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"

	"jobtop/jobfile"
	"jobtop/jobs"
)

// ErrClosed is returned by Reload after Close.
var ErrClosed = errors.New("the job file is closed: jobtop is shutting down")

// Workspace is a job file whose jobs run on a manager. Its methods are
// safe for concurrent use.
type Workspace struct {
	mgr *jobs.Manager

	mu       sync.Mutex // held through a reload: one at a time
	plan     *jobfile.Plan
	ids      map[string]jobs.ID
	closed   bool
	envCmds  map[string]string // what the plan's env_cmds set (envcmds.go)
	problems []string          // env_cmds that failed, at the last load

	// named is the plan's path and files, for Path and Files: they
	// answer without the lock, which a reload holds for as long as it
	// takes (GET /v1/instance asks them, and must answer at once).
	named atomic.Pointer[planNames]

	ctx      context.Context // cancelled by Close: ends pending removals
	cancel   context.CancelFunc
	removals sync.WaitGroup
	exits    chan ExitRequest // exitonfailure.go
	watching bool             // for jobs with ExitOnFailure

	starting bool          // Start was called
	started  chan struct{} // closed when Start has returned
	done     atomic.Int64  // jobs Start has put in place (Progress)
	over     atomic.Bool   // Start has returned
	total    int           // the jobs of the first plan: what Start starts
}

// ManagerOptions are base with the plan's max_parallel and log settings
// filling the fields base leaves zero: what the command line sets beats
// the file.
func ManagerOptions(plan *jobfile.Plan, base jobs.Options) jobs.Options {
	file := plan.ManagerOptions()
	if base.MaxRunning == 0 {
		base.MaxRunning = file.MaxRunning
	}
	if base.LogDir == "" {
		base.LogDir = file.LogDir
	}
	if base.LogCap == 0 {
		base.LogCap = file.LogCap
	}
	if base.Store.MaxLines == 0 {
		base.Store.MaxLines = file.Store.MaxLines
	}
	if base.Sessions.Sessions == 0 {
		base.Sessions.Sessions = file.Sessions.Sessions
	}
	if base.Sessions.MaxTotal == 0 {
		base.Sessions.MaxTotal = file.Sessions.MaxTotal
	}
	return base
}

// Open starts the plan's jobs on m in start order: Start for autostart
// jobs, Add (created, not started) for the others. On an error the jobs
// started so far keep running; the caller shuts m down.
func Open(m *jobs.Manager, plan *jobfile.Plan) (*Workspace, error) {
	w := New(m, plan)
	if err := w.Start(); err != nil {
		w.cancel()
		w.removals.Wait()
		return nil, err
	}
	return w, nil
}

// New prepares the plan on m (its env_cmds run) without starting any of
// its jobs: Start does that. Until Start returns, Reload waits for it.
func New(m *jobs.Manager, plan *jobfile.Plan) *Workspace {
	w := &Workspace{mgr: m, plan: plan, ids: make(map[string]jobs.ID, len(plan.Jobs)), exits: make(chan ExitRequest, 1), started: make(chan struct{}), total: len(plan.Jobs)}
	w.ctx, w.cancel = context.WithCancel(context.Background())
	w.named.Store(namesOf(plan))
	w.envCmds, w.problems = runEnvCommands(m, plan)
	w.watchFailuresLocked(plan)
	return w
}

// Start starts the plan's jobs in start order (Open's work), once: a
// second call does nothing. It takes the lock one job at a time, so IDs
// and Close answer while a long file starts (Close makes it stop early,
// with ErrClosed). On an error the jobs started so far keep running.
func (w *Workspace) Start() error {
	w.mu.Lock()
	if w.starting {
		w.mu.Unlock()
		return nil
	}
	w.starting = true
	order := w.plan.StartOrder()
	w.mu.Unlock()
	defer func() {
		w.over.Store(true)
		close(w.started)
	}()
	for _, j := range order {
		w.mu.Lock()
		err := ErrClosed
		if !w.closed {
			err = w.startLocked(j)
		}
		w.mu.Unlock()
		if err != nil {
			return err
		}
		w.done.Add(1)
	}
	return nil
}

// Progress says how many of the file's jobs Start has put in place, of
// how many, and whether it has returned. It takes no lock: a UI may ask
// on every frame.
func (w *Workspace) Progress() (started, total int, over bool) {
	return int(w.done.Load()), w.total, w.over.Load()
}

// Path is the job file as it was given.
func (w *Workspace) Path() string { return w.named.Load().path }

// Files are the files the job file was last read from, in merge order
// (jobfile.Plan.Files).
func (w *Workspace) Files() []string { return w.named.Load().files }

// JobNames are the names of the jobs the job file runs, as last read
// (whether or not each job is in the manager now).
func (w *Workspace) JobNames() []string { return w.named.Load().jobs }

// planNames are what Path, Files and JobNames say of a plan.
type planNames struct {
	path  string
	files []string
	jobs  []string
}

func namesOf(p *jobfile.Plan) *planNames {
	names := make([]string, len(p.Jobs))
	for i, j := range p.Jobs {
		names[i] = j.Name
	}
	return &planNames{path: p.Path, files: p.Files, jobs: names}
}

// Problems are what went wrong running the file's env_cmds at the last
// load (each such variable is not set; the jobs still run).
func (w *Workspace) Problems() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]string(nil), w.problems...)
}

// IDs maps the file's job names to their job IDs.
func (w *Workspace) IDs() map[string]jobs.ID {
	w.mu.Lock()
	defer w.mu.Unlock()
	out := make(map[string]jobs.ID, len(w.ids))
	for name, id := range w.ids {
		out[name] = id
	}
	return out
}

// Close stops watching removed jobs that have not ended yet; call it
// before shutting the manager down. Reload fails after it.
func (w *Workspace) Close() {
	w.mu.Lock()
	w.closed = true
	w.mu.Unlock()
	w.cancel()
	w.removals.Wait()
}

// Result is what a reload did.
type Result struct {
	// Path is the job file.
	Path string
	// Files are the files it was read from, in merge order (one when it
	// is not merged).
	Files []string
	jobfile.Changes
	// Warnings are the file's parts jobtop does not carry out, and
	// env_cmds that failed, each "FILE:LINE:COL: warning: what".
	Warnings []string
}

func warningLines(list jobfile.ErrorList) []string {
	out := make([]string, len(list))
	for i, w := range list {
		out[i] = w.Warning()
	}
	return out
}

// String says what changed, for a status bar:
// "reloaded jobtop.yaml: 1 added (api), 1 changed (web)"; every file
// when the job file is merged from several ("reloaded base.yaml +
// dev.yaml: ...").
func (r Result) String() string {
	names := filepath.Base(r.Path)
	if len(r.Files) > 1 {
		bases := make([]string, len(r.Files))
		for i, f := range r.Files {
			bases[i] = filepath.Base(f)
		}
		names = strings.Join(bases, " + ")
	}
	return "reloaded " + names + ": " + r.Changes.String()
}

// Reload re-reads the job file and applies what changed: added jobs
// start, removed ones are stopped (and removed once ended), changed ones
// restart with their new spec, ones whose dependencies alone changed get
// them for their next start, unchanged ones are left alone. A file that
// cannot be read or is not valid changes nothing and is a *FileError.
func (w *Workspace) Reload() (Result, error) {
	select { // the file's first start must be over: its IDs are the base
	case <-w.started:
	case <-w.ctx.Done():
		return Result{}, ErrClosed
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return Result{}, ErrClosed
	}
	res := Result{Path: w.plan.Path}
	next, err := jobfile.LoadWith(w.plan.Path, w.plan.Options)
	if err != nil {
		return res, newFileError(w.plan.Path, err)
	}
	res.Files = next.Files
	res.Warnings = warningLines(next.Warnings)
	w.envCmds, w.problems = runEnvCommands(w.mgr, next)
	res.Warnings = append(res.Warnings, w.problems...)
	res.Changes = jobfile.Diff(w.livePlanLocked(), next)
	var errs []error
	if n := res.MaxParallel; n != nil {
		// As jobtop parallel N: over --max-running and what parallel
		// set. A file whose max_parallel is unchanged leaves the limit.
		errs = append(errs, w.mgr.SetMaxRunning(*n))
	}
	for _, name := range res.Removed {
		w.removeLocked(w.ids[name])
		delete(w.ids, name)
	}
	added, changed, rewired := setOf(res.Added), setOf(res.Changed), setOf(res.Rewired)
	enabled, disabled := setOf(res.Enabled), setOf(res.Disabled)
	for _, j := range next.StartOrder() {
		switch {
		case added[j.Name]:
			errs = append(errs, w.startLocked(j))
		case disabled[j.Name]:
			errs = append(errs, w.disableLocked(j, changed[j.Name]))
		case changed[j.Name]:
			errs = append(errs, w.replaceLocked(j))
		}
		if rewired[j.Name] {
			errs = append(errs, w.rewireLocked(j))
		}
		if enabled[j.Name] {
			errs = append(errs, w.enableLocked(j, changed[j.Name]))
		}
	}
	for _, name := range res.Redescribed {
		j, _ := next.Job(name)
		errs = append(errs, w.mgr.Describe(w.ids[name], j.Spec.Description))
	}
	w.plan = next
	w.named.Store(namesOf(next))
	w.watchFailuresLocked(next)
	return res, errors.Join(errs...)
}

// livePlanLocked is the plan as it stands in the manager: without the
// jobs that were removed by hand since (so they count as added again).
func (w *Workspace) livePlanLocked() *jobfile.Plan {
	live := *w.plan
	live.Jobs = nil
	for _, j := range w.plan.Jobs {
		if _, err := w.mgr.Get(w.ids[j.Name]); err == nil {
			live.Jobs = append(live.Jobs, j)
		} else {
			delete(w.ids, j.Name)
		}
	}
	return &live
}

// startLocked creates a file job: started, or only added when its
// autostart is off.
func (w *Workspace) startLocked(j jobfile.Job) error {
	add := w.mgr.StartSoon
	if !j.Autostart {
		add = w.mgr.Add
	}
	info, err := add(withEnv(j.Spec, w.envCmds))
	if err != nil {
		return fmt.Errorf("job %s: %w", j.Name, err)
	}
	w.ids[j.Name] = info.ID
	// The file bounds its jobs: they stay listed however many end.
	w.mgr.Keep(info.ID, true) //nolint:errcheck // removed meanwhile: nothing to keep
	return nil
}

// replaceLocked gives a file job its new spec. A live or queued job
// restarts with it (Manager.Replace); an ended one runs again if it
// starts by itself; a job never started stays so.
func (w *Workspace) replaceLocked(j jobfile.Job) error {
	id := w.ids[j.Name]
	before, err := w.mgr.Replace(id, withEnv(j.Spec, w.envCmds))
	if err != nil {
		return fmt.Errorf("job %s: %w", j.Name, err)
	}
	if before.State.Done() && before.State != jobs.StateCreated && j.Autostart {
		if _, err := w.mgr.Restart(id); err != nil {
			return fmt.Errorf("job %s: %w", j.Name, err)
		}
	}
	return nil
}

// rewireLocked gives a job whose dependencies alone changed the new ones
// for its next start, and restarts nothing. One whose last start failed
// (its old dependencies failed it, in its first start or a restart's)
// starts under the new ones, as a changed job would.
func (w *Workspace) rewireLocked(j jobfile.Job) error {
	id := w.ids[j.Name]
	if info, err := w.mgr.Get(id); err == nil && info.State == jobs.StateError && j.Autostart {
		return w.replaceLocked(j)
	}
	if _, err := w.mgr.SetSpec(id, withEnv(j.Spec, w.envCmds)); err != nil {
		return fmt.Errorf("job %s: %w", j.Name, err)
	}
	return nil
}

// disableLocked stops a job whose autostart the file turned off (as
// process-compose stops a process an update disables), giving it its
// new spec, when it changed, for a start by hand; nothing restarts it.
func (w *Workspace) disableLocked(j jobfile.Job, changed bool) error {
	id := w.ids[j.Name]
	var invalid *jobs.InvalidActionError
	if err := w.mgr.Stop(id); err != nil && !errors.As(err, &invalid) { // ended already: nothing to stop
		return fmt.Errorf("job %s: %w", j.Name, err)
	}
	if changed {
		if _, err := w.mgr.SetSpec(id, withEnv(j.Spec, w.envCmds)); err != nil {
			return fmt.Errorf("job %s: %w", j.Name, err)
		}
	}
	return nil
}

// enableLocked starts a job whose autostart the file turned on, unless
// it runs or waits to (started by hand, or just restarted with its new
// spec by replaceLocked).
func (w *Workspace) enableLocked(j jobfile.Job, changed bool) error {
	id := w.ids[j.Name]
	info, err := w.mgr.Get(id)
	if err != nil {
		return fmt.Errorf("job %s: %w", j.Name, err)
	}
	if !info.State.Done() || changed && info.State != jobs.StateCreated {
		return nil
	}
	if _, err := w.mgr.Restart(id); err != nil {
		return fmt.Errorf("job %s: %w", j.Name, err)
	}
	return nil
}

func setOf(names []string) map[string]bool {
	set := make(map[string]bool, len(names))
	for _, name := range names {
		set[name] = true
	}
	return set
}

// removeLocked stops a job and removes it once it has ended, in the
// background.
func (w *Workspace) removeLocked(id jobs.ID) {
	// Whoever waits for its end is told a reload removed it.
	w.mgr.StopToRemove(id, "reload") //nolint:errcheck // it may be gone already: nothing to do
	w.removals.Add(1)
	go func() {
		defer w.removals.Done()
		last, err := w.mgr.Wait(w.ctx, id)
		if err != nil {
			return
		}
		// Someone may have restarted it meanwhile (its run since clears
		// Removing): then it stays, and is no longer the file's.
		if last.Removing == "" || w.mgr.Remove(id) != nil {
			w.mgr.Keep(id, false) //nolint:errcheck // see above
		}
	}()
}
