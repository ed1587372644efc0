package cmd

import (
	"context"
	"errors"
	"fmt"
	"os"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"jobtop/control"
)

func newDialStdioCmd() *cobra.Command {
	var api int
	var noStart bool
	answerTimeout := control.DefaultDialAnswerTimeout
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

An instance that takes the connection and does not answer within
--answer-timeout (20s; stopped with SIGSTOP, or hung) is an error, so
that dial-stdio and its ssh session are not held for ever. A client
with a --host-timeout other than 30s passes two thirds of it here.

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
			inst, err := instanceWithin(ctx, c, answerTimeout)
			var notRunning *control.NotRunningError
			if errors.As(err, &notRunning) && !errors.Is(err, syscall.EACCES) {
				if noStart {
					return &ExitError{Code: control.DialNoInstance, Err: err}
				}
				ours, serr := autoStartServer(ctx, cmd, c)
				if serr != nil {
					return serr
				}
				tellPreviousEnd(ctx, cmd, c, ours)
				inst, err = instanceWithin(ctx, c, answerTimeout)
			}
			if err != nil {
				return err
			}
			c.Close()
			return control.BridgeStdio(ctx, socket, inst.APIVersion, os.Stdin, os.Stdout)
		},
	}
	cmd.Flags().IntVar(&api, "api", control.APIVersion, "the API version `N` of the client at the other end")
	cmd.Flags().BoolVar(&noStart, "no-start", false, "exit (status 3) when no instance is running, instead of starting one")
	cmd.Flags().Var(durationFlag{d: &answerTimeout, nonNegative: true}, "answer-timeout", "give up when the instance has not answered within `DUR` (0: wait as long as it takes)")
	return cmd
}

// instanceWithin asks the instance who it is, giving up when it has not
// answered within d (0: no limit) with a control.NoAnswerError worded for
// the person at the other end of ssh: a stopped or hung instance would
// hold dial-stdio, and the ssh session it runs in, for ever. d is two
// thirds of their --host-timeout (control.Host's farAnswerTimeout).
func instanceWithin(ctx context.Context, c *control.Client, d time.Duration) (control.Instance, error) {
	c.SetAnswerTimeout(d)
	inst, err := c.Instance(ctx)
	var silent *control.NoAnswerError
	if errors.As(err, &silent) {
		silent.HostTimeout = (d * 3 / 2).Round(time.Second)
		if silent.HostTimeout == 0 {
			silent.HostTimeout = d * 3 / 2
		}
	}
	return inst, err
}
