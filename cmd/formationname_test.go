package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"jobtop/jobs"
)

// overmind's "restart web" with a formation (-m web=2): jobtop restart
// web said no job "web" and exit 1. A name no job has, which a formation
// runs as web.1 and web.2, stands for those in restart, stop, kill and
// rm; the commands that take one job (logs) name them.
func TestAFormationsProcessNameActsOnItsInstances(t *testing.T) {
	c := newCLI(t)
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "Procfile"), []byte("web: sleep 300\nworker: sleep 300\n"), 0o600))
	c.serveIn(dir, "-m", "web=2,worker=1")
	require.Eventually(t, func() bool {
		s := c.states()
		return s[1] == jobs.StateRunning && s[2] == jobs.StateRunning && s[3] == jobs.StateRunning
	}, testTimeout, 20*time.Millisecond, "web.1, web.2 and worker.1 to run")

	r := c.runIn(dir, "restart", "web")
	require.Equal(t, 0, r.code, r.stderr)
	assert.Regexp(t, `(?m)^job 1 \(web\.1\): running \(pid \d+, run 2\)\njob 2 \(web\.2\): running \(pid \d+, run 2\)\n$`, r.stdout)
	assert.Equal(t, 1, c.status("3").Runs, "worker.1 not restarted")

	r = c.runIn(dir, "stop", "web")
	require.Equal(t, 0, r.code, r.stderr)
	assert.Contains(t, r.stdout, "job 1 (web.1): killed")
	assert.Contains(t, r.stdout, "job 2 (web.2): killed")
	assert.Equal(t, jobs.StateRunning, c.status("3").State)

	r = c.run("logs", "web")
	assert.Equal(t, 1, r.code)
	assert.Contains(t, r.stderr, `no job "web": a formation runs it as web.1, web.2: name one of them (stop, kill, restart and rm take "web" for them all)`)
	r = c.run("restart", "worker.")
	assert.Equal(t, 1, r.code, "no instance's name")

	// Jobs run by hand as web.7 or api.2 are no formation's (rev58: stop
	// web stopped web.7 too, stop api stopped api.2).
	c.ok("restart", "web")
	by := c.ok("run", "--name", "web.7", "--", "sleep", "300")
	c.ok("run", "--name", "api.2", "--", "sleep", "300")
	r = c.runIn(dir, "stop", "web")
	require.Equal(t, 0, r.code, r.stderr)
	assert.NotContains(t, r.stdout, "web.7")
	assert.Equal(t, jobs.StateRunning, c.status(strings.TrimSpace(by)).State)
	r = c.run("stop", "api")
	assert.Equal(t, 1, r.code, r.stdout)
	assert.Contains(t, r.stderr, `no job "api"`)
	assert.NotContains(t, c.run("logs", "web").stderr, "web.7")
}

// A job of the job file that jobtop clean removed is named so, with the
// way back: jobtop restart clock said only no job "clock".
func TestAJobFilesRemovedJobPointsAtReload(t *testing.T) {
	c := newCLI(t)
	c.serveJobFile("jobs:\n  clock: {cmd: echo tick}\n  web: {cmd: sleep 300}\n")
	require.Eventually(t, func() bool { return c.states()[1] == jobs.StateSucceeded }, testTimeout, 20*time.Millisecond, "clock to end")
	c.ok("clean")
	const hint = `no job "clock": the job file's clock was removed (jobtop clean or rm); jobtop reload brings it back`
	for _, args := range [][]string{{"restart", "clock"}, {"restart", "clock", "web"}, {"logs", "clock"}} {
		r := c.run(args...)
		assert.Equal(t, 1, r.code, "jobtop %v", args)
		assert.Contains(t, r.stderr, hint, "jobtop %v", args)
	}
	r := c.run("restart", "nosuch")
	assert.Equal(t, 1, r.code)
	assert.NotContains(t, r.stderr, "reload", "no job of the file")

	c.ok("reload")
	assert.Contains(t, c.ok("restart", "clock"), "(clock): ")
}
