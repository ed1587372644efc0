package ui

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"jobtop/jobs"
)

// switchProbe passes while healthy is set; the job engine runs it like
// any probe.
type switchProbe struct{ healthy atomic.Bool }

func (p *switchProbe) Check(context.Context, jobs.ProbeTarget) error {
	if p.healthy.Load() {
		return nil
	}
	return errors.New("GET http://127.0.0.1:8080/healthz: status 503")
}

func (p *switchProbe) String() string { return "http: http://127.0.0.1:8080/healthz" }

func TestTheTableAndHeaderShowHealth(t *testing.T) {
	mgr := newManager(t)
	probe := &switchProbe{}
	probe.healthy.Store(true)
	check := jobs.ProbeCheck{Probe: probe, Interval: 10 * time.Millisecond, Failures: 2}
	_, err := mgr.Start(jobs.Spec{Name: "web", Command: "sleep 1000", Grace: time.Second,
		Ready: jobs.ReadyCheck{Probe: check}, Health: check})
	require.NoError(t, err)
	m := newSizedModel(t, mgr, Config{}, 160, 20)
	pumpUntil(t, m, "web ready", func() bool { return strings.Contains(m.View(), "● running ✓") })

	probe.healthy.Store(false)
	pumpUntil(t, m, "web unhealthy", func() bool { return strings.Contains(m.View(), "● unhealthy") })
	view := m.View()
	assert.Contains(t, view, "job 1 web unhealthy: GET http://127.0.0.1:8080/healthz: status 503", "the notice")
	assert.Contains(t, view, "· unhealthy: GET http://127.0.0.1:8080/healthz: status 503", "the pane header")

	probe.healthy.Store(true)
	pumpUntil(t, m, "web healthy again", func() bool { return strings.Contains(m.View(), "job 1 web healthy again") })
	assert.Contains(t, m.View(), "● running ✓")
	assert.NotContains(t, m.View(), "· unhealthy")
}

func TestTheHeaderSaysWhyAJobIsNotReady(t *testing.T) {
	mgr := newManager(t)
	probe := &switchProbe{}
	_, err := mgr.Start(jobs.Spec{Name: "db", Command: "sleep 1000", Grace: time.Second,
		Ready: jobs.ReadyCheck{Probe: jobs.ProbeCheck{Probe: probe, Interval: 10 * time.Millisecond, Failures: 1}}})
	require.NoError(t, err)
	m := newSizedModel(t, mgr, Config{}, 160, 20)
	pumpUntil(t, m, "the ready error", func() bool {
		return strings.Contains(m.View(), "· not ready: GET http://127.0.0.1:8080/healthz: status 503")
	})
	probe.healthy.Store(true)
	pumpUntil(t, m, "db ready", func() bool { return strings.Contains(m.View(), "● running ✓") })
	assert.NotContains(t, m.View(), "not ready")
}

func TestAnUnhealthyStopSaysWhy(t *testing.T) {
	mgr := newManager(t)
	probe := &switchProbe{}
	_, err := mgr.Start(jobs.Spec{Name: "web", Command: "sleep 1000", Grace: time.Second,
		Health:  jobs.ProbeCheck{Probe: probe, Interval: 10 * time.Millisecond, Failures: 1},
		Restart: jobs.RestartPolicy{Mode: jobs.RestartOnFailure, Backoff: time.Hour}})
	require.NoError(t, err)
	m := newSizedModel(t, mgr, Config{}, 160, 20)
	pumpUntil(t, m, "the stop", func() bool {
		return strings.Contains(m.View(), "job 1 web stopped: unhealthy: GET http://127.0.0.1:8080/healthz: status 503 (1 checks failed in a row)")
	})
}
