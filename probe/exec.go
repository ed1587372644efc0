package probe

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"syscall"

	"jobtop/jobs"
)

// outputKept bounds what a check looks at of the command's output.
const outputKept = 4 << 10

// Exec passes when Command exits with code 0. It runs with the job's
// shell and environment, in Dir (relative to the job's directory), or the
// job's directory when Dir is "".
type Exec struct {
	Command string
	Dir     string
}

// NewExec checks that there is a command.
func NewExec(command, dir string) (*Exec, error) {
	if strings.TrimSpace(command) == "" {
		return nil, errors.New("the command is empty")
	}
	return &Exec{Command: command, Dir: dir}, nil
}

// Check runs the command once, beside the job (see jobs.ProbeTarget.Run):
// ctx's end kills it and everything it started.
func (e *Exec) Check(ctx context.Context, t jobs.ProbeTarget) error {
	if t.Run == nil {
		return errors.New(e.Command + ": cannot run commands here")
	}
	shell := t.Shell
	if len(shell) == 0 {
		shell = []string{"/bin/sh", "-c"}
	}
	argv := append(append([]string(nil), shell...), e.Command)
	dir := t.Dir
	switch {
	case filepath.IsAbs(e.Dir):
		dir = e.Dir
	case e.Dir != "":
		dir = filepath.Join(t.Dir, e.Dir)
	}
	res, err := t.Run(ctx, argv, dir)
	switch {
	case err != nil:
		return fmt.Errorf("%s: cannot start: %v", e.Command, err)
	case res.Code == 0 && res.Signal == 0:
		return nil // even if ctx ended just after
	case ctx.Err() != nil:
		return ctx.Err()
	}
	msg := e.Command + ": " + describeExit(res)
	last := lastLine(res.Stderr)
	if last == "" {
		last = lastLine(res.Stdout)
	}
	if last != "" {
		msg += ": " + last
	}
	return errors.New(msg)
}

func describeExit(res jobs.CommandResult) string {
	if res.Signal != 0 {
		return "killed by " + syscall.Signal(res.Signal).String()
	}
	return fmt.Sprintf("exit %d", res.Code)
}

// String is "exec: COMMAND".
func (e *Exec) String() string {
	s := "exec: " + e.Command
	if e.Dir != "" {
		s += " (in " + e.Dir + ")"
	}
	return s
}

// lastLine is the last line of a command's output, made one printable
// line.
func lastLine(out []byte) string {
	if len(out) > outputKept {
		out = out[len(out)-outputKept:]
	}
	lines := strings.Split(strings.TrimSpace(string(bytes.ToValidUTF8(out, nil))), "\n")
	return oneLine(lines[len(lines)-1])
}
