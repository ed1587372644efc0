package cmd

import (
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"jobtop/jobfile"
	"jobtop/jobs"
	"jobtop/termtext"
)

func newCheckCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "check [FILE | -f FILE]",
		Short: "Validate a job file and print its start order, running nothing",
		Long: `check reads a job file (jobtop.yaml, jobtop.yml, a Procfile, a
process-compose file or an mprocs config; by default the first of
jobtop.yaml, jobtop.yml, Procfile, process-compose.yml and
process-compose.yaml in the current directory, else compose.yml or
compose.yaml with processes:, else mprocs.yaml or mprocs.json; a
process-compose file found so gets its override file merged over it, the
first of compose.override.yml, compose.override.yaml,
process-compose.override.yml and process-compose.override.yaml beside
it; -f given more than once merges process-compose files in order, and
check says which files were merged), reports every problem as
FILE:LINE:COL: what is wrong, and otherwise prints the jobs in the order they would start, with what each
waits for, when it counts as ready and healthy, and how it restarts. Parts
of the file jobtop does not carry out are listed on stderr as warnings.
Nothing is run (nor process-compose's env_cmds). It exits 1 when the file
has problems.`,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) > 1 {
				return fmt.Errorf("check takes one job file, got %d (to merge process-compose files: -f %s)", len(args), strings.Join(args, " -f "))
			}
			return nil
		},
		RunE: func(c *cobra.Command, args []string) error {
			opts, err := loadOptions(c)
			if err != nil {
				return err
			}
			path, more, err := fileFlagValue(c)
			if err != nil {
				return err
			}
			opts.More = more
			switch {
			case path != "" && len(args) == 1:
				return &ExitError{Code: usageExit, Err: fmt.Errorf("give the job file once: -f %s or %s, not both", path, args[0])}
			case len(args) == 1 && !isDir(args[0]):
				path = args[0]
			case path == "":
				dir := "." // or the directory given: check it as jobtop there would
				if len(args) == 1 {
					dir = args[0]
				}
				found, err := jobfile.Find(dir)
				if err != nil {
					return &ExitError{Code: 1, Err: err}
				}
				path, opts.Found = found, true
			}
			plan, err := jobfile.LoadWith(path, opts)
			var problems jobfile.ErrorList
			switch flagErr := flagProblems(err); {
			case flagErr != nil:
				return flagErr
			case errors.As(err, &problems):
				for _, w := range jobfile.WarningsOf(err) {
					fmt.Fprintln(c.ErrOrStderr(), showLines(w.Warning()))
				}
				for _, p := range problems {
					fmt.Fprintln(c.ErrOrStderr(), showLines(p.Error()))
				}
				return &ExitError{Code: 1, Err: fmt.Errorf("%s: %s", problemsFile(path, problems), plural(len(problems), "problem"))}
			case err != nil:
				return &ExitError{Code: 1, Err: err}
			}
			printWarnings(c.ErrOrStderr(), plan)
			return printPlan(c.OutOrStdout(), plan)
		},
	}
	cmd.Flags().StringArrayP(fileFlag, "f", nil, "check job file `FILE` (the same as giving it as the argument); repeat to merge process-compose files in order")
	addLoadFlags(cmd)
	return cmd
}

// showLines is text of check's own for a person, quoting the job file,
// with its control characters shown as escapes, line by line.
func showLines(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = termtext.ShowControls(l)
	}
	return strings.Join(lines, "\n")
}

// isDir says whether path is a directory.
func isDir(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.IsDir()
}

// plural is "1 job", "2 jobs", "2 processes".
func plural(n int, noun string) string {
	switch {
	case n == 1:
		return "1 " + noun
	case strings.HasSuffix(noun, "s"):
		return fmt.Sprintf("%d %ses", n, noun)
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// printPlan writes the plan as a table in start order.
func printPlan(w io.Writer, plan *jobfile.Plan) error {
	limit := "no limit on jobs running at once"
	if plan.MaxParallel > 0 {
		limit = fmt.Sprintf("at most %d running at once", plan.MaxParallel)
	}
	fmt.Fprintf(w, "%s: %s, %s; start order:\n", termtext.ShowControls(plan.Path), plural(len(plan.Jobs), "job"), limit)
	if len(plan.Files) > 1 {
		fmt.Fprintf(w, "merged from %s, in this order (later files win)\n", termtext.ShowControls(strings.Join(plan.Files, ", ")))
	}
	describeEnv(w, plan)
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	health := slices.ContainsFunc(plan.Jobs, func(j jobfile.Job) bool { return j.Spec.Health.Probe != nil })
	header := "#\tJOB\tSTARTS\tWAITS FOR\tREADY WHEN\tRESTART\tCOMMAND"
	if health {
		header = "#\tJOB\tSTARTS\tWAITS FOR\tREADY WHEN\tHEALTH\tRESTART\tCOMMAND"
	}
	fmt.Fprintln(tw, header)
	for i, j := range plan.StartOrder() {
		starts := "by itself" // once what it waits for is met
		if !j.Autostart {
			starts = "by hand"
		}
		cols := []string{strconv.Itoa(i + 1), j.Name, starts, describeDeps(j.Spec.DependsOn), describeReady(j.Spec.Ready)}
		if health {
			cols = append(cols, describeHealth(j.Spec))
		}
		cols = append(cols, describeEnd(j), describeCommand(plan, j.Spec))
		for i, col := range cols {
			cols[i] = termtext.ShowControls(col)
		}
		fmt.Fprintln(tw, strings.Join(cols, "\t"))
	}
	return tw.Flush()
}

// describeEnv says where the jobs' variables come from beyond each job's
// own: env files, env_cmds, and a Procfile's PORT and PS.
func describeEnv(w io.Writer, plan *jobfile.Plan) {
	if len(plan.EnvFiles) > 0 {
		fmt.Fprintf(w, "every job reads %s\n", termtext.ShowControls(strings.Join(plan.EnvFiles, ", ")))
	}
	if len(plan.EnvCommands) > 0 {
		names := slices.Sorted(maps.Keys(plan.EnvCommands))
		fmt.Fprintf(w, "env_cmds set %s when the jobs start (not run by check)\n", termtext.ShowControls(strings.Join(names, ", ")))
	}
	if plan.Format == jobfile.FormatProcfile && len(plan.Jobs) > 0 {
		// The example is the file's first process run, not a web it may
		// not have.
		fmt.Fprintln(w, "each job gets PORT (below) and PS, its name and instance: "+termtext.ShowControls(plan.Jobs[0].Spec.Env["PS"]))
	}
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
	case r.Probe.Probe != nil:
		return r.Probe.String()
	}
	return "running"
}

func describeHealth(spec jobs.Spec) string {
	switch c := spec.Health; {
	case c.Probe == nil:
		return "-"
	case c.Probe == spec.Ready.Probe.Probe && c == spec.Ready.Probe:
		return "same probe as ready"
	default:
		return c.String()
	}
}

// describeEnd is what follows a job's end: its restart policy, the exit
// codes besides 0 that count as success, and whether jobtop then exits
// (process-compose's exit_on_failure, exit_on_end, exit_on_skipped).
func describeEnd(j jobfile.Job) string {
	s := describeRestart(j.Spec.Restart.WithDefaults())
	if len(j.Spec.SuccessExitCodes) > 0 {
		codes := make([]string, len(j.Spec.SuccessExitCodes))
		for i, c := range j.Spec.SuccessExitCodes {
			codes[i] = strconv.Itoa(c)
		}
		s += "; exit " + strings.Join(codes, ", ") + " counts as success"
	}
	switch {
	case j.ExitOnEnd:
		s += "; when it ends, jobtop exits (exit_on_end)"
	case j.ExitOnFailure:
		s += "; if it fails, jobtop exits (exit_on_failure)"
	}
	if j.ExitOnSkipped {
		s += "; if it cannot start, jobtop exits (exit_on_skipped)"
	}
	return s
}

func describeRestart(p jobs.RestartPolicy) string {
	if p.Mode == "" || p.Mode == jobs.RestartNever {
		return "no"
	}
	s := fmt.Sprintf("%s, backoff %v", p.Mode, p.Backoff)
	if p.MaxBackoff > 0 {
		s += fmt.Sprintf(" up to %v", p.MaxBackoff)
	}
	if p.Max != jobs.NoRestartLimit && p.MaxOverLife {
		return s + fmt.Sprintf(", max %d in all", p.Max)
	}
	if p.Max != jobs.NoRestartLimit {
		return s + fmt.Sprintf(", max %d", p.Max)
	}
	return s + ", no max"
}

// describeCommand is the first line of the command, shortened, with the
// working directory when it is not the file's. A first line with control
// characters is not shortened: what they would hide on a terminal (a
// carriage return, an escape sequence) is shown whole, escaped (printPlan
// escapes every field check prints: termtext.ShowControls).
func describeCommand(plan *jobfile.Plan, spec jobs.Spec) string {
	cmd := spec.DisplayCommand()
	if first, _, multi := strings.Cut(strings.TrimSpace(cmd), "\n"); multi {
		cmd = first + " ..."
	}
	if r := []rune(cmd); len(r) > 60 && termtext.ShowControls(cmd) == cmd {
		cmd = string(r[:57]) + "..."
	}
	if plan.Format == jobfile.FormatProcfile {
		cmd = "PORT=" + spec.Env["PORT"] + " " + cmd
	}
	if spec.Dir != plan.Dir {
		dir := strings.TrimPrefix(spec.Dir, plan.Dir+"/")
		cmd = "(in " + dir + ") " + cmd
	}
	if spec.StopCommand != "" {
		cmd += "  (stops with: " + spec.StopCommand + ")"
	}
	if spec.StopInput != "" {
		cmd += "  (stops with input: " + strconv.Quote(spec.StopInput) + ")"
	}
	return cmd
}
