package cmd

import (
	"embed"
	"os"
	"path"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"jobtop/jobs"
	"jobtop/ui"
)

// demoScripts are the sample jobs of "jobtop demo".
//
//go:embed demo/*.sh
var demoScripts embed.FS

// demoJobs are the demo's jobs, in the order they appear.
var demoJobs = []struct{ name, command string }{
	{"build", "sh build.sh"},
	{"test", "sh test.sh"},
	{"server", "sh server.sh"},
	{"lint", "sh lint.sh"},
	{"hello", "echo hello from jobtop"},
}

func newDemoCmd() *cobra.Command {
	demo := &cobra.Command{
		Use:   "demo",
		Short: "Open the TUI on a set of sample jobs",
		Long: `demo opens the TUI on sample jobs that need no setup: a build with a
progress bar and colours, a failing test run, a chatty server, a linter
writing to stderr and a quick job that succeeds.

It is a private session: no job file, and no socket unless --socket is
given; then the demo serves its jobs there, to try the CLI on them
(jobtop --socket S ls).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := needTerminal(); err != nil {
				return err // its jobs would start, then stop with the TUI that cannot open
			}
			dir, err := writeDemoScripts()
			if err != nil {
				return err
			}
			defer os.RemoveAll(dir)
			specs := make([]jobs.Spec, 0, len(demoJobs))
			for _, j := range demoJobs {
				specs = append(specs, jobs.Spec{Name: j.name, Command: j.command, Grace: 3 * time.Second})
			}
			cfg := withTerminal(cmd, ui.Config{})
			if cmd.Flags().Changed(socketFlag) {
				// Served on the socket asked for, to try the CLI on.
				in, err := startInstance(cmd, "demo", nil, jobs.Options{})
				if err != nil {
					return err
				}
				return runLocalTUI(in.mgr, in.mgr, cfg, specs, dir, in.shutdown, nil, in.srv.ShutdownRequested())
			}
			// A private session: no socket and no job file, so the demo
			// runs the same whatever instance is around.
			mgr, err := jobs.NewManager(jobs.Options{Emulator: newEmulator})
			if err != nil {
				return err
			}
			return runLocalTUI(mgr, mgr, cfg, specs, dir, mgr.Shutdown, nil, nil)
		},
	}
	addBellFlag(demo)
	return demo
}

// writeDemoScripts copies the demo's scripts to a new temporary directory.
func writeDemoScripts() (string, error) {
	dir, err := os.MkdirTemp("", "jobtop-demo-")
	if err != nil {
		return "", err
	}
	if err := copyDemoScripts(dir); err != nil {
		os.RemoveAll(dir)
		return "", err
	}
	return dir, nil
}

func copyDemoScripts(dir string) error {
	entries, err := demoScripts.ReadDir("demo")
	if err != nil {
		return err
	}
	for _, e := range entries {
		b, err := demoScripts.ReadFile(path.Join("demo", e.Name()))
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, e.Name()), b, 0o600); err != nil {
			return err
		}
	}
	return nil
}
