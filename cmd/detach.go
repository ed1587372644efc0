package cmd

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"golang.org/x/sys/unix"

	"jobtop/control"
	"jobtop/jobfile"
)

// detachFlag is serve's -D/--detach: process-compose's up -D,
// overmind's start -D.
const detachFlag = "detach"

// serveDetached is jobtop serve -D: the same serve (same flags, job file
// and socket) started in the background, its output going to the serve
// log that jobtop run's background serve writes to. The socket is
// claimed here (l), before anything loads, and handed over to that serve
// (handedOverFlag), so no other instance takes it meanwhile. What the
// foreground serve refuses before it starts anything (a job file with
// problems, a socket a live instance holds) is refused here, with its
// words and exit code: the serve in the background tells this one
// (detachReport). Then it waits until the new instance answers, says
// what runs where, and returns.
func serveDetached(cmd *cobra.Command, l net.Listener) error {
	path := socketPath(cmd)
	sock, lock, err := control.HandOver(l)
	if err != nil {
		return fmt.Errorf("cannot hand %s over to a serve in the background: %w", path, err)
	}
	reports, report, err := os.Pipe()
	if err != nil {
		sock.Close()
		lock.Close()
		return err
	}
	// The go-ahead: the serve in the background starts no job until it
	// reads a byte here. Should this process end first (^C, SIGKILL),
	// the kernel closes it and that serve gives the socket up instead,
	// as the foreground serve's load stopped by ^C leaves nothing
	// running.
	goAhead, goAheadW, err := os.Pipe()
	if err != nil {
		sock.Close()
		lock.Close()
		reports.Close()
		report.Close()
		return err
	}
	defer goAheadW.Close()
	// Caught until the go-ahead, to say what they stopped.
	signals := make(chan os.Signal, 1)
	signal.Notify(signals, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP)
	defer signal.Stop(signals)
	args := append([]string{"serve", "--socket", path, "--" + handedOverFlag}, serveFlags(cmd)...)
	server, logPath, start, exited, err := startBackgroundServeWith([]*os.File{sock, lock, report, goAhead}, args...)
	// Its own copies now, or none: closing these gives the socket up
	// when it did not start.
	sock.Close()
	lock.Close()
	report.Close()
	goAhead.Close()
	if err != nil {
		reports.Close()
		return fmt.Errorf("cannot start jobtop serve in the background: %w", err)
	}
	defer reports.Close()
	dec := json.NewDecoder(reports)
	said, sig := readDetachReport(cmd.Context(), dec, signals)
	if sig != nil {
		goAheadW.Close() // no go-ahead: it gives the socket up
		return &ExitError{Code: 128 + int(sig.(syscall.Signal)), Err: fmt.Errorf("%s: stopped the background serve (pid %d) before it started any job", unix.SignalName(sig.(syscall.Signal)), server.Process.Pid)}
	}
	if said.Error == "" {
		goAheadW.Write([]byte{1}) //nolint:errcheck // it may have ended: awaitServe says so
	}
	goAheadW.Close()
	if said.Error != "" {
		return &ExitError{Code: said.Code, Err: errors.New(said.Error)}
	}
	// Signals stay caught while it starts its jobs (a big file's take
	// a minute): one says what goes on, rather than end serve -D silently.
	served := make(chan error, 1)
	go func() { served <- awaitServe(cmd.Context(), control.NewClient(path), server.Process.Pid, exited) }()
	select {
	case err = <-served:
	case sig := <-signals:
		num := sig.(syscall.Signal)
		return &ExitError{Code: 128 + int(num), Err: fmt.Errorf("%s: the serve in the background (pid %d) goes on starting its jobs; jobtop shutdown --socket %s stops it", unix.SignalName(num), server.Process.Pid, path)}
	}
	if err == nil {
		select {
		case werr := <-exited: // it answered, then ended (stopped meanwhile)
			err = serveEnded(server.Process.Pid, werr)
		default:
		}
	}
	if err != nil {
		if said := logSince(logPath, start); said != "" {
			err = fmt.Errorf("%v; it said (in %s):\n%s", err, logPath, said)
		}
		return &ExitError{Code: 1, Err: err}
	}
	// What its jobs' start said (env_cmds that failed), reported once
	// they are in place, as the foreground serve prints it.
	started, _ := readDetachReport(cmd.Context(), dec, nil)
	for _, w := range append(said.Warnings, started.Warnings...) {
		fmt.Fprintln(cmd.ErrOrStderr(), w)
	}
	what := "with no job file"
	if said.Files != "" {
		what = plural(said.Jobs, "job") + " from " + said.Files
	}
	fmt.Fprintf(cmd.ErrOrStderr(), "jobtop: serving %s in the background (pid %d, socket %s, log %s); jobtop attach to watch, jobtop shutdown to stop it\n",
		what, server.Process.Pid, path, logPath)
	c := control.NewClient(path)
	defer c.Close()
	tellPreviousEnd(cmd.Context(), cmd, c, server.Process.Pid)
	return nil
}

// handedOverFlag (hidden) tells the serve that serve -D starts that its
// socket is handed over (control.HandOver) on handedSocketFD and
// handedLockFD, and that it reports its job file on handedReportFD.
const handedOverFlag = "handed-over"

// The descriptors serve -D hands over (os/exec's ExtraFiles: 3 on).
const (
	handedSocketFD  = 3
	handedLockFD    = 4
	handedReportFD  = 5
	handedGoAheadFD = 6
)

func handedOver(cmd *cobra.Command) bool {
	on, _ := cmd.Flags().GetBool(handedOverFlag)
	return on
}

// detachReport is what the serve that serve -D started tells it once
// its job file is loaded: its problems (Error, the exit Code), or what
// serve -D says of it (its warnings, how many jobs from which files).
type detachReport struct {
	Error    string   `json:"error,omitempty"`
	Code     int      `json:"code,omitempty"`
	Warnings []string `json:"warnings,omitempty"`
	Jobs     int      `json:"jobs,omitempty"`
	Files    string   `json:"files,omitempty"`
}

// tellDetachParent reports the job file's load (plan, err) to the serve
// -D that started this serve, if it did.
func tellDetachParent(cmd *cobra.Command, plan *jobfile.Plan, err error) {
	if !handedOver(cmd) {
		return
	}
	var r detachReport
	switch {
	case err != nil:
		r.Error, r.Code = err.Error(), 1
		var exit *ExitError
		if errors.As(err, &exit) {
			r.Code = exit.Code
			if exit.Err == nil {
				r.Error = ""
			}
		}
	case plan != nil:
		for _, w := range plan.Warnings {
			r.Warnings = append(r.Warnings, w.Warning())
		}
		r.Jobs, r.Files = len(plan.Jobs), planFiles(plan)
	}
	f := detachReportPipe()
	json.NewEncoder(f).Encode(r) //nolint:errcheck // serve -D may be gone: it is for it alone
	if err != nil {
		f.Close()
	}
}

// tellDetachParentStarted reports, once the jobs are in place, what their
// start said (problems: env_cmds that failed) to the serve -D that
// started this serve, if it did; the last report.
func tellDetachParentStarted(cmd *cobra.Command, problems []string) {
	if !handedOver(cmd) {
		return
	}
	f := detachReportPipe()
	json.NewEncoder(f).Encode(detachReport{Warnings: problems}) //nolint:errcheck // as tellDetachParent
	f.Close()
}

var detachReportFile *os.File

// detachReportPipe is the pipe to serve -D (handedReportFD), one *os.File
// for both reports.
func detachReportPipe() *os.File {
	if detachReportFile == nil {
		detachReportFile = os.NewFile(handedReportFD, "report")
	}
	return detachReportFile
}

// readDetachReport reads what the serve in the background reported; a
// zero report if it ended without one (awaitServe then says how it
// ended), or the signal that came first.
func readDetachReport(ctx context.Context, dec *json.Decoder, signals <-chan os.Signal) (detachReport, os.Signal) {
	got := make(chan detachReport, 1)
	go func() {
		var r detachReport
		dec.Decode(&r) //nolint:errcheck // none: zero
		got <- r
	}()
	select {
	case r := <-got:
		return r, nil
	case sig := <-signals:
		return detachReport{}, sig
	case <-ctx.Done():
		return detachReport{}, nil
	}
}

// awaitDetachGoAhead, in the serve that serve -D started, once its job
// file is loaded and reported, waits for serve -D's go-ahead to start
// its jobs: an error if serve -D ended first (^C, a signal, SIGKILL:
// the go-ahead pipe's end, not a handler, tells), so that nothing starts
// that nobody asked for any more.
func awaitDetachGoAhead(cmd *cobra.Command) error {
	if !handedOver(cmd) {
		return nil
	}
	f := os.NewFile(handedGoAheadFD, "go-ahead")
	defer f.Close()
	var b [1]byte
	if n, _ := f.Read(b[:]); n == 1 {
		return nil
	}
	return errors.New("the jobtop serve -D that started this serve ended before its jobs started: nothing was started")
}

// serveFlags is the command line of the flags given to this serve, for
// the same serve in the background: without -D and --socket (given
// resolved), each as --name=value (repeated flags once per value).
func serveFlags(cmd *cobra.Command) []string {
	var args []string
	cmd.Flags().Visit(func(f *pflag.Flag) {
		switch {
		case f.Name == detachFlag || f.Name == socketFlag || f.Name == handedOverFlag:
		case isSlice(f):
			for _, v := range f.Value.(pflag.SliceValue).GetSlice() {
				args = append(args, "--"+f.Name+"="+v)
			}
		default:
			args = append(args, "--"+f.Name+"="+f.Value.String())
		}
	})
	return args
}

func isSlice(f *pflag.Flag) bool {
	_, ok := f.Value.(pflag.SliceValue)
	return ok
}

// awaitServe waits until the serve of pid answers on c's socket, or
// exits, or autoStartTimeout passes.
func awaitServe(ctx context.Context, c *control.Client, pid int, exited <-chan error) error {
	deadline := time.Now().Add(autoStartTimeout)
	for {
		probe, cancel := context.WithTimeout(ctx, time.Second)
		inst, err := c.Instance(probe)
		cancel()
		switch {
		case err == nil && inst.PID == pid:
			// It answers; once its jobs are in place, in full (it may
			// be starting a big file's). If it died meanwhile, that is
			// what to say, not that nothing listens.
			_, err := c.LoadedInstance(ctx)
			if err != nil {
				select {
				case werr := <-exited:
					return serveEnded(pid, werr)
				case <-time.After(2 * time.Second):
				}
			}
			return err
		case err == nil:
			return fmt.Errorf("another jobtop (pid %d) took %s first", inst.PID, c.Socket())
		case time.Now().After(deadline):
			return fmt.Errorf("jobtop serve (pid %d) did not answer on %s within %v", pid, c.Socket(), autoStartTimeout)
		}
		select {
		case werr := <-exited:
			return serveEnded(pid, werr)
		case <-time.After(20 * time.Millisecond):
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// serveEnded says how the serve of pid ended (werr, from its Wait)
// before it served.
func serveEnded(pid int, werr error) error {
	var exit *exec.ExitError
	if errors.As(werr, &exit) {
		if ws, ok := exit.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			return fmt.Errorf("jobtop serve (pid %d) was killed by %s before it served", pid, unix.SignalName(ws.Signal()))
		}
		return fmt.Errorf("jobtop serve (pid %d) exited with %d before it served", pid, exit.ExitCode())
	}
	if werr == nil {
		return fmt.Errorf("jobtop serve (pid %d) exited before it served", pid)
	}
	return fmt.Errorf("jobtop serve (pid %d) exited before it served (%v)", pid, werr)
}

// logSince is what the serve log holds past offset: what the serve just
// started wrote.
func logSince(path string, offset int64) string {
	b, err := os.ReadFile(path)
	if err != nil || int64(len(b)) < offset {
		return ""
	}
	return strings.TrimSuffix(string(b[offset:]), "\n")
}
