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

// gateCommand is a job that runs until the test opens its gate, then
// exits with code: no timing involved.
func gateCommand(t *testing.T, code string) (command string, open func()) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "gate")
	return "while [ ! -e " + path + " ]; do sleep 0.01; done; exit " + code, func() {
		require.NoError(t, os.WriteFile(path, nil, 0o600))
	}
}

// run --after waits, queued and saying for what, until each job named
// (by ID or by name, repeated or in a comma list) has succeeded.
func TestRunAfterStartsOnceEachSucceeded(t *testing.T) {
	c := newCLI(t)
	c.serve()
	build, openBuild := gateCommand(t, "0")
	lint, openLint := gateCommand(t, "0")
	c.startJob(build, "--name", "build")
	c.startJob(lint, "--name", "lint")
	byName := c.startJob("echo tested", "--name", "test", "--after", "build,lint")
	byID := c.startJob("echo deployed", "--name", "deploy", "--after", "1", "--after", "2")

	for _, id := range []string{byName, byID} {
		info := c.status(id)
		assert.Equal(t, jobs.StateQueued, info.State, "job %s", id)
		assert.Equal(t, "waiting for job 1 (build) to succeed", info.Reason, "job %s", id)
		assert.Equal(t, []jobs.ID{1, 2}, info.After, "job %s", id)
	}
	assert.Contains(t, c.ok("status", byName), "state:    queued (waiting for job 1 (build) to succeed)\n")

	openBuild()
	require.Eventually(t, func() bool { return c.status(byID).Reason == "waiting for job 2 (lint) to succeed" },
		testTimeout, 20*time.Millisecond)
	openLint()
	c.ok("wait", byName, byID)
	assert.Equal(t, []string{"tested"}, c.logLines(byName))
	assert.Equal(t, []string{"deployed"}, c.logLines(byID))
}

// A job run after one that fails does not run, and says why.
func TestRunAfterAJobThatFailsFailsWithTheReason(t *testing.T) {
	c := newCLI(t)
	c.serve()
	build, open := gateCommand(t, "3")
	c.startJob(build, "--name", "build")
	test := c.startJob("echo never", "--name", "test", "--after", "build")
	open()
	r := c.run("wait", test)
	assert.Equal(t, exitNoRun, r.code, r.stderr)
	info := c.status(test)
	assert.Equal(t, jobs.StateError, info.State)
	assert.Equal(t, "job 1 (build), which it runs after, failed (exit 3)", info.Error)
	assert.Empty(t, c.logLines(test))
}

// A job that already failed makes run say the new job could not start,
// wherever it stands in --after: behind a job still running, run said
// "queued" and exited 0 (--after slow,1), in front of it 125 (--after 1,slow).
func TestRunAfterAFailedJobFailsWhateverItsPlace(t *testing.T) {
	c := newCLI(t)
	c.serve()
	broke := c.startJob("exit 200", "--name", "broke")
	assert.Equal(t, 200, c.run("wait", broke).code)
	slow, open := gateCommand(t, "0")
	c.startJob(slow, "--name", "slow")
	for _, after := range []string{"slow,1", "1,slow"} {
		r := c.run("run", "--after", after, "--", "echo a")
		assert.Equal(t, exitNoRun, r.code, "--after %s: %s", after, r.stderr)
		id := strings.TrimSpace(r.stdout)
		info := c.status(id)
		assert.Equal(t, jobs.StateError, info.State, "--after %s", after)
		assert.Equal(t, "job 1 (broke), which it runs after, failed (exit 200)", info.Error, "--after %s", after)
	}
	open()
}

// A name is the newest job with it when run is called; the job waits for
// that one, by ID, whatever comes later under the same name.
func TestRunAfterANameIsTheJobItNamedThen(t *testing.T) {
	c := newCLI(t)
	c.serve()
	build, open := gateCommand(t, "0")
	c.startJob(build, "--name", "build")
	test := c.startJob("echo tested", "--name", "test", "--after", "build")
	later := c.startJob("exit 1", "--name", "build")
	r := c.run("wait", later)
	require.Equal(t, 1, r.code, r.stderr)
	info := c.status(test)
	assert.Equal(t, jobs.StateQueued, info.State)
	assert.Equal(t, "waiting for job 1 (build) to succeed", info.Reason)
	open()
	c.ok("wait", test)
}

// An unknown job is refused at once (exit 1), and nothing is started;
// with no instance there is none to run after, and none is started.
func TestRunAfterAnUnknownJobIsRefused(t *testing.T) {
	c := newCLI(t)
	r := c.run("run", "--after", "3", "--", "true")
	assert.Equal(t, 1, r.code)
	assert.Contains(t, r.stderr, "so there is no job 3 to run after")
	assert.NotEqual(t, 0, c.run("ls").code, "no instance was started")

	c.serve()
	c.startJob("true", "--name", "build")
	r = c.run("run", "--after", "9", "--", "true")
	assert.Equal(t, 1, r.code)
	assert.Equal(t, "jobtop: after: no job with ID 9\n", r.stderr)
	r = c.run("run", "--after", "build,nope", "--", "true")
	assert.Equal(t, 1, r.code)
	assert.Equal(t, "jobtop: after: no job \"nope\": give a job ID (a number) or a job's name; `jobtop ls` lists them\n", r.stderr)
	assert.Len(t, c.states(), 1, "nothing was added")

	r = c.run("run", "--after", "build,", "--", "true")
	assert.Equal(t, usageExit, r.code)
	assert.Contains(t, r.stderr, "--after: give a job's ID or name")

	// An empty --after (a script's $id that came out empty) is refused,
	// not taken as no dependency: the job would run at once.
	for _, args := range [][]string{{"--after", ""}, {"--after="}} {
		r = c.run(append(append([]string{"run"}, args...), "--", "echo ran")...)
		assert.Equal(t, usageExit, r.code, "%q", args)
		assert.Equal(t, "jobtop: --after: give a job's ID or name (it was empty)\n", r.stderr)
	}
	// A number that is no job ID is said to be one, not looked up as a name.
	r = c.run("run", "--after", "0", "--", "echo ran")
	assert.Equal(t, usageExit, r.code)
	assert.Equal(t, "jobtop: --after: 0 is not a job ID (IDs start at 1)\n", r.stderr)
	r = c.run("stop", "0")
	assert.Equal(t, 1, r.code)
	assert.Equal(t, "jobtop: 0 is not a job ID (IDs start at 1)\n", r.stderr)
	// pueue's --after 3 4: the 4 would be the program.
	for _, args := range [][]string{{"--after", "1", "2", "--", "echo ran"}, {"--after", "1", "2"}} {
		r = c.run(append([]string{"run"}, args...)...)
		assert.Equal(t, usageExit, r.code, "%q", args)
		assert.Equal(t, "jobtop: 2: --after takes one job at a time (--after 1,2 or --after 1 --after 2)\n", r.stderr)
	}
	// A script's --after "$a" --after "$b" with $b empty: refused too.
	r = c.run("run", "--after", "1", "--after", "", "--", "echo ran")
	assert.Equal(t, usageExit, r.code)
	assert.Equal(t, "jobtop: --after: give a job's ID or name (it was empty)\n", r.stderr)
	assert.Len(t, c.states(), 1, "nothing was added")
}
