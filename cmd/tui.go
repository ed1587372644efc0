package cmd

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"sync/atomic"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/spf13/cobra"

	"jobtop/control"
	"jobtop/jobfile"
	"jobtop/jobs"
	"jobtop/ui"
	"jobtop/workspace"
)

// shutdownTimeout bounds the final stop of every job after the TUI ends;
// past it the rest are killed.
const shutdownTimeout = 15 * time.Second

// openTUI is plain jobtop: a TUI instance that runs its job file (see
// loadJobFile) and the jobs from the command line, served on the socket
// for the CLI. When a live instance already holds the socket, it attaches
// to that one instead (and starts the command line's jobs there); an
// explicit -f is then an error, since the file would not be run, and so
// is a job file found here that the instance does not run itself.
func openTUI(cmd *cobra.Command, specs []jobs.Spec) error {
	if hosts, _ := hostsOf(cmd); len(hosts) > 0 {
		if cmd.Flags().Changed(fileFlag) {
			return &ExitError{Code: usageExit, Err: fmt.Errorf("-f runs a job file here; with --host, jobtop attaches to the instance there (run the file on that machine: ssh HOST jobtop serve -f FILE)")}
		}
		if err := needTerminal(); err != nil {
			return err
		}
		return attachHosts(cmd, specs, hosts)
	}
	// The socket is claimed before the job file loads (as serve does): a
	// client meanwhile waits for this instance instead of starting
	// another. Signals are caught from before the claim until the file
	// is loaded, as serve catches them: one meanwhile gives the socket
	// up, telling the clients that wait, and ends jobtop at once
	// (stopLoadOnSignal). The TUI then takes them itself.
	signals := make(chan os.Signal, 2)
	signal.Notify(signals, loadSignals...)
	socket, err := claimSocket(cmd, "tui", jobFileToLoad(cmd))
	if err != nil {
		releaseSignals(signals) // an attaching TUI's are Bubble Tea's
	}
	var inUse *control.InUseError
	if errors.As(err, &inUse) {
		// The file, for what is said of it (its problems first, as
		// ever).
		plan, err := loadJobFile(cmd)
		switch {
		case err != nil:
			return err
		case cmd.Flags().Changed(fileFlag):
			return &ExitError{Code: 1, Err: fmt.Errorf("cannot run %s: %w", planFiles(plan), inUse)}
		case plan != nil:
			if err := sameJobFile(cmd, plan, inUse); err != nil {
				return err
			}
		}
		if err := needTerminal(); err != nil {
			return err
		}
		err = attachTUI(cmd, specs)
		var ending *instanceEndingError
		if errors.As(err, &ending) && awaitEnd(cmd, ending) {
			// Its own instance now, as if that one had never been.
			return openTUI(cmd, specs)
		}
		return err
	}
	if err != nil {
		return err
	}
	loaded := stopLoadOnSignal(cmd, socket, signals)
	awaitLoadGate()
	plan, err := loadJobFile(cmd)
	loaded()
	loadDone(cmd, socket, signals)
	if err != nil {
		socket.giveUp(err)
		return err
	}
	in, err := openInstanceOn(cmd, socket, plan, jobs.Options{})
	if err != nil {
		return err
	}
	// Before any job starts: the instance holds its socket, no more.
	if err := needTerminal(); err != nil {
		in.socket.giveUp(err)             // never served: its socket file goes with it
		in.shutdown(context.Background()) //nolint:errcheck // the error that matters is err
		return err
	}
	var engine ui.Engine = in.mgr
	cfg := withTerminal(cmd, ui.Config{OnQuit: func() {
		in.srv.Quitting()
		in.mgr.Ending() // the jobs it stops now are stopped by the quit
	}})
	if in.ws != nil {
		local := localEngine{Manager: in.mgr, ws: in.ws, warnings: new(atomic.Pointer[[]string])}
		engine = local
		cfg.JobFile, cfg.JobFiles = plan.Path, plan.Files
		printWarnings(cmd.ErrOrStderr(), plan) // seen when the screen closes
		warnings := append(warningLines(plan), in.ws.Problems()...)
		local.warnings.Store(&warnings)
		if n := len(warnings); n > 0 {
			cfg.Notice = "loaded " + planFiles(plan) + warningsNote(n)
		}
		if len(plan.Unguarded) > 0 { // first: what matters most
			cfg.Notice = strings.Join(plan.Unguarded, "; ") + "; " + cfg.Notice
		}
	}
	if in.previous != nil { // (its stderr line is under the screen)
		note := previousEndNotice(in.previous)
		if cfg.Notice != "" {
			note = cfg.Notice + "; " + note
		}
		cfg.Notice = note
	}
	var exit *ExitError
	quit, done := make(chan struct{}), make(chan struct{})
	// The file's jobs start behind the first frame, and show as they do;
	// the TUI tells the ends of those that end before it lists them.
	cfg.Began = time.Now()
	started := make(chan error, 1)
	go func() { started <- in.startJobs() }()
	go func() {
		for {
			select {
			case req := <-exitRequests(in):
				exit = exitOnFailure(req)
				in.srv.SetShutdownReason(exit.Err.Error()) // for attached TUIs
				// Printed once the screen is gone, under the reason.
				if tail := exitTail(os.Stderr, in.mgr, req); tail != "" {
					exit.Err = fmt.Errorf("%w\n%s", exit.Err, strings.TrimSuffix(tail, "\n"))
				}
				close(quit)
				return
			case err := <-started:
				started = nil
				if err == nil || errors.Is(err, workspace.ErrClosed) { // closed: jobtop is quitting
					continue
				}
				exit = &ExitError{Code: 1, Err: err}
				close(quit)
				return
			case <-done:
				return
			}
		}
	}()
	err = runLocalTUI(in.mgr, engine, cfg, specs, "", in.shutdown, quit, in.srv.ShutdownRequested())
	close(done)
	select {
	case <-quit:
		if err == nil {
			return exit
		}
	default:
	}
	return err
}

// warnSameNames says, on stderr (seen when the screen closes) and first
// in the status bar's notice, which jobs the command line started have
// the name of another live job (sameNamesWarning), as jobtop run says it:
// "jobtop 'sleep 30' 'sleep 31' --name a,a" started two jobs a without a
// word. It returns the notice.
func warnSameNames(notice string, list, started []jobs.Info) string {
	warning := sameNamesWarning(list, started)
	if warning == "" {
		return notice
	}
	fmt.Fprintln(os.Stderr, "jobtop:", warning)
	if notice != "" {
		warning += "; " + notice
	}
	return warning
}

// bellFlag turns the bell on from the start (the b key toggles it).
const bellFlag = "bell"

// notifyFlag sends terminal notifications.
const notifyFlag = "notify"

func addBellFlag(c *cobra.Command) {
	c.Flags().Bool(bellFlag, false, "ring the terminal bell when a job fails (b toggles it)")
	c.Flags().Bool(notifyFlag, false, "send terminal notifications (OSC 9, and OSC 777 where the terminal takes it) when a job fails or goes quiet")
}

// terminalTakesOSC777 reports whether the terminal announces, in the
// environment, that it shows OSC 777 notifications: VTE-based terminals
// (GNOME Terminal, Tilix…), rxvt-unicode, foot, Ghostty, WezTerm.
func terminalTakesOSC777() bool {
	if os.Getenv("VTE_VERSION") != "" {
		return true
	}
	term := os.Getenv("TERM")
	switch os.Getenv("TERM_PROGRAM") {
	case "ghostty", "WezTerm":
		return true
	}
	return strings.HasPrefix(term, "rxvt-unicode") || strings.HasPrefix(term, "foot")
}

// needTerminal refuses to attach where there is no terminal to draw on,
// before the command line's jobs start on the instance: the TUI reads
// keys from stdin, or from /dev/tty when stdin is no terminal. They
// started, then the TUI failed: an agent that tried again started them
// twice. (An instance of the TUI's own ends with it, and its jobs.)
func needTerminal() error {
	if !isTerminal(os.Stdout) {
		return fmt.Errorf("jobtop's TUI draws on its standard output, and that is no terminal here; nothing was started: from a script or an agent, start jobs with jobtop run")
	}
	if isTerminal(os.Stdin) {
		return nil
	}
	tty, err := os.OpenFile("/dev/tty", os.O_RDWR, 0)
	if err != nil {
		return fmt.Errorf("jobtop's TUI needs a terminal, and there is none here (%v); nothing was started: from a script or an agent, start jobs with jobtop run", err)
	}
	return tty.Close()
}

// withTerminal completes a TUI configuration with the terminal it runs in
// and the --bell flag.
func withTerminal(cmd *cobra.Command, cfg ui.Config) ui.Config {
	cfg.Bell, _ = cmd.Flags().GetBool(bellFlag)
	cfg.Notify, _ = cmd.Flags().GetBool(notifyFlag)
	cfg.NotifyOSC777 = cfg.Notify && terminalTakesOSC777()
	cfg.Terminal = os.Stdout
	return cfg
}

// The engines the TUI runs over type into TTY jobs and draw their
// screens: locally, and attached to one host or several.
var (
	_ ui.TerminalEngine = localEngine{}
	_ ui.ScreenEngine   = localEngine{}
	_ ui.OwnStarter     = localEngine{}
	_ ui.OutputHolder   = localEngine{}
	_ ui.JobsEnder      = localEngine{}
	_ ui.JobsEnder      = (*control.Client)(nil)
	_ ui.JobsEnder      = hostsEngine{}
	_ ui.OutputHolder   = (*jobs.Manager)(nil)
	_ ui.TerminalEngine = (*control.Client)(nil)
	_ ui.ScreenEngine   = (*control.Client)(nil)
	_ ui.TerminalEngine = hostsEngine{}
	_ ui.ScreenEngine   = hostsEngine{}
)

// localEngine is the TUI's engine in an instance with a job file: the
// manager, and reloads of the file (ui.Reloader).
type localEngine struct {
	*jobs.Manager
	ws *workspace.Workspace
	// warnings are the job file's, as the last load or reload gave them.
	warnings *atomic.Pointer[[]string]
}

// Reload re-reads the job file and says what changed.
func (e localEngine) Reload() (string, error) {
	res, err := e.ws.Reload()
	if err != nil {
		return "", err
	}
	e.warnings.Store(&res.Warnings)
	return res.String() + warningsNote(len(res.Warnings)), nil
}

// Warnings are the job file's warnings (ui.WarningLister).
func (e localEngine) Warnings() []string { return *e.warnings.Load() }

// JobFiles are the files the job file is read from now (ui.FileLister).
func (e localEngine) JobFiles() []string { return e.ws.Files() }

// CancelStarts ends the start of the file's jobs, if it is still under
// way, when the TUI stops every job to quit; the file cannot be reloaded
// after it.
func (e localEngine) CancelStarts() { e.ws.Close() }

// OwnStarts says how far the start of the file's jobs is.
func (e localEngine) OwnStarts() (started, total int, done bool) { return e.ws.Progress() }

// warningsNote is what the status bar adds for a file with warnings.
func warningsNote(n int) string {
	switch n {
	case 0:
		return ""
	case 1:
		return " (1 warning: ? lists it)"
	}
	return fmt.Sprintf(" (%d warnings: ? lists them)", n)
}

// runLocalTUI starts the jobs on mgr (in dir when they name no directory),
// runs the TUI over engine with the first of them selected until it quits
// or quit is closed and, when the TUI ends, calls shutdown so that no job
// outlives jobtop. When asked is closed (jobtop shutdown), the TUI stops
// every job and quits.
func runLocalTUI(mgr *jobs.Manager, engine ui.Engine, cfg ui.Config, specs []jobs.Spec, dir string, shutdown func(context.Context) error, quit, asked <-chan struct{}) (err error) {
	defer func() {
		ctx, cancel := context.WithTimeout(context.Background(), shutdownTimeout)
		defer cancel()
		if serr := shutdown(ctx); serr != nil && err == nil {
			err = fmt.Errorf("stopping jobs: %w", serr)
		}
	}()
	if cfg.Began.IsZero() { // a job that fails at once ends before the TUI lists it
		cfg.Began = time.Now()
	}
	var started []jobs.Info
	for i, s := range specs {
		if s.Dir == "" {
			s.Dir = dir
		}
		info, err := mgr.Start(s)
		if err != nil {
			return &ExitError{Code: usageExit, Err: fmt.Errorf("job %q: %w", s.DisplayName(), err)}
		}
		if i == 0 {
			cfg.Select = info.ID
		}
		started = append(started, info)
	}
	cfg.Notice = warnSameNames(cfg.Notice, mgr.List(), started)
	model := ui.New(engine, cfg)
	defer model.Close()
	return runProgram(model, quit, asked)
}

// runProgram runs the TUI until it quits, the terminal closes (SIGHUP),
// SIGTERM or SIGINT ends it, or lost is closed (an attached instance went
// away). When asked is closed, the TUI is told to stop every job and quit
// (ui.ShutdownMsg). Signals are taken here, not by Bubble Tea (see
// signalRelay): the o key's pager is ended for SIGTERM and jobtop
// shutdown, and SIGTSTP and SIGCONT give the terminal back and take it
// again (in the terminal's foreground only; ended in the background,
// jobtop leaves the terminal as it is). A panic in the TUI ends it with an error (panicWatch). opts are
// added to the program's (tests give it input and output).
func runProgram(model tea.Model, lost, asked <-chan struct{}, opts ...tea.ProgramOption) error {
	// Ask the terminal its background now, before the program reads its
	// input: an answer the program read would be taken for keys, and the
	// question waited out. (Bubble Tea's own init did this in every
	// jobtop process: see third_party/bubbletea/JOBTOP.md.)
	lipgloss.HasDarkBackground()
	go ui.RemoveOrphanedPagerFiles()
	watch := &panicWatch{Model: model}
	opts = append([]tea.ProgramOption{tea.WithAltScreen(), tea.WithFPS(120), tea.WithMouseCellMotion(), tea.WithoutSignalHandler()}, opts...)
	p := tea.NewProgram(&terminalKeeper{Model: &runeJoiner{Model: watch}}, opts...)

	sigs := make(chan os.Signal, len(tuiSignals))
	signal.Notify(sigs, tuiSignals...)
	ended := make(chan struct{})
	defer func() {
		signal.Stop(sigs)
		close(ended)
	}()
	pager, ok := model.(pagerHolder)
	if !ok {
		pager = noPager{}
	}
	st := newStopState()
	pager.SetRetakeGate(st.awaitForeground)
	go signalRelay(p, pager, st, sigs, lost, asked, ended)

	done := make(chan error, 1)
	go func() {
		_, err := p.Run()
		done <- err
	}()
	select {
	case err := <-done:
		return watch.programError(err)
	case <-st.detached: // ended in the background: the terminal is the shell's
		return nil
	}
}

// sameJobFile refuses to attach plain jobtop, run where it found the job
// file path, to the live instance of inUse unless that instance runs this
// very file (merged from the same files, when it is several: its
// override file, say): otherwise the file would silently not run, and
// the TUI would show another project's jobs (the default socket is one
// per user).
func sameJobFile(cmd *cobra.Command, plan *jobfile.Plan, inUse *control.InUseError) error {
	path := plan.Path
	inst := inUse.Instance
	if n := inUse.Silent; n != nil && n.Stopped {
		return n // stopped: waiting longer would not change that
	}
	if inst.PID == 0 || inst.Loading != "" { // slow, or loading: ask again, within --answer-timeout
		c := answeringClient(cmd, inUse.Path)
		got, err := c.LoadedInstance(cmd.Context()) // its job file, once loaded
		c.Close()
		if err != nil {
			return err
		}
		inst = got
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		abs = path
	}
	files := absFiles(plan.Files)
	if inst.JobFile != "" && samePath(abs, inst.JobFile) && sameFiles(files, inst.JobFiles) {
		return nil
	}
	runs := "runs no job file"
	switch {
	case len(inst.JobFiles) > 0:
		runs = "runs " + strings.Join(inst.JobFiles, " merged with ")
	case inst.JobFile != "":
		runs = "runs " + inst.JobFile
	}
	if len(files) > 0 {
		abs = strings.Join(files, " merged with ")
	}
	socket := "" // the commands below name the socket when it was given
	if cmd.Flags().Changed(socketFlag) {
		socket = " --socket " + jobs.ShellJoin([]string{inUse.Path})
	}
	return &ExitError{Code: 1, Err: fmt.Errorf(
		"%s was not run: another jobtop (%s, pid %d) is listening on %s and %s; "+
			"to watch that instance anyway: jobtop attach%s; to run this file beside it: jobtop --socket PATH; to stop it: jobtop shutdown%s",
		abs, inst.Kind, inst.PID, inUse.Path, runs, socket, socket)}
}

// sameFiles reports whether two lists of absolute paths name the same
// files in the same order.
func sameFiles(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !samePath(a[i], b[i]) {
			return false
		}
	}
	return true
}

// samePath reports whether two absolute paths name one file (through
// symbolic links too).
func samePath(a, b string) bool {
	if a == b {
		return true
	}
	sa, errA := os.Stat(a)
	sb, errB := os.Stat(b)
	return errA == nil && errB == nil && os.SameFile(sa, sb)
}
