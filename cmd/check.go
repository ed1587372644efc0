package cmd

import (
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"jobtop/jobfile"
	"jobtop/jobs"
)

func newCheckCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "check [FILE]",
		Short: "Validate a job file and print its start order, running nothing",
		Long: `check reads a job file (jobtop.yaml, jobtop.yml or a Procfile; by
default the first of those in the current directory), reports every
problem as FILE:LINE:COL: what is wrong, and otherwise prints the jobs in
the order they would start, with what each waits for. Nothing is run.
It exits 1 when the file has problems.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			path := ""
			if len(args) == 1 {
				path = args[0]
			} else {
				found, err := jobfile.Find(".")
				if err != nil {
					return &ExitError{Code: 1, Err: err}
				}
				path = found
			}
			plan, err := jobfile.Load(path)
			var problems jobfile.ErrorList
			switch {
			case errors.As(err, &problems):
				for _, p := range problems {
					fmt.Fprintln(c.ErrOrStderr(), p)
				}
				return &ExitError{Code: 1, Err: fmt.Errorf("%s: %s", path, plural(len(problems), "problem"))}
			case err != nil:
				return &ExitError{Code: 1, Err: err}
			}
			return printPlan(c.OutOrStdout(), plan)
		},
	}
}

// plural is "1 job", "2 jobs".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// printPlan writes the plan as a table in start order.
func printPlan(w io.Writer, plan *jobfile.Plan) error {
	limit := "no limit on jobs running at once"
	if plan.MaxParallel > 0 {
		limit = fmt.Sprintf("at most %d running at once", plan.MaxParallel)
	}
	fmt.Fprintf(w, "%s: %s, %s; start order:\n\n", plan.Path, plural(len(plan.Jobs), "job"), limit)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "#\tJOB\tSTARTS\tWAITS FOR\tREADY WHEN\tRESTART\tCOMMAND")
	for i, j := range plan.StartOrder() {
		starts := "at once"
		if !j.Autostart {
			starts = "by hand"
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%s\t%s\n", i+1, j.Name, starts,
			describeDeps(j.Spec.DependsOn), describeReady(j.Spec.Ready),
			describeRestart(j.Spec.Restart.WithDefaults()), describeCommand(plan, j.Spec))
	}
	return tw.Flush()
}

func describeDeps(deps map[string]jobs.Condition) string {
	if len(deps) == 0 {
		return "-"
	}
	parts := make([]string, 0, len(deps))
	for name, cond := range deps {
		parts = append(parts, name+": "+string(cond))
	}
	sort.Strings(parts)
	return strings.Join(parts, ", ")
}

func describeReady(r jobs.ReadyCheck) string {
	switch {
	case r.LogPattern != "":
		return "output ~ /" + r.LogPattern + "/"
	case r.After > 0:
		return "after " + r.After.String()
	}
	return "running"
}

func describeRestart(p jobs.RestartPolicy) string {
	if p.Mode == "" || p.Mode == jobs.RestartNever {
		return "no"
	}
	s := fmt.Sprintf("%s, backoff %v", p.Mode, p.Backoff)
	if p.MaxBackoff > 0 {
		s += fmt.Sprintf(" up to %v", p.MaxBackoff)
	}
	if p.Max != jobs.NoRestartLimit {
		return s + fmt.Sprintf(", max %d", p.Max)
	}
	return s + ", no max"
}

// describeCommand is the first line of the command, shortened, with the
// working directory when it is not the file's.
func describeCommand(plan *jobfile.Plan, spec jobs.Spec) string {
	cmd := spec.DisplayCommand()
	if first, _, multi := strings.Cut(strings.TrimSpace(cmd), "\n"); multi {
		cmd = first + " ..."
	}
	if r := []rune(cmd); len(r) > 60 {
		cmd = string(r[:57]) + "..."
	}
	if spec.Dir != plan.Dir {
		dir := strings.TrimPrefix(spec.Dir, plan.Dir+"/")
		cmd = "(in " + dir + ") " + cmd
	}
	return cmd
}
