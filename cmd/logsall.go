package cmd

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/spf13/cobra"

	"jobtop/control"
	"jobtop/jobs"
	"jobtop/styles"
)

// logsAll prints every job's lines in arrival order: `jobtop logs --all`.
func logsAll(cmd *cobra.Command, c *control.Client, o logsOptions) error {
	if o.tail < 0 {
		return usageErrorf("--tail must be 0 or more")
	}
	q := control.AllOutputQuery{Cursor: o.cursor, Tail: o.tail}
	if o.noLines {
		q.Tail = 1 // for the cursor at the end; its line is not shown
	}
	switch {
	case o.stdout:
		q.Stream = "stdout"
	case o.stderr:
		q.Stream = "stderr"
	}
	out := cmd.OutOrStdout()
	p := newPrefixer(newTextOut(out, o.raw))
	list, err := c.Jobs(cmd.Context())
	if err != nil {
		return err
	}
	var onTerminal []string
	for _, j := range list {
		p.width = min(max(p.width, ansi.StringWidth(p.text.label(j.Name))), prefixMax)
		if j.TTY {
			onTerminal = append(onTerminal, fmt.Sprint(j.ID))
		}
	}
	if o.stderr && len(onTerminal) > 0 {
		// As logs --stderr of one such job says: it would print none
		// of their lines, without a word.
		which, its := "job "+onTerminal[0]+" runs", "its"
		if len(onTerminal) > 1 {
			which, its = "jobs "+strings.Join(onTerminal, ", ")+" run", "their"
		}
		fmt.Fprintf(cmd.ErrOrStderr(), "jobtop: %s on a terminal, which has one stream: %s output is all on stdout\n", which, its)
	}
	notes := allDropNotes{w: cmd.ErrOrStderr(), text: newTextOut(cmd.ErrOrStderr(), false), follow: o.follow, last: map[jobs.ID]time.Time{}, now: time.Now,
		logLost: func(id jobs.ID) func() bool { return logLoses(cmd, c, id) }}
	if o.follow {
		skip := o.noLines
		return c.FollowAllOutput(cmd.Context(), q, func(r control.AllOutputResponse) error {
			if skip {
				skip = false
				r.Lines, r.More, r.Dropped = []control.JobLine{}, false, nil
				if !o.json {
					return nil
				}
			}
			if o.json {
				return json.NewEncoder(c1Safe{out}).Encode(r)
			}
			notes.add(r.Dropped)
			return p.print(out, r.Lines)
		})
	}
	if o.json {
		r, err := c.ReadAllOutput(cmd.Context(), q)
		if err != nil {
			return err
		}
		if o.noLines {
			r.Lines, r.More, r.Dropped = []control.JobLine{}, false, nil
		}
		return printJSON(out, r)
	}
	if o.noLines {
		return nil
	}
	// For people, every line asked for: answer after answer.
	printed := 0
	for {
		r, err := c.ReadAllOutput(cmd.Context(), q)
		if err != nil {
			return err
		}
		notes.add(r.Dropped)
		if err := p.print(out, r.Lines); err != nil {
			return err
		}
		printed += len(r.Lines)
		if !r.More || (o.tail > 0 && printed >= o.tail) {
			return nil
		}
		q = control.AllOutputQuery{Cursor: r.NextCursor}
		if o.tail > 0 {
			q.Max = o.tail - printed
		}
	}
}

// allDropNotes tells people, on stderr, about lines `logs --all` no
// longer finds in memory: once for each job (every answer whose cursor is
// before a gap names it), or when following, for each job at most once
// per dropNoteEvery (a follower that a fast writer outruns meets a new
// gap at every answer).
type allDropNotes struct {
	w       io.Writer
	text    textOut
	follow  bool
	last    map[jobs.ID]time.Time // when each job's last note was written
	now     func() time.Time
	logLost func(jobs.ID) func() bool
}

func (d *allDropNotes) add(dropped []control.DroppedLines) {
	var gone []string // removed jobs, past the first few: said in one line
	for _, g := range dropped {
		now := d.now()
		if last, ok := d.last[g.Job]; ok && (!d.follow || now.Sub(last) < dropNoteEvery) {
			continue
		}
		d.last[g.Job] = now
		if g.Removed {
			gone = append(gone, fmt.Sprintf("job %d (%s)", g.Job, truncate(g.Name, 40)))
			if len(gone) > maxRemovedNamed {
				continue
			}
		}
		what := "some of its lines are"
		switch {
		case g.Lines == 1:
			what = "1 of its lines is"
		case g.Lines > 1:
			what = fmt.Sprintf("%d of its lines are", g.Lines)
		}
		if g.Removed {
			// No status to ask: the job is gone.
			fmt.Fprintf(d.w, "jobtop: %s: %s no longer held here: job %d was removed; its log file has them\n",
				d.text.label(g.Name), what, g.Job)
			continue
		}
		fmt.Fprintf(d.w, "jobtop: %s: %s no longer held in memory here; %s (jobtop status %d)\n",
			d.text.label(g.Name), what, droppedWhere(d.logLost(g.Job)), g.Job)
	}
	if n := len(gone) - maxRemovedNamed; n > 0 {
		fmt.Fprintf(d.w, "jobtop: and %s removed since with lines not read here (%s...); their log files have them\n",
			plural(n, "more job"), strings.Join(gone[maxRemovedNamed:min(len(gone), maxRemovedNamed+3)], ", "))
	}
}

// maxRemovedNamed is how many removed jobs one answer's notes name a
// line each; the rest are counted in one line (the cap on finished jobs
// can remove hundreds while a reader waits).
const maxRemovedNamed = 3

// prefixer writes lines behind their job's name, padded to the longest
// name of the jobs (those that come later can widen it) and coloured per
// job when the output is a terminal
// that takes colours (and NO_COLOR is not set).
type prefixer struct {
	st    styles.Styles
	text  textOut
	width int
}

func newPrefixer(text textOut) *prefixer {
	// Say the background rather than let the first colour ask the
	// terminal (an OSC 11 query, and up to 5 s waiting where nothing
	// answers: an agent's pseudo-terminal). The TUI asks; a CLI command
	// never does.
	lipgloss.SetHasDarkBackground(!lightBackground(os.Getenv("COLORFGBG")))
	return &prefixer{st: styles.Default(), text: text}
}

// lightBackground reads COLORFGBG ("15;0": foreground;background), which
// some terminals set: a background of 7 or 15 is light. Without it, a
// background is taken for dark, as most are.
func lightBackground(colorfgbg string) bool {
	i := strings.LastIndexByte(colorfgbg, ';')
	if i < 0 {
		return false
	}
	bg := colorfgbg[i+1:]
	return bg == "7" || bg == "15"
}

// prefixMax bounds the width names are padded to.
const prefixMax = 24

func (p *prefixer) print(w io.Writer, lines []control.JobLine) error {
	for _, l := range lines {
		p.width = min(max(p.width, ansi.StringWidth(p.text.label(l.Name))), prefixMax)
	}
	for _, l := range lines {
		name := ansi.Truncate(p.text.label(l.Name), p.width, "…")
		pad := p.width - ansi.StringWidth(name)
		name = p.st.JobName(int(l.Job)).Render(name)
		if _, err := fmt.Fprintf(w, "%s%*s | %s\n", name, pad, "", p.text.line(l.Text)); err != nil {
			return err
		}
	}
	return nil
}
