package cmd

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"jobtop/control"
	"jobtop/jobs"
	"jobtop/termtext"
)

// Exit codes of jobtop wait besides the job's own.
const (
	exitTimedOut = 124 // the job timed out, or --timeout passed first
	exitNoRun    = 125 // the job could not start (or never ran)
)

type waitOptions struct {
	until   string
	ready   bool
	timeout time.Duration
	raw     bool
	// cursor (--cursor) counts, for --until, only the output after it;
	// cursorSet says it was given (0 is a cursor too).
	cursor    uint64
	cursorSet bool
}

func newWaitCmd() *cobra.Command {
	var o waitOptions
	var sel selectOptions
	cmd := jobCommand("wait ID|NAME... | --all | --state STATE | --name GLOB", "Wait for jobs to end, or for a line of a job's output",
		`Block until the job ends, and exit with its exit code: 124 if it timed
out, 128+N if a signal N ended it, 125 if it could not start, 255 if no
instance answers or the instance ended while waiting (its jobs end with
it).

With --until REGEX, return as soon as a line of the job's output matches
(e.g. a dev server's "listening on"): print that line and exit 0; exit 1
if the job ends first. The line's text is matched without its colours
and other escape sequences. Lines from before the job's latest restart
do not count. With --cursor C (the next_cursor of jobtop logs --json),
only output after line C counts: the next prompt of a program typed into
(read C, jobtop send, then wait --until '^\$ $' --cursor C), where the
prompt already shown would match at once; a line still being written
counts once a line after C was complete.

With --ready, return 0 once the job is ready (its ready check in the job
file passed: a log line, a delay, or simply running); exit 1 if it fails
or is stopped first. A job that succeeded is ready, as the jobs that
depend on it take it, also before its check passed. A job that will
restart (its restart policy) has not ended yet.

With --timeout, give up after DUR and exit 124; the job keeps running.

Several jobs: give several IDs or names, or pick them with --all, --state
(a state, or several comma-separated; "ended" means succeeded, failed,
killed, timed_out or error) and --name (a glob such as 'web-*', or
several), as stop, kill, restart and rm pick them; the jobs are those
picked when wait starts. --all leaves out jobs never started (autostart:
false) and those queued behind one, saying so on stderr: they would
never end. Inside a job of the same instance (JOBTOP_JOB_ID), the
selectors leave out that job and those queued behind it, saying so, and
naming it is refused (exit 2): it cannot end while it waits. Block
until every one has ended (a queued job,
or one its restart policy runs again, has not), printing a line on
stdout for each as it ends, those that had ended first, in ID order
("job 3 (web) failed (exit 2)"; "job 4 (db)
was removed while waited for" for one removed meanwhile; "job 5 (cron)
was removed by a reload: it was killed by SIGTERM" for one a reload
stopped to remove it, with the exit of that end). Exit 0 when
every job succeeded; otherwise the exit the one-job wait gives for the
job with the lowest ID that did not succeed (1 for one removed): the
same jobs exit with the same code however their ends interleave. The
jobs the cap on finished jobs (--keep-finished) removed before wait began
count too, for --all, --state and --name (not those removed by rm or a
reload): one that did not succeed gives its exit as above, and stderr
says how many, naming the first few. With
--timeout, exit 124 when it passes first, naming the jobs still running
(they keep running); exit 255 when the instance goes away. A selector
that picks no job says so on stderr and exits 0. --until and --ready
watch one job: with several they are refused (exit 2).`,
		func(cmd *cobra.Command, c *control.Client, id jobs.ID) error {
			return wait(cmd, c, id, o)
		})
	cmd.Flags().StringVar(&o.until, "until", "", "return once an output line matches `REGEX`")
	cmd.Flags().BoolVar(&o.ready, "ready", false, "return once the job is ready (or succeeded); exit 1 if it fails or is stopped first")
	cmd.Flags().Var(durationFlag{d: &o.timeout, nonNegative: true}, "timeout", "give up after `DUR` (exit 124); the job keeps running (0, the default: wait as long as it takes)")
	cmd.Flags().Uint64Var(&o.cursor, "cursor", 0, "with --until: only output after line `C` (next_cursor of jobtop logs --json)")
	cmd.Flags().BoolVar(&o.raw, "raw", false, "print the matching line as jobtop holds it, escapes and all (a terminal job's hold only colours), also on a terminal (see jobtop logs)")
	cmd.MarkFlagsMutuallyExclusive("until", "ready")
	sel.addFlags(cmd.Flags())
	// One job as ever; several through the bulk commands' selectors.
	cmd.Args = cobra.ArbitraryArgs
	// A job named when no instance answers is not found for the same
	// reason as an ID: no instance, exit exitInstanceGone.
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		if cmd.Flags().Changed("until") && o.until == "" {
			// It would match every line: an empty $pattern in a script,
			// not a wait for any line.
			return usageErrorf("--until: give a regex to match a line with (it was empty)")
		}
		if o.cursorSet = cmd.Flags().Changed("cursor"); o.cursorSet && o.until == "" {
			return usageErrorf("--cursor is where --until starts looking: give --until REGEX too")
		}
		if o.raw && o.until == "" {
			// --raw is how --until prints its line: alone it would
			// change nothing, and say nothing about it.
			return usageErrorf("--raw is for the line --until prints: give --until REGEX too")
		}
		var err error
		if len(args) == 1 && !sel.selecting() {
			err = waitOne(cmd, args[0], o)
		} else {
			err = waitMany(cmd, args, sel, o)
		}
		var notRunning *control.NotRunningError
		var noAnswer *control.NoAnswerError
		if errors.As(err, &notRunning) && !errors.Is(err, syscall.EACCES) || errors.As(err, &noAnswer) {
			// No instance answers (none there, or one stopped or hung):
			// the job has no outcome to give.
			return &ExitError{Code: exitInstanceGone, Err: err}
		}
		return err
	}
	return cmd
}

// waitOne waits for the job arg names (an ID or a name). The instance
// ending while a name is looked up ends the wait as it would later: exit
// exitInstanceGone, in the same words, about the name.
func waitOne(cmd *cobra.Command, arg string, o waitOptions) error {
	c, began := newClient(cmd), time.Now()
	id, err := resolveJob(cmd.Context(), c, arg)
	if err != nil {
		if err, gone := instanceGone(cmd.Context(), c, fmt.Sprintf("waiting for job %q", arg), 0, began, err); gone {
			return &ExitError{Code: exitInstanceGone, Err: err}
		}
		return err
	}
	if self, ok := callerJob(cmd.Context(), c); ok && id == self && o.until == "" && !o.ready {
		name := arg
		if j, err := c.Job(cmd.Context(), id); err == nil {
			name = j.Name
		}
		return errWaitForSelf(id, name)
	}
	return wait(cmd, c, id, o)
}

// wait waits as o asks; when the instance goes away first (or none
// answers), it exits exitInstanceGone, which only a job's own exit 255
// reads as too (the line on stderr tells them apart).
func wait(cmd *cobra.Command, c *control.Client, id jobs.ID, o waitOptions) error {
	began := time.Now()
	err := waitFor(cmd, c, id, o)
	if err, gone := instanceGone(cmd.Context(), c, fmt.Sprintf("waiting for job %d", id), id, began, err); gone {
		return &ExitError{Code: exitInstanceGone, Err: err}
	}
	return err
}

func waitFor(cmd *cobra.Command, c *control.Client, id jobs.ID, o waitOptions) error {
	if o.until != "" {
		return waitUntil(cmd, c, id, o)
	}
	if o.ready {
		return waitReady(cmd, c, id, o)
	}
	resp, err := c.WaitJob(cmd.Context(), id, o.timeout)
	if err != nil {
		return err
	}
	switch {
	case !resp.Ended && resp.Job.RestartAt != nil:
		return &ExitError{Code: exitTimedOut, Err: fmt.Errorf("job %d is %s after %v: its restart policy runs it again (jobtop stop %d cancels that)", id, stateText(resp.Job, time.Now()), o.timeout, id)}
	case !resp.Ended:
		return &ExitError{Code: exitTimedOut, Err: fmt.Errorf("job %d is still %s after %v (%s; jobtop stop %d ends it)", id, resp.Job.State, o.timeout, goesOn(resp.Job.State), id)}
	}
	return jobExit(resp.Job)
}

func waitReady(cmd *cobra.Command, c *control.Client, id jobs.ID, o waitOptions) error {
	resp, err := c.WaitReady(cmd.Context(), id, o.timeout)
	j := resp.Job
	switch {
	case err != nil:
		return err
	case j.Ready && !resp.Ended:
		return nil
	case !resp.Ended:
		return &ExitError{Code: exitTimedOut, Err: fmt.Errorf("job %d is not ready after %v (it is %s; %s)", id, o.timeout, j.State, goesOn(j.State))}
	case j.State == jobs.StateCreated:
		return &ExitError{Code: 1, Err: fmt.Errorf("job %d was never started (jobtop restart %d starts it)", id, id)}
	}
	why := string(j.State)
	if e := exitText(j); e != "-" {
		why += " (" + e + ")"
	}
	if j.Error != "" {
		why += ": " + j.Error
	}
	ended := "ended " + why
	if outside := j.KilledFromOutsideText(); outside != "" {
		// A signal jobtop did not send (kill -9, the OOM killer): said
		// as status and the TUI say it.
		ended = "was " + outside
	}
	switch {
	case j.LastRunWasReady() && j.State == jobs.StateSucceeded:
		// Its run was ready before it ended (a job with no check is
		// ready once it runs): it did not end first.
		fmt.Fprintf(cmd.ErrOrStderr(), "jobtop: job %d was ready, and has ended since: %s\n", id, why)
		return nil
	case j.State == jobs.StateSucceeded:
		// Done before its check passed (a build whose ready line never
		// came): a job that depends on it with ready takes it as ready
		// and runs, so this wait goes on too.
		fmt.Fprintf(cmd.ErrOrStderr(), "jobtop: job %d succeeded before its ready check passed: ready, as jobs that depend on it take it\n", id)
		return nil
	case j.LastRunWasReady():
		return &ExitError{Code: 1, Err: fmt.Errorf("job %d was ready, then %s", id, ended)}
	}
	return &ExitError{Code: 1, Err: fmt.Errorf("job %d %s before it was ready", id, ended)}
}

// goesOn says what a job a wait gave up on does next: a queued job is not
// running yet.
func goesOn(s jobs.State) string {
	if s == jobs.StateQueued {
		return "it stays queued"
	}
	return "it keeps running"
}

// untilLine says whether a line is the one --until waits for: its text
// as shown, without its colours (a coloured "\e[1mProceed" matches
// '^Proceed'); a line being written that shows nothing yet (a colour
// reset after a prompt, a tab, which moves the cursor) is no line to
// match '^$'.
func untilLine(re *regexp.Regexp) func(jobs.Line) bool {
	return func(l jobs.Line) bool {
		shown := termtext.Printed(l.Text, false)
		return l.Stream != jobs.Meta && (l.Seq != 0 || strings.Trim(shown, "\t") != "") && re.MatchString(shown)
	}
}

// errMatched ends the output stream once a line matched.
var errMatched = errors.New("matched")

func waitUntil(cmd *cobra.Command, c *control.Client, id jobs.ID, o waitOptions) error {
	re, err := jobs.CompilePattern("--until", o.until)
	if err != nil {
		return &ExitError{Code: usageExit, Err: err}
	}
	ctx := cmd.Context()
	if o.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, o.timeout)
		defer cancel()
	}
	text := newTextOut(cmd.OutOrStdout(), o.raw)
	// Only the current run's lines count: read from where it began.
	job, err := c.Job(ctx, id)
	if err != nil {
		return timedOut(err, id, o)
	}
	from := job.RunCursor
	if o.cursorSet {
		if o.cursor > job.Lines {
			return &ExitError{Code: usageExit, Err: fmt.Errorf("--cursor %d is past job %d's last line (%d)", o.cursor, id, job.Lines)}
		}
		from = max(from, o.cursor)
	}
	m := control.NewNextMatcher(from, o.cursorSet, untilLine(re))
	if o.cursorSet {
		now, err := c.ReadOutput(ctx, id, control.AtCursor(from))
		if err != nil {
			return timedOut(err, id, o)
		}
		m.StaleAt(now.Partial)
	}
	var last control.OutputResponse
	err = c.FollowOutput(ctx, id, control.OutputQuery{Cursor: from}, func(r control.OutputResponse) error {
		last = r
		if l, ok := m.Find(r); ok {
			fmt.Fprintln(cmd.OutOrStdout(), text.line(l.Text))
			return errMatched
		}
		return nil
	})
	switch {
	case errors.Is(err, errMatched):
		return nil
	case err != nil:
		return timedOut(err, id, o)
	}
	if last.State == jobs.StateCreated {
		// It has not ended: it never ran (wait --ready says the same).
		return &ExitError{Code: 1, Err: fmt.Errorf("job %d was never started (jobtop restart %d starts it)", id, id)}
	}
	return &ExitError{Code: 1, Err: fmt.Errorf("job %d ended (%s) before an output line matched %q", id, last.State, o.until)}
}

// timedOut is err, or when it is --timeout running out (also before the
// first answer, on a loaded machine), the timeout's exit.
func timedOut(err error, id jobs.ID, o waitOptions) error {
	if errors.Is(err, context.DeadlineExceeded) {
		return &ExitError{Code: exitTimedOut, Err: fmt.Errorf("no output line of job %d matched %q within %v (the job keeps running)", id, o.until, o.timeout)}
	}
	return err
}

// jobExit turns how a job ended into jobtop's exit: its exit code, 124
// for timed_out, 128+N for a signal, 125 if it could not start.
func jobExit(j jobs.Info) error {
	code, why, ok := jobEnd(j)
	if ok {
		return nil
	}
	return &ExitError{Code: code, Err: fmt.Errorf("job %d %s", j.ID, why)}
}

// jobEnd says how a job ended ("failed (exit 2)"), and the exit jobtop
// wait gives for it; ok is for a job that succeeded (exit 0). A job
// stopped that exited 0 by itself did not succeed, and exits 0. One a
// reload stopped to remove it says so ("was removed by a reload: it was
// killed by SIGTERM"), with the exit of how it ended.
func jobEnd(j jobs.Info) (code int, why string, ok bool) {
	switch j.State {
	case jobs.StateSucceeded:
		return 0, "succeeded", true
	case jobs.StateFailed:
		code = 1
		if j.ExitCode != nil {
			code = *j.ExitCode
		}
		why = fmt.Sprintf("failed (exit %d)", code)
	case jobs.StateTimedOut:
		code, why = exitTimedOut, "timed out"
	case jobs.StateKilled:
		switch {
		case j.ExitCode != nil:
			// It ran, and exited by itself once asked to stop (its stop
			// command, or a signal it handled): the code it exited with.
			code = *j.ExitCode
			why = fmt.Sprintf("was stopped, and exited %d", code)
			if j.Signal != 0 {
				why = fmt.Sprintf("was stopped by %s, and exited %d", j.Signal, code)
			}
		case j.KilledFromOutside:
			// A signal jobtop did not send: kill -9 PID, the OOM killer.
			code, why = 128+int(j.Signal), "was "+j.KilledFromOutsideText()
		case j.Signal != 0:
			code, why = 128+int(j.Signal), "was killed by "+j.Signal.String()
		default:
			code, why = exitNoRun, "was stopped before it ran"
		}
	case jobs.StateCreated:
		code, why = exitNoRun, fmt.Sprintf("was never started (jobtop restart %d starts it)", j.ID)
		if j.Removing != "" { // gone: nothing to restart
			why = "was never started"
		}
	default:
		code, why = exitNoRun, "could not start"
	}
	if j.Error != "" && j.State != jobs.StateTimedOut && !strings.HasSuffix(why, "before it ran") {
		why += ": " + j.Error
	}
	if j.Removing != "" {
		// Stopped to be removed (a reload of a job file that no longer
		// has it): not a stop by hand. The exit is still its own.
		why = "was removed by a " + j.Removing + ": it " + why
	}
	return code, why, false
}
