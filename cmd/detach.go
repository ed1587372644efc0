package cmd

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"jobtop/control"
	"jobtop/jobfile"
)

// detachFlag is serve's -D/--detach: process-compose's up -D,
// overmind's start -D.
const detachFlag = "detach"

// serveDetached is jobtop serve -D: the same serve (same flags, job file
// and socket) started in the background, its output going to the serve
// log that jobtop run's background serve writes to. What the foreground
// serve refuses before it starts anything (a job file with problems, a
// socket a live instance holds) is refused here, with its words, before
// anything starts; then it waits until the new instance answers, says
// what runs where, and returns.
func serveDetached(cmd *cobra.Command, plan *jobfile.Plan) error {
	path := socketPath(cmd)
	l, err := control.Listen(path)
	if err != nil {
		return err // in use: as serve says it
	}
	l.Close() // never served: the socket file and its lock go with it
	server, logPath, start, exited, err := startBackgroundServe(append([]string{"serve", "--socket", path}, serveFlags(cmd)...)...)
	if err != nil {
		return fmt.Errorf("cannot start jobtop serve in the background: %w", err)
	}
	if err := awaitServe(cmd.Context(), control.NewClient(path), server.Process.Pid, exited); err != nil {
		return &ExitError{Code: 1, Err: fmt.Errorf("%v; it said (in %s):\n%s", err, logPath, logSince(logPath, start))}
	}
	if plan != nil {
		printWarnings(cmd.ErrOrStderr(), plan)
	}
	what := "with no job file"
	if plan != nil {
		what = plural(len(plan.Jobs), "job") + " from " + planFiles(plan)
	}
	fmt.Fprintf(cmd.ErrOrStderr(), "jobtop: serving %s in the background (pid %d, socket %s, log %s); jobtop attach to watch, jobtop shutdown to stop it\n",
		what, server.Process.Pid, path, logPath)
	return nil
}

// serveFlags is the command line of the flags given to this serve, for
// the same serve in the background: without -D and --socket (given
// resolved), each as --name=value (repeated flags once per value).
func serveFlags(cmd *cobra.Command) []string {
	var args []string
	cmd.Flags().Visit(func(f *pflag.Flag) {
		switch {
		case f.Name == detachFlag || f.Name == socketFlag:
		case isSlice(f):
			for _, v := range f.Value.(pflag.SliceValue).GetSlice() {
				args = append(args, "--"+f.Name+"="+v)
			}
		default:
			args = append(args, "--"+f.Name+"="+f.Value.String())
		}
	})
	return args
}

func isSlice(f *pflag.Flag) bool {
	_, ok := f.Value.(pflag.SliceValue)
	return ok
}

// awaitServe waits until the serve of pid answers on c's socket, or
// exits, or autoStartTimeout passes.
func awaitServe(ctx context.Context, c *control.Client, pid int, exited <-chan error) error {
	deadline := time.Now().Add(autoStartTimeout)
	for {
		probe, cancel := context.WithTimeout(ctx, time.Second)
		inst, err := c.Instance(probe)
		cancel()
		switch {
		case err == nil && inst.PID == pid:
			return nil
		case err == nil:
			return fmt.Errorf("another jobtop (pid %d) took %s first", inst.PID, c.Socket())
		case time.Now().After(deadline):
			return fmt.Errorf("jobtop serve (pid %d) did not answer on %s within %v", pid, c.Socket(), autoStartTimeout)
		}
		select {
		case werr := <-exited:
			var exit *exec.ExitError
			if errors.As(werr, &exit) {
				return fmt.Errorf("jobtop serve exited with %d before it served", exit.ExitCode())
			}
			return fmt.Errorf("jobtop serve exited before it served (%v)", werr)
		case <-time.After(20 * time.Millisecond):
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// logSince is what the serve log holds past offset: what the serve just
// started wrote.
func logSince(path string, offset int64) string {
	b, err := os.ReadFile(path)
	if err != nil || int64(len(b)) < offset {
		return ""
	}
	return strings.TrimSuffix(string(b[offset:]), "\n")
}
