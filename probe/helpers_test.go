package probe_test

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"jobtop/jobs"
)

// TestMain fails the run if any goroutine outlives the tests: probe loops
// and HTTP connections included.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

// patience bounds every wait: generous, since the machine is shared.
const patience = 20 * time.Second

// fast is a probe schedule quick enough for tests.
func fast(p jobs.Probe) jobs.ProbeCheck {
	return jobs.ProbeCheck{Probe: p, Interval: 50 * time.Millisecond, Timeout: 2 * time.Second, Failures: 3}
}

func newManager(t *testing.T) *jobs.Manager {
	t.Helper()
	m, err := jobs.NewManager(jobs.Options{LogDir: t.TempDir(), SampleInterval: -1})
	require.NoError(t, err)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), patience)
		defer cancel()
		require.NoError(t, m.Shutdown(ctx))
	})
	return m
}

func start(t *testing.T, m *jobs.Manager, spec jobs.Spec) jobs.Info {
	t.Helper()
	info, err := m.Start(spec)
	require.NoError(t, err)
	return info
}

// waitFor polls the job until pred holds and returns that snapshot.
func waitFor(t *testing.T, m *jobs.Manager, id jobs.ID, what string, pred func(jobs.Info) bool) jobs.Info {
	t.Helper()
	deadline := time.Now().Add(patience)
	for {
		info, err := m.Get(id)
		require.NoError(t, err)
		if pred(info) {
			return info
		}
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s; last: state %s ready %v health %q (%s) ready error %q reason %q error %q",
				what, info.State, info.Ready, info.Health, info.HealthError, info.ReadyError, info.Reason, info.Error)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// settle waits until the job has ended for good.
func settle(t *testing.T, m *jobs.Manager, id jobs.ID) jobs.Info {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), patience)
	defer cancel()
	info, err := m.Wait(ctx, id)
	require.NoError(t, err)
	return info
}

// freePort finds a TCP port on 127.0.0.1 nobody listens on (for now).
func freePort(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := l.Addr().String()
	require.NoError(t, l.Close())
	return addr
}

// processesWith lists live processes whose command line holds marker.
func processesWith(marker string) []int {
	entries, _ := os.ReadDir("/proc")
	var pids []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		cmdline, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err != nil || !strings.Contains(string(cmdline), marker) {
			continue
		}
		stat, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if i := strings.LastIndexByte(string(stat), ')'); i >= 0 && strings.HasPrefix(strings.TrimSpace(string(stat[i+1:])), "Z") {
			continue // a zombie is gone, only not reaped yet
		}
		pids = append(pids, pid)
	}
	return pids
}

// eventually polls cond until it holds or the patience runs out.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(patience)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func outputText(t *testing.T, m *jobs.Manager, id jobs.ID) string {
	t.Helper()
	out, err := m.Output(id)
	require.NoError(t, err)
	c := out.ReadAfter(0, 0)
	var b strings.Builder
	for _, l := range append(c.Lines, c.Partial...) {
		b.WriteString(l.Text + "\n")
	}
	return b.String()
}
