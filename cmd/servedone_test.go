package cmd

import (
	"os"
	"path/filepath"
	"strings"
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
