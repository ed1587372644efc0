// Command ptydrain runs its arguments as a command on a terminal of its
// own (200x50) and reads the terminal as fast as it can into nothing: the
// floor under any program that shows a terminal's output (the kernel's
// terminal layer), for jobtop's measurements. The command's stderr is
// ptydrain's.
//
//	ptydrain sh -c 'CMD'
//
// Build it with: go build -o ptydrain ./e2e/testdata/ptydrain
package main

import (
	"fmt"
	"io"
	"os"
	"os/exec"

	"github.com/creack/pty"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: ptydrain COMMAND [ARGS...]")
		os.Exit(2)
	}
	cmd := exec.Command(os.Args[1], os.Args[2:]...)
	cmd.Stderr = os.Stderr
	f, err := pty.StartWithSize(cmd, &pty.Winsize{Cols: 200, Rows: 50})
	if err != nil {
		fmt.Fprintln(os.Stderr, "ptydrain:", err)
		os.Exit(1)
	}
	io.CopyBuffer(io.Discard, f, make([]byte, 256<<10)) //nolint:errcheck // EIO once the command is gone
	if err := cmd.Wait(); err != nil {
		fmt.Fprintln(os.Stderr, "ptydrain:", err)
		os.Exit(1)
	}
}
