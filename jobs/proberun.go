package jobs

import (
	"context"
	"fmt"
	"sync"
	"time"
)

// sidecars are what jobtop runs beside one run of a job: the goroutine
// that runs its probes, and its stop command. The run is not reaped before
// they are over, so nothing of them outlives it.
type sidecars struct {
	cancelProbes context.CancelFunc // ends the probe loop; nil without one
	cancelStop   context.CancelFunc // kills the stop command; nil without one
	wg           sync.WaitGroup
}

// killStop kills the stop command, if one runs: a kill ends the run now,
// however long its stop command would take. Call it under Manager.mu.
func (s *sidecars) killStop() {
	if s.cancelStop != nil {
		s.cancelStop()
	}
}

// stopProbes ends the probe loop (a check under way is cancelled, its
// process killed). Safe to call more than once, and under Manager.mu.
func (s *sidecars) stopProbes() {
	if s.cancelProbes != nil {
		s.cancelProbes()
	}
}

// wait returns once the probe loop and the stop command are over. Call it
// without Manager.mu: they take it.
func (s *sidecars) wait() { s.wg.Wait() }

// startProbesLocked starts the run's probe loop when the job has a ready
// probe or a health check. The loop runs on its own goroutine, takes the
// manager's lock only to record a result, and runs one check at a time.
func (m *Manager) startProbesLocked(j *job, p *process) {
	j.health, j.healthErr, j.readyErr = "", "", ""
	ready, health := j.spec.Ready.Probe, j.spec.Health
	if ready.Probe == nil && health.Probe == nil {
		return
	}
	if health.Probe != nil {
		j.health = HealthStarting
	}
	ctx, cancel := context.WithCancel(context.Background())
	p.side.cancelProbes = cancel
	env := m.environ(j.id, p.spec)
	target := ProbeTarget{Dir: p.spec.Dir, Env: env, Shell: p.spec.shell(), PID: p.pid,
		Run: func(ctx context.Context, argv []string, dir string) (CommandResult, error) {
			return m.runAux(ctx, argv, env, dir)
		}}
	p.side.wg.Add(1)
	go func() {
		defer p.side.wg.Done()
		if ready.Probe != nil && !m.probeUntilReady(ctx, j, p, target, ready) {
			return
		}
		if health.Probe == nil || !m.awaitReady(ctx, j, p, health.Interval) {
			return
		}
		if health.Probe == ready.Probe {
			// The check that made it ready is its first health check.
			if !m.recordHealth(j, p, nil, 0, health.Failures) {
				return
			}
			health.InitialDelay = health.Interval
		}
		m.probeHealth(ctx, j, p, target, health)
	}()
}

// probeUntilReady runs the ready probe until it passes, and marks the run
// ready. It returns false when the run ended (or is ending) first.
func (m *Manager) probeUntilReady(ctx context.Context, j *job, p *process, target ProbeTarget, c ProbeCheck) bool {
	failures := 0
	for next := time.Now().Add(c.InitialDelay); ; next = nextCheck(next, c.Interval) {
		if !sleepUntil(ctx, next) {
			return false
		}
		err := c.check(ctx, target)
		if ctx.Err() != nil {
			return false
		}
		if err == nil {
			m.setReadyError(j, p, "")
			m.markReady(j, p)
			return true
		}
		if failures++; failures >= c.Failures {
			m.setReadyError(j, p, err.Error())
		}
	}
}

// awaitReady waits for a run without a ready probe to be ready (its log
// line or delay), looking every poll. It returns false if the run ends
// first.
func (m *Manager) awaitReady(ctx context.Context, j *job, p *process, poll time.Duration) bool {
	for {
		ready, live := m.runReady(j, p)
		switch {
		case !live:
			return false
		case ready:
			return true
		case !sleepUntil(ctx, time.Now().Add(poll)):
			return false
		}
	}
}

// probeHealth runs the health check for as long as the run lasts.
func (m *Manager) probeHealth(ctx context.Context, j *job, p *process, target ProbeTarget, c ProbeCheck) {
	failures := 0
	for next := time.Now().Add(c.InitialDelay); ; next = nextCheck(next, c.Interval) {
		if !sleepUntil(ctx, next) {
			return
		}
		err := c.check(ctx, target)
		if ctx.Err() != nil {
			return
		}
		if err == nil {
			failures = 0
		} else {
			failures++
		}
		if !m.recordHealth(j, p, err, failures, c.Failures) {
			return
		}
	}
}

// nextCheck is when the check after one due at prev is due: an interval
// later, or now when the check took longer than that.
func nextCheck(prev time.Time, interval time.Duration) time.Time {
	next := prev.Add(interval)
	if now := time.Now(); next.Before(now) {
		return now
	}
	return next
}

// sleepUntil waits until t; false means ctx ended first.
func sleepUntil(ctx context.Context, t time.Time) bool {
	d := time.Until(t)
	if d <= 0 {
		return ctx.Err() == nil
	}
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-timer.C:
		return true
	case <-ctx.Done():
		return false
	}
}

// runReady says whether the run is ready, and whether it still runs.
func (m *Manager) runReady(j *job, p *process) (ready, live bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	live = j.proc == p && j.state == StateRunning
	return live && j.ready, live
}

// setReadyError records why the run's ready probe has not passed ("" once
// it has).
func (m *Manager) setReadyError(j *job, p *process, msg string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if j.proc != p || j.readyErr == msg {
		return
	}
	j.readyErr = msg
	m.changedLocked(j)
}

// recordHealth records one health check's result: failures is how many
// failed in a row, threshold how many make the job unhealthy. A job that
// turns unhealthy gets a line in its output saying so, and is stopped when
// its restart policy restarts failed jobs (the policy then starts it
// again). It returns false when the loop should end.
func (m *Manager) recordHealth(j *job, p *process, err error, failures, threshold int) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	if j.proc != p || j.state != StateRunning {
		return false
	}
	before, beforeErr := j.health, j.healthErr
	switch {
	case err == nil:
		j.health, j.healthErr = HealthHealthy, ""
	case failures >= threshold:
		j.health, j.healthErr = HealthUnhealthy, err.Error()
	default:
		j.healthErr = err.Error()
	}
	if j.health == before && j.healthErr == beforeErr {
		return true
	}
	switch {
	case j.health == HealthUnhealthy && before != HealthUnhealthy:
		msg := fmt.Sprintf("unhealthy: %s (%d checks failed in a row)", j.healthErr, failures)
		j.store.AppendMeta("── " + msg + " ──")
		j.log.MarkerSoon(msg)
		if restartsFailed(j.spec.Restart) {
			j.errText = msg
			m.endRunLocked(j, reqUnhealthy)
			return false
		}
	case j.health == HealthHealthy && before == HealthUnhealthy:
		j.store.AppendMeta("── healthy again ──")
		j.log.MarkerSoon("healthy again")
	}
	m.changedLocked(j)
	m.scheduleLocked() // dependants waiting for it to be healthy
	return true
}

// restartsFailed says whether a policy restarts a job that failed.
func restartsFailed(p RestartPolicy) bool {
	return p.Mode == RestartOnFailure || p.Mode == RestartAlways
}

// probeInfoLocked fills the snapshot's probe fields: the health check and
// its findings while the run lasts, and the ready probe's error until it
// passes.
func (j *job) probeInfoLocked(info *Info) {
	info.HealthCheck = j.spec.Health.String()
	if !j.state.Active() {
		return
	}
	info.Health, info.HealthError = j.health, j.healthErr
	if !j.ready {
		info.ReadyError = j.readyErr
	}
}
