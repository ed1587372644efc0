package probe

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"jobtop/jobs"
)

const (
	// outputKept bounds what a check keeps of the command's output.
	outputKept = 4 << 10
	// pipeGrace bounds how long output is still read after the command
	// exited, should something it started hold the pipe.
	pipeGrace = 500 * time.Millisecond
)

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

// Check runs the command once, in a process group that is SIGKILLed when
// ctx ends and once the command has exited.
func (e *Exec) Check(ctx context.Context, t jobs.ProbeTarget) error {
	shell := t.Shell
	if len(shell) == 0 {
		shell = []string{"/bin/sh", "-c"}
	}
	argv := append(append([]string(nil), shell...), e.Command)
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Dir = t.Dir
	switch {
	case filepath.IsAbs(e.Dir):
		cmd.Dir = e.Dir
	case e.Dir != "":
		cmd.Dir = filepath.Join(t.Dir, e.Dir)
	}
	cmd.Env = t.Env
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = pipeGrace
	out := &tail{}
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("%s: cannot start: %v", e.Command, err)
	}
	err := cmd.Wait()
	syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) //nolint:errcheck // what it left, if anything
	if err == nil {
		return nil
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	msg := e.Command + ": " + describeExit(err)
	if last := out.lastLine(); last != "" {
		msg += ": " + last
	}
	return errors.New(msg)
}

func describeExit(err error) string {
	var exit *exec.ExitError
	if !errors.As(err, &exit) {
		return err.Error()
	}
	if ws, ok := exit.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return "killed by " + ws.Signal().String()
	}
	return fmt.Sprintf("exit %d", exit.ExitCode())
}

// String is "exec: COMMAND".
func (e *Exec) String() string {
	s := "exec: " + e.Command
	if e.Dir != "" {
		s += " (in " + e.Dir + ")"
	}
	return s
}

// tail keeps the last outputKept bytes written to it.
type tail struct{ buf []byte }

func (t *tail) Write(p []byte) (int, error) {
	t.buf = append(t.buf, p...)
	if over := len(t.buf) - outputKept; over > 0 {
		t.buf = t.buf[over:]
	}
	return len(p), nil
}

func (t *tail) lastLine() string {
	lines := strings.Split(strings.TrimSpace(string(bytes.ToValidUTF8(t.buf, nil))), "\n")
	return oneLine(lines[len(lines)-1])
}
