package cmd

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/spf13/cobra"

	"jobtop/control"
	"jobtop/jobs"
	"jobtop/termtext"
)

func newLsCmd() *cobra.Command {
	var asJSON bool
	var states, names []string
	cmd := &cobra.Command{
		Use:   "ls [ID|NAME]... [--state STATE] [--name GLOB]",
		Short: "List the instance's jobs",
		Long: `List the jobs of the jobtop instance on the socket, oldest first: a table
for people (ID, NAME, STATE, PID, TIME, EXIT, COMMAND), or with --json an
array of job objects (the same objects as jobtop status --json).

Given IDs or names, only those jobs (a name is the newest job with it);
--state (a state, or several comma-separated; "ended" for every state of
a job that is over) and --name (a glob such as 'web-*') keep the jobs
they match, as they pick jobs for stop, kill, restart and rm.`,
		ValidArgsFunction: completeJobs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkSelectors(states, names); err != nil {
				return err
			}
			if slices.Contains(args, "") {
				return usageErrorf("an empty job name picks nothing: give a job's ID or name")
			}
			f := control.JobFilter{Jobs: args, State: strings.Join(states, ","), Name: strings.Join(names, ",")}
			if asJSON {
				return printJobsJSON(cmd, f)
			}
			rows, err := control.JobsAs[lsRow](cmd.Context(), newClient(cmd), f)
			if err != nil {
				return selectionError(err)
			}
			if sel := (selectOptions{states: states, names: names}); len(rows) == 0 && sel.selecting() {
				// the header alone could be a selector that is wrong
				fmt.Fprintf(cmd.ErrOrStderr(), "jobtop: no job matches %s\n", describeSelection(sel, args))
			}
			out := cmd.OutOrStdout()
			return writeLsTable(out, rows, newTextOut(out, false), time.Now(), terminalColumns(out))
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print a JSON array of jobs")
	cmd.Flags().StringArrayVar(&states, "state", nil, "only the jobs in `STATE` (running, failed, ended...; comma-separated for several)")
	cmd.Flags().StringArrayVar(&names, "name", nil, "only the jobs whose name matches `GLOB` (* ? [...]; comma-separated or repeated for several)")
	return cmd
}

// printJobsJSON prints the instance's job list as it sent it, indented as
// printJSON indents (not decoded and encoded again: the same values, in
// a third of the time with 1,000 jobs).
func printJobsJSON(cmd *cobra.Command, f control.JobFilter) error {
	c := newClient(cmd)
	raw, err := c.JobsJSON(cmd.Context(), f)
	if err != nil {
		return selectionError(err)
	}
	var out bytes.Buffer
	out.Grow(len(raw) + len(raw)/4)
	if err := json.Indent(&out, bytes.TrimSpace(raw), "", "  "); err != nil {
		return fmt.Errorf("unreadable answer from the instance: %w", err)
	}
	out.WriteByte('\n')
	_, err = c1Safe{cmd.OutOrStdout()}.Write(out.Bytes())
	return err
}

// lsRow is what the table shows of a job: the fields of jobs.Info it
// reads, under the same JSON names, which are all control.JobsAs asks the
// instance for (?fields=).
type lsRow struct {
	ID        jobs.ID     `json:"id"`
	Name      string      `json:"name"`
	Command   string      `json:"command"`
	State     jobs.State  `json:"state"`
	PID       int         `json:"pid"`
	Stopped   bool        `json:"stopped"`
	ExitCode  *int        `json:"exit_code"`
	Signal    jobs.Signal `json:"signal"`
	Started   *time.Time  `json:"started_at"`
	Ended     *time.Time  `json:"ended_at"`
	KillAt    *time.Time  `json:"kill_at"`
	RestartAt *time.Time  `json:"restart_at"`
}

func (r lsRow) info() jobs.Info {
	return jobs.Info{ID: r.ID, Name: r.Name, Command: r.Command, State: r.State, PID: r.PID, Stopped: r.Stopped,
		ExitCode: r.ExitCode, Signal: r.Signal, Started: r.Started, Ended: r.Ended, KillAt: r.KillAt, RestartAt: r.RestartAt}
}

// lsColumns are the table's columns; each but the last is padded to its
// widest cell and two spaces: in columns on a terminal, else in runes, as
// text/tabwriter counts.
var lsColumns = [...]string{"ID", "NAME", "STATE", "PID", "TIME", "EXIT", "COMMAND"}

// lsCommandWidth is where COMMAND is cut, in runes; on a terminal
// narrower than the row, where the terminal ends (in columns).
const lsCommandWidth = 60

// lsMinCommandWidth is as narrow as COMMAND gets on a narrow terminal.
const lsMinCommandWidth = 12

// writeLsTable writes the jobs as ls's table, in one write. It lays the
// columns out as text/tabwriter did, at a tenth of its cost with 1,000
// jobs (BenchmarkLsTable1000). Given a terminal's width (cols > 0), it
// cuts COMMAND so that each row fits on one line of it.
func writeLsTable(w io.Writer, rows []lsRow, text textOut, now time.Time, cols int) error {
	cells := make([][len(lsColumns)]string, 0, len(rows)+1)
	cells = append(cells, lsColumns)
	for _, row := range rows {
		j := row.info()
		pid := "-" // no process: queued, ended, or stopping once it exited
		if j.State.Active() && j.PID != 0 {
			pid = strconv.Itoa(j.PID)
		}
		cells = append(cells, [len(lsColumns)]string{strconv.Itoa(int(j.ID)), truncate(text.label(j.Name), 24),
			stateText(j, now), pid, formatRuntime(j.Runtime(now)), exitText(j), truncate(text.label(termtext.OneLine(j.Command)), lsCommandWidth)})
	}
	const last = len(lsColumns) - 1
	// On a terminal, what a cell takes is its width there (a wide
	// character two columns); elsewhere runes, as text/tabwriter counts.
	width := utf8.RuneCountInString
	if cols > 0 {
		width = termtext.Width
	}
	var widths [last]int
	for _, c := range cells {
		for i := range widths {
			widths[i] = max(widths[i], width(c[i]))
		}
	}
	if cols > 0 {
		room := cols
		for _, n := range widths {
			room -= n + 2
		}
		room = max(room, lsMinCommandWidth)
		for i := range cells[1:] {
			if c := &cells[i+1][last]; termtext.Width(*c) > room {
				*c = termtext.CutCells(*c, room-1) + "…"
			}
		}
	}
	size := 0
	for _, c := range cells {
		size += len(c[last]) + 1
	}
	for _, n := range widths {
		size += (n + 2) * len(cells)
	}
	buf := make([]byte, 0, size)
	for _, c := range cells {
		for i, w := range widths {
			buf = append(buf, c[i]...)
			for pad := w - width(c[i]) + 2; pad > 0; pad-- {
				buf = append(buf, ' ')
			}
		}
		buf = append(append(buf, c[last]...), '\n')
	}
	_, err := w.Write(buf)
	return err
}
