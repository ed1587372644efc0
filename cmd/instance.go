package cmd

import (
	"context"

	"github.com/spf13/cobra"

	"jobtop/control"
	"jobtop/jobs"
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
