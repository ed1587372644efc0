package workspace

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"jobtop/jobfile"
	"jobtop/jobs"
)

// freePort is a TCP port on 127.0.0.1 nobody listens on (for now).
func freePort(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer l.Close()
	_, port, err := net.SplitHostPort(l.Addr().String())
	require.NoError(t, err)
	return port
}

func need(t *testing.T, programs ...string) {
	t.Helper()
	for _, p := range programs {
		if _, err := exec.LookPath(p); err != nil {
			t.Skipf("%s is not installed", p)
		}
	}
}

// TestProcessComposeExampleRuns runs testdata/process-compose as
// process-compose would: a database stand-in behind an exec probe (its
// state directory from env_cmds), a migration that must succeed, a real
// HTTP server behind an http_get probe, a worker gated on a log line, and
// a disabled report.
func TestProcessComposeExampleRuns(t *testing.T) {
	need(t, "bash", "python3")
	t.Setenv("WEB_PORT", freePort(t))
	f := openFile(t, "../testdata/process-compose/process-compose.yaml", jobfile.LoadOptions{})
	stateDir := f.job("db").Spec.Env["STATE_DIR"]
	require.DirExists(t, stateDir, "env_cmds ran when the jobs started")
	t.Cleanup(func() { os.RemoveAll(stateDir) })

	f.eventually("db ready through its exec probe", func() bool { return f.job("db").Ready })
	assert.Equal(t, jobs.HealthHealthy, f.job("db").Health, "the passing readiness check is its first health check")
	f.eventually("migrate to succeed", func() bool { return f.job("migrate").State == jobs.StateSucceeded })
	f.eventually("web ready through its http_get probe", func() bool { return f.job("web").Ready })
	f.eventually("the worker to run", func() bool { return f.job("background/worker").State == jobs.StateRunning })
	assert.True(t, f.job("queue").Ready, "the worker waited for the queue's log line")
	assert.Equal(t, jobs.StateCreated, f.job("report").State, "disabled: listed, not started")
	web := f.job("web")
	assert.Empty(t, web.ReadyError)
	assert.Equal(t, 1, web.Runs)
}

func TestProcessComposeRestartsWithBackoffUpToTheMaximum(t *testing.T) {
	need(t, "bash")
	dir := t.TempDir()
	path := filepath.Join(dir, "process-compose.yaml")
	require.NoError(t, os.WriteFile(path, []byte(`processes:
  flaky:
    command: "echo attempt; exit 3"
    availability:
      restart: on_failure
      backoff_seconds: 1
      max_restarts: 2
`), 0o600))
	f := openFile(t, path, jobfile.LoadOptions{})
	var info jobs.Info
	f.eventually("flaky to be given up on", func() bool {
		info = f.job("flaky")
		return info.State == jobs.StateFailed && strings.HasPrefix(info.Reason, "gave up")
	})
	assert.Equal(t, 3, info.Runs, "the first run and two restarts")
	assert.Equal(t, "gave up after 2 restarts", info.Reason)
	assert.Equal(t, []string{"attempt", "attempt", "attempt"}, f.output(info.ID))
}

func TestProcfileRunsWithEnvPortsAndFormation(t *testing.T) {
	t.Setenv("PORT", "")
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "Procfile"), []byte(
		"web: echo \"$PS on $PORT says $GREETING\"; sleep 1000\nworker: echo \"$PS on $PORT\"; sleep 1000\n"), 0o600))
	require.NoError(t, os.WriteFile(filepath.Join(dir, ".env"), []byte("GREETING='hi there'\nPORT=6000\n"), 0o600))
	f := openFile(t, filepath.Join(dir, "Procfile"), jobfile.LoadOptions{Formation: "web=2,worker=1"})
	want := map[string]string{"web.1": "web.1 on 6000 says hi there", "web.2": "web.2 on 6001 says hi there", "worker.1": "worker.1 on 6100"}
	for name, line := range want {
		f.eventually(name+" to say who it is", func() bool {
			out := f.output(f.job(name).ID)
			return len(out) == 1 && out[0] == line
		})
	}
	// A reload reads the file with the same options: nothing changed.
	res, err := f.ws.Reload()
	require.NoError(t, err)
	assert.Equal(t, []string{"web.1", "web.2", "worker.1"}, res.Unchanged)
	assert.Empty(t, res.Added)
}

func TestFailingEnvCommandLeavesItsVariableUnset(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "process-compose.yaml")
	require.NoError(t, os.WriteFile(path, []byte(`env_cmds:
  GOOD: "echo '  fine  '"
  BAD: "echo partial; exit 4"
processes:
  show:
    command: "echo good=$${GOOD} bad=$${BAD-unset}"
`), 0o600))
	f := openFile(t, path, jobfile.LoadOptions{})
	problems := f.ws.Problems()
	require.Len(t, problems, 1)
	assert.Contains(t, problems[0], "warning: env_cmds.BAD: \"echo partial; exit 4\": exit status 4; BAD is not set")
	info := f.job("show")
	f.eventually("show to end", func() bool { info = f.job("show"); return info.State.Done() })
	assert.Equal(t, []string{"good=fine bad=unset"}, f.output(info.ID))
}

// env_cmds run as jobs do: what one starts and leaves behind (a daemon
// that left its session) does not outlive it.
func TestEnvCommandsLeaveNothingRunning(t *testing.T) {
	dir := t.TempDir()
	arg := fmt.Sprintf("77%d", time.Now().UnixNano()%1e6)
	path := filepath.Join(dir, "process-compose.yaml")
	require.NoError(t, os.WriteFile(path, []byte(`env_cmds:
  LEAK: "setsid sh -c 'exec sleep `+arg+`' </dev/null >/dev/null 2>&1 & echo v"
processes:
  show:
    command: "echo leak=$${LEAK}"
`), 0o600))
	f := openFile(t, path, jobfile.LoadOptions{})
	info := f.job("show")
	f.eventually("show to end", func() bool { info = f.job("show"); return info.State.Done() })
	assert.Equal(t, []string{"leak=v"}, f.output(info.ID))
	f.eventually("the env command's daemon to be gone", func() bool {
		out, _ := exec.Command("pgrep", "-f", "sleep "+arg).Output()
		return len(out) == 0
	})
}
