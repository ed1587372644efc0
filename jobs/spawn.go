package jobs

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

const (
	sigKill = syscall.SIGKILL
	// readBufSize is the most read from a pipe at once.
	readBufSize = 256 << 10
	// pipeSize asks the kernel for larger pipes (the unprivileged maximum),
	// so a fast writer blocks less often between our reads.
	pipeSize = 1 << 20
	// drainTimeout bounds how long output is still read after a job's
	// process group is gone, in case something outside the group holds
	// the pipe open.
	drainTimeout = 2 * time.Second
)

func (s Signal) sys() syscall.Signal { return syscall.Signal(s) }

// process is one run's live process group.
type process struct {
	cmd          *exec.Cmd
	pid          int // also the process group ID
	graceTimer   *time.Timer
	timeoutTimer *time.Timer
	readyTimer   *time.Timer
	readyMu      sync.Mutex
	ready        *readiness
}

// signal sends sig to the process group and to descendants that left it.
func (p *process) signal(sig syscall.Signal) {
	signalTree(p.pid, sig)
}

func (p *process) stopTimers() {
	for _, t := range []*time.Timer{p.graceTimer, p.timeoutTimer, p.readyTimer} {
		if t != nil {
			t.Stop()
		}
	}
}

type exitStatus struct {
	code     int
	signaled bool
	signal   Signal
}

// spawnLocked starts a new run of the job. On failure the job ends in
// state "error" with the reason.
func (m *Manager) spawnLocked(j *job) {
	j.runs++
	now := time.Now()
	j.markRunStart(now)
	j.pid, j.exitCode, j.signal, j.errText, j.reason = 0, nil, 0, "", ""
	j.started, j.ended = &now, nil
	j.request, j.sentSignal, j.ready = reqNone, 0, false

	cmd, err := m.command(j)
	if err != nil {
		m.finishWithoutRunLocked(j, StateError, err.Error())
		return
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		m.finishWithoutRunLocked(j, StateError, "pipe: "+err.Error())
		return
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		outR.Close()
		outW.Close()
		m.finishWithoutRunLocked(j, StateError, "pipe: "+err.Error())
		return
	}
	unix.FcntlInt(outR.Fd(), unix.F_SETPIPE_SZ, pipeSize) //nolint:errcheck // best effort
	unix.FcntlInt(errR.Fd(), unix.F_SETPIPE_SZ, pipeSize) //nolint:errcheck // best effort
	cmd.Stdout, cmd.Stderr = outW, errW
	err = cmd.Start()
	outW.Close()
	errW.Close()
	if err != nil {
		outR.Close()
		errR.Close()
		m.finishWithoutRunLocked(j, StateError, startError(j.spec, err))
		return
	}
	p := &process{cmd: cmd, pid: cmd.Process.Pid}
	j.proc, j.pid, j.state = p, p.pid, StateRunning
	m.active++
	m.runs.Add(1)
	if j.spec.Timeout > 0 {
		p.timeoutTimer = time.AfterFunc(j.spec.Timeout, func() {
			m.mu.Lock()
			defer m.mu.Unlock()
			if j.proc == p {
				m.endRunLocked(j, reqTimeout)
			}
		})
	}
	m.startReadinessLocked(j, p)
	m.changedLocked(j)

	var readers sync.WaitGroup
	readers.Add(2)
	go m.readStream(j, p, outR, Stdout, &readers)
	go m.readStream(j, p, errR, Stderr, &readers)
	go m.reap(j, p, &readers, outR, errR)
}

// command builds the exec.Cmd for a run, or says why it cannot start.
func (m *Manager) command(j *job) (*exec.Cmd, error) {
	spec := j.spec
	if spec.Dir != "" {
		st, err := os.Stat(spec.Dir)
		switch {
		case err != nil:
			return nil, fmt.Errorf("working directory %q does not exist", spec.Dir)
		case !st.IsDir():
			return nil, fmt.Errorf("working directory %q is not a directory", spec.Dir)
		}
	}
	var cmd *exec.Cmd
	if len(spec.Argv) > 0 {
		path, err := lookProgram(spec.Argv[0], spec.Dir)
		if err != nil {
			return nil, err
		}
		cmd = &exec.Cmd{Path: path, Args: spec.Argv}
	} else {
		cmd = exec.Command("/bin/sh", "-c", spec.Command)
	}
	cmd.Dir = spec.Dir
	cmd.Env = m.environ(j)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	return cmd, nil
}

// lookProgram resolves argv[0] like a shell would: names with a slash are
// paths (relative to dir), others are looked up in PATH.
func lookProgram(prog, dir string) (string, error) {
	if !strings.Contains(prog, "/") {
		path, err := exec.LookPath(prog)
		if err != nil {
			return "", fmt.Errorf("program %q not found in PATH", prog)
		}
		return path, nil
	}
	path := prog
	if !filepath.IsAbs(path) && dir != "" {
		path = filepath.Join(dir, path)
	}
	st, err := os.Stat(path)
	switch {
	case err != nil:
		return "", fmt.Errorf("program %q does not exist", prog)
	case st.IsDir():
		return "", fmt.Errorf("program %q is a directory", prog)
	case st.Mode()&0o111 == 0:
		return "", fmt.Errorf("program %q is not executable", prog)
	}
	return prog, nil
}

func startError(spec Spec, err error) string {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return fmt.Sprintf("cannot start %q: %v", spec.DisplayCommand(), pe.Err)
	}
	return "cannot start: " + err.Error()
}

// environ is the inherited environment plus the manager's and the spec's
// additions and JOBTOP_JOB_ID; later entries win.
func (m *Manager) environ(j *job) []string {
	env := os.Environ()
	for _, add := range []map[string]string{m.opts.Env, j.spec.Env} {
		keys := make([]string, 0, len(add))
		for k := range add {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			env = append(env, k+"="+add[k])
		}
	}
	return append(env, "JOBTOP_JOB_ID="+j.id.String())
}

// readStream copies one pipe into the log file and the store until EOF.
func (m *Manager) readStream(j *job, p *process, f *os.File, stream Stream, done *sync.WaitGroup) {
	defer done.Done()
	buf := make([]byte, readBufSize)
	for {
		n, err := f.Read(buf)
		if n > 0 {
			// Storing output is the CPU-heavy part; past one core's worth
			// of readers at once, firehose jobs would leave nothing for
			// the UI or API goroutines (key latency p95 ~30-50 ms instead
			// of 70-110 ms with three yes jobs on 2 cores).
			m.ingest <- struct{}{}
			j.log.Write(buf[:n])
			j.store.Append(stream, buf[:n])
			<-m.ingest
			m.hub.publish(j.id, EventOutput, Info{})
			if p.ready != nil {
				m.checkReadyLine(j, p)
			}
			// A reader of a job that writes as fast as it can is always
			// runnable; yielding after each chunk keeps it from holding a
			// P for a whole time slice, so the UI stays responsive while
			// such jobs run (see e2e PerfKeyLatency).
			runtime.Gosched()
		}
		if err != nil {
			return
		}
	}
}

// reap waits for the run's main process to exit, kills what is left of its
// process group, drains the pipes and records the end.
func (m *Manager) reap(j *job, p *process, readers *sync.WaitGroup, pipes ...*os.File) {
	defer m.runs.Done()
	// Wait for the exit without reaping, so the group's ID cannot be
	// reused before the leftovers are killed.
	var info unix.Siginfo
	for {
		err := unix.Waitid(unix.P_PID, p.pid, &info, unix.WEXITED|unix.WNOWAIT, nil)
		if err != unix.EINTR {
			break
		}
	}
	signalTree(p.pid, sigKill)
	p.cmd.Wait() //nolint:errcheck // the status is read from ProcessState

	drained := make(chan struct{})
	go func() {
		readers.Wait()
		close(drained)
	}()
	select {
	case <-drained:
	case <-time.After(drainTimeout):
		for _, f := range pipes {
			f.SetReadDeadline(time.Now()) //nolint:errcheck // unblocks the reader
		}
		<-drained
	}
	for _, f := range pipes {
		f.Close()
	}
	j.store.Flush()
	ws := p.cmd.ProcessState.Sys().(syscall.WaitStatus)
	exit := exitStatus{code: ws.ExitStatus()}
	if ws.Signaled() {
		exit = exitStatus{signaled: true, signal: Signal(ws.Signal())}
	}
	m.mu.Lock()
	m.finishRunLocked(j, p, exit)
	m.mu.Unlock()
	m.hub.publish(j.id, EventOutput, Info{})
}
