package cmd

import (
	"fmt"

	"github.com/spf13/cobra"

	"jobtop/control"
	"jobtop/jobs"
)

type screenOptions struct {
	json bool
	ansi bool
}

func newScreenCmd() *cobra.Command {
	var o screenOptions
	cmd := jobCommand("screen ID", "Print a job's screen as a terminal shows it",
		`Print what a terminal would show of the job now. For a full-screen
program on a terminal (a job started with --tty that took the whole
screen: an editor, htop, an agent's TUI) that is its screen, drawn by
jobtop's terminal emulator, one line per row; for any other job, the
newest lines of its output that fit its terminal (200x50 unless resized).
Blank rows at the bottom are left out (a full-screen program's row with
its cursor shown on it is not blank), blank rows between others kept. The
text is what the terminal shows: no control characters, and no escape
sequences.

--ansi keeps colours (SGR sequences, nothing else; a row of coloured
blanks is not blank); --json prints every row, blank ones as "" (so
lines[cursor_y] is the cursor's row), with the screen's size, cursor, and
whether it is a full-screen program's.`,
		func(cmd *cobra.Command, c *control.Client, id jobs.ID) error {
			return screen(cmd, c, id, o)
		})
	cmd.Flags().BoolVar(&o.json, "json", false, "print the screen as JSON: lines, size, cursor, screen mode")
	cmd.Flags().BoolVar(&o.ansi, "ansi", false, "keep colours (SGR sequences)")
	return cmd
}

func screen(cmd *cobra.Command, c *control.Client, id jobs.ID, o screenOptions) error {
	resp, err := c.ReadScreen(cmd.Context(), id, o.ansi)
	if err != nil {
		return err
	}
	if o.json {
		return printJSON(cmd.OutOrStdout(), resp)
	}
	w := cmd.OutOrStdout()
	for _, l := range resp.Shown(o.ansi) {
		if _, err := fmt.Fprintln(w, l); err != nil {
			return err
		}
	}
	return nil
}
