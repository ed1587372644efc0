package cmd

import (
	"fmt"
	"runtime"
	"runtime/debug"

	"github.com/spf13/cobra"
)

// versionText is jobtop's version as its build recorded it: the module's
// version (a release's, or one naming the commit it was built from), else
// the commit and whether the tree had changes; then the Go it was built
// with and the system it runs on.
func versionText() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return fmt.Sprintf("unknown (%s %s/%s)", runtime.Version(), runtime.GOOS, runtime.GOARCH)
	}
	return versionFrom(info)
}

func versionFrom(info *debug.BuildInfo) string {
	v := info.Main.Version
	if v == "" {
		v = "(devel)"
	}
	var rev, at string
	var modified bool
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.time":
			at = s.Value
		case "vcs.modified":
			modified = s.Value == "true"
		}
	}
	// Go stamps a build from a checkout with a version naming its commit
	// (v0.0.0-TIME-COMMIT, +dirty with changes); older Go does not.
	if v == "(devel)" && rev != "" {
		v += " " + rev[:min(len(rev), 12)]
		if at != "" {
			v += " " + at
		}
		if modified {
			v += " with changes"
		}
	}
	return fmt.Sprintf("%s (%s %s/%s)", v, info.GoVersion, runtime.GOOS, runtime.GOARCH)
}

func newVersionCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print jobtop's version (as jobtop --version does)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return printVersion(cmd)
		},
	}
}

// printVersion prints this binary's version. It runs here: asked for
// another machine, it says how to ask there.
func printVersion(cmd *cobra.Command) error {
	if f := cmd.Flags().Lookup(hostFlag); f != nil && f.Changed {
		return &ExitError{Code: usageExit, Err: fmt.Errorf("--%s is for the commands that talk to an instance; jobtop --version runs here (run it on the other machine: ssh HOST jobtop --version)", hostFlag)}
	}
	fmt.Fprintln(cmd.OutOrStdout(), "jobtop", versionText())
	return nil
}
