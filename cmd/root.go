// Package cmd holds jobtop's command line: one file per command. It wires
// the job engine (jobs), the TUI (ui) and the local API (control) together;
// nothing below it imports it.
package cmd

import (
	"errors"
	"fmt"
	"os"

	"github.com/spf13/cobra"
)

// ExitError ends jobtop with a given exit code; its message, if any, is
// printed on stderr.
type ExitError struct {
	Code int
	Err  error
}

func (e *ExitError) Error() string {
	if e.Err == nil {
		return fmt.Sprintf("exit status %d", e.Code)
	}
	return e.Err.Error()
}

// Execute runs the command line and returns the process exit code.
func Execute() int {
	root := newRootCmd()
	err := root.Execute()
	if err == nil {
		return 0
	}
	var exit *ExitError
	if errors.As(err, &exit) {
		if exit.Err != nil {
			fmt.Fprintln(os.Stderr, "jobtop:", exit.Err)
		}
		return exit.Code
	}
	fmt.Fprintln(os.Stderr, "jobtop:", err)
	return 1
}

func newRootCmd() *cobra.Command {
	root := &cobra.Command{
		Use:           "jobtop [flags] [COMMAND...]",
		Short:         "Run, watch and control long jobs from one terminal",
		SilenceUsage:  true,
		SilenceErrors: true,
		Args:          cobra.ArbitraryArgs,
	}
	root.AddCommand(newCheckCmd())
	addSocketFlag(root)
	root.AddCommand(newServeCmd())
	root.AddCommand(newRunCmd())
	root.AddCommand(newLsCmd())
	root.AddCommand(newStatusCmd())
	root.AddCommand(newLogsCmd())
	root.AddCommand(newWaitCmd())
	root.AddCommand(newStopCmd())
	root.AddCommand(newKillCmd())
	root.AddCommand(newRestartCmd())
	root.AddCommand(newRmCmd())
	root.AddCommand(newReloadCmd())
	root.AddCommand(newCompletionCmd())
	return root
}
