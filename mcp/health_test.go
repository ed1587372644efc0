package mcp

import (
	"net"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"jobtop/jobs"
	"jobtop/probe"
)

// closedPort is a loopback address nothing listens on.
func closedPort(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := ln.Addr().String()
	require.NoError(t, ln.Close())
	return addr
}

// job_status and list_jobs say what a job's probes found: a ready probe
// that has not passed (and why), a health check that failed (and why).
func TestJobStatusShowsProbes(t *testing.T) {
	e := newEnv(t)
	fast := func(p jobs.Probe) jobs.ProbeCheck {
		return jobs.ProbeCheck{Probe: p, Interval: 20 * time.Millisecond, Failures: 2}
	}
	waiting, err := e.mgr.Start(jobs.Spec{Name: "waiting", Command: "exec sleep 60",
		Ready: jobs.ReadyCheck{Probe: fast(&probe.TCP{Addr: closedPort(t)})}})
	require.NoError(t, err)
	sick, err := e.mgr.Start(jobs.Spec{Name: "sick", Command: "exec sleep 60", Health: fast(&probe.Exec{Command: "exit 3"})})
	require.NoError(t, err)
	require.Eventually(t, func() bool {
		return e.job(int(waiting.ID)).ReadyError != "" && e.job(int(sick.ID)).Health == jobs.HealthUnhealthy
	}, deadline, 20*time.Millisecond)

	var st JobStatusOutput
	text := e.ok("job_status", map[string]any{"id": "waiting"}, &st)
	require.Contains(t, st.Job.ReadyError, "connection refused")
	require.Contains(t, text, "1 waiting running, not ready yet")
	require.Regexp(t, `ready check: tcp: 127\.0\.0\.1:\d+: not passed yet \(.*connection refused\)`, text)

	text = e.ok("job_status", map[string]any{"id": "sick"}, &st)
	require.Equal(t, "unhealthy", st.Job.Health)
	require.Contains(t, st.Job.HealthCheck, "exec: exit 3")
	require.Contains(t, st.Job.HealthError, "exit 3")
	require.Contains(t, text, "2 sick running, unhealthy")
	require.Regexp(t, `health check: exec: exit 3.*: unhealthy \(.*exit 3\)`, text)

	var l ListJobsOutput
	text = e.ok("list_jobs", map[string]any{}, &l)
	require.Equal(t, "unhealthy", l.Jobs[1].Health)
	require.Contains(t, text, "2 sick running, unhealthy")
}

// run_job takes a ready check (here a TCP port opened late), and
// wait_for "ready" waits for it; a wait that runs out says why the check
// fails. Without a check, "ready" answers at once and says what it meant.
func TestRunJobReadyProbe(t *testing.T) {
	e := newEnv(t)
	addr := closedPort(t)
	var out RunJobOutput
	text := e.ok("run_job", map[string]any{"name": "db", "command": "exec sleep 60",
		"ready": map[string]any{"tcp": addr}, "wait_for": "ready", "wait_timeout": 4}, &out)
	require.Equal(t, "timed_out", out.Wait.Outcome)
	require.Equal(t, "tcp: "+addr, e.job(out.Job.ID).Readiness)
	require.Contains(t, text, "db running, not ready yet")
	require.Contains(t, text, "its ready check (tcp: "+addr+") fails: ")
	require.Contains(t, text, "connection refused")

	ln, err := net.Listen("tcp", addr)
	require.NoError(t, err)
	defer ln.Close()
	var w WaitResult
	e.ok("wait_job", map[string]any{"id": "db", "until": "ready"}, &w)
	require.Equal(t, "ready", w.Outcome)
	require.True(t, w.Job.Ready)

	text = e.ok("run_job", map[string]any{"command": "exec sleep 60", "wait_for": "ready"}, &out)
	require.Equal(t, "ready", out.Wait.Outcome)
	require.Contains(t, text, `the job has no ready check, so "ready" only means it started`)

	require.Contains(t, e.toolErr("run_job", map[string]any{"command": "true", "ready": map[string]any{"tcp": addr, "log": "up"}}),
		"ready: give exactly one of log (a regex), http (a URL), tcp (HOST:PORT), exec (a command) or after")
	require.Contains(t, e.toolErr("run_job", map[string]any{"command": "true", "ready": map[string]any{"http": "127.0.0.1:80"}}),
		"the job did not start: ready: ")
}

// wait_for "ready" on a job that ran and ended: with no ready check it
// was ready once it ran, so it did not end first.
func TestWaitReadyAfterTheJobEnded(t *testing.T) {
	e := newEnv(t)
	var out RunJobOutput
	e.ok("run_job", map[string]any{"command": "true", "wait_for": "exit"}, &out)
	var w WaitResult
	text := e.ok("wait_job", map[string]any{"id": out.Job.ID, "until": "ready"}, &w)
	require.Equal(t, "ready", w.Outcome)
	require.Contains(t, text, "the job was ready, and has ended since")

	e.ok("run_job", map[string]any{"command": "exit 3", "wait_for": "exit"}, &out)
	text = e.ok("wait_job", map[string]any{"id": out.Job.ID, "until": "ready"}, &w)
	require.Equal(t, "ended", w.Outcome)
	require.Contains(t, text, "the job was ready, then ended failed")
}

// wait_for "ready" on a job that succeeded before its ready check passed
// is ready, as a job that depends on it and jobtop wait --ready take it;
// one that failed first ended.
func TestWaitReadyOnAJobThatSucceededBeforeItsCheck(t *testing.T) {
	e := newEnv(t)
	var out RunJobOutput
	never := map[string]any{"log": "never printed"}
	e.ok("run_job", map[string]any{"command": "echo done", "ready": never, "wait_for": "exit"}, &out)
	var w WaitResult
	text := e.ok("wait_job", map[string]any{"id": out.Job.ID, "until": "ready"}, &w)
	require.Equal(t, "ready", w.Outcome, text)
	require.Contains(t, text, "the job succeeded before its ready check passed")

	e.ok("run_job", map[string]any{"command": "echo x; exit 3", "ready": never, "wait_for": "exit"}, &out)
	text = e.ok("wait_job", map[string]any{"id": out.Job.ID, "until": "ready"}, &w)
	require.Equal(t, "ended", w.Outcome, text)
	require.Contains(t, text, "the job ended before it was ready")
}

// A job that succeeded is ready, as a dependant with a ready condition
// sees it, also when its check never passed: list_jobs and job_status
// say so, as the API does; one that failed is not.
func TestASucceededJobIsReady(t *testing.T) {
	e := newEnv(t)
	var out RunJobOutput
	e.ok("run_job", map[string]any{"name": "build", "command": "echo built",
		"ready": map[string]any{"log": "never printed"}, "wait_for": "exit"}, &out)
	require.Equal(t, "succeeded", out.Job.State)
	e.ok("run_job", map[string]any{"name": "broken", "command": "exit 3", "wait_for": "exit"}, &out)
	require.Equal(t, "failed", out.Job.State)

	var list ListJobsOutput
	e.ok("list_jobs", map[string]any{}, &list)
	ready := map[string]bool{}
	for _, j := range list.Jobs {
		ready[j.Name] = j.Ready
	}
	assert.Equal(t, map[string]bool{"build": true, "broken": false}, ready)
	var status JobStatusOutput
	text := e.ok("job_status", map[string]any{"id": "build"}, &status)
	assert.True(t, status.Job.Ready)
	assert.Contains(t, text, "ready check: log: never printed: met: the job succeeded (its check never passed)")
}
