package cmd

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"jobtop/control"
	"jobtop/jobs"
	"jobtop/jobs/proc"
	"jobtop/ui"
)

// jobIDEnv names the variable that tells a job's processes its job's ID.
const jobIDEnv = "JOBTOP_JOB_ID"

// withinOwnJob completes an attached TUI's configuration when the TUI
// runs in a terminal job of the very instance it attached to: a jobtop
// started in a job (`a`, then `jobtop 'cmd'`) inherits the job's
// JOBTOP_SOCKET, which wins over XDG_RUNTIME_DIR and XDG_STATE_HOME, so
// it attaches to the instance it runs in and starts its jobs there. The
// TUI says so, naming `env -u JOBTOP_SOCKET` for a separate instance,
// and never sizes the job it runs in: that job's terminal is the one it
// draws on, and giving it its pane's size shrank itself, again and again.
//
// It is that case when $JOBTOP_JOB_ID names a job of the instance on
// $JOBTOP_SOCKET (no --socket naming another) whose process is this
// one's ancestor: an ID left from an instance since gone names another
// job, or none.
func withinOwnJob(cmd *cobra.Command, c *control.Client, cfg ui.Config) ui.Config {
	env, idText := os.Getenv(control.SocketEnv), os.Getenv(jobIDEnv)
	if env == "" || idText == "" {
		return cfg
	}
	if abs, err := filepath.Abs(env); err != nil || abs != socketPath(cmd) {
		return cfg
	}
	id, err := jobs.ParseID(idText)
	if err != nil {
		return cfg
	}
	info, err := c.Get(id)
	if err != nil || info.PID <= 0 || !isAncestor(info.PID) {
		return cfg
	}
	cfg.Within = id
	cfg.Notice = fmt.Sprintf("this TUI runs in job %s of the instance it shows ($%s is set for its jobs); `env -u %s jobtop ...` starts a separate one",
		id, control.SocketEnv, control.SocketEnv)
	return cfg
}

// isAncestor reports whether process pid is this process (a job that
// execs jobtop), its parent, or its parent's, and so on.
func isAncestor(pid int) bool {
	p := os.Getpid()
	for range 64 {
		if p == pid {
			return true
		}
		if p <= 1 {
			return false
		}
		pr, err := proc.Get(p)
		if err != nil {
			return false
		}
		p = pr.PPID
	}
	return false
}
