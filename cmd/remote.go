package cmd

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/spf13/cobra"

	"jobtop/control"
	"jobtop/jobs"
)

// This file holds what the API client commands (run, ls, status, logs,
// wait, stop, kill, restart, rm) share: the socket, job IDs, and
// printing (the client: hosts.go).

// socketFlag is the persistent flag that names the instance's socket.
const socketFlag = "socket"

// addSocketFlag adds --socket to root, for every command.
func addSocketFlag(root *cobra.Command) {
	root.PersistentFlags().String(socketFlag, "",
		"the jobtop instance's socket, at `PATH` (default $"+control.SocketEnv+", then "+control.DefaultSocketPath()+")")
}

// socketPath resolves the socket: --socket, then $JOBTOP_SOCKET, then the
// default.
func socketPath(cmd *cobra.Command) string {
	flag := ""
	if f := cmd.Flag(socketFlag); f != nil {
		flag = f.Value.String()
	}
	return control.ResolveSocketPath(flag)
}

// resolveJob reads a job argument: an ID ("3"), or the name of a job (the
// newest job with that name).
func resolveJob(ctx context.Context, c *control.Client, arg string) (jobs.ID, error) {
	if id, err := jobs.ParseID(arg); err == nil {
		return id, nil
	}
	if msg := jobs.BadID(arg); msg != "" {
		return 0, errors.New(msg)
	}
	list, err := c.Jobs(ctx)
	if err != nil {
		return 0, err
	}
	for i := len(list) - 1; i >= 0; i-- {
		if list[i].Name == arg {
			return list[i].ID, nil
		}
	}
	var fileJobs []string // the instance's job file's: a job clean removed
	if inst, err := c.Instance(ctx); err == nil {
		fileJobs = inst.FileJobs
	}
	msg := control.UnknownJobName(arg, list, fileJobs...).Error()
	return 0, errors.New(strings.TrimSuffix(msg, control.ListJobsHint) + "`jobtop ls` lists them")
}

// completeJobs completes a job argument with the instance's job IDs; a
// command that takes one job (no Args check of its own) gets one.
func completeJobs(cmd *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
	if len(args) > 0 && cmd.Args != nil {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	ctx, cancel := context.WithTimeout(cmd.Context(), 2*time.Second)
	defer cancel()
	list, err := newClient(cmd).Jobs(ctx)
	if err != nil {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	out := make([]string, 0, len(list))
	if toComplete == "" || toComplete[0] >= '0' && toComplete[0] <= '9' {
		for _, j := range list {
			out = append(out, fmt.Sprintf("%d\t%s (%s)", j.ID, j.Name, j.State))
		}
	}
	if toComplete != "" {
		// A name, as every job argument takes one (2fa too): the
		// newest job with it is the one it names.
		var names []string
		seen := make(map[string]bool)
		for i := len(list) - 1; i >= 0; i-- {
			if j := list[i]; !seen[j.Name] && strings.HasPrefix(j.Name, toComplete) {
				seen[j.Name] = true
				names = append(names, fmt.Sprintf("%s\tjob %d (%s)", j.Name, j.ID, j.State))
			}
		}
		slices.Sort(names)
		out = append(out, names...)
	}
	return out, cobra.ShellCompDirectiveNoFileComp
}

// jobCommand is the shape of the commands that take one job argument.
func jobCommand(use, short, long string, run func(cmd *cobra.Command, c *control.Client, id jobs.ID) error) *cobra.Command {
	return &cobra.Command{
		Use:               use,
		Short:             short,
		Long:              long,
		Args:              exactlyOneJob,
		ValidArgsFunction: completeJobs,
		RunE: func(cmd *cobra.Command, args []string) error {
			c := newClient(cmd)
			id, err := resolveJob(cmd.Context(), c, args[0])
			if err != nil {
				return err
			}
			return run(cmd, c, id)
		},
	}
}

func exactlyOneJob(cmd *cobra.Command, args []string) error {
	if len(args) != 1 {
		return fmt.Errorf("%s takes one job ID (see jobtop ls), got %s", cmd.Name(), plural(len(args), "argument"))
	}
	return nil
}

func printJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(c1Safe{w})
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// exitText says how a job ended, for the EXIT column: its exit code, the
// signal that ended it (jobs.Info.ExitText), or "-".
func exitText(j jobs.Info) string {
	if t := j.ExitText(); t != "" {
		return t
	}
	return "-"
}

// stateText is a job's state, with the time left before SIGKILL for a
// stopping job: "stopping (SIGKILL in 4s)", or before its restart policy
// runs it again: "failed (restart in 4s)", "<1s" under a second; a job
// whose main process is paused (kill -STOP, ^Z) says so: "running ·
// paused".
func stateText(j jobs.Info, now time.Time) string {
	if j.Stopped && j.State.Active() {
		return stateCountdown(j, now) + " · paused"
	}
	return stateCountdown(j, now)
}

// stateCountdown is stateText without the pause.
func stateCountdown(j jobs.Info, now time.Time) string {
	if j.State == jobs.StateStopping && j.KillAt != nil && j.KillAt.After(now) {
		if j.KillAt.Sub(now) < time.Second {
			return fmt.Sprintf("%s (SIGKILL in <1s)", j.State) // the grace's last instant: not 1s
		}
		secs := (j.KillAt.Sub(now) + time.Second - 1) / time.Second
		return fmt.Sprintf("%s (SIGKILL in %ds)", j.State, secs)
	}
	if j.RestartAt != nil {
		if left := j.RestartAt.Sub(now); left > 0 && left < time.Second {
			return fmt.Sprintf("%s (restart in <1s)", j.State) // a 10ms backoff: not 1s
		}
		secs := max((j.RestartAt.Sub(now)+time.Second-1)/time.Second, 0)
		if secs >= 100 { // 4m05s, 2h03m: not 719999s
			return fmt.Sprintf("%s (restart in %s)", j.State, formatRuntime(secs*time.Second))
		}
		return fmt.Sprintf("%s (restart in %ds)", j.State, secs)
	}
	return string(j.State)
}

// formatRuntime writes a duration for a table: 850ms, 12.3s, 4m05s, 2h03m.
func formatRuntime(d time.Duration) string {
	switch {
	case d <= 0:
		return "-"
	case d < time.Second:
		return fmt.Sprintf("%dms", d.Milliseconds())
	case d < time.Minute:
		return fmt.Sprintf("%.1fs", d.Seconds())
	case d < time.Hour:
		return fmt.Sprintf("%dm%02ds", int(d.Minutes()), int(d.Seconds())%60)
	}
	return fmt.Sprintf("%dh%02dm", int(d.Hours()), int(d.Minutes())%60)
}

// truncate cuts s to n runes, marking the cut with "…", for a cell of a
// table: line ends, tabs and form feeds become spaces (they would break
// the row, or the column), and bytes that are not UTF-8 become U+FFFD.
func truncate(s string, n int) string {
	if utf8.RuneCountInString(s) <= n && utf8.ValidString(s) && !strings.ContainsAny(s, cellBreaks) {
		return s
	}
	r := []rune(cellSpaces.Replace(s))
	if len(r) <= n {
		return string(r)
	}
	return string(r[:n-1]) + "…"
}

// cellBreaks are the characters truncate turns into spaces.
const cellBreaks = "\n\r\t\v\f"

var cellSpaces = strings.NewReplacer("\n", " ", "\r", " ", "\t", " ", "\v", " ", "\f", " ")
