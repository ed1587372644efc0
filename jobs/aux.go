package jobs

import (
	"context"
	"errors"
	"io"
	"os"
	"syscall"
	"time"

	"jobtop/jobs/keeper"
)

const (
	// auxOutputKept bounds what is kept of a command's output: its last
	// bytes.
	auxOutputKept = 16 << 10
	// auxDrain bounds how long a command's output is still read once no
	// process of it is left.
	auxDrain = 500 * time.Millisecond
)

// CommandResult is how a command that jobtop ran beside a job ended.
type CommandResult struct {
	// Stdout and Stderr are the ends of what it wrote (auxOutputKept
	// bytes of each at most).
	Stdout, Stderr []byte
	// Code is its exit code, or -1 when a signal ended it.
	Code   int
	Signal Signal
}

// runAux runs argv beside a job (a probe's command, a stop command) the
// way a job runs: through the keeper, in a session of its own, so nothing
// it starts outlives it or jobtop. It returns once every process it
// started is gone; what the main process leaves is killed when it exits,
// and ctx's end kills everything. An error means it could not start.
func (m *Manager) runAux(ctx context.Context, argv, env []string, dir string) (CommandResult, error) {
	if len(argv) == 0 {
		return CommandResult{}, errors.New("no command")
	}
	path, err := lookProgram(argv[0], dir, os.Getenv("PATH"))
	if err != nil {
		return CommandResult{}, err
	}
	kc, err := m.keeperClient()
	if err != nil {
		return CommandResult{}, err
	}
	null, err := os.Open(os.DevNull)
	if err != nil {
		return CommandResult{}, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		null.Close()
		return CommandResult{}, err
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		null.Close()
		outR.Close()
		outW.Close()
		return CommandResult{}, err
	}
	events := make(chan keeper.Event, 2) // Exited, then Empty
	m.mu.Lock()
	m.nextRun++
	run := m.nextRun
	m.aux[run] = events
	m.mu.Unlock()
	defer func() {
		m.mu.Lock()
		delete(m.aux, run)
		m.mu.Unlock()
	}()
	_, err = kc.Spawn(keeper.Spawn{Run: run, Path: path, Argv: argv, Env: env, Dir: dir,
		Stdin: null, Stdout: outW, Stderr: errW, StopSignal: syscall.SIGKILL})
	null.Close()
	outW.Close()
	errW.Close()
	if err != nil {
		outR.Close()
		errR.Close()
		return CommandResult{}, err
	}
	stdout, stderr := make(chan []byte, 1), make(chan []byte, 1)
	go func() { stdout <- readTail(outR, auxOutputKept) }()
	go func() { stderr <- readTail(errR, auxOutputKept) }()

	var res CommandResult
	cancelled := ctx.Done()
	for empty := false; !empty; {
		select {
		case ev := <-events:
			switch ev.Kind {
			case keeper.Exited:
				res.Code = ev.Status.ExitStatus()
				if ev.Status.Signaled() {
					res.Code, res.Signal = -1, Signal(ev.Status.Signal())
				}
				if ev.Left > 0 {
					kc.Signal(run, syscall.SIGKILL)
				}
			case keeper.Empty:
				empty = true
			}
		case <-cancelled:
			cancelled = nil
			kc.Signal(run, syscall.SIGKILL)
		}
	}
	for _, r := range []*os.File{outR, errR} {
		r.SetReadDeadline(time.Now().Add(auxDrain)) //nolint:errcheck // a pipe supports deadlines
	}
	res.Stdout, res.Stderr = <-stdout, <-stderr
	outR.Close()
	errR.Close()
	return res, nil
}

// RunCommand runs argv, in dir with env, the way jobtop runs jobs and
// their probes: under the keeper, in a session of its own, so nothing it
// starts outlives it or jobtop. It returns once every process it started
// is gone (what it leaves when it exits is killed; ctx's end kills it);
// an error means it could not start. Jobs' output stores and logs are
// not involved: it is for commands jobtop runs for its own use (e.g. a
// job file's env_cmds).
func (m *Manager) RunCommand(ctx context.Context, argv, env []string, dir string) (CommandResult, error) {
	return m.runAux(ctx, argv, env, dir)
}

// auxEventLocked passes the keeper's news of a command run beside a job to
// its runAux, and reports whether the run was one.
func (m *Manager) auxEventLocked(ev keeper.Event) bool {
	ch := m.aux[ev.Run]
	if ch != nil {
		ch <- ev
	}
	return ch != nil
}

// auxLostLocked ends every command run beside a job when the keeper dies
// (the manager kills what it left).
func (m *Manager) auxLostLocked() {
	for run, ch := range m.aux {
		ch <- keeper.Event{Run: run, Kind: keeper.Exited, Status: syscall.WaitStatus(syscall.SIGKILL)}
		ch <- keeper.Event{Run: run, Kind: keeper.Empty}
		delete(m.aux, run)
	}
}

// readTail reads r to its end and returns its last n bytes.
func readTail(r io.Reader, n int) []byte {
	var kept []byte
	buf := make([]byte, 32<<10)
	for {
		k, err := r.Read(buf)
		kept = append(kept, buf[:k]...)
		if over := len(kept) - n; over > 0 {
			kept = append(kept[:0], kept[over:]...)
		}
		if err != nil {
			return kept
		}
	}
}
