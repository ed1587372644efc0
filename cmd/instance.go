package cmd

import (
	"context"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"jobtop/control"
	"jobtop/jobfile"
	"jobtop/jobs"
	"jobtop/workspace"
)

// newServedManager makes the job manager of a jobtop instance (kind "serve"
// or "tui") and serves it on the socket: every job gets JOBTOP_SOCKET, so
// it can reach this instance. It fails with a *control.InUseError when a
// live instance holds the socket. Close the server, then shut the manager
// down, when the instance ends.
func newServedManager(cmd *cobra.Command, kind string, opts jobs.Options) (*jobs.Manager, *control.Server, error) {
	path := socketPath(cmd)
	if opts.Env == nil {
		opts.Env = make(map[string]string)
	}
	opts.Env[control.SocketEnv] = path
	m, err := jobs.NewManager(opts)
	if err != nil {
		return nil, nil, err
	}
	srv, err := control.ListenAndServe(m, path, control.Instance{Kind: kind})
	if err != nil {
		m.Shutdown(context.Background()) //nolint:errcheck // it has no jobs yet
		return nil, nil, err
	}
	return m, srv, nil
}

// servedInstance is a running jobtop instance: its manager, served on the
// socket, and the job file it runs, if any.
type servedInstance struct {
	mgr        *jobs.Manager
	srv        *control.Server
	ws         *workspace.Workspace // nil without a job file
	stopMemory context.CancelFunc   // ends governMemory
}

// startInstance serves a new manager (see newServedManager) with the
// plan's options under opts, then starts the plan's jobs (plan may be
// nil) and serves reloads of its file.
func startInstance(cmd *cobra.Command, kind string, plan *jobfile.Plan, opts jobs.Options) (*servedInstance, error) {
	opts, err := retentionOptions(cmd, opts)
	if err != nil {
		return nil, err
	}
	if plan != nil {
		opts = workspace.ManagerOptions(plan, opts)
	}
	m, srv, err := newServedManager(cmd, kind, opts)
	if err != nil {
		return nil, err
	}
	in := &servedInstance{mgr: m, srv: srv}
	var memCtx context.Context
	memCtx, in.stopMemory = context.WithCancel(context.Background())
	governMemory(memCtx, m, time.Second)
	if plan == nil {
		return in, nil
	}
	if in.ws, err = workspace.Open(m, plan); err != nil {
		in.shutdown(context.Background()) //nolint:errcheck // the error that matters is err
		return nil, fmt.Errorf("starting the jobs of %s: %w", plan.Path, err)
	}
	srv.SetReloader(fileReloader{in.ws})
	return in, nil
}

// shutdown stops every job with its grace rules (killing what is left
// when ctx ends; then ctx's error is returned), and closes the server
// last, so clients see the jobs stop.
func (in *servedInstance) shutdown(ctx context.Context) error {
	if in.ws != nil {
		in.ws.Close()
	}
	err := in.mgr.Shutdown(ctx)
	in.srv.Close()
	in.stopMemory()
	return err
}
