package cmd

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/spf13/cobra"

	"jobtop/control"
	"jobtop/jobs"
	"jobtop/ui"
)

// attachTimeout bounds connecting to an instance and loading its jobs.
const attachTimeout = 30 * time.Second

func newAttachCmd() *cobra.Command {
	attach := &cobra.Command{
		Use:   "attach",
		Short: "Open the TUI on the jobtop instance on the socket",
		Long: `attach opens the TUI on another jobtop instance (jobtop serve, or a
jobtop TUI in another terminal): the same screen and keys, live. Quitting
leaves its jobs running, and the quit prompt says so. R reloads the
instance's job file, if it has one.

Plain jobtop attaches by itself when a live instance holds its socket.

With --host ssh://HOST (more than once for several machines, and --local
for this one's instance too) it shows the instances of other machines,
reached over ssh, in one table with a HOST column; a host whose
connection drops is shown disconnected and reconnected every 2s.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if hosts, _ := hostsOf(cmd); len(hosts) > 0 {
				// Before dialling: a dial can start a far instance.
				if err := needTerminal(); err != nil {
					return err
				}
			}
			return attachTUI(cmd, nil)
		},
	}
	addBellFlag(attach)
	addLocalFlag(attach)
	return attach
}

// attachTUI runs the TUI over a client of the instance on the socket,
// after starting specs there (the first of them is selected). When the
// instance shuts down meanwhile, it says so and ends; when the instance
// is lost (killed, crashed), it ends with an error.
func attachTUI(cmd *cobra.Command, specs []jobs.Spec) error {
	if hosts, _ := hostsOf(cmd); len(hosts) > 0 {
		return attachHosts(cmd, specs, hosts)
	}
	c := newClient(cmd)
	defer c.Close()
	// An instance still loading its job file (it says so, and the note
	// says it here) is waited for as long as it takes: 20,000 jobs take
	// longer than attachTimeout on a busy machine.
	if _, err := c.LoadedInstance(cmd.Context()); err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(cmd.Context(), attachTimeout)
	defer cancel()
	if err := c.Attach(ctx); err != nil {
		return err
	}
	inst, err := c.Instance(ctx)
	if err != nil {
		return err
	}
	if inst.Ending && !attachOnly(cmd) {
		return &instanceEndingError{inst: inst}
	}
	if err := needTerminal(); err != nil {
		return err
	}
	memCtx, stopMemory := context.WithCancel(context.Background())
	defer stopMemory()
	governMemory(memCtx, c, time.Second)
	cfg := withinOwnJob(cmd, c, withTerminal(cmd, attachedConfig(inst)))
	cfg.Began = time.Now() // the ends of the command line's jobs are news, not older ones
	var started []jobs.Info
	for i, s := range specs {
		info, err := c.Start(s)
		var apiErr *control.APIError
		if i == 0 && errors.As(err, &apiErr) && apiErr.Status == http.StatusServiceUnavailable {
			return &instanceEndingError{inst: inst}
		}
		if err != nil {
			return &ExitError{Code: usageExit, Err: fmt.Errorf("job %q: %w", s.DisplayName(), err)}
		}
		if i == 0 {
			cfg.Select = info.ID
		}
		started = append(started, info)
	}
	if len(started) > 0 {
		if list, err := c.Jobs(ctx); err == nil {
			cfg.Notice = warnSameNames(cfg.Notice, list, started)
		}
	}
	model := ui.New(c, cfg)
	defer model.Close()
	if err := runProgram(model, c.Done(), nil); err != nil {
		return err
	}
	return attachEnd(cmd, c.Err())
}

// attachEnd is how an attached TUI ends, from why its client stopped
// (nil: the TUI quit): an instance that shut down on purpose is said,
// and is no error; a lost one is.
func attachEnd(cmd *cobra.Command, err error) error {
	var down *control.ShutDownError
	var lost *control.InstanceLostError
	switch {
	case errors.As(err, &down):
		fmt.Fprintln(cmd.ErrOrStderr(), down.Error())
		return nil
	case errors.As(err, &lost):
		return &ExitError{Code: 1, Err: lost}
	case err != nil:
		return fmt.Errorf("lost the jobtop instance: %w", err)
	}
	return nil
}

// attachedConfig is the TUI's configuration over an instance.
func attachedConfig(inst control.Instance) ui.Config {
	return ui.Config{
		Attached: true,
		Instance: fmt.Sprintf("%s (pid %d)", inst.Kind, inst.PID),
		JobFile:  inst.JobFile,
		JobFiles: inst.JobFiles,
	}
}

// instanceEndingError is an instance that refused the TUI's first job
// because it is shutting down (its TUI quit, its terminal closed, jobtop
// shutdown): it still holds the socket while it stops its jobs.
type instanceEndingError struct{ inst control.Instance }

func (e *instanceEndingError) Error() string {
	return fmt.Sprintf("the jobtop instance on %s (pid %d) is shutting down: nothing was started; start again once it has exited", e.inst.Socket, e.inst.PID)
}

// endingWait bounds the wait for an instance that is shutting down to
// exit: its jobs' grace periods (5 s each by default, at once).
const endingWait = time.Minute

// awaitEnd waits, saying so on stderr, until the instance that is
// shutting down has let its socket go; false when it has not within
// endingWait.
func awaitEnd(cmd *cobra.Command, ending *instanceEndingError) bool {
	fmt.Fprintf(cmd.ErrOrStderr(), "jobtop: the jobtop instance on %s (pid %d) is shutting down; starting a new one once it has exited\n", ending.inst.Socket, ending.inst.PID)
	c := newClient(cmd)
	defer c.Close()
	return c.AwaitEnd(cmd.Context(), ending.inst, endingWait)
}

// attachOnly says cmd is jobtop attach, which shows the instance there
// whatever it does (also as it shuts down), not a plain jobtop that
// attaches to a live instance instead of starting its own.
func attachOnly(cmd *cobra.Command) bool { return cmd.Name() == "attach" }
