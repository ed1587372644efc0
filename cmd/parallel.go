package cmd

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
)

func newParallelCmd() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "parallel [N]",
		Short: "Show or set how many jobs the instance runs at once",
		Long: `Without N, print how many jobs the jobtop instance on the socket runs at
once ("no limit" for none). With N, set it now, as pueue's parallel does:
0 means no limit. A higher limit starts queued jobs at once, in the order
they were queued; a lower one stops nothing (the jobs running finish, and
queued ones wait until fewer than N run).

The limit starts as serve's --max-running, else the job file's
max_parallel; a reload that changes max_parallel sets it to the file's,
one that does not keeps what parallel set. The instance jobtop run
starts in the background, when none listens, takes the limit the last
instance on the socket had, and run says so.`,
		Example: `  jobtop parallel        # 4, or no limit
  jobtop parallel 8      # run up to 8 at once from now on
  jobtop parallel 0      # no limit`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) > 1 {
				return usageErrorf("parallel takes one number (the limit), got %d arguments", len(args))
			}
			if len(args) == 1 {
				if _, err := parseLimit(args[0]); err != nil {
					return err
				}
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			c := newClient(cmd)
			var n int
			var err error
			if len(args) == 1 {
				limit, _ := parseLimit(args[0])
				n, err = c.SetParallel(cmd.Context(), limit)
			} else {
				n, err = c.Parallel(cmd.Context())
			}
			if err != nil {
				return err
			}
			if asJSON {
				return printJSON(cmd.OutOrStdout(), map[string]int{"max_running": n})
			}
			printLimit(cmd.OutOrStdout(), n)
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, `print {"max_running": N} (0: no limit)`)
	// "parallel -1" reaches the flag parser as a flag: say what is wrong
	// with the number instead.
	cmd.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		if _, word, ok := strings.Cut(err.Error(), "unknown shorthand flag: "); ok {
			if _, arg, ok := strings.Cut(word, " in "); ok {
				if _, nerr := strconv.Atoi(arg); nerr == nil || errors.Is(nerr, strconv.ErrRange) {
					if _, err := parseLimit(arg); err != nil {
						return err
					}
					// -0: a number, but one a flag took; say so rather
					// than do nothing
					return usageErrorf("parallel %s: write the limit without a sign (0 for no limit)", arg)
				}
			}
		}
		return &ExitError{Code: usageExit, Err: flagValueError(err)}
	})
	return cmd
}

// parseLimit reads parallel's N: a whole number, 0 or more.
func parseLimit(arg string) (int, error) {
	n, err := strconv.Atoi(arg)
	switch {
	case errors.Is(err, strconv.ErrRange):
		return 0, usageErrorf("parallel %s is too large: give a number of jobs to run at once, or 0 for no limit", arg)
	case err != nil:
		return 0, usageErrorf("parallel %q: give a whole number of jobs to run at once, or 0 for no limit", arg)
	case n < 0:
		return 0, usageErrorf("parallel %d is negative: give a number of jobs to run at once, or 0 for no limit", n)
	}
	return n, nil
}

// printLimit writes a limit on jobs running at once: "4", or "no limit".
func printLimit(w io.Writer, n int) {
	if n == 0 {
		fmt.Fprintln(w, "no limit")
		return
	}
	fmt.Fprintln(w, n)
}
