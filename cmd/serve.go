package cmd

import (
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"
	"golang.org/x/sys/unix"

	"jobtop/jobfile"
	"jobtop/jobs"
	"jobtop/termtext"
	"jobtop/workspace"
)

func newServeCmd() *cobra.Command {
	var maxRunning uint
	var idleExit time.Duration
	var detach, exitWhenDone bool
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Run a headless jobtop instance in the foreground",
		Long: `Run a jobtop instance without a screen: it serves the local API on its
socket, for the CLI (jobtop run, ls, logs...) and for jobtop attach.

It runs the jobs of its job file: -f FILE, else jobtop.yaml, jobtop.yml,
a Procfile, process-compose.yml/.yaml or compose.yml/.yaml (with
processes:), else mprocs.yaml or mprocs.json (mprocs' config) in the
current directory (with
its override file: the first of compose.override.yml/.yaml and
process-compose.override.yml/.yaml beside it; -f given more than once
merges process-compose files in order) (--no-file: none), with the .env beside it (-e FILE instead,
--no-env-file: none); a Procfile's PORT base is -p, its formation -m. A
file with problems is reported, every one, and nothing starts; parts of
it jobtop does not carry out are warnings. jobtop reload re-reads the
file while it runs.

SIGINT, SIGTERM or SIGHUP (or jobtop shutdown) stops every job with its
grace rules, then exits; a signal while they stop kills what is left at
once (send it once serve has said it is stopping them: two sent
together, while serve is busy, can arrive as one); one while the job file loads ends serve at once (exit 128 + its
number), starting nothing, and the clients waiting are told; one while
the file's jobs start ends the start at once (the jobs not started yet
never start), tells the clients waiting, and stops those that did
start, as after the start (jobtop shutdown then does the same). If serve itself is killed (SIGKILL, a crash), its keeper process
stops every job the same way. A socket that a live instance
holds is never taken over: serve exits and names that instance (it
gives it --answer-timeout to say who it is), and says so if it is still
loading its job file.

With -D (--detach) it runs in the background, as process-compose's up -D
and overmind's start -D: the same serve, its output appended to the serve
log (as the serve jobtop run starts); jobtop serve -D waits until it
answers, prints its pid, job file and socket, and exits. A job file with
problems or a socket in use is refused before anything starts. serve -D
ended (^C, a signal, even SIGKILL) while the file loads leaves nothing
running.

With --idle-exit DUR it also exits once it has had no job running, queued
or waiting to restart, and no client connected, for DUR; the serve that
jobtop run starts in the background does so after 30m.

With --exit-when-done it exits once every job has ended, none running,
queued or waiting to restart (jobs never started, autostart: false, and
those queued behind them left out), as process-compose's headless up
does: with the exit jobtop wait --all gives, 0 when no job failed,
else that of the first job by ID that did not succeed, whose last lines
it shows; stopped before (a signal, jobtop shutdown), never 0. For CI:
jobtop serve --exit-when-done -f ci.yaml. Not with -D: the exit would
be lost.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if detach && exitWhenDone {
				return &ExitError{Code: usageExit, Err: fmt.Errorf("--%s gives the jobs' exit to serve's caller: run serve in the foreground (with -D it would be lost; --idle-exit ends a serve in the background)", exitWhenDoneFlag)}
			}
			return serve(cmd, int(min(maxRunning, math.MaxInt32)), idleExit, detach, exitWhenDone)
		},
	}
	cmd.Flags().Bool(handedOverFlag, false, "the socket is handed over by serve -D (for serve -D only)")
	cmd.Flags().MarkHidden(handedOverFlag) //nolint:errcheck // it is there
	cmd.Flags().BoolVarP(&detach, "detach", "D", false, "run in the background: start this serve detached, wait until it answers, say where it runs, and exit")
	addFileFlags(cmd)
	addRetentionFlags(cmd)
	cmd.Flags().Var(durationFlag{d: &idleExit, nonNegative: true}, "idle-exit", "exit after `DUR` with no job running, queued or waiting to restart and no client connected (0: never)")
	cmd.Flags().BoolVar(&exitWhenDone, exitWhenDoneFlag, false, "exit once every job has ended (none running, queued or waiting to restart), with the exit jobtop wait --all gives: 0 when all succeeded")
	cmd.Flags().Var(newDecimalUint(&maxRunning, 0), "max-running", "run at most `N` jobs at once; the rest wait queued (default: the job file's max_parallel, else no limit)")
	return cmd
}

func serve(cmd *cobra.Command, maxRunning int, idleExit time.Duration, detach, exitWhenDone bool) error {
	// The socket is claimed before the job file loads (claimSocket): a
	// client meanwhile waits for this instance instead of starting
	// another. Nothing starts before the file is checked: one with
	// problems gives the socket up unanswered. A signal still ends the
	// load at once (nothing is running yet), telling the clients that
	// wait and removing the socket (stopLoadOnSignal).
	if detach {
		l, err := claimListener(cmd)
		if err != nil {
			return err
		}
		// The detached serve takes the socket over, and loads.
		return serveDetached(cmd, l)
	}
	// Signals are caught before the socket is claimed and before any job
	// starts: one during the load gives the socket up, telling the
	// clients that wait; once answered, a client can always stop this
	// instance cleanly.
	signals := make(chan os.Signal, 2)
	signal.Notify(signals, loadSignals...)
	defer signal.Stop(signals)
	socket, err := claimSocket(cmd, "serve", jobFileToLoad(cmd))
	if err != nil {
		return err
	}
	loaded := stopLoadOnSignal(cmd, socket, signals)
	awaitLoadGate()
	plan, err := loadJobFile(cmd)
	if err != nil {
		loaded()
		socket.giveUp(err)
		tellDetachParent(cmd, plan, err) // once the socket is given up
		return err
	}
	tellDetachParent(cmd, plan, nil)
	// A signal while serve -D reads the report still ends this serve
	// before any job starts.
	err = awaitDetachGoAhead(cmd)
	loaded()
	if err != nil {
		socket.giveUp(err)
		return err
	}
	awaitGate(startGateEnv)

	in, err := openInstanceOn(cmd, socket, plan, jobs.Options{MaxRunning: maxRunning})
	if err != nil {
		return err
	}
	stderr := cmd.ErrOrStderr()
	var exit *ExitError
	cut, asked, err := startJobsUnlessStopped(in, signals)
	switch {
	case err != nil:
		in.shutdown(context.Background()) //nolint:errcheck // the error that matters is err
		return err
	case cut != nil:
		// Straight to the stop of what did start. The clients waiting
		// are told at once; the socket stays held until the jobs have
		// stopped, so no other instance takes it for one that died and
		// stops them itself.
		num, _ := cut.(syscall.Signal)
		in.srv.Stopped("by " + unix.SignalName(num))
		started, total, _ := in.ws.Progress()
		fmt.Fprintf(stderr, "jobtop: %v while the job file's jobs started (%d of %d put in place): stopping them (again to kill them at once)\n", cut, started, total)
		if exitWhenDone {
			exit = notDone(128 + int(num))
		}
	case asked:
		// Answered once what did start has stopped (shutdown).
		started, total, _ := in.ws.Progress()
		fmt.Fprintf(stderr, "jobtop: shutdown asked over the API while the job file's jobs started (%d of %d put in place): stopping them (a signal kills them at once)\n", started, total)
		if exitWhenDone {
			exit = notDone(1)
		}
	default:
		exit = serveUntilStopped(cmd, in, plan, signals, idleExit, exitWhenDone)
	}
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		select {
		case <-signals:
			cancel()
		case <-ctx.Done():
		}
	}()
	err = in.shutdown(ctx)
	cancel()
	if err != nil {
		fmt.Fprintln(stderr, "jobtop: killed the jobs that were still stopping")
	}
	if exit != nil {
		return exit
	}
	return nil
}

// serveUntilStopped announces a served instance whose jobs are in
// place, and serves until something ends it: a signal, a job whose exit
// ends jobtop (its *ExitError is returned), jobtop shutdown,
// --idle-exit, or --exit-when-done (the jobs' exit is returned).
func serveUntilStopped(cmd *cobra.Command, in *servedInstance, plan *jobfile.Plan, signals <-chan os.Signal, idleExit time.Duration, exitWhenDone bool) (exit *ExitError) {
	var problems []string
	if in.ws != nil {
		problems = in.ws.Problems()
	}
	tellDetachParentStarted(cmd, problems)
	path := socketPath(cmd)
	stderr := cmd.ErrOrStderr()
	// Paths shown, not sent: a directory named with escapes would set
	// the terminal's title (rev56).
	fmt.Fprintf(stderr, "jobtop: serving on %s (pid %d); logs in %s\n", showLines(path), os.Getpid(), showLines(in.mgr.LogDir()))
	if plan != nil {
		printWarnings(stderr, plan)
		for _, p := range problems {
			fmt.Fprintln(stderr, showLines(p))
		}
		fmt.Fprintf(stderr, "jobtop: running %s from %s (jobtop reload re-reads it)\n", plural(len(plan.Jobs), "job"), showLines(planFiles(plan)))
	}

	watchCtx, stopWatch := context.WithCancel(context.Background())
	defer stopWatch()
	// A job's own exit_on_end or exit_on_failure wins over
	// --exit-when-done when its end is the last: the file said so.
	endFor := func(req workspace.ExitRequest) *ExitError {
		exit := exitOnFailure(req)
		in.srv.SetShutdownReason(exit.Err.Error()) // for attached TUIs
		fmt.Fprintf(stderr, "jobtop: %v: stopping jobs (a signal kills them at once)\n", exit.Err)
		fmt.Fprint(stderr, exitTail(stderr, in.mgr, req))
		exit.Err = nil // said above, once
		return exit
	}
	select {
	case sig := <-signals:
		fmt.Fprintf(stderr, "jobtop: %v: stopping jobs (again to kill them at once)\n", sig)
		if num, ok := sig.(syscall.Signal); ok && exitWhenDone {
			fmt.Fprintf(stderr, "jobtop: not every job has ended (--exit-when-done): exit %d\n", 128+int(num))
			exit = notDone(128 + int(num))
		}
	case req := <-exitRequests(in):
		exit = endFor(req)
	case <-in.srv.ShutdownRequested():
		fmt.Fprintln(stderr, "jobtop: shutdown asked over the API: stopping jobs (a signal kills them at once)")
		if exitWhenDone {
			fmt.Fprintln(stderr, "jobtop: not every job has ended (--exit-when-done): exit 1")
			exit = notDone(1)
		}
	case done := <-doneWhen(watchCtx, in, exitWhenDone):
		if req, ok := in.exitRequestAmong(done.all); ok {
			exit = endFor(req)
			break
		}
		done.say(stderr)
		if done.tail != nil {
			fmt.Fprint(stderr, exitTail(stderr, in.mgr, workspace.ExitRequest{Job: done.tail.Name, ID: done.tail.ID}))
		}
		exit = done.exitError()
	case <-idleWhen(watchCtx, in, idleExit):
		fmt.Fprintf(stderr, "jobtop: no job and no client for %v (--idle-exit): exiting\n", idleExit)
	}
	return exit
}

// loadGateEnv, for tests only (as the keeper's noSubreaperEnv), names a
// file an instance (serve, serve -D, plain jobtop) waits for before it
// loads its job file: a job file slow to load (one of 20,000 jobs takes
// seconds), on cue. Unset, it costs one look at the environment.
const loadGateEnv = "JOBTOP_TEST_LOAD_GATE"

func awaitLoadGate() {
	awaitGate(loadGateEnv)
}

// startGateEnv, for tests only, is loadGateEnv for the moment a serve
// has loaded (and reported, for serve -D) its job file and is about to
// start its jobs; it writes GATE.waiting once there.
const startGateEnv = "JOBTOP_TEST_START_GATE"

func awaitGate(env string) {
	gate := os.Getenv(env)
	if gate == "" {
		return
	}
	if env == startGateEnv {
		os.WriteFile(gate+".waiting", nil, 0o600) //nolint:errcheck // for tests
	}
	for giveUp := time.Now().Add(maxGateWait); ; {
		if _, err := os.Stat(gate); err == nil {
			return
		}
		// The test that set the gate is over (its directory is gone, or
		// it was killed and never opened it): an instance left at the
		// gate would wait for ever.
		if _, err := os.Stat(filepath.Dir(gate)); os.IsNotExist(err) || time.Now().After(giveUp) {
			fmt.Fprintf(os.Stderr, "jobtop: %s %s was never opened: exiting\n", env, gate)
			os.Exit(1)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// maxGateWait is the longest a test gate holds an instance.
const maxGateWait = 10 * time.Minute

// exitRequests is the instance's job file's exit requests (see
// workspace.ExitRequests); nil, never ready, without a job file.
func exitRequests(in *servedInstance) <-chan workspace.ExitRequest {
	if in.ws == nil {
		return nil
	}
	return in.ws.ExitRequests()
}

// exitOnFailure is how jobtop ends when a job with process-compose's
// restart: exit_on_failure failed: with that job's exit code (128 + the
// signal's number when a signal killed it).
// The same for availability's exit_on_end (0 when the job succeeded, 1
// when it could not start) and exit_on_skipped (1: it could not start).
func exitOnFailure(req workspace.ExitRequest) *ExitError {
	setting := "its restart policy is exit_on_failure"
	if req.Why != "" {
		setting = "its availability has " + req.Why
	}
	switch {
	case req.Why == "exit_on_skipped" || req.Reason != "": // or exit_on_end: it could not start
		return &ExitError{Code: req.Code, Err: fmt.Errorf("job %s could not start (%s) and %s", req.Job, req.Reason, setting)}
	case req.Asked == "stopped":
		return &ExitError{Code: req.Code, Err: fmt.Errorf("job %s was stopped (exit %d) and %s", req.Job, req.Code, setting)}
	case req.Asked != "":
		return &ExitError{Code: req.Code, Err: fmt.Errorf("job %s %s (exit %d) and %s", req.Job, req.Asked, req.Code, setting)}
	case req.Signal != 0:
		return &ExitError{Code: req.Code, Err: fmt.Errorf("job %s was killed by %v (exit %d) and %s", req.Job, req.Signal, req.Code, setting)}
	case req.Code == 0:
		return &ExitError{Code: 0, Err: fmt.Errorf("job %s succeeded and %s", req.Job, setting)}
	}
	return &ExitError{Code: req.Code, Err: fmt.Errorf("job %s failed (exit %d) and %s", req.Job, req.Code, setting)}
}

// exitTailLines is how many of its last lines the job that ended jobtop
// (exit_on_failure) shows: why it failed is there, and the screen that
// showed it is gone.
const exitTailLines = 10

// exitTailCells bounds each of those lines: a line of a megabyte would
// push the others (the reason) off the screen.
const exitTailCells = 500

// exitTail is the last lines of the job that ended jobtop, behind its
// name as jobtop logs --all prints them (without colour: w need not be
// the terminal the styles were picked for).
func exitTail(w io.Writer, mgr *jobs.Manager, req workspace.ExitRequest) string {
	out, err := mgr.Output(req.ID)
	if err != nil {
		return ""
	}
	chunk := out.Tail(exitTailLines)
	lines := append(chunk.Lines, chunk.Partial...) // a last line without its newline too
	text := newTextOut(w, false)
	var b strings.Builder
	for _, l := range lines[max(0, len(lines)-exitTailLines):] {
		line := text.line(l.Text)
		if termtext.Width(line) > exitTailCells {
			line = termtext.CutCells(line, exitTailCells-1) + "…"
		}
		fmt.Fprintf(&b, "%s | %s\n", text.label(req.Job), line)
	}
	return b.String()
}
