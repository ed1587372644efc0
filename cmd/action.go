package cmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"jobtop/control"
	"jobtop/jobs"
)

// action is one of stop, kill, restart and rm: what it is called, its
// bulk verb on the API, and how it is done to one job.
type action struct {
	name, short, long string
	verb              string // control.BulkStop...
	done              string // "stopped": for "skipped 2 jobs that cannot be stopped"
	// one does it to one job; removed: the job ended and was removed
	// before the answer (info is as it was last).
	one func(ctx context.Context, c *control.Client, id jobs.ID) (info jobs.Info, removed bool, err error)
	// finished adds --finished: every job that has ended (rm).
	finished bool
	// signal adds --signal: this stop's signal in place of each job's
	// own (stop).
	signal bool
}

// selectOptions are the flags that pick jobs for a bulk action.
type selectOptions struct {
	all      bool
	states   []string
	names    []string
	finished bool
	json     bool
	signal   string
}

func (o selectOptions) selecting() bool {
	return o.all || len(o.states) > 0 || len(o.names) > 0 || o.finished
}

// newActionCmd builds stop, kill, restart and rm: act on one job or on
// every job picked by the arguments and selectors, wait until the action
// has taken effect, print each job's resulting state.
func newActionCmd(a action) *cobra.Command {
	var o selectOptions
	use := a.name + " ID|NAME... | --all | --state STATE | --name GLOB"
	if a.finished {
		use = a.name + " ID|NAME... | --finished | --all | --state STATE | --name GLOB"
	}
	cmd := &cobra.Command{
		Use:   use,
		Short: a.short,
		Long: a.long + `

Several jobs: give several IDs or names, or pick them with --all, --state
(a state, or several comma-separated; "ended" means succeeded, failed,
killed, timed_out or error) and --name (a glob such as 'web-*', or
several; * matches a namespace's "/" too); --state and --name narrow each
other and the jobs named. A name no job has that a Procfile's formation
runs as several (web for web.1 and web.2) names all of them. A job picked by a
selector that the action does not apply to is skipped (and counted on
stderr); a job named that it does not apply to, or that does not exist, is
an error (exit 1), after the others are done.`,
		ValidArgsFunction: completeJobs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if o.signal != "" {
				sig, err := jobs.ParseSignal(o.signal)
				if err != nil {
					return usageErrorf("--signal: %w", err)
				}
				which := strings.Join(args, " ")
				if which == "" {
					which = "ID|NAME..."
				}
				if err := sig.KeepsError("jobtop signal " + strings.TrimPrefix(sig.String(), "SIG") + " " + which); err != nil {
					return usageErrorf("--signal: %w", err)
				}
				o.signal = sig.String()
			}
			if len(args) == 1 && !o.selecting() {
				return actOnOne(cmd, a, args[0], o)
			}
			return actOnMany(cmd, a, args, o)
		},
	}
	f := cmd.Flags()
	o.addFlags(f)
	if a.finished {
		f.BoolVar(&o.finished, "finished", false, "every job that has ended (succeeded, failed, killed, timed_out, error)")
	}
	if a.signal {
		f.StringVar(&o.signal, "signal", "", "send `SIG` (INT, SIGINT or 2) instead of each job's stop signal, this time (SIGKILL still follows the grace period)")
	}
	f.BoolVar(&o.json, "json", false, "print the job as JSON (for several: {\"jobs\", \"skipped\", \"failed\", \"removed\"})")
	return cmd
}

// addFlags adds --all, --state and --name.
func (o *selectOptions) addFlags(f *pflag.FlagSet) {
	f.BoolVar(&o.all, "all", false, "every job")
	f.StringArrayVar(&o.states, "state", nil, "the jobs in `STATE` (running, failed, ended...; comma-separated for several)")
	f.StringArrayVar(&o.names, "name", nil, "the jobs whose name matches `GLOB` (* ? [...]; comma-separated or repeated for several)")
}

// actOnOne is the action on one job argument: the job is printed, and an
// action that does not apply is an error.
func actOnOne(cmd *cobra.Command, a action, arg string, o selectOptions) error {
	c := newClient(cmd)
	id, err := resolveJob(cmd.Context(), c, arg)
	if err != nil {
		if list, inst, lerr := jobsAndInstance(cmd.Context(), c); lerr == nil && len(control.FormationInstances(arg, list, inst.FileJobs)) > 0 {
			// overmind's "restart web": web.1 and web.2, as several
			return actOnMany(cmd, a, []string{arg}, o)
		}
		return err
	}
	var info jobs.Info
	var removed bool
	if o.signal != "" {
		var answer control.EndAnswer
		answer, err = c.StopJobWith(cmd.Context(), id, o.signal, true)
		info, removed = answer.Info, answer.Removed
	} else {
		info, removed, err = a.one(cmd.Context(), c, id)
	}
	if err != nil {
		return err
	}
	if o.json {
		err = printJSON(cmd.OutOrStdout(), control.EndAnswer{Info: info, Removed: removed})
	} else {
		printOutcome(cmd.OutOrStdout(), cmd.Name(), info)
		if removed {
			fmt.Fprintf(cmd.ErrOrStderr(), "jobtop: job %d ended and was removed since (shown as it was last): "+
				"the instance keeps at most so many finished jobs (its --keep-finished), or another client removed it\n", info.ID)
		}
	}
	if err == nil && a.verb == control.BulkRestart && info.State == jobs.StateError {
		return &ExitError{Code: 1} // it could not start again: said on the line
	}
	return err
}

// checkSelectors refuses an empty --state or --name, each as given,
// repeated or comma-separated (--state "", --name "web-*,"): it would
// pick nothing, or narrow nothing.
func checkSelectors(states, names []string) error {
	for _, f := range []struct {
		flag, want string
		given      []string
	}{{"--name", "a pattern", names}, {"--state", "a state", states}} {
		for _, v := range f.given {
			if v == "" {
				return usageErrorf("an empty %s picks nothing: give %s", f.flag, f.want)
			}
			if slices.Contains(strings.Split(v, ","), "") {
				return usageErrorf("%s %q: an empty item of the list picks nothing: give %s between the commas", f.flag, v, f.want)
			}
		}
	}
	return nil
}

// selectionError says the instance's refusal of the jobs asked for in the
// CLI's words: an unknown job as every command says it, a --state or
// --name that cannot be read as a command line that cannot run.
func selectionError(err error) error {
	if msg := err.Error(); control.IsNotFound(err) && strings.HasSuffix(msg, control.ListJobsHint) {
		return errors.New(inCLIWords(msg))
	}
	if control.IsBadRequest(err) {
		return &ExitError{Code: usageExit, Err: err}
	}
	return err
}

// inCLIWords is the API's message for an unknown job with the CLI's
// words for listing jobs.
func inCLIWords(msg string) string {
	if rest, ok := strings.CutSuffix(msg, control.ListJobsHint); ok {
		return rest + "`jobtop ls` lists them"
	}
	return msg
}

// actOnMany is the action on every job the arguments and selectors pick,
// through the API's bulk endpoint.
func actOnMany(cmd *cobra.Command, a action, args []string, o selectOptions) error {
	req, err := o.request(cmd.Name(), args)
	if err != nil {
		return err
	}
	resp, err := newClient(cmd).BulkWith(cmd.Context(), a.verb, req, a.verb != control.BulkRemove, o.signal)
	if err != nil {
		if control.IsNotFound(err) && len(req.Jobs) > 1 && strings.HasSuffix(err.Error(), control.ListJobsHint) {
			// An instance of an older jobtop refuses the whole request
			// for one job missing (a newer one acts on the others, and
			// lists it in failed): said, or it reads as the others done.
			return fmt.Errorf("%s; nothing was done: this instance (an older jobtop) acts on every job named or on none", inCLIWords(err.Error()))
		}
		return selectionError(err)
	}
	failed := len(resp.Failed) > 0
	for _, j := range resp.Jobs {
		failed = failed || a.verb == control.BulkRestart && j.State == jobs.StateError // it could not start again
	}
	if o.json {
		if err := printJSON(cmd.OutOrStdout(), resp); err != nil {
			return err
		}
	} else {
		verb := cmd.Name()
		if a.verb == control.BulkSignal {
			verb += " " + o.signal // "sent SIGUSR1: ..."
		}
		for _, j := range resp.Jobs {
			printOutcome(cmd.OutOrStdout(), verb, j)
		}
		stderr := cmd.ErrOrStderr()
		for _, f := range resp.Failed {
			fmt.Fprintln(stderr, "jobtop:", inCLIWords(f.Error)) // a job that does not exist as one named alone
		}
		if n := len(resp.Skipped); n > 0 {
			fmt.Fprintf(stderr, "jobtop: skipped %s that cannot be %s: %s\n", plural(n, "job"), a.done, stateCounts(resp.Skipped))
		} else if len(resp.Jobs) == 0 && !failed && cmd.Name() == "clean" {
			fmt.Fprintln(stderr, "jobtop: no job has ended: nothing to clean")
		} else if len(resp.Jobs) == 0 && !failed {
			fmt.Fprintf(stderr, "jobtop: no job matches %s\n", describeSelection(o, args))
		}
		if n := len(resp.Removed); n > 0 {
			were, they, them := "were", "they were", "them"
			if n == 1 {
				were, they, them = "was", "it was", "it"
			}
			fmt.Fprintf(stderr, "jobtop: %s of these ended and %s removed since (shown as %s last): "+
				"the instance keeps at most so many finished jobs (its --keep-finished), or another client removed %s\n", plural(n, "job"), were, they, them)
		}
	}
	if failed {
		return &ExitError{Code: 1}
	}
	return nil
}

// request is the bulk request for the jobs the arguments and selectors
// of command name pick, or a usage error when they cannot pick any.
func (o selectOptions) request(name string, args []string) (control.BulkRequest, error) {
	if err := checkSelectors(o.states, o.names); err != nil {
		return control.BulkRequest{}, err
	}
	req := control.BulkRequest{All: o.all, State: strings.Join(o.states, ","), Name: strings.Join(o.names, ",")}
	if o.finished {
		if req.State != "" {
			return req, usageErrorf("--finished is --state ended: give one of them")
		}
		req.State = "ended"
	}
	for _, arg := range args {
		req.Jobs = append(req.Jobs, control.JobRef(arg))
	}
	switch {
	case len(args) > 0 && o.all:
		return req, usageErrorf("give job IDs or names, or --all, not both")
	case !o.selecting() && len(args) == 0:
		return req, usageErrorf("%s which jobs? give job IDs or names, or --all, --state STATE or --name GLOB", name)
	}
	return req, nil
}

// stateCounts says how many jobs are in each state: "2 running, 1 queued".
func stateCounts(list []control.BulkRefusal) string {
	counts := make(map[jobs.State]int)
	for _, r := range list {
		switch {
		case strings.HasSuffix(r.Error, jobs.RefusedWaitingToRestart):
			counts["waiting to restart"]++
			continue
		case r.State == "": // gone before its turn: another client removed it
			counts["removed meanwhile"]++
			continue
		}
		counts[r.State]++
	}
	states := make([]string, 0, len(counts))
	for s := range counts {
		states = append(states, string(s))
	}
	sort.Strings(states)
	parts := make([]string, 0, len(states))
	for _, s := range states {
		parts = append(parts, fmt.Sprintf("%d %s", counts[jobs.State(s)], s))
	}
	return strings.Join(parts, ", ")
}

// describeSelection says which jobs were asked for, as typed (each
// argument and pattern cut as messages cut them).
func describeSelection(o selectOptions, args []string) string {
	var parts []string
	if len(args) > 0 {
		parts = append(parts, cutEach(args, " "))
	}
	if o.all && len(o.states) == 0 && len(o.names) == 0 {
		parts = append(parts, "--all (there are no jobs)")
	} else if o.all {
		parts = append(parts, "--all")
	}
	if o.finished {
		parts = append(parts, "--finished")
	}
	if len(o.states) > 0 {
		parts = append(parts, "--state "+cutEach(o.states, ","))
	}
	if len(o.names) > 0 {
		parts = append(parts, "--name "+cutEach(o.names, ","))
	}
	return strings.Join(parts, " ")
}

// cutEach joins list with sep, each item cut by control.CutForMessage.
func cutEach(list []string, sep string) string {
	cut := make([]string, len(list))
	for i, s := range list {
		cut[i] = control.CutForMessage(s)
	}
	return strings.Join(cut, sep)
}

// printOutcome writes one line: "job 3 (web): killed (SIGTERM)", or for
// a job that exited by itself once asked to stop "killed (exit 0)", or
// for a restart of a job that waits for its first run "job 2 (b) is
// queued: it has not started yet".
func printOutcome(w io.Writer, verb string, j jobs.Info) {
	if verb == "restart" && j.State == jobs.StateQueued && j.Runs == 0 {
		// It waits for its first run: the restart did nothing.
		fmt.Fprintf(w, "job %d (%s) is queued: it has not started yet\n", j.ID, truncate(j.Name, 40))
		return
	}
	state := string(j.State)
	switch {
	case verb == "rm" || verb == "clean":
		state = "removed"
	case j.State == jobs.StateRunning:
		state = fmt.Sprintf("running (pid %d, run %d)", j.PID, j.Runs)
	case j.State == jobs.StateKilled && j.Signal == 0 && j.ExitCode != nil:
		state += fmt.Sprintf(" (exit %d)", *j.ExitCode) // it ended by itself once asked to: a shutdown command
	case j.State == jobs.StateError && j.Error != "":
		state += ": " + j.Error // it could not start: why
	case j.State == jobs.StateKilled && j.Signal == 0 && j.ExitCode == nil && j.Error != "":
		state += " (" + j.Error + ")" // it never ran: "stopped before it started"
	case j.State.Done() && exitText(j) != "-":
		state += " (" + exitText(j) + ")"
	}
	if strings.HasPrefix(verb, "signal ") {
		state = signalledText(verb, state)
	}
	if verb == "stop" || verb == "kill" {
		if j.State.Done() && strings.HasPrefix(j.Reason, "restart cancelled") {
			state += ", its restart cancelled" // it was waiting out its backoff
		}
	}
	fmt.Fprintf(w, "job %d (%s): %s\n", j.ID, truncate(j.Name, 40), state)
}

// jobsAndInstance are the instance's jobs and what it says of itself.
func jobsAndInstance(ctx context.Context, c *control.Client) ([]jobs.Info, control.Instance, error) {
	list, err := c.Jobs(ctx)
	if err != nil {
		return nil, control.Instance{}, err
	}
	inst, err := c.Instance(ctx)
	return list, inst, err
}
