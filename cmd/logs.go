package cmd

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/spf13/cobra"

	"jobtop/control"
	"jobtop/jobs"
)

type logsOptions struct {
	cursor         uint64
	tail           int
	follow         bool
	stdout, stderr bool
	json           bool
	all            bool
	raw            bool
	// noLines is --tail 0: no line, only the cursor at the job's end
	// (as tail -n 0).
	noLines bool
}

func newLogsCmd() *cobra.Command {
	var o logsOptions
	cmd := jobCommand("logs ID | --all", "Print a job's output, or every job's",
		`Print a job's output: the lines the instance holds (its newest 10,000 by
default; the whole output is in the job's log file, see jobtop status).

On a terminal, lines are shown as in the TUI: colours kept, every other
escape sequence removed and control characters shown as \xNN, so output
cannot clear the screen, move the cursor, retitle the terminal or write
the clipboard. --raw, or a pipe, prints the lines as held, escape
sequences and all: a line over 16 KiB comes as lines of 16 KiB, bytes that
are not UTF-8 as U+FFFD, a line redrawn with \r as its last drawing. The
job's exact bytes are in its log file (log_path in jobtop status --json).

With --json, one answer of the API: {"lines": [{"seq", "stream",
"text"}...], "next_cursor": C, "more": B, "dropped": N, "partial": [...],
"state", "ended"}, at most 1,000 lines (--tail N: N, up to 10,000) and 4
MiB of text. Pass next_cursor back as --cursor to get only the lines not
yet returned ("more": true says more follow at once); "dropped" counts
lines the instance no longer holds between the cursor and the first line
returned, and "partial" holds lines still being written, with no "seq"
(their number is known only once complete) and not covered by the
cursor: a read after next_cursor returns them whole ("redrawn": true
when a \r went back to the line's start).

--follow prints lines as they come until the job ends (with --json, one
object per line of output), or until nothing reads them (logs -f X |
head -3: exit 141, as on SIGPIPE). Without --json it prints a line still being
written as it comes (a prompt shows before its newline), then only the
rest once complete. A line redrawn with \r (a progress bar) is drawn over
in place on a terminal, its latest state; to a pipe or a file it is
printed only once complete.

--all prints every job's lines in the order they arrived, each behind its
job's name ("web | GET /"); --stderr (--stdout) keeps every job's lines
of that stream only; with --json each line also has "job", "name"
and "arrival", and next_cursor is an arrival to pass back as --cursor.
With --follow it goes on until no job is left that can write.`,
		func(cmd *cobra.Command, c *control.Client, id jobs.ID) error {
			began := time.Now()
			if !o.follow {
				return logs(cmd, c, id, o)
			}
			err := followUntilReaderGone(cmd.Context(), cmd.OutOrStdout(), func(ctx context.Context) error {
				cmd.SetContext(ctx)
				return logs(cmd, c, id, o)
			})
			err, _ = instanceGone(cmd.Context(), c, fmt.Sprintf("following job %d's output", id), id, began, err)
			return err
		})
	oneJob, runOne := cmd.Args, cmd.RunE
	cmd.Args = func(cmd *cobra.Command, args []string) error {
		if o.all {
			if len(args) > 0 {
				return fmt.Errorf("logs --all takes no job ID, got %s", plural(len(args), "argument"))
			}
			return nil
		}
		if len(args) != 1 {
			return fmt.Errorf("logs takes one job ID (see jobtop ls), or --all for every job's lines, got %s", plural(len(args), "argument"))
		}
		return oneJob(cmd, args)
	}
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		o.noLines = cmd.Flags().Changed("tail") && o.tail == 0
		if o.all {
			c, began := newClient(cmd), time.Now()
			if !o.follow {
				return logsAll(cmd, c, o)
			}
			err := followUntilReaderGone(cmd.Context(), cmd.OutOrStdout(), func(ctx context.Context) error {
				cmd.SetContext(ctx)
				return logsAll(cmd, c, o)
			})
			err, _ = instanceGone(cmd.Context(), c, "following every job's output", 0, began, err)
			return err
		}
		return runOne(cmd, args)
	}
	f := cmd.Flags()
	f.Uint64Var(&o.cursor, "cursor", 0, "only lines after `C` (the next_cursor of an earlier read)")
	f.Var(newDecimalInt(&o.tail, 0), "tail", "only the newest `N` lines (0: none, only the cursor at the end with --json; with --follow, only new lines)")
	f.BoolVarP(&o.follow, "follow", "f", false, "keep printing new lines until the job ends")
	f.BoolVar(&o.stdout, "stdout", false, "only lines the job wrote to stdout")
	f.BoolVar(&o.stderr, "stderr", false, "only lines the job wrote to stderr")
	f.BoolVar(&o.json, "json", false, "print JSON (with --follow: one object per line)")
	f.BoolVar(&o.all, "all", false, "every job's lines, in the order they arrived")
	f.BoolVar(&o.raw, "raw", false, "print the lines as held, escape sequences too, also on a terminal (the exact bytes are in the log file)")
	cmd.MarkFlagsMutuallyExclusive("stdout", "stderr")
	cmd.MarkFlagsMutuallyExclusive("cursor", "tail")
	return cmd
}

func logs(cmd *cobra.Command, c *control.Client, id jobs.ID, o logsOptions) error {
	if o.tail < 0 {
		return usageErrorf("--tail must be 0 or more")
	}
	q := control.OutputQuery{Cursor: o.cursor, Tail: o.tail}
	if o.noLines {
		// Read the newest line for the cursor at the end, and show
		// none of it (not tail=0: that answer leaves out the line
		// being written, which --follow would then print as new).
		q.Tail = 1
	}
	switch {
	case o.stdout:
		q.Stream = "stdout"
	case o.stderr:
		q.Stream = "stderr"
	}
	if o.stderr || o.follow {
		if err := noteNothingToRead(cmd, c, id, o); err != nil {
			return err
		}
	}
	out := cmd.OutOrStdout()
	text := newTextOut(out, o.raw)
	if o.follow {
		skip := o.noLines
		notes := &dropNotes{w: cmd.ErrOrStderr(), id: id, now: time.Now, logLost: logLoses(cmd, c, id)}
		defer notes.flush()
		printer := newPartialPrinter(out, text)
		return c.FollowOutput(cmd.Context(), id, q, func(r control.OutputResponse) error {
			if skip {
				// The first answer is the tail read: from its cursor on.
				skip = false
				printer.seen(r)
				r = noLines(r)
				if !o.json {
					return nil
				}
			}
			if o.json {
				return json.NewEncoder(c1Safe{out}).Encode(r)
			}
			notes.add(r.Dropped)
			return printer.print(out, r)
		})
	}
	if o.json {
		r, err := c.ReadOutput(cmd.Context(), id, q)
		if err != nil {
			return err
		}
		if o.noLines {
			r = noLines(r)
		}
		return printJSON(out, r)
	}
	if o.noLines {
		_, err := c.ReadOutput(cmd.Context(), id, q) // an unknown job is still an error
		return err
	}
	// For people, every line asked for: answer after answer.
	printed := 0
	for {
		r, err := c.ReadOutput(cmd.Context(), id, q)
		if err != nil {
			return err
		}
		if printed == 0 {
			noteDropped(cmd, c, id, r)
		}
		if err := printLines(out, r.Lines, text); err != nil {
			return err
		}
		printed += len(r.Lines)
		if !r.More || (o.tail > 0 && printed >= o.tail) {
			// Lines still being written (a prompt, a progress bar) are
			// shown too; a later --cursor read returns them once complete.
			return printLines(out, r.Partial, text)
		}
		q = control.OutputQuery{Cursor: r.NextCursor, Stream: q.Stream}
		if o.tail > 0 {
			q.Max = o.tail - printed
		}
	}
}

// noteNothingToRead says on stderr why logs will print nothing where a
// person expects lines: --stderr of a job on a terminal (a terminal has
// one stream: all of it is stdout), --follow of a job never started
// (autostart: false: it has nothing to follow until someone starts it).
// An answer the instance refused (no such job) is left to the read,
// which says what is wrong; any other failure is returned: the instance
// going away while it answered (the read after would find none
// listening, as if there had been none), or its not answering within
// --answer-timeout or, over ssh, --host-timeout (the read after would
// wait as long again).
func noteNothingToRead(cmd *cobra.Command, c *control.Client, id jobs.ID, o logsOptions) error {
	j, err := c.Job(cmd.Context(), id)
	var refused *control.APIError
	switch {
	case errors.As(err, &refused) && !control.IsEnding(err):
		return nil // the read says what is wrong
	case err != nil:
		return err
	case o.stderr && j.TTY:
		fmt.Fprintf(cmd.ErrOrStderr(), "jobtop: job %d runs on a terminal, which has one stream: its output is all on stdout (jobtop logs %d)\n", id, id)
	case o.follow && j.State == jobs.StateCreated:
		fmt.Fprintf(cmd.ErrOrStderr(), "jobtop: job %d was never started, so there is nothing to follow (jobtop restart %d starts it)\n", id, id)
	}
	return nil
}

// noLines is r with no line: what --tail 0 answers, its cursor at the end.
func noLines(r control.OutputResponse) control.OutputResponse {
	r.Lines, r.Partial, r.Dropped, r.More = []jobs.Line{}, []jobs.Line{}, 0, false
	return r
}

// printLines prints lines, one write for all of them (stdout is not
// buffered: a write per line made following a busy job cost a system
// call per line).
func printLines(w io.Writer, lines []jobs.Line, text textOut) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	for _, l := range lines {
		bw.WriteString(text.line(l.Text)) //nolint:errcheck // Flush reports it
		bw.WriteByte('\n')                //nolint:errcheck // as above
	}
	return bw.Flush()
}

// noteDropped tells people, on stderr, about lines no longer held.
func noteDropped(cmd *cobra.Command, c *control.Client, id jobs.ID, r control.OutputResponse) {
	writeDropped(cmd.ErrOrStderr(), id, r.Dropped, logLoses(cmd, c, id))
}

// logLoses returns a check of whether job id's log file lost output to
// write errors (a full disk): asked only when lines were dropped.
func logLoses(cmd *cobra.Command, c *control.Client, id jobs.ID) func() bool {
	return func() bool {
		info, err := c.Job(cmd.Context(), id)
		return err == nil && info.LogDropped > 0
	}
}

// writeDropped says on w that n lines of job id are no longer held, and
// where they are: in the log file, unless logLost says it lost output.
func writeDropped(w io.Writer, id jobs.ID, n uint64, logLost func() bool) {
	if n == 0 {
		return
	}
	held := "lines are"
	if n == 1 {
		held = "line is"
	}
	fmt.Fprintf(w, "jobtop: %d %s no longer held in memory here; %s (jobtop status %d)\n", n, held, droppedWhere(logLost), id)
}

// droppedWhere says where dropped lines are: in the log file, unless
// logLost says it lost output.
func droppedWhere(logLost func() bool) string {
	if logLost != nil && logLost() {
		return "the log file could not all be written (jobtop status says how much it lost), so some may be nowhere"
	}
	return "every line is in the log file"
}

// dropNoteEvery is how often --follow at most says lines were dropped.
const dropNoteEvery = time.Second

// dropNotes coalesces --follow's notes about dropped lines: a fast writer
// outruns the reader at every answer, and a note per gap buried the
// terminal. It writes at most one note per dropNoteEvery, counting the
// lines of the gaps held back since; flush writes what is left.
type dropNotes struct {
	w    io.Writer
	id   jobs.ID
	now  func() time.Time
	last time.Time // when the last note was written
	held uint64    // dropped lines not yet told
	// logLost says whether the log file lost output too (nil: it did not).
	logLost func() bool
}

// add counts n more dropped lines, and says so when a notice is due.
func (d *dropNotes) add(n uint64) {
	d.held += n
	if d.held == 0 {
		return
	}
	if now := d.now(); d.last.IsZero() || now.Sub(d.last) >= dropNoteEvery {
		d.last = now
		d.flush()
	}
}

// flush says what was counted and not yet said.
func (d *dropNotes) flush() {
	writeDropped(d.w, d.id, d.held, d.logLost)
	d.held = 0
}
