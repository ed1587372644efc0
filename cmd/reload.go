package cmd

import (
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"jobtop/control"
)

func newReloadCmd() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "reload",
		Short: "Re-read the instance's job file and apply what changed",
		Long: `Ask the jobtop instance on the socket to re-read its job file: jobs
added to the file start, removed ones are stopped and removed, changed
ones restart with their new settings, and unchanged ones are left alone.
Jobs not from the file are never touched. Prints what changed.

A file with problems changes nothing: every problem is printed as
FILE:LINE:COL: what is wrong, and reload exits 1. So does an instance
with no job file.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			resp, err := newClient(cmd).ReloadFile(cmd.Context())
			var apiErr *control.APIError
			if errors.As(err, &apiErr) && len(apiErr.Problems) > 0 {
				return problemsError("the job file", apiErr.Problems, "nothing was changed")
			}
			if err != nil {
				return err
			}
			if asJSON {
				return printJSON(cmd.OutOrStdout(), resp)
			}
			fmt.Fprintln(cmd.OutOrStdout(), resp.Summary)
			for _, w := range resp.Warnings {
				fmt.Fprintln(cmd.ErrOrStderr(), w)
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, `print {"summary", "job_file", "added", "changed", "removed", "unchanged", "enabled", "disabled", "rewired", "max_running", "options_changed", "warnings"}`)
	return cmd
}
