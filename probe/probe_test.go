package probe_test

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"jobtop/jobs"
	"jobtop/probe"
)

// switchable is a real local HTTP server that answers 503 until it is
// told to be healthy (and can be told to fail again).
type switchable struct {
	*httptest.Server
	healthy atomic.Bool
	hits    atomic.Int64
}

func newSwitchable(t *testing.T) *switchable {
	s := &switchable{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.hits.Add(1)
		if r.URL.Path != "/healthz" {
			http.NotFound(w, r)
			return
		}
		if !s.healthy.Load() {
			w.WriteHeader(http.StatusServiceUnavailable)
			fmt.Fprintln(w, "still warming up")
			return
		}
		fmt.Fprintln(w, "ok")
	}))
	t.Cleanup(s.Close)
	return s
}

func httpProbe(t *testing.T, url string, status int) *probe.HTTP {
	t.Helper()
	p, err := probe.NewHTTP(url, status, nil)
	require.NoError(t, err)
	return p
}

func TestHTTPReadyWhenTheServerBecomesHealthyLate(t *testing.T) {
	srv := newSwitchable(t)
	m := newManager(t)
	web := start(t, m, jobs.Spec{Name: "web", Command: "sleep 1000",
		Ready: jobs.ReadyCheck{Probe: fast(httpProbe(t, srv.URL+"/healthz", 0))}})
	dependant := start(t, m, jobs.Spec{Name: "client", Command: "echo started", DependsOn: map[string]jobs.Condition{"web": jobs.CondReady}})

	// Three 503s in a row: the failure shows, the job is left running
	// (it may just be slow) and what depends on it waits.
	info := waitFor(t, m, web.ID, "the ready error", func(i jobs.Info) bool { return i.ReadyError != "" })
	assert.Equal(t, jobs.StateRunning, info.State)
	assert.False(t, info.Ready)
	assert.Contains(t, info.ReadyError, "status 503 Service Unavailable: still warming up")
	assert.Equal(t, "http: "+srv.URL+"/healthz", info.Readiness)
	d, err := m.Get(dependant.ID)
	require.NoError(t, err)
	assert.Equal(t, jobs.StateQueued, d.State)
	assert.Equal(t, "waiting for web: ready", d.Reason)

	srv.healthy.Store(true)
	info = waitFor(t, m, web.ID, "web to be ready", func(i jobs.Info) bool { return i.Ready })
	assert.Empty(t, info.ReadyError, "the error goes once the probe passes")
	assert.Equal(t, jobs.StateSucceeded, settle(t, m, dependant.ID).State)
	hits := srv.hits.Load()
	// A passed ready probe is not run again.
	require.NoError(t, m.Stop(web.ID))
	settle(t, m, web.ID)
	assert.Equal(t, hits, srv.hits.Load())
}

func TestHTTPNeverHealthyLeavesTheJobUnreadyAndItsDependantWaiting(t *testing.T) {
	srv := newSwitchable(t)
	m := newManager(t)
	web := start(t, m, jobs.Spec{Name: "web", Command: "sleep 1000",
		Ready: jobs.ReadyCheck{Probe: fast(httpProbe(t, srv.URL+"/healthz", 0))}})
	dependant := start(t, m, jobs.Spec{Name: "client", Command: "echo started", DependsOn: map[string]jobs.Condition{"web": jobs.CondReady}})
	// Long after the failures threshold it keeps trying: ready probes
	// never give up on a starting job.
	waitFor(t, m, web.ID, "many failed checks", func(jobs.Info) bool { return srv.hits.Load() >= 10 })
	info, err := m.Get(web.ID)
	require.NoError(t, err)
	assert.False(t, info.Ready)
	assert.Equal(t, jobs.StateRunning, info.State)

	// When it is stopped, its dependant can never start.
	require.NoError(t, m.Stop(web.ID))
	d := settle(t, m, dependant.ID)
	assert.Equal(t, jobs.StateError, d.State)
	assert.Contains(t, d.Error, "dependency web")
	hits := srv.hits.Load()
	assert.Equal(t, hits, srv.hits.Load(), "no check after the job ended")
}

func TestHTTPStatusAskedFor(t *testing.T) {
	srv := newSwitchable(t)
	srv.healthy.Store(true)
	ctx := context.Background()
	// 404 is not in 200-399, but it is what was asked for.
	require.NoError(t, httpProbe(t, srv.URL+"/missing", 404).Check(ctx, jobs.ProbeTarget{}))
	err := httpProbe(t, srv.URL+"/healthz", 204).Check(ctx, jobs.ProbeTarget{})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "status 200 OK")
	err = httpProbe(t, srv.URL+"/missing", 0).Check(ctx, jobs.ProbeTarget{})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "status 404")
}

func TestHTTPRedirectIsAnAnswer(t *testing.T) {
	srv := httptest.NewServer(http.RedirectHandler("http://127.0.0.1:1/nowhere", http.StatusFound))
	defer srv.Close()
	require.NoError(t, httpProbe(t, srv.URL, 0).Check(context.Background(), jobs.ProbeTarget{}),
		"302 is in 200-399; following it to a closed port would fail")
}

func TestHTTPProbeRefusesBadURLs(t *testing.T) {
	for _, u := range []string{"127.0.0.1:8080/healthz", "ftp://x/", "http:///path", "http://[::1"} {
		_, err := probe.NewHTTP(u, 0, nil)
		assert.Error(t, err, u)
	}
	_, err := probe.NewHTTP("http://127.0.0.1/", 700, nil)
	assert.ErrorContains(t, err, "700")
}

func TestTCPReadyWhenTheListenerOpensLate(t *testing.T) {
	addr := freePort(t)
	p, err := probe.NewTCP(addr)
	require.NoError(t, err)
	m := newManager(t)
	db := start(t, m, jobs.Spec{Name: "db", Command: "sleep 1000", Ready: jobs.ReadyCheck{Probe: fast(p)}})
	info := waitFor(t, m, db.ID, "the ready error", func(i jobs.Info) bool { return i.ReadyError != "" })
	assert.Contains(t, info.ReadyError, "connect to "+addr)
	assert.Contains(t, info.ReadyError, "refused")

	l, err := net.Listen("tcp", addr)
	require.NoError(t, err)
	defer l.Close()
	waitFor(t, m, db.ID, "db to be ready", func(i jobs.Info) bool { return i.Ready })
}

func TestTCPProbeRefusesBadAddresses(t *testing.T) {
	for _, a := range []string{"5432", "localhost", ":5432", "127.0.0.1:"} {
		_, err := probe.NewTCP(a)
		assert.Error(t, err, a)
	}
}

func TestExecReadyOnItsThirdRun(t *testing.T) {
	dir := t.TempDir()
	// Each run counts itself in a file and passes from the third on.
	check := `n=$(cat runs 2>/dev/null || echo 0); n=$((n+1)); echo $n > runs; echo "run $n of $PROBE_NAME" >&2; [ $n -ge 3 ]`
	p, err := probe.NewExec(check, "")
	require.NoError(t, err)
	m := newManager(t)
	c := fast(p)
	c.Failures = 2
	db := start(t, m, jobs.Spec{Name: "db", Command: "sleep 1000", Dir: dir, Env: map[string]string{"PROBE_NAME": "db"},
		Ready: jobs.ReadyCheck{Probe: c}})
	// After two failures in a row the reason shows: exit code and the
	// last line the command wrote, which proves it got the job's
	// environment and directory.
	info := waitFor(t, m, db.ID, "the ready error", func(i jobs.Info) bool { return i.ReadyError != "" || i.Ready })
	assert.Contains(t, info.ReadyError, "exit 1: run 2 of db")
	waitFor(t, m, db.ID, "db to be ready", func(i jobs.Info) bool { return i.Ready })
	runs, err := os.ReadFile(filepath.Join(dir, "runs"))
	require.NoError(t, err)
	assert.Equal(t, "3", strings.TrimSpace(string(runs)), "ready on the third run, not one more")
}

func TestExecProbeTimesOutAndLeavesNothing(t *testing.T) {
	marker := "999.4321" // a sleep only this test runs
	p, err := probe.NewExec("sleep "+marker, "")
	require.NoError(t, err)
	m := newManager(t)
	c := fast(p)
	c.Timeout, c.Failures = 200*time.Millisecond, 1
	web := start(t, m, jobs.Spec{Name: "web", Command: "sleep 1000", Ready: jobs.ReadyCheck{Probe: c}})
	info := waitFor(t, m, web.ID, "the timeout", func(i jobs.Info) bool { return i.ReadyError != "" })
	assert.Equal(t, "no answer within 200ms", info.ReadyError)
	require.NoError(t, m.Stop(web.ID))
	settle(t, m, web.ID)
	eventually(t, "no probe process left", func() bool { return len(processesWith(marker)) == 0 })
}

func TestProbesStopWhenTheJobStops(t *testing.T) {
	for name, ready := range map[string]bool{"ready probe": true, "health check": false} {
		t.Run(name, func(t *testing.T) {
			marker := "998.1234"
			if ready {
				marker = "998.5678"
			}
			p, err := probe.NewExec("sleep "+marker, "")
			require.NoError(t, err)
			c := fast(p)
			c.Timeout = time.Hour // only the job's end can stop it
			spec := jobs.Spec{Name: "web", Command: "sleep 1000"}
			if ready {
				spec.Ready.Probe = c
			} else {
				spec.Health = c
			}
			m := newManager(t)
			web := start(t, m, spec)
			eventually(t, "the probe to run", func() bool { return len(processesWith(marker)) > 0 })
			require.NoError(t, m.Stop(web.ID))
			assert.Equal(t, jobs.StateKilled, settle(t, m, web.ID).State)
			eventually(t, "no probe process left", func() bool { return len(processesWith(marker)) == 0 })
		})
	}
}

func TestFailingHealthCheckRestartsTheJob(t *testing.T) {
	srv := newSwitchable(t)
	srv.healthy.Store(true)
	m := newManager(t)
	web := start(t, m, jobs.Spec{Name: "web", Command: "echo serving; sleep 1000",
		Health:  fast(httpProbe(t, srv.URL+"/healthz", 0)),
		Restart: jobs.RestartPolicy{Mode: jobs.RestartOnFailure, Backoff: 10 * time.Millisecond}})
	info := waitFor(t, m, web.ID, "web to be healthy", func(i jobs.Info) bool { return i.Health == jobs.HealthHealthy })
	assert.Equal(t, "http: "+srv.URL+"/healthz, every 50ms, timeout 2s", info.HealthCheck)

	srv.healthy.Store(false)
	// Three failures in a row: the job is stopped, and its policy starts
	// it again.
	info = waitFor(t, m, web.ID, "a second run", func(i jobs.Info) bool { return i.Runs == 2 && i.State == jobs.StateRunning })
	assert.Equal(t, jobs.HealthStarting, info.Health, "a new run starts unchecked")
	out := outputText(t, m, web.ID)
	assert.Contains(t, out, "── unhealthy: GET "+srv.URL+"/healthz: status 503 Service Unavailable: still warming up (3 checks failed in a row) ──")

	srv.healthy.Store(true)
	waitFor(t, m, web.ID, "the new run to be healthy", func(i jobs.Info) bool { return i.Health == jobs.HealthHealthy })
}

func TestUnhealthyJobWithoutRestartPolicyIsMarkedOnly(t *testing.T) {
	srv := newSwitchable(t)
	m := newManager(t)
	web := start(t, m, jobs.Spec{Name: "web", Command: "sleep 1000", Health: fast(httpProbe(t, srv.URL+"/healthz", 0))})
	dependant := start(t, m, jobs.Spec{Name: "client", Command: "echo started", DependsOn: map[string]jobs.Condition{"web": jobs.CondHealthy}})
	info := waitFor(t, m, web.ID, "web to be unhealthy", func(i jobs.Info) bool { return i.Health == jobs.HealthUnhealthy })
	assert.Equal(t, jobs.StateRunning, info.State)
	assert.Equal(t, 1, info.Runs)
	assert.Contains(t, info.HealthError, "status 503")
	d, err := m.Get(dependant.ID)
	require.NoError(t, err)
	assert.Equal(t, "waiting for web: healthy", d.Reason, "ready, but not healthy")

	srv.healthy.Store(true)
	info = waitFor(t, m, web.ID, "web to recover", func(i jobs.Info) bool { return i.Health == jobs.HealthHealthy })
	assert.Empty(t, info.HealthError)
	assert.Contains(t, outputText(t, m, web.ID), "── healthy again ──")
	assert.Equal(t, jobs.StateSucceeded, settle(t, m, dependant.ID).State)
}

func TestHealthChecksStartOnceTheJobIsReady(t *testing.T) {
	srv := newSwitchable(t)
	srv.healthy.Store(true)
	dir := t.TempDir()
	gate := filepath.Join(dir, "gate")
	m := newManager(t)
	web := start(t, m, jobs.Spec{Name: "web", Dir: dir,
		Command: "while [ ! -e gate ]; do sleep 0.02; done; echo listening; sleep 1000",
		Ready:   jobs.ReadyCheck{LogPattern: "listening"},
		Health:  fast(httpProbe(t, srv.URL+"/healthz", 0))})
	info := waitFor(t, m, web.ID, "web to run", func(i jobs.Info) bool { return i.State == jobs.StateRunning })
	assert.Equal(t, jobs.HealthStarting, info.Health)
	before := srv.hits.Load()
	require.NoError(t, os.WriteFile(gate, nil, 0o600))
	waitFor(t, m, web.ID, "web to be healthy", func(i jobs.Info) bool { return i.Health == jobs.HealthHealthy })
	assert.Zero(t, before, "no health check before the job was ready")
}

func TestHTTPErrorPagesAreLeftOutOfTheReason(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.WriteHeader(http.StatusBadGateway)
		fmt.Fprintln(w, "<!DOCTYPE html><html><body>Bad gateway</body></html>")
	}))
	defer srv.Close()
	err := httpProbe(t, srv.URL, 0).Check(context.Background(), jobs.ProbeTarget{})
	require.EqualError(t, err, "GET "+srv.URL+": status 502 Bad Gateway")
}
