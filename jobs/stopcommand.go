package jobs

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// runStopCommandLocked runs the run's stop command beside it, in the job's
// directory and environment, for at most the grace period (the grace timer
// SIGKILLs the run after it anyway); its output goes to the job's output
// as jobtop's own lines. If it cannot start, the stop signal is sent
// instead. Like every command jobtop runs, it runs under the keeper, so
// nothing it starts outlives it; the run is not finished before it is
// over, and a kill kills it with the run. One that fails has the run
// killed at once where the spec says so (stopCommandFailed).
func (m *Manager) runStopCommandLocked(j *job, p *process) {
	argv := p.spec.shellArgv(p.spec.StopCommand)
	env, dir, grace := m.environ(j.id, p.spec), p.spec.Dir, p.spec.Grace
	j.store.AppendMeta("── stopping with: " + p.spec.StopCommand + " ──")
	j.log.MarkerSoon("── stopping with: " + p.spec.StopCommand + " ──")
	ctx, cancel := context.WithTimeout(context.Background(), grace)
	p.side.cancelStop = cancel
	p.side.wg.Add(1)
	go func() {
		defer p.side.wg.Done()
		defer cancel()
		res, err := m.runAux(ctx, argv, env, dir)
		note := func(text string) { // in the output and the log file alike
			j.store.AppendMeta(text)
			j.log.Marker(text)
		}
		for _, out := range [][]byte{res.Stdout, res.Stderr} {
			for _, line := range strings.Split(strings.TrimRight(string(out), "\n"), "\n") {
				if line != "" {
					note("stop: " + line)
				}
			}
		}
		switch {
		case err != nil:
			note("── stop command: could not start: " + err.Error() + " ──")
			m.mu.Lock()
			if j.proc == p {
				j.sentSignal = p.spec.StopSignal
				m.stopLocked(p, p.spec.StopSignal.sys())
			}
			m.mu.Unlock()
		case res.Signal == Signal(sigKill) && errors.Is(ctx.Err(), context.DeadlineExceeded):
			note(fmt.Sprintf("── stop command: still running after %v: killed ──", grace))
		case res.Signal == Signal(sigKill) && ctx.Err() != nil:
			note("── stop command: killed with the job ──")
		case res.Signal != 0:
			m.stopCommandFailed(j, p, note, "killed by "+res.Signal.String())
		case res.Code != 0:
			m.stopCommandFailed(j, p, note, fmt.Sprintf("exited with code %d", res.Code))
		}
	}()
}

// stopCommandFailed notes how the run's stop command failed (failed),
// and with Spec.StopCommandFailKills (process-compose's shutdown.command)
// kills the run at once: what is left would wait out the grace.
func (m *Manager) stopCommandFailed(j *job, p *process, note func(string), failed string) {
	if !p.spec.StopCommandFailKills {
		note("── stop command: " + failed + " ──")
		return
	}
	note("── stop command: " + failed + ": the job is killed ──")
	m.mu.Lock()
	defer m.mu.Unlock()
	if j.proc == p && !p.empty {
		j.sentSignal = Signal(sigKill)
		m.signalLocked(p, sigKill)
	}
}

// typeStopInputLocked types the run's stop input into it (its terminal,
// or its stdin pipe) beside it, saying so in its output; the grace timer
// SIGKILLs what is left after the grace, as always. When the input cannot
// be written, the stop signal is sent instead.
func (m *Manager) typeStopInputLocked(j *job, p *process) {
	text := "── stopping with input: " + strconv.Quote(p.spec.StopInput) + " ──"
	j.store.AppendMeta(text)
	j.log.MarkerSoon(text)
	f := p.input
	p.side.wg.Add(1)
	go func() {
		defer p.side.wg.Done()
		f.SetWriteDeadline(time.Now().Add(inputTimeout)) //nolint:errcheck // a pipe or terminal takes deadlines
		if _, err := f.Write([]byte(p.spec.StopInput)); err != nil {
			note := "── stop input: could not be written: " + err.Error() + " ──"
			j.store.AppendMeta(note)
			j.log.Marker(note)
			m.mu.Lock()
			if j.proc == p && !p.exited {
				j.sentSignal = p.spec.StopSignal
				m.stopLocked(p, p.spec.StopSignal.sys())
			}
			m.mu.Unlock()
		}
	}()
}
