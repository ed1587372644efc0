package cmd

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"jobtop/control"
	"jobtop/jobs"
)

func newLsCmd() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "ls",
		Short: "List the instance's jobs",
		Long: `List the jobs of the jobtop instance on the socket, oldest first: a table
for people (ID, NAME, STATE, PID, TIME, EXIT, COMMAND), or with --json an
array of job objects (the same objects as jobtop status --json).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if asJSON {
				return printJobsJSON(cmd)
			}
			rows, err := control.JobsAs[lsRow](cmd.Context(), newClient(cmd))
			if err != nil {
				return err
			}
			text := newTextOut(cmd.OutOrStdout(), false)
			// One write at the end, not one per cell (1,000 jobs made
			// 14,000 writes).
			out := bufio.NewWriter(cmd.OutOrStdout())
			defer out.Flush()
			tw := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "ID\tNAME\tSTATE\tPID\tTIME\tEXIT\tCOMMAND")
			now := time.Now()
			for _, row := range rows {
				j := row.info()
				pid := "-"
				if j.State.Active() {
					pid = fmt.Sprint(j.PID)
				}
				fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%s\t%s\n", j.ID, truncate(text.label(j.Name), 24), stateText(j, now), pid,
					formatRuntime(j.Runtime(now)), exitText(j), truncate(text.label(j.Command), 60))
			}
			return tw.Flush()
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print a JSON array of jobs")
	return cmd
}

// printJobsJSON prints the instance's job list as it sent it, indented as
// printJSON indents (not decoded and encoded again: the same values, in
// a third of the time with 1,000 jobs).
func printJobsJSON(cmd *cobra.Command) error {
	c := newClient(cmd)
	raw, err := c.JobsJSON(cmd.Context())
	if err != nil {
		return err
	}
	var out bytes.Buffer
	out.Grow(len(raw) + len(raw)/4)
	if err := json.Indent(&out, bytes.TrimSpace(raw), "", "  "); err != nil {
		return fmt.Errorf("unreadable answer from the instance: %w", err)
	}
	out.WriteByte('\n')
	_, err = out.WriteTo(cmd.OutOrStdout())
	return err
}

// lsRow is what the table shows of a job: the fields of jobs.Info it
// reads, under the same JSON names; the rest of each job is skipped.
type lsRow struct {
	ID       jobs.ID     `json:"id"`
	Name     string      `json:"name"`
	Command  string      `json:"command"`
	State    jobs.State  `json:"state"`
	PID      int         `json:"pid"`
	ExitCode *int        `json:"exit_code"`
	Signal   jobs.Signal `json:"signal"`
	Started  *time.Time  `json:"started_at"`
	Ended    *time.Time  `json:"ended_at"`
	KillAt   *time.Time  `json:"kill_at"`
}

func (r lsRow) info() jobs.Info {
	return jobs.Info{ID: r.ID, Name: r.Name, Command: r.Command, State: r.State, PID: r.PID,
		ExitCode: r.ExitCode, Signal: r.Signal, Started: r.Started, Ended: r.Ended, KillAt: r.KillAt}
}
