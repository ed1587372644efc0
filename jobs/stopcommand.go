package jobs

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"syscall"
	"time"
)

const (
	// stopOutputLimit bounds the stop command's output kept for the
	// job's output (as jobtop's own lines).
	stopOutputLimit = 16 << 10
	// stopWaitDelay bounds how long the stop command's output is still
	// read after it exited, should something it started hold the pipe.
	stopWaitDelay = time.Second
)

// sendStopLocked asks the run to end: its stop command when it has one,
// else its stop signal to the whole tree. The caller arms the grace timer
// that SIGKILLs what is left.
func (m *Manager) sendStopLocked(j *job, p *process) {
	if j.spec.StopCommand == "" {
		j.sentSignal = j.spec.StopSignal
		p.signal(j.spec.StopSignal.sys())
		return
	}
	j.sentSignal = 0
	m.runStopCommandLocked(j, p)
}

// runStopCommandLocked runs the job's stop command beside the run, in the
// job's directory and environment, for at most the grace period; its
// output goes to the job's output as jobtop's own lines. If it cannot
// start, the stop signal is sent instead. The command is started off the
// lock; the run is not reaped before it is over.
func (m *Manager) runStopCommandLocked(j *job, p *process) {
	argv := j.spec.shellArgv(j.spec.StopCommand)
	env, dir, grace := m.environ(j), j.spec.Dir, j.spec.Grace
	j.store.AppendMeta("── stopping with: " + j.spec.StopCommand + " ──")
	p.side.wg.Add(1)
	go func() {
		defer p.side.wg.Done()
		out, err := runBounded(argv, dir, env, grace)
		for _, line := range strings.Split(strings.TrimRight(out, "\n"), "\n") {
			if line != "" {
				j.store.AppendMeta("stop: " + line)
			}
		}
		if err == nil {
			return
		}
		j.store.AppendMeta("── stop command: " + err.Error() + " ──")
		var start *startErr
		if errors.As(err, &start) {
			m.mu.Lock()
			if j.proc == p {
				j.sentSignal = j.spec.StopSignal
				p.signal(j.spec.StopSignal.sys())
			}
			m.mu.Unlock()
		}
	}()
}

// startErr is a command that could not be started.
type startErr struct{ err error }

func (e *startErr) Error() string { return "could not start: " + e.err.Error() }

// runBounded runs argv in its own process group for at most limit, and
// returns its output (the first stopOutputLimit bytes). The group is
// SIGKILLed at the limit, and after the command exits, so nothing it
// started is left.
func runBounded(argv []string, dir string, env []string, limit time.Duration) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Dir, cmd.Env = dir, env
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = stopWaitDelay
	out := &limitedBuffer{limit: stopOutputLimit}
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		return "", &startErr{err}
	}
	err := cmd.Wait()
	syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) //nolint:errcheck // leftovers, if any
	var exit *exec.ExitError
	switch {
	case ctx.Err() != nil:
		err = fmt.Errorf("still running after %v: killed", limit)
	case errors.As(err, &exit):
		err = fmt.Errorf("exited with code %d", exit.ExitCode())
	}
	return out.String(), err
}

// limitedBuffer keeps the first limit bytes written to it.
type limitedBuffer struct {
	bytes.Buffer
	limit int
}

func (b *limitedBuffer) Write(p []byte) (int, error) {
	if room := b.limit - b.Len(); room > 0 {
		b.Buffer.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}
