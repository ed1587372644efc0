package cmd

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"jobtop/control"
	"jobtop/jobs"
)

// writeJobFile writes content (leading newlines trimmed) to dir/name and
// returns its path.
func writeJobFile(t *testing.T, dir, name, content string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	require.NoError(t, os.WriteFile(path, []byte(strings.TrimLeft(content, "\n")), 0o600))
	return path
}

// jobsByName is `jobtop ls --json`, by job name.
func (c *cli) jobsByName() map[string]jobs.Info {
	c.t.Helper()
	var list []jobs.Info
	require.NoError(c.t, json.Unmarshal([]byte(c.ok("ls", "--json")), &list))
	out := make(map[string]jobs.Info, len(list))
	for _, j := range list {
		out[j.Name] = j
	}
	return out
}

// eventually polls `jobtop ls` until cond holds for the jobs.
func (c *cli) eventually(what string, cond func(map[string]jobs.Info) bool) map[string]jobs.Info {
	c.t.Helper()
	var now map[string]jobs.Info
	require.Eventually(c.t, func() bool {
		now = c.jobsByName()
		return cond(now)
	}, testTimeout, 50*time.Millisecond, "%s; jobs: %+v", what, now)
	return now
}

func TestServeRunsTheJobFileOfItsDirectory(t *testing.T) {
	c := newCLI(t)
	dir := t.TempDir()
	fifo := mkfifo(t)
	writeJobFile(t, dir, "jobtop.yaml", `
jobs:
  web:
    cmd: echo "web in $(pwd)"; exec sleep 600
    depends_on: {db: ready}
  db:
    cmd: read go < `+fifo+`; echo db ready; exec sleep 600
    ready: {log: db ready}
  flaky:
    cmd: echo starting; exit 3
    ready: {log: never printed}
  seed:
    cmd: echo seeded
    autostart: false
`)
	c.serveIn(dir)
	extra := c.startJob("exec sleep 600", "--name", "extra")

	// The job file's jobs start soon after serve answers, not before.
	now := c.eventually("db runs", func(j map[string]jobs.Info) bool { return j["db"].State == jobs.StateRunning })
	require.Len(t, now, 5, "the file's four jobs and the one from jobtop run")
	assert.Equal(t, jobs.StateQueued, now["web"].State)
	assert.Equal(t, "waiting for db: ready", now["web"].Reason)
	assert.Equal(t, jobs.StateCreated, now["seed"].State)
	assert.Less(t, int(now["db"].ID), int(now["web"].ID), "db starts first: web depends on it")

	r := c.run("wait", "web", "--ready", "--timeout", "100ms")
	assert.Equal(t, 124, r.code)
	assert.Equal(t, "jobtop: job "+now["web"].ID.String()+" is not ready after 100ms (it is queued; it stays queued)\n", r.stderr)

	writeFifo(t, fifo, "go\n")
	c.ok("wait", "db", "--ready")
	r = c.run("wait", "web", "--ready", "--timeout", "20s")
	assert.Equal(t, 0, r.code, r.stderr)
	assert.Empty(t, r.stdout)
	// Ready once running (it has no ready check): its line may come after.
	c.ok("wait", "web", "--until", "^web in ")
	assert.Equal(t, []string{"web in " + dir}, c.logLines("web"))
	c.ok("wait", extra, "--ready") // no ready check: ready once running

	r = c.run("wait", "flaky", "--ready")
	assert.Equal(t, 1, r.code)
	assert.Equal(t, "jobtop: job "+now["flaky"].ID.String()+" ended failed (3) before it was ready\n", r.stderr)
	r = c.run("wait", "seed", "--ready")
	assert.Equal(t, 1, r.code)
	assert.Contains(t, r.stderr, "was never started")
	// --until says the same: a job never started has not ended.
	r = c.run("wait", "seed", "--until", "seeded")
	assert.Equal(t, 1, r.code)
	assert.Equal(t, "jobtop: job "+now["seed"].ID.String()+" was never started (jobtop restart "+now["seed"].ID.String()+" starts it)\n", r.stderr)
}

func TestServeRefusesABrokenJobFileBeforeStartingAnything(t *testing.T) {
	c := newCLI(t)
	dir := t.TempDir()
	writeJobFile(t, dir, "jobtop.yaml", `
jobs:
  web:
    cmd: echo hi
    timeout: 5
  api:
    cmd: echo api
    depends_on: {db: ready}
`)
	r := c.runIn(dir, "serve")
	assert.Equal(t, 1, r.code)
	assert.Equal(t, `jobtop: jobtop.yaml has 2 problems; nothing was started:
  jobtop.yaml:4:14: jobs.web.timeout: 5 has no unit: write e.g. 5s or 5ms
  jobtop.yaml:7:18: jobs.api.depends_on.db: no job is named "db"
`, r.stderr)
	_, err := os.Stat(c.socket)
	assert.True(t, os.IsNotExist(err), "no socket was made")

	r = c.run("serve", "-f", filepath.Join(dir, "missing.yaml"))
	assert.Equal(t, 1, r.code)
	assert.Equal(t, "jobtop: job file "+filepath.Join(dir, "missing.yaml")+" does not exist; nothing was started\n", r.stderr)

	r = c.run("serve", "-f", "x.yaml", "--no-file")
	assert.Equal(t, 2, r.code)
	assert.Contains(t, r.stderr, "-f and --no-file contradict each other")
}

func TestReloadThroughTheCLI(t *testing.T) {
	c := newCLI(t)
	path := writeJobFile(t, t.TempDir(), "dev.yaml", `
jobs:
  keep: {cmd: exec sleep 600}
  change: {cmd: echo v1; exec sleep 600}
  gone: {cmd: exec sleep 600}
`)
	c.serveIn("", "-f", path)
	before := c.eventually("all run", func(j map[string]jobs.Info) bool {
		return j["keep"].State == jobs.StateRunning && j["change"].State == jobs.StateRunning && j["gone"].State == jobs.StateRunning
	})
	other := c.startJob("exec sleep 600", "--name", "other")

	writeJobFile(t, filepath.Dir(path), "dev.yaml", `
jobs:
  keep: {cmd: exec sleep 600}
  change: {cmd: echo v2; exec sleep 600}
  fresh: {cmd: exec sleep 600}
`)
	assert.Equal(t, "reloaded dev.yaml: 1 added (fresh), 1 changed (change), 1 removed (gone)\n", c.ok("reload"))
	after := c.eventually("the reload is applied", func(j map[string]jobs.Info) bool {
		_, gone := j["gone"]
		return !gone && j["change"].Runs == 2 && j["change"].State == jobs.StateRunning && j["fresh"].State == jobs.StateRunning
	})
	assert.Equal(t, before["keep"].PID, after["keep"].PID, "an unchanged job is left alone")
	assert.Equal(t, before["change"].ID, after["change"].ID)
	// Running is no promise that its first line was read yet.
	require.Eventually(t, func() bool { return len(c.logLines("change", "--stdout")) == 2 }, testTimeout, 20*time.Millisecond)
	assert.Equal(t, []string{"v1", "v2"}, c.logLines("change", "--stdout"))
	assert.Equal(t, jobs.StateRunning, after["other"].State, "jobs not from the file are never touched")
	assert.Equal(t, other, after["other"].ID.String())
	assert.False(t, processAlive(before["gone"].PID))

	// A broken file: every problem, exit 1, nothing touched.
	writeJobFile(t, filepath.Dir(path), "dev.yaml", `
jobs:
  keep: {cmd: exec sleep 600, restart: sometimes}
`)
	r := c.run("reload")
	assert.Equal(t, 1, r.code)
	assert.Equal(t, `jobtop: the job file has 1 problem; nothing was changed:
  `+path+`:2:40: jobs.keep.restart: "sometimes" is not a restart policy: use no, on-failure or always
`, r.stderr)
	assert.Empty(t, r.stdout)
	same := c.jobsByName()
	for name, j := range after {
		assert.Equal(t, [3]any{j.ID, j.PID, j.Runs}, [3]any{same[name].ID, same[name].PID, same[name].Runs}, name)
	}

	// Back to the last good file: nothing to do, said as JSON too.
	writeJobFile(t, filepath.Dir(path), "dev.yaml", `
jobs:
  keep: {cmd: exec sleep 600}
  change: {cmd: echo v2; exec sleep 600}
  fresh: {cmd: exec sleep 600}
`)
	var resp control.ReloadResponse
	require.NoError(t, json.Unmarshal([]byte(c.ok("reload", "--json")), &resp))
	assert.Equal(t, control.ReloadResponse{
		Summary: "reloaded dev.yaml: no job changed", JobFile: path,
		Added: []string{}, Changed: []string{}, Removed: []string{}, Unchanged: []string{"keep", "change", "fresh"},
		Enabled: []string{}, Disabled: []string{}, Rewired: []string{},
	}, resp)
	assert.Equal(t, path, c.waitAnswering().JobFile)
}

func TestNoFileIgnoresTheDirectorysJobFile(t *testing.T) {
	c := newCLI(t)
	dir := t.TempDir()
	writeJobFile(t, dir, "jobtop.yaml", "jobs:\n  web: {cmd: exec sleep 600}\n")
	c.serveIn(dir, "--no-file")
	assert.Equal(t, "[]\n", c.ok("ls", "--json"))
	r := c.run("reload")
	assert.Equal(t, 1, r.code)
	assert.Equal(t, "jobtop: this instance has no job file: start it with -f FILE, or in a directory holding jobtop.yaml, jobtop.yml, a process-compose file or a Procfile\n", r.stderr)
	assert.Empty(t, c.waitAnswering().JobFile)
}

func TestServeRunsAProcfile(t *testing.T) {
	c := newCLI(t)
	dir := t.TempDir()
	writeJobFile(t, dir, "Procfile", "web: echo web on $PORT; exec sleep 600\nclock: exec sleep 600\n")
	c.serveIn(dir)
	now := c.eventually("both run", func(j map[string]jobs.Info) bool {
		return j["web"].State == jobs.StateRunning && j["clock"].State == jobs.StateRunning
	})
	assert.Len(t, now, 2)
	assert.Equal(t, filepath.Join(dir, "Procfile"), c.waitAnswering().JobFile)
}

func TestTheJobFilesMaxParallelApplies(t *testing.T) {
	c := newCLI(t)
	dir := t.TempDir()
	writeJobFile(t, dir, "jobtop.yaml", `
max_parallel: 1
jobs:
  first: {cmd: exec sleep 600}
  second: {cmd: echo second}
`)
	c.serveIn(dir)
	// The job file's jobs start soon after serve answers, not before.
	now := c.eventually("first runs", func(j map[string]jobs.Info) bool { return j["first"].State == jobs.StateRunning })
	assert.Equal(t, jobs.StateQueued, now["second"].State)
	assert.Contains(t, now["second"].Reason, "waiting for a free slot")
	c.ok("kill", "first")
	c.ok("wait", "second")
}

// TestRunDoesNotRunTheJobFileOfItsDirectory: the instance that run starts
// for an agent runs only what it was asked to.
func TestRunDoesNotRunTheJobFileOfItsDirectory(t *testing.T) {
	c := newCLI(t)
	dir := t.TempDir()
	writeJobFile(t, dir, "jobtop.yaml", "jobs:\n  web: {cmd: exec sleep 600}\n")
	r := c.runIn(dir, "run", "--", "echo one job")
	require.Equal(t, 0, r.code, r.stderr)
	inst := c.waitAnswering()
	t.Cleanup(func() {
		syscall.Kill(inst.PID, syscall.SIGTERM) //nolint:errcheck // may be gone
		require.Eventually(t, func() bool { return !processAlive(inst.PID) }, testTimeout, 20*time.Millisecond)
	})
	assert.Empty(t, inst.JobFile)
	now := c.jobsByName()
	assert.Len(t, now, 1)
	require.Contains(t, now, "echo")
	assert.Equal(t, "echo one job", now["echo"].Command)
}
