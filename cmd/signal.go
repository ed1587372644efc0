package cmd

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"jobtop/control"
	"jobtop/jobs"
)

func newSignalCmd() *cobra.Command {
	var o selectOptions
	cmd := &cobra.Command{
		Use:   "signal SIG ID|NAME... | --all | --state STATE | --name GLOB",
		Short: "Send a signal to jobs, and nothing else",
		Long: `Send SIG (USR1, SIGUSR1 or 10) to every process of the job, as a stop's
signal goes to them, and do nothing else: no stop, no SIGKILL after a
grace period, the job's state as it was (as pueue kill -s does). A
server's reload: jobtop signal HUP web. Pause a job and resume
it (as pueue pause and start): jobtop signal STOP ID, then jobtop signal
CONT ID; status and ls say "running · paused" meanwhile.

To end a job with a signal of your choice, with its grace and SIGKILL
after it: jobtop stop --signal INT ID.

Several jobs: give several IDs or names, or pick them with --all, --state
(a state, or several comma-separated) and --name (a glob such as 'web-*',
or several; * matches a namespace's "/" too); --state and --name narrow
each other and the jobs named. A job picked by a selector that has no
process to signal (queued, ended) is skipped (and counted on stderr); a
job named that has none, or that does not exist, is an error (exit 1),
after the others are done.`,
		Example: `  jobtop signal USR1 srv
  jobtop signal HUP --name 'web-*'
  jobtop signal STOP 3 && jobtop signal CONT 3`,
		ValidArgsFunction: completeSignalThenJobs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usageErrorf("signal which signal, to which jobs? jobtop signal SIG ID|NAME... (SIG: USR1, SIGUSR1 or 10)")
			}
			sig, err := jobs.ParseSignal(args[0])
			if err != nil {
				return usageErrorf("%w: the signal comes first, then the jobs: jobtop signal SIG ID|NAME...", err)
			}
			o.signal = sig.String()
			args = args[1:]
			a := action{name: "signal", verb: control.BulkSignal, done: "signalled"}
			if len(args) == 1 && !o.selecting() {
				return signalOne(cmd, args[0], o)
			}
			return actOnMany(cmd, a, args, o)
		},
	}
	o.addFlags(cmd.Flags())
	cmd.Flags().BoolVar(&o.json, "json", false, "print the job as JSON (for several: {\"jobs\", \"skipped\", \"failed\", \"removed\"})")
	return cmd
}

// signalOne sends the signal to one job argument and prints the job; a
// job with no process to signal is an error.
func signalOne(cmd *cobra.Command, arg string, o selectOptions) error {
	c := newClient(cmd)
	id, err := resolveJob(cmd.Context(), c, arg)
	if err != nil {
		return err
	}
	info, err := c.SignalJob(cmd.Context(), id, o.signal)
	if err != nil {
		return err
	}
	if o.json {
		return printJSON(cmd.OutOrStdout(), info)
	}
	printOutcome(cmd.OutOrStdout(), "signal "+o.signal, info)
	return nil
}

// completeSignalThenJobs completes the signal, then job arguments.
func completeSignalThenJobs(cmd *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
	if len(args) > 0 {
		return completeJobs(cmd, args[1:], toComplete)
	}
	var out []string
	for _, name := range []string{"HUP", "INT", "QUIT", "USR1", "USR2", "TERM", "STOP", "CONT", "TSTP", "WINCH", "KILL"} {
		if strings.HasPrefix(name, strings.ToUpper(strings.TrimPrefix(strings.ToUpper(toComplete), "SIG"))) {
			out = append(out, name)
		}
	}
	return out, cobra.ShellCompDirectiveNoFileComp
}

// signalledText is how printOutcome says a signal was sent to a job:
// "sent SIGUSR1: running (pid 1234, run 1)".
func signalledText(verb, state string) string {
	return fmt.Sprintf("sent %s: %s", strings.TrimPrefix(verb, "signal "), state)
}
