package cmd

import (
	"bufio"
	"context"
	"errors"
	"os/exec"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestFollowEndsWhenItsReaderGoes: `jobtop logs -f X | head -1` of a
// quiet job (a server waiting for requests) hung until the job wrote
// again, for ever, where `tail -f file | head -1` ends at once. The
// follow now notices its reader closed the pipe and exits 141, as a
// command killed by SIGPIPE.
func TestFollowEndsWhenItsReaderGoes(t *testing.T) {
	c := newCLI(t)
	c.serve()
	id := c.startJob("echo up; echo more; exec sleep 600", "--name", "quiet")
	c.ok("wait", id, "--until", "^more$", "--timeout", "20s")
	for _, args := range [][]string{
		{"logs", "-f", id},
		{"logs", "-f", "--json", id},
		{"logs", "--all", "-f"},
	} {
		ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
		defer cancel()
		cmd := exec.CommandContext(ctx, binary, args...)
		cmd.Env = c.env
		out, err := cmd.StdoutPipe()
		require.NoError(t, err)
		var stderr strings.Builder
		cmd.Stderr = &stderr
		require.NoError(t, cmd.Start())
		first, err := bufio.NewReader(out).ReadString('\n')
		require.NoError(t, err, "%v", args)
		assert.Contains(t, first, "up", "%v", args)
		require.NoError(t, out.Close()) // as head -1 exits
		err = cmd.Wait()
		require.NoError(t, ctx.Err(), "%v still ran after its reader went", args)
		var exit *exec.ExitError
		require.True(t, errors.As(err, &exit), "%v: %v", args, err)
		code := exit.ExitCode()
		if ws, ok := exit.Sys().(syscall.WaitStatus); ok && ws.Signaled() && ws.Signal() == syscall.SIGPIPE {
			// It wrote before it saw the reader go: SIGPIPE, which a
			// shell reports as the same 141.
			code = 128 + int(syscall.SIGPIPE)
		}
		assert.Equal(t, exitReaderGone, code, "%v: %s", args, stderr.String())
		assert.Empty(t, stderr.String(), "%v", args)
	}
}
