package cmd

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"jobtop/control"
	"jobtop/jobs"
	"jobtop/termtext"
)

func newStatusCmd() *cobra.Command {
	var asJSON bool
	cmd := jobCommand("status ID", "Show one job",
		`Show one job of the instance: for people, one field a line; with --json
the job object: id, name, command, description, cwd, state (queued,
running, stopping, succeeded, failed, killed, timed_out, error),
exit_code (null until it exited), signal, error, pid, started_at,
ended_at, runs, restarts, ready, readiness, ready_error, health,
health_check, health_error, log_path, log_dropped (bytes the log file
lost to write errors so far: a full disk), log_error (the last of
those errors), lines, bytes, last_output_at (when it last wrote;
absent when it never did), dropped_lines, last_line.`,
		func(cmd *cobra.Command, c *control.Client, id jobs.ID) error {
			info, err := c.Job(cmd.Context(), id)
			if err != nil {
				return err
			}
			if asJSON {
				return printJSON(cmd.OutOrStdout(), info)
			}
			printStatus(cmd.OutOrStdout(), info, newTextOut(cmd.OutOrStdout(), false))
			return nil
		})
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the job as JSON")
	return cmd
}

// printStatus writes a job for people, one field a line: a field that
// holds line breaks (a description written as a YAML block, a command
// of several lines) is joined into one, on a pipe too.
func printStatus(w io.Writer, j jobs.Info, text textOut) {
	field := func(name, value string) {
		if value != "" {
			fmt.Fprintf(w, "%-9s %s\n", name+":", text.label(termtext.OneLine(value)))
		}
	}
	field("id", j.ID.String())
	field("name", j.Name)
	field("command", j.Command)
	field("about", j.Description)
	field("cwd", j.Dir)
	state := stateText(j, time.Now())
	if j.Reason != "" && (j.RestartAt == nil || !strings.HasPrefix(j.Reason, "restarting in ")) {
		state += " (" + j.Reason + ")" // (a countdown says when it restarts)
	}
	if j.Stopped && j.State.Active() {
		state += fmt.Sprintf(" (stopped by a signal: jobtop signal CONT %d resumes it)", j.ID)
	}
	field("state", state)
	switch {
	case j.PID != 0 && j.State.Active():
		field("pid", fmt.Sprint(j.PID))
	case j.PID != 0:
		field("pid", fmt.Sprint(j.PID)+" (ended)")
	}
	if j.State.Done() {
		field("exit", exitText(j))
		field("end", j.KilledFromOutsideText())
	}
	if j.PeakRSS > 0 {
		field("peak rss", jobs.FormatBytes(j.PeakRSS))
	}
	field("error", j.Error)
	field("ready", readyText(j))
	field("health", healthText(j))
	if j.Started != nil {
		field("started", j.Started.Format(time.DateTime))
		field("runtime", formatRuntime(j.Runtime(time.Now())))
	}
	field("runs", fmt.Sprint(j.Runs))
	field("output", plural(int(j.JobLines()), "line")+", "+jobs.FormatBytes(j.Bytes))
	field("log", j.LogPath)
	if j.LogDropped > 0 {
		why := "(the disk full, or gone?)"
		if j.LogError != "" {
			why = "(the last error: " + j.LogError + ")"
		}
		field("log lost", fmt.Sprintf("%d bytes could not be written to the log file so far %s", j.LogDropped, why))
	}
	if len(j.LogFiles) > 1 {
		field("earlier", j.LogFiles[0]+" (the log rotated at its cap)")
	}
}

// readyText is the state of a job's ready check and the check: "yes
// (http: ...)", "not yet: connection refused (tcp: ...)"; "" when it has
// none.
func readyText(j jobs.Info) string {
	switch {
	case j.Readiness == "":
		return ""
	case j.Ready && j.State.Active(), j.Ready && j.LastRunWasReady():
		return "yes (" + j.Readiness + ")"
	case j.Ready: // as a dependant sees it
		return "yes: it succeeded, before its check passed (" + j.Readiness + ")"
	case j.ReadyError != "":
		return "not yet: " + j.ReadyError + " (" + j.Readiness + ")"
	case j.State.Active():
		return "not yet (" + j.Readiness + ")"
	}
	return "no (" + j.Readiness + ")"
}

// healthText is what a job's health check found, and the check:
// "unhealthy: exit 1 (exec: ...)"; "" when it has none.
func healthText(j jobs.Info) string {
	switch {
	case j.HealthCheck == "":
		return ""
	case j.Health == "":
		return "not checked: the job does not run (" + j.HealthCheck + ")"
	case j.Health == jobs.HealthUnhealthy && j.HealthError != "":
		return "unhealthy: " + j.HealthError + " (" + j.HealthCheck + ")"
	}
	return string(j.Health) + " (" + j.HealthCheck + ")"
}
