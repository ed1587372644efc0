package jobs

import (
	"fmt"
	"regexp"
	"sort"
	"time"

	"jobtop/termtext"
)

// policyResetAfter: a run that lasts this long resets the count of
// consecutive policy restarts (and so the backoff), unless the policy
// counts over the job's life (RestartPolicy.MaxOverLife). A variable
// only so that tests need not run 10s jobs.
var policyResetAfter = 10 * time.Second

// applyRestartPolicyLocked schedules a restart of a job that ended on its
// own, if its policy says so, after the backoff. A job that reached its
// restart limit is left ended, with the reason saying so.
func (m *Manager) applyRestartPolicyLocked(j *job) {
	pol := j.spec.Restart
	switch pol.Mode {
	case RestartAlways:
	case RestartOnFailure:
		if j.state == StateSucceeded {
			return
		}
	default:
		return
	}
	if pol.Max > 0 && j.autoRestarts >= pol.Max {
		j.reason = fmt.Sprintf("gave up after %d restarts", pol.Max)
		if pol.Max == 1 {
			j.reason = "gave up after 1 restart"
		}
		return
	}
	delay := backoff(pol, j.autoRestarts)
	j.autoRestarts++
	j.reason = fmt.Sprintf("restarting in %v (attempt %d)", delay, j.autoRestarts)
	var t *time.Timer
	j.restartAt = time.Now().Add(delay)
	t = time.AfterFunc(delay, func() {
		m.mu.Lock()
		defer m.mu.Unlock()
		if j.restartTimer != t || m.closed {
			return
		}
		j.restartTimer = nil
		m.enqueueLocked(j)
	})
	j.restartTimer = t
}

// backoff is Backoff doubled per earlier consecutive restart, capped at
// MaxBackoff; p has its defaults (RestartPolicy.WithDefaults).
func backoff(p RestartPolicy, attempt int) time.Duration {
	ceiling := p.MaxBackoff
	d := p.Backoff
	for i := 0; i < attempt && d < ceiling; i++ {
		d *= 2
	}
	return min(d, ceiling)
}

// dependenciesLocked says whether a queued job's dependencies are met. When
// not, wait says what it waits for, or fail says why it never can start;
// root is then the end that caused it, as failRoot makes it, "" when the
// job itself is the cause (a dependency naming no job).
// Any dependency that can no longer be met fails the job, whatever its
// place among those still unmet: wait is only said when none failed.
// It notes each dependency it finds met in the run's metDeps: one whose
// job is removed later counts as met still.
func (m *Manager) dependenciesLocked(j *job) (ok bool, wait, fail, root string) {
	if len(j.spec.DependsOn) == 0 { // most jobs: asked of each queued job at each end
		return m.afterLocked(j)
	}
	names := make([]string, 0, len(j.spec.DependsOn))
	for name := range j.spec.DependsOn {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		cond := j.spec.DependsOn[name]
		d := m.findByNameLocked(name, j)
		if d == nil && j.metDeps[name] {
			continue // met, then removed: it stays met for this run
		}
		if d == nil {
			return false, "", fmt.Sprintf("depends on %q, but no job has that name", name), ""
		}
		met, failed := conditionLocked(d, cond)
		if failed != "" {
			return false, "", fmt.Sprintf("dependency %s %s", name, failed), failRoot(d, name, failed)
		}
		if !met {
			if wait == "" {
				wait = fmt.Sprintf("waiting for %s: %s", name, cond)
			}
			continue
		}
		if j.state == StateQueued {
			if j.metDeps == nil {
				j.metDeps = make(map[string]bool)
			}
			j.metDeps[name] = true
		}
	}
	ok, afterWait, fail, root := m.afterLocked(j)
	switch {
	case fail != "":
		return false, "", fail, root
	case wait != "":
		return false, wait, "", ""
	}
	return ok, afterWait, "", ""
}

// failRoot is the root of a failure on dependency d, which the dependant
// names ref and which ended as failed: d's own root when d could not
// start for a dependency of its own, else d itself and how it ended.
// Each job of a chain passes its root on unchanged, so the error of the
// last names the dependency it waited for and the root, whatever the
// chain's length (the whole chain made 54 KB of error at 1,000 steps).
func failRoot(d *job, ref, failed string) string {
	if d.depRoot != "" {
		return d.depRoot
	}
	return ref + " " + failed
}

// afterLocked says whether the jobs a queued job runs after (Spec.After)
// have all succeeded, as dependenciesLocked says it for its dependencies
// (one that failed fails the job, wherever it stands in After):
// each is judged as it is now (a run again of the job judges them again),
// and one removed as it last ended (an ID is never reused).
func (m *Manager) afterLocked(j *job) (ok bool, wait, fail, root string) {
	for _, id := range j.spec.After {
		d := m.jobs[id]
		if d == nil {
			gone := j.goneAfter[id]
			what := fmt.Sprintf("job %d", id)
			if gone.name != "" {
				what += " (" + gone.name + ")"
			}
			switch {
			case gone.succeeded:
				continue
			case gone.root != "":
				return false, "", fmt.Sprintf("%s, which it runs after, was removed after it %s", what, gone.end), gone.root
			case gone.end != "":
				why := "was removed after it " + gone.end
				return false, "", what + ", which it runs after, " + why, what + " " + why
			}
			why := "was removed before it succeeded"
			return false, "", what + ", which it runs after, " + why, what + " " + why
		}
		met, failed := conditionLocked(d, CondSucceeded)
		if failed != "" {
			what := fmt.Sprintf("job %d (%s)", id, d.spec.DisplayName())
			return false, "", what + ", which it runs after, " + failed, failRoot(d, what, failed)
		}
		if !met && wait == "" {
			wait = fmt.Sprintf("waiting for job %d (%s) to succeed", id, d.spec.DisplayName())
		}
	}
	return wait == "", wait, "", ""
}

// goneJob is how a job run after (Spec.After) last ended, kept once it is
// removed.
type goneJob struct {
	name      string
	succeeded bool
	end       string // how it ended otherwise; "" if it never ended
	root      string // its depRoot, when it could not start for a dependency
}

// noteGoneLocked keeps, in every job that runs after d, how d last ended,
// as d is removed.
func (m *Manager) noteGoneLocked(d *job) {
	for j := range m.runAfter[d.id] {
		met, failed := conditionLocked(d, CondSucceeded)
		if j.goneAfter == nil {
			j.goneAfter = make(map[ID]goneJob)
		}
		g := goneJob{name: d.spec.DisplayName(), succeeded: met, end: failed}
		if failed != "" {
			g.root = d.depRoot
		}
		j.goneAfter[d.id] = g
	}
}

// readyLocked is Info.Ready: the job is ready as a dependant with a
// ready condition sees it (running with its ready check passed, or none,
// or succeeded, whether its check passed or not).
func (j *job) readyLocked() bool {
	met, _ := conditionLocked(j, CondReady)
	return met
}

// conditionLocked checks one dependency: met, or failed with a reason when
// it can no longer be met (it ended and no restart is coming).
func conditionLocked(d *job, cond Condition) (met bool, failed string) {
	// A created dependency has not run yet: it may still be started.
	over := d.state.Done() && d.state != StateCreated && !d.restartPending && d.restartTimer == nil
	switch cond {
	case CondStarted:
		if d.state.Active() || (d.state.Done() && d.pid != 0) {
			return true, ""
		}
	case CondReady:
		// A job on its way down is no longer ready, even if it was.
		if (d.ready && d.state == StateRunning) || d.state == StateSucceeded {
			return true, ""
		}
	case CondHealthy:
		if (d.ready && d.state == StateRunning && (d.spec.Health.Probe == nil || d.health == HealthHealthy)) || d.state == StateSucceeded {
			return true, ""
		}
	case CondReadyPassed:
		// A run that passed its check and then succeeded stays ready.
		if d.ready && (d.state == StateRunning || d.state == StateSucceeded) {
			return true, ""
		}
	case CondHealthyPassed:
		if d.ready && ((d.state == StateRunning && (d.spec.Health.Probe == nil || d.health == HealthHealthy)) || d.state == StateSucceeded) {
			return true, ""
		}
	case CondSucceeded:
		if d.state == StateSucceeded {
			return true, ""
		}
	case CondCompleted:
		// It ran to its end: one stopped before it started did not.
		if over && d.state != StateError && d.pid != 0 {
			return true, ""
		}
	}
	if over {
		if d.state == StateSucceeded {
			return false, "succeeded before its ready check passed"
		}
		return false, describeEnd(d)
	}
	return false, ""
}

func describeEnd(d *job) string {
	switch {
	case d.state == StateFailed && d.exitCode != nil:
		return fmt.Sprintf("failed (exit %d)", *d.exitCode)
	case d.state == StateKilled && d.signal != 0:
		return "was killed (" + d.signal.String() + ")"
	case d.state == StateKilled && d.pid == 0:
		return "was stopped before it started"
	case d.state == StateError && d.depRoot != "":
		// Its own error names its dependency: the root says enough.
		return "could not start (" + d.depRoot + ")"
	case d.state == StateError:
		return "could not start: " + d.errText
	}
	return "ended " + string(d.state)
}

// findByNameLocked finds the newest job other than self with that name
// (a job's name is never empty: add gives it one).
func (m *Manager) findByNameLocked(name string, self *job) *job {
	return m.names.newest(name, self)
}

// readiness watches a run's output for the ready pattern. It belongs to one
// run and is used by that run's reader goroutines.
type readiness struct {
	pattern *regexp.Regexp
	cursor  uint64
}

// startReadinessLocked marks the run ready now or arranges for it to become
// ready (after a delay, or on a matching line).
func (m *Manager) startReadinessLocked(j *job, p *process) {
	rc := j.spec.Ready
	switch {
	case rc.LogPattern != "":
		p.ready.Store(&readiness{pattern: regexp.MustCompile(rc.LogPattern), cursor: j.store.Stats().Last})
	case rc.After > 0:
		p.readyTimer = time.AfterFunc(rc.After, func() { m.markReady(j, p) })
	case rc.Probe.Probe != nil: // the probe loop marks it ready (proberun.go)
	default:
		j.ready = true
		j.history.ready(time.Now())
	}
}

// checkReadyLine is called by a reader after new output; it marks the run
// ready when a new line matches the pattern.
func (m *Manager) checkReadyLine(j *job, p *process) {
	if p.ready.Load() == nil {
		return
	}
	p.readyMu.Lock()
	defer p.readyMu.Unlock()
	r := p.ready.Load()
	if r == nil {
		return
	}
	c := j.store.ReadAfter(r.cursor, 0)
	r.cursor = c.Next
	lines := append(c.Lines, c.Partial...)
	for _, l := range lines {
		if l.Stream != Meta && r.pattern.MatchString(termtext.Printed(l.Text, false)) { // without colours
			p.ready.Store(nil)
			m.markReady(j, p)
			return
		}
	}
}

func (m *Manager) markReady(j *job, p *process) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if j.proc != p || j.ready {
		return
	}
	j.ready = true
	j.history.ready(time.Now())
	m.changedLocked(j)
	m.scheduleLocked()
}

// stopWaveLocked picks the live jobs no other live job depends on: the
// ones to stop first on shutdown, so dependants stop before what they
// depend on. With a cycle it returns every live job.
func (m *Manager) stopWaveLocked() []*job {
	var live []*job
	for _, id := range m.order {
		if j := m.jobs[id]; j.state.Active() {
			live = append(live, j)
		}
	}
	needed := make(map[*job]bool)
	for _, k := range live {
		for name := range k.spec.DependsOn {
			if d := m.findByNameLocked(name, k); d != nil {
				needed[d] = true
			}
		}
		for _, id := range k.spec.After {
			if d := m.jobs[id]; d != nil {
				needed[d] = true
			}
		}
	}
	var wave []*job
	for _, j := range live {
		if !needed[j] {
			wave = append(wave, j)
		}
	}
	if len(wave) == 0 {
		return live
	}
	return wave
}
