package control

import (
	"net"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"jobtop/jobs"
	"jobtop/probe"
)

// Ready and health probes go over the wire as a job file writes them, and
// back unchanged, so a job started through the API (an agent's, or a job
// file's job started in an attached TUI) keeps them.
func TestProbesOnTheWire(t *testing.T) {
	spec, err := DecodeStartRequest(strings.NewReader(`{"command": "x",
		"ready": {"http": "http://127.0.0.1:8080/healthz", "status": 204, "headers": {"X-A": "1"}, "interval": "200ms", "failures": 5},
		"health": {"exec": "pg_isready -q", "timeout": "2s", "initial_delay": "1s"}}`))
	require.NoError(t, err)
	assert.Equal(t, jobs.ProbeCheck{Probe: &probe.HTTP{URL: "http://127.0.0.1:8080/healthz", Status: 204, Headers: map[string]string{"X-A": "1"}},
		Interval: 200 * time.Millisecond, Failures: 5}, spec.Ready.Probe)
	assert.Equal(t, jobs.ProbeCheck{Probe: &probe.Exec{Command: "pg_isready -q"}, Timeout: 2 * time.Second, InitialDelay: time.Second}, spec.Health)
	again, err := SpecRequest(spec).Spec()
	require.NoError(t, err)
	assert.Equal(t, spec, again, "a spec goes over the wire and back unchanged")

	tcp, err := DecodeStartRequest(strings.NewReader(`{"command": "x", "ready": {"tcp": "127.0.0.1:5432"}}`))
	require.NoError(t, err)
	assert.Equal(t, &probe.TCP{Addr: "127.0.0.1:5432"}, tcp.Ready.Probe.Probe)

	for body, want := range map[string]string{
		`{"command": "x", "ready": {"tcp": "a:1", "exec": "true"}}`:       "ready: give one probe (http, tcp or exec), not 2",
		`{"command": "x", "ready": {"tcp": "nohost"}}`:                    "ready: ",
		`{"command": "x", "ready": {"interval": "1s"}}`:                   "without a probe: give http, tcp or exec",
		`{"command": "x", "health": {"tcp": "a:1", "status": 200}}`:       "health: status and headers apply to an http probe only",
		`{"command": "x", "health": {"exec": "true", "timeout": "soon"}}`: `health.timeout "soon" is not a duration`,
		`{"command": "x", "health": {}}`:                                  "health: no probe: give http, tcp or exec",
		`{"command": "x", "ready": {}}`:                                   "ready: nothing to wait for: give log_pattern, after, or a probe",
		`{"command": "x", "ready": {"log_pattern": ""}}`:                  "ready: nothing to wait for",
	} {
		_, err := DecodeStartRequest(strings.NewReader(body))
		assert.ErrorContains(t, err, want, body)
	}
}

// A job started through the API with a tcp ready probe is ready only once
// its port accepts.
func TestReadyProbeThroughTheAPI(t *testing.T) {
	in := startInstance(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := ln.Addr().String()
	require.NoError(t, ln.Close())
	info, err := in.client.StartJob(ctxT(t), StartRequest{Command: "exec sleep 60",
		Ready: &ReadyRequest{ProbeRequest: ProbeRequest{TCP: addr, Interval: "20ms", Failures: 2}}})
	require.NoError(t, err)
	require.Equal(t, "tcp: "+addr, info.Readiness)
	require.Eventually(t, func() bool {
		j, err := in.client.Job(ctxT(t), info.ID)
		return err == nil && j.ReadyError != ""
	}, 20*time.Second, 20*time.Millisecond)
	j, err := in.client.Job(ctxT(t), info.ID)
	require.NoError(t, err)
	require.False(t, j.Ready)

	ln, err = net.Listen("tcp", addr)
	require.NoError(t, err)
	defer ln.Close()
	resp, err := in.client.WaitReady(ctxT(t), info.ID, 20*time.Second)
	require.NoError(t, err)
	require.True(t, resp.Job.Ready)
}
