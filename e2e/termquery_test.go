package e2e

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"slices"
	"testing"

	"github.com/creack/pty"
	"github.com/stretchr/testify/require"
)

// TestTheCLIAsksTheTerminalNothing: a CLI command on a terminal that
// answers nothing (a coding agent's or a harness's pseudo-terminal)
// writes no query to it, so it waits for no answer. Bubble Tea v1's init
// asked every program that links it (see third_party/bubbletea).
func TestTheCLIAsksTheTerminalNothing(t *testing.T) {
	bin := binary(t)
	in := startServe(t, bin)
	in.cli("run", "--name", "hello", "--", "echo hello")
	in.cli("wait", "1")
	for _, args := range [][]string{{"version"}, {"--help"}, {"ls"}, {"status", "1"}, {"logs", "1"}, {"logs", "--all"},
		{"screen", "1"}, {"ls", "--socket", shortSocket(t)}} {
		if args[0] != "version" && args[0] != "--help" && !slices.Contains(args, "--socket") {
			args = append(args, "--socket", in.socket)
		}
		cmd := exec.Command(bin, args...)
		cmd.Env = append(os.Environ(), "TERM=xterm-256color", "COLORTERM=truecolor")
		master, err := pty.Start(cmd) // its own session, the pty its foreground terminal
		require.NoError(t, err)
		out, _ := io.ReadAll(master) // until the pty hangs up: the command exited
		master.Close()
		cmd.Wait() //nolint:errcheck // ls fails: no instance
		require.False(t, bytes.Contains(out, []byte("\x1b]11;?")) || bytes.Contains(out, []byte("\x1b[6n")),
			"%v asked the terminal: %q", args, out)
		require.NotEmpty(t, out, "%v printed something", args)
	}
}
