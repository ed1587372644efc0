package cmd

import (
	"errors"
	"fmt"
	"os"
	"syscall"

	"github.com/spf13/cobra"

	"jobtop/control"
)

func newDialStdioCmd() *cobra.Command {
	var api int
	var noStart bool
	cmd := &cobra.Command{
		Use:   "dial-stdio",
		Short: "Connect stdin and stdout to the instance's socket (what --host runs over ssh)",
		Long: `dial-stdio is the far end of jobtop --host ssh://HOST: the client runs
"ssh HOST jobtop dial-stdio" and speaks the API through it. It connects to
the instance on the socket (--socket, $JOBTOP_SOCKET, the default),
starting a background "jobtop serve --no-file" there first when none is
running, as jobtop run does (--no-start: not). It trusts the socket as the
CLI does: a private directory of this user's, served by this user. Then
it writes one line, "jobtop-api N" (N: the instance's API version), and
copies bytes between its stdin and stdout and the socket, untouched,
until either side ends.

Exit status 3: --no-start and no instance is running; 4: the client is
too old for this jobtop (its --api version).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if api < control.MinClientAPIVersion {
				return &ExitError{Code: control.DialClientTooOld, Err: fmt.Errorf(
					"the jobtop that connected speaks API version %d; this one (API version %d) serves version %d or newer: upgrade jobtop where you ran it",
					api, control.APIVersion, control.MinClientAPIVersion)}
			}
			socket := socketPath(cmd)
			c := control.NewClient(socket)
			defer c.Close()
			ctx := cmd.Context()
			inst, err := c.Instance(ctx)
			var notRunning *control.NotRunningError
			if errors.As(err, &notRunning) && !errors.Is(err, syscall.EACCES) {
				if noStart {
					return &ExitError{Code: control.DialNoInstance, Err: err}
				}
				if err := autoStartServer(ctx, cmd, c); err != nil {
					return err
				}
				inst, err = c.Instance(ctx)
			}
			if err != nil {
				return err
			}
			c.Close()
			return control.BridgeStdio(ctx, socket, inst.APIVersion, os.Stdin, os.Stdout)
		},
	}
	cmd.Flags().IntVar(&api, "api", control.APIVersion, "the API version of the client at the other end")
	cmd.Flags().BoolVar(&noStart, "no-start", false, "exit (status 3) when no instance is running, instead of starting one")
	return cmd
}
