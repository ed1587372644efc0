package mcp

import (
	"net"
	"testing"
	"time"

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
