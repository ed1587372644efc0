package cmd

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// serveUntilDone runs serve --exit-when-done on a jobtop.yaml of file's
// text and returns how it ended.
func serveUntilDone(t *testing.T, file string, more ...string) (*cli, result) {
	t.Helper()
	c := newCLI(t)
	dir := filepath.Join(c.dir, "app")
	require.NoError(t, os.Mkdir(dir, 0o700))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "jobtop.yaml"), []byte(file), 0o600))
	return c, c.runIn(dir, append([]string{"serve", "--exit-when-done", "--socket", c.socket}, more...)...)
}

// A CI run in one command: serve --exit-when-done runs the file's jobs
// and exits once they have all ended, with the exit wait --all gives:
// that of the first job by ID that did not succeed, whose last lines it
// shows. A job never started (autostart: false), and one queued behind
// it, would never end: they are left out, as wait --all leaves them.
func TestServeExitWhenDoneExitsAsWaitAll(t *testing.T) {
	_, r := serveUntilDone(t, `jobs:
  build:
    cmd: echo building; sleep 0.3; echo built
  test:
    cmd: echo testing; echo "TestX failed"; exit 3
    depends_on: {build: succeeded}
  lint:
    cmd: sleep 0.6; echo lint broke; exit 4
  seed:
    cmd: echo seeding
    autostart: false
  report:
    cmd: echo reporting
    depends_on: {seed: succeeded}
`)
	assert.Equal(t, 3, r.code, r.stderr)
	assert.Contains(t, r.stderr, "jobtop: every job has ended (--exit-when-done): 2 of 3 jobs did not succeed; the exit is that of the first by ID, job 2 (test), which failed (exit 3): exiting\n"+
		"test | testing\ntest | TestX failed\n")
}

// Every job succeeded: exit 0, said. The job queued behind a dependency
// counts: serve waits for it, not only for the first jobs to end.
func TestServeExitWhenDoneSucceeds(t *testing.T) {
	c, r := serveUntilDone(t, `jobs:
  build:
    cmd: sleep 0.3; echo built > built.txt
  test:
    cmd: cat built.txt && echo tested > tested.txt
    depends_on: {build: succeeded}
`)
	assert.Equal(t, 0, r.code, r.stderr)
	assert.Contains(t, r.stderr, "jobtop: every job has ended (--exit-when-done): all 2 jobs succeeded: exiting\n")
	_, err := os.Stat(filepath.Join(c.dir, "app", "tested.txt"))
	assert.NoError(t, err, "the dependant ran before serve exited")
}

// A job its restart policy runs again has not ended: serve waits out
// every restart, and exits with the last run's exit.
func TestServeExitWhenDoneWaitsOutRestarts(t *testing.T) {
	c, r := serveUntilDone(t, `jobs:
  flaky:
    cmd: echo run >> runs.txt; exit 5
    restart: {policy: on-failure, backoff: 50ms, max: 2}
`)
	assert.Equal(t, 5, r.code, r.stderr)
	runs, err := os.ReadFile(filepath.Join(c.dir, "app", "runs.txt"))
	require.NoError(t, err)
	assert.Equal(t, 3, strings.Count(string(runs), "run"), "the first run and its two restarts, before serve exited")
}

// With -D the jobs' exit would go to nobody: refused, pointing at what
// ends a serve in the background.
func TestServeExitWhenDoneRefusesDetach(t *testing.T) {
	c := newCLI(t)
	r := c.run("serve", "-D", "--exit-when-done", "--no-file", "--socket", c.socket)
	assert.Equal(t, usageExit, r.code)
	assert.Contains(t, r.stderr, "--idle-exit ends a serve in the background")
}

// process-compose's exit_on_end on the job that ends last decides the
// exit, every time: both it and --exit-when-done are ready at once, and
// serve took either at random (rev61: 0 five times, 3 once).
func TestServeExitWhenDoneLeavesTheLastEndToExitOnEnd(t *testing.T) {
	for range 6 {
		c := newCLI(t)
		dir := filepath.Join(c.dir, "app")
		require.NoError(t, os.Mkdir(dir, 0o700))
		require.NoError(t, os.WriteFile(filepath.Join(dir, "process-compose.yaml"), []byte(`processes:
  a: {command: "echo a failing; exit 3"}
  b:
    command: "sleep 0.3; echo b done"
    availability: {exit_on_end: true}
`), 0o600))
		r := c.runIn(dir, "serve", "--exit-when-done", "--socket", c.socket)
		require.Equal(t, 0, r.code, r.stderr)
		assert.Contains(t, r.stderr, "jobtop: job b succeeded and its availability has exit_on_end: stopping jobs")
		assert.NotContains(t, r.stderr, "--exit-when-done")
	}
}

// A file whose jobs are all never started (autostart: false, or queued
// behind one) has no job that will end: serve exits 0 at once, as wait
// --all does, rather than run for ever.
func TestServeExitWhenDoneWithNothingToEnd(t *testing.T) {
	_, r := serveUntilDone(t, `jobs:
  seed:
    cmd: echo seeding
    autostart: false
  report:
    cmd: echo reporting
    depends_on: {seed: succeeded}
`)
	assert.Equal(t, 0, r.code, r.stderr)
	assert.Contains(t, r.stderr, "jobtop: no job will end by itself (--exit-when-done; those never started are left out): exiting\n")
}

// Stopped by a signal before its jobs have ended, serve --exit-when-done
// exits 128 + its number: 0 would say every job succeeded (a CI run
// cancelled, green).
func TestServeExitWhenDoneStoppedBySignalIsNoSuccess(t *testing.T) {
	c := newCLI(t)
	cmd := c.serveJobFile("jobs:\n  long: {cmd: exec sleep 600}\n", "--exit-when-done")
	require.NoError(t, cmd.Process.Signal(syscall.SIGTERM))
	err := cmd.Wait()
	var exit *exec.ExitError
	require.ErrorAs(t, err, &exit)
	assert.Equal(t, 143, exit.ExitCode())
}
