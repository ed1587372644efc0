package jobs

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"syscall"
	"time"

	"jobtop/jobs/keeper"
)

// ReasonStarting is a queued job's reason while its run is being started.
const ReasonStarting = "starting"

// startRunLocked starts a new run of the job: it takes a slot and hands the
// slow part (resolving the program, making pipes, asking the keeper to
// fork and exec) to launch, which runs without the manager's lock. Until
// launch is done the job stays queued with the reason "starting".
func (m *Manager) startRunLocked(j *job) {
	j.runs++
	now := time.Now()
	j.markRunStart(now)
	j.runCursor = j.store.Stats().Last
	j.pid, j.exitCode, j.signal, j.errText, j.reason = 0, nil, 0, "", ReasonStarting
	j.started, j.ended = &now, nil
	j.history.begin(j.runs, now)
	j.request, j.sentSignal, j.signalled, j.ready = reqNone, 0, 0, false
	j.peakRSS, j.stopped = 0, false
	m.nextRun++
	p := &process{run: m.nextRun, spec: j.spec, launched: make(chan struct{})}
	p.cols, p.rows = j.termSize()
	p.openCols, p.openRows = p.cols, p.rows
	j.proc = p
	j.lastScreen, j.lastPlaced = nil, false
	j.store.SetTerminal(j.spec.TTY, p.cols)
	j.store.cursorHidden.Store(false) // a new run's terminal shows it
	m.byRun[p.run] = j
	m.active++
	m.runs.Add(1)
	m.hub.publish(j.id, EventState, Info{})
	if m.launchHere == j {
		// Its caller (Start) launches it on its own goroutine, rather
		// than start one and wait for it.
		m.launchHere, p.launchHere = nil, true
		return
	}
	go m.launch(j, p)
}

// launchLocked starts j now, as Start does: it launches j's run itself,
// without the lock, when j's turn comes at once (a slot free, nothing to
// wait for), and waits for the launch otherwise. A start that waits for
// its launch anyway saves a goroutine and two handoffs (the launch's
// start, its end), on the critical path of each start.
func (m *Manager) launchLocked(j *job) {
	m.launchHere = j
	m.enqueueLocked(j)
	m.launchHere = nil
	if p := j.proc; p != nil && p.launchHere {
		p.launchHere = false
		m.mu.Unlock()
		m.launch(j, p)
		m.mu.Lock()
	}
	m.awaitLaunchLocked(j)
}

// awaitLaunchLocked waits, without the lock, until the job's run that is
// starting has started or failed to; it returns at once otherwise.
func (m *Manager) awaitLaunchLocked(j *job) {
	if p := j.proc; p != nil && !p.spawned {
		m.mu.Unlock()
		<-p.launched
		m.mu.Lock()
	}
}

// spawnPause, for tests only, is called before each run's main process
// is spawned: a launch held in flight.
var spawnPause func()

// launch starts the run's main process through the keeper, then records
// it. It runs without the manager's lock.
func (m *Manager) launch(j *job, p *process) {
	pid, start, spawn, err := m.spawnRun(j, p)
	m.mu.Lock()
	defer m.mu.Unlock()
	defer close(p.launched)
	if err != nil {
		m.startFailedLocked(j, p, err.Error())
		return
	}
	m.startedLocked(j, p, pid, start, spawn)
}

// maxLaunching bounds the launches making their files and spawning at
// once. Each holds five descriptors or so until its process is spawned
// (three of them the child's), against about three a running job keeps:
// a job file of 1,200 jobs started them all at once and ran out of
// descriptors with room for every job once started (rev34). The keeper
// spawns one at a time anyway.
const maxLaunching = 16

// emfileTries and emfileWait bound how long a launch out of descriptors
// waits for the other launches to let go of theirs: a second.
const (
	emfileTries = 100
	emfileWait  = 10 * time.Millisecond
)

// spawnRun makes the run's files and has the keeper spawn its main
// process, at most maxLaunching at once (a launch waits its turn
// before it makes any file): the process's ID and start time, and the
// files jobtop keeps (its ends; on an error, none are left open).
func (m *Manager) spawnRun(j *job, p *process) (pid int, start uint64, spawn *spawnFiles, err error) {
	m.launching <- struct{}{}
	defer func() { <-m.launching }()
	spawn, err = m.prepare(j, p)
	for tries := 0; errors.Is(err, syscall.EMFILE) && len(m.launching) > 1 && tries < emfileTries; tries++ {
		// Out of descriptors while other launches hold theirs, which they
		// let go of once their process is spawned: this job may well fit
		// then (near the limit, 14 of 80 that fit failed at once).
		time.Sleep(emfileWait)
		spawn, err = m.prepare(j, p)
	}
	if err != nil {
		return 0, 0, nil, withFileLimit(err)
	}
	var kc *keeper.Client
	if kc, err = m.keeperClient(); err == nil {
		if spawnPause != nil {
			spawnPause()
		}
		var st keeper.Started
		st, err = kc.Spawn(spawn.Spawn)
		if err != nil && spawn.shellArgv != nil {
			// Run directly, it could not start (a script without
			// "#!", say): the shell runs it, or says why not.
			spawn.Path, spawn.Argv, spawn.shellArgv = spawn.shellPath, spawn.shellArgv, nil
			st, err = kc.Spawn(spawn.Spawn)
		}
		pid, start, spawn.note = st.PID, st.Start, st.Note
		if err != nil {
			err = fmt.Errorf("cannot start %q: %w", p.spec.ShortCommand(), withFileLimit(err))
		}
	}
	spawn.closeChildEnds()
	if err != nil {
		spawn.closeOurEnds()
	}
	return pid, start, spawn, err
}

// withFileLimit adds, to an error of running out of file descriptors,
// what the limit is and how to raise it.
func withFileLimit(err error) error {
	if !errors.Is(err, syscall.EMFILE) {
		return err
	}
	var lim syscall.Rlimit
	if syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim) != nil {
		return err
	}
	return fmt.Errorf("%w (jobtop's limit is %d open files, about three a running job takes: raise it with ulimit -n before starting jobtop)", err, lim.Cur)
}

// spawnFiles is a Spawn with the files made for it: jobtop's ends of the
// output pipes (or the terminal's master, in outR), and what Manager.Input
// writes to (the master, or stdin's pipe), nil for none.
type spawnFiles struct {
	keeper.Spawn
	outR, errR *os.File
	input      *os.File
	// shellPath and shellArgv run the command line through the shell
	// when it is to run directly (direct.go); nil otherwise.
	shellPath string
	shellArgv []string
	// note is the keeper's line for the run's output (keeper.Started).
	note string
}

// runDirectly makes a command line with no shell syntax, for the default
// shell, run its program without the shell (direct.go), as the shell
// itself would run it.
func (s *spawnFiles) runDirectly(command string, paths *pathCache) {
	argv, ok := directArgv(command)
	if !ok || !shellKeepsEnv(s.Env) {
		return
	}
	path, ok := paths.lookPath(argv[0], envValue(s.Env, "PATH"), s.Dir)
	if !ok {
		return
	}
	s.shellPath, s.shellArgv = s.Path, s.Argv
	s.Path, s.Argv = path, argv
	s.Env = withShellPWD(s.Env, s.Dir)
}

// prepare resolves what the run executes and makes its pipes.
func (m *Manager) prepare(j *job, p *process) (*spawnFiles, error) {
	spec := withArgvAssignments(p.spec)
	path, argv, err := resolveCommand(spec)
	if err != nil {
		return nil, err
	}
	s := &spawnFiles{Spawn: keeper.Spawn{
		Run: p.run, Path: path, Argv: argv, Env: m.environ(j.id, spec), Dir: spec.Dir,
		StopSignal: spec.StopSignal.sys(), Grace: spec.Grace,
	}}
	if len(spec.Argv) == 0 && len(spec.Shell) == 0 {
		s.runDirectly(spec.Command, &m.paths)
	}
	s.Log = j.log.Path()
	if spec.TTY {
		if err := s.openTerminal(p.openCols, p.openRows); err != nil {
			return nil, err
		}
		s.Hold = []*os.File{s.outR}
		return s, nil
	}
	if spec.Stdin == StdinPipe {
		if s.Stdin, s.input, err = os.Pipe(); err != nil {
			return nil, fmt.Errorf("cannot make a pipe for stdin: %w", err)
		}
	} else if s.Stdin, err = openLog(os.DevNull, os.O_RDONLY); err != nil {
		// (openLog: opened as os.Open would, less its try at the poller.)
		return nil, fmt.Errorf("cannot open %s: %w", os.DevNull, err)
	}
	if s.outR, s.Stdout, err = newOutputPipe(); err == nil {
		s.errR, s.Stderr, err = newOutputPipe()
	}
	if err != nil {
		s.closeChildEnds()
		s.closeOurEnds()
		return nil, err
	}
	s.Hold = []*os.File{s.outR, s.errR}
	return s, nil
}

// openTerminal makes a pseudo-terminal whose slave is the run's stdin,
// stdout, stderr and controlling terminal.
func (s *spawnFiles) openTerminal(cols, rows int) error {
	master, slave, err := openPTY(cols, rows)
	if err != nil {
		return err
	}
	s.Stdin, s.Stdout, s.Stderr, s.TTY = slave, slave, slave, true
	s.outR, s.input = master, master
	return nil
}

func (s *spawnFiles) closeChildEnds() {
	for _, f := range []*os.File{s.Stdin, s.Stdout, s.Stderr} {
		if f != nil {
			f.Close() //nolint:errcheck // a terminal's slave is all three: closed once
		}
	}
}

func (s *spawnFiles) closeOurEnds() {
	for _, f := range []*os.File{s.outR, s.errR, s.input} {
		if f != nil {
			f.Close()
		}
	}
}

// withArgvAssignments is spec with its argv's leading NAME=value words
// taken into Env, over what Env had, as a shell sets them for the
// program (its PATH, when one sets it, finds the program).
func withArgvAssignments(spec Spec) Spec {
	vars, rest := ArgvAssignments(spec.Argv)
	if len(vars) == 0 {
		return spec
	}
	env := make(map[string]string, len(spec.Env)+len(vars))
	for k, v := range spec.Env {
		env[k] = v
	}
	for _, kv := range vars {
		k, v, _ := strings.Cut(kv, "=")
		env[k] = v
	}
	spec.Env, spec.Argv = env, rest
	return spec
}

// resolveCommand checks the working directory and finds the program:
// the shell for a command line, else argv[0] as a shell would find it.
func resolveCommand(spec Spec) (path string, argv []string, err error) {
	if spec.Dir != "" {
		st, err := os.Stat(spec.Dir)
		switch {
		case err != nil:
			return "", nil, fmt.Errorf("working directory %q does not exist", spec.Dir)
		case !st.IsDir():
			return "", nil, fmt.Errorf("working directory %q is not a directory", spec.Dir)
		}
	}
	argv = spec.Argv
	if len(argv) == 0 {
		argv = spec.shellArgv(spec.Command)
	}
	path, err = lookProgram(argv[0], spec.Dir, spec.pathEnv())
	return path, argv, err
}

// pathEnv is the PATH the job's programs are found in: its own, or
// jobtop's.
func (s Spec) pathEnv() string {
	if p, ok := s.Env["PATH"]; ok {
		return p
	}
	if s.Environ != nil {
		return envValue(s.Environ, "PATH")
	}
	return os.Getenv("PATH")
}

// lookProgram resolves argv[0] like a shell would: names with a slash are
// paths (relative to dir), others are looked up in pathEnv (a PATH
// value; an entry relative to dir, an empty one dir itself).
func lookProgram(prog, dir, pathEnv string) (string, error) {
	if !strings.Contains(prog, "/") {
		for _, entry := range filepath.SplitList(pathEnv) {
			if entry == "" {
				entry = "."
			}
			if !filepath.IsAbs(entry) && dir != "" {
				entry = filepath.Join(dir, entry)
			}
			if file := filepath.Join(entry, prog); executableFile(file) {
				if abs, err := filepath.Abs(file); err == nil {
					return abs, nil
				}
				return file, nil
			}
		}
		return "", fmt.Errorf("program %q not found in PATH", prog)
	}
	path := prog
	if !filepath.IsAbs(path) && dir != "" {
		path = filepath.Join(dir, path)
	}
	st, err := os.Stat(path)
	switch {
	case err != nil:
		return "", fmt.Errorf("program %q does not exist", prog)
	case st.IsDir():
		return "", fmt.Errorf("program %q is a directory", prog)
	case st.Mode()&0o111 == 0:
		return "", fmt.Errorf("program %q is not executable", prog)
	}
	if !filepath.IsAbs(path) {
		if abs, err := filepath.Abs(path); err == nil {
			path = abs
		}
	}
	return path, nil
}

// environ is the inherited environment plus the spec's and the manager's
// additions and JOBTOP_JOB_ID; the manager's win over the spec's (they
// are the instance's: JOBTOP_SOCKET), JOBTOP_JOB_ID over both.
//
// Each variable appears once: C's getenv and Go's os.Getenv take the
// first of two, the shell the last, so a duplicate would give a job's
// programs different values.
//
// A TTY job's TERM names the terminal it is on, not jobtop's:
// ttyTerm, unless its spec sets one.
//
// A pipe job gets PYTHONUNBUFFERED=1 unless its environment sets
// PYTHONUNBUFFERED (empty is Python's "off": the way to opt out): on a
// pipe Python block-buffers stdout, so a script's prints showed up
// minutes late, and a stop (SIGTERM, which Python does not flush on)
// lost them. On a terminal Python is line-buffered already.
func (m *Manager) environ(id ID, spec Spec) []string {
	vars := map[string]string{"JOBTOP_JOB_ID": id.String()}
	if _, own := spec.Env["TERM"]; spec.TTY && !own {
		vars["TERM"] = ttyTerm
	}
	for _, add := range []map[string]string{m.opts.Env, spec.Env} {
		for k, v := range add {
			if _, set := vars[k]; !set {
				vars[k] = v
			}
		}
	}
	env := os.Environ()
	if spec.Environ != nil {
		env = spec.Environ
	}
	if spec.TTY {
		env = withoutOuterTerminal(env)
	}
	if _, set := vars["PYTHONUNBUFFERED"]; !spec.TTY && !set && !hasEnv(env, "PYTHONUNBUFFERED") {
		vars["PYTHONUNBUFFERED"] = "1"
	}
	return mergeEnv(env, vars)
}

// outerTerminalVars name the terminal a program runs in: a multiplexer's
// session and pane (tmux, screen), or the terminal application and its
// window. A TTY job's terminal is jobtop's, so those jobtop got from
// where it runs are not the job's: with TMUX, a tmux the job starts would
// open its session on the user's tmux server, beyond the job's reach, and
// `tmux send-keys` would type into the user's panes.
var outerTerminalVars = []string{
	"TMUX", "TMUX_PANE", "STY", "WINDOW", "ZELLIJ", "ZELLIJ_SESSION_NAME", "ZELLIJ_PANE_ID",
	"TERMINAL_EMULATOR", "TERMINATOR_UUID", "TILIX_ID", "GHOSTTY_RESOURCES_DIR",
	"TERM_PROGRAM", "TERM_PROGRAM_VERSION", "TERM_SESSION_ID", "LC_TERMINAL", "LC_TERMINAL_VERSION",
	"ITERM_SESSION_ID", "ITERM_PROFILE", "KITTY_WINDOW_ID", "KITTY_PID", "KITTY_LISTEN_ON",
	"WEZTERM_PANE", "WEZTERM_UNIX_SOCKET", "ALACRITTY_WINDOW_ID", "ALACRITTY_SOCKET",
	"VTE_VERSION", "KONSOLE_VERSION", "KONSOLE_DBUS_SESSION", "KONSOLE_DBUS_WINDOW",
	"WT_SESSION", "WINDOWID", "GNOME_TERMINAL_SCREEN", "GNOME_TERMINAL_SERVICE",
	// The size of the terminal it was set in: a job's is its own.
	"COLUMNS", "LINES",
}

// withoutOuterTerminal is env without outerTerminalVars.
func withoutOuterTerminal(env []string) []string {
	out := make([]string, 0, len(env))
	for _, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		if !slices.Contains(outerTerminalVars, k) {
			out = append(out, kv)
		}
	}
	return out
}

// hasEnv says whether env sets name, to any value.
func hasEnv(env []string, name string) bool {
	for _, kv := range env {
		if k, _, _ := strings.Cut(kv, "="); k == name {
			return true
		}
	}
	return false
}

// mergeEnv is env with vars set: a variable of env that vars sets is
// replaced in place, the others are added after it in name order.
func mergeEnv(env []string, vars map[string]string) []string {
	out := make([]string, 0, len(env)+len(vars))
	done := make(map[string]bool, len(vars))
	for _, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		if v, ok := vars[k]; ok {
			if !done[k] {
				out = append(out, k+"="+v)
				done[k] = true
			}
			continue
		}
		out = append(out, kv)
	}
	keys := make([]string, 0, len(vars))
	for k := range vars {
		if !done[k] {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		out = append(out, k+"="+vars[k])
	}
	return out
}

// keeperClient is the manager's keeper, started on first use (and again
// if the last one died).
func (m *Manager) keeperClient() (*keeper.Client, error) {
	if kc := m.keeper.Load(); kc != nil {
		return kc, nil
	}
	m.keeperMu.Lock()
	defer m.keeperMu.Unlock()
	if kc := m.keeper.Load(); kc != nil {
		return kc, nil
	}
	if m.keeperClosed {
		return nil, ErrShutdown
	}
	// The keeper holds the log directory's keeper lock with the manager,
	// and on after it, should it die, until the keeper has written the
	// last output of the runs it stops there.
	kc, err := keeper.Start(m.keeperEvent, m.keeperLost, m.logLocks.keeper)
	if err != nil {
		return nil, err
	}
	if w := kc.Warning(); w != "" {
		fmt.Fprintln(os.Stderr, "jobtop:", w)
	}
	if w := kc.CgroupWarning(); w != "" && !m.cgroupWarned { // (a keeper killed, the next says it again)
		fmt.Fprintln(os.Stderr, "jobtop:", w)
		m.cgroupWarned = true
	}
	m.keeperID = kc.Identity()
	m.keeper.Store(kc)
	if m.opts.RecordPath != "" {
		// At once, not debounced: the keeper's token alone finds every
		// process of its runs, should jobtop and the keeper die now.
		m.recordWriteMu.Lock()
		writeFileAtomic(m.opts.RecordPath, record{Instance: os.Getpid(), Keeper: m.keeperID}) //nolint:errcheck // best effort
		m.recordWriteMu.Unlock()
	}
	return kc, nil
}

// errKeeperGone explains a job ended because its keeper died.
var errKeeperGone = errors.New("jobtop's keeper process died; the job's processes were killed")
