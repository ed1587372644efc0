package cmd

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"jobtop/control"
	"jobtop/jobs"
)

// stop, kill and restart take several IDs and names; a job that the
// action does not apply to, or that does not exist, is an error after
// the others are done.
func TestActionsOnSeveralJobs(t *testing.T) {
	c := newCLI(t)
	c.serve()
	c.startJob("exec sleep 60", "--name", "web")
	c.startJob("exec sleep 60", "--name", "db")
	c.startJob("exec sleep 60", "--name", "api")
	done := c.startJob("true", "--name", "once")
	c.ok("wait", done)

	out := c.ok("stop", "web", "2")
	assert.Equal(t, "job 1 (web): killed (SIGTERM)\njob 2 (db): killed (SIGTERM)\n", out)
	assert.Equal(t, map[jobs.ID]jobs.State{1: jobs.StateKilled, 2: jobs.StateKilled, 3: jobs.StateRunning, 4: jobs.StateSucceeded}, c.states())

	r := c.run("restart", "1", "db")
	require.Equal(t, 0, r.code, r.stderr)
	assert.Contains(t, r.stdout, "job 1 (web): running (pid ")
	assert.Contains(t, r.stdout, "job 2 (db): running (pid ")
	assert.Contains(t, r.stdout, ", run 2)")

	r = c.run("kill", "web", "once", "api")
	assert.Equal(t, 1, r.code, "once has ended: an error")
	assert.Equal(t, "jobtop: cannot kill job 4: it has ended (succeeded)\n", r.stderr)
	assert.Equal(t, "job 1 (web): killed (SIGKILL)\njob 3 (api): killed (SIGKILL)\n", r.stdout, "the others were killed")

	// An unknown job is an error too, after the others are done.
	r = c.run("kill", "db", "nosuch")
	assert.Equal(t, 1, r.code)
	assert.Equal(t, "jobtop: no job \"nosuch\": give a job ID (a number) or a job's name; `jobtop ls` lists them\n", r.stderr)
	assert.Equal(t, "job 2 (db): killed (SIGKILL)\n", r.stdout)
	r = c.run("restart", "db")
	require.Equal(t, 0, r.code, r.stderr)

	// A job of a namespace goes by its whole name, and is named.
	c.ok("run", "--name", "bg/worker", "--", "exec sleep 600")
	for _, verb := range []string{"kill", "status"} {
		r = c.run(verb, "worker")
		assert.Equal(t, 1, r.code)
		assert.Equal(t, "jobtop: no job \"worker\": a job of a namespace is named with it: bg/worker; `jobtop ls` lists them\n", r.stderr, verb)
	}

	r = c.run("rm", "1", "db")
	assert.Equal(t, 1, r.code)
	assert.Equal(t, "job 1 (web): removed\n", r.stdout)
	assert.Equal(t, "jobtop: cannot remove job 2: it is running; stop it first\n", r.stderr)
}

// --all, --state and --name pick jobs; what a selector picks that the
// action does not apply to is skipped and counted on stderr.
func TestActionSelectors(t *testing.T) {
	c := newCLI(t)
	c.serve()
	for _, name := range []string{"web-1", "web-2", "worker"} {
		c.startJob("exec sleep 60", "--name", name)
	}
	c.run("wait", c.startJob("exit 3", "--name", "web-3"))

	r := c.run("stop", "--name", "web-*")
	require.Equal(t, 0, r.code, r.stderr)
	assert.Equal(t, "job 1 (web-1): killed (SIGTERM)\njob 2 (web-2): killed (SIGTERM)\n", r.stdout)
	assert.Equal(t, "jobtop: skipped 1 job that cannot be stopped: 1 failed\n", r.stderr)

	r = c.run("restart", "--state", "failed", "--json")
	require.Equal(t, 0, r.code, r.stderr)
	var resp control.BulkResponse
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &resp))
	require.Len(t, resp.Jobs, 1)
	assert.Equal(t, "web-3", resp.Jobs[0].Name)
	assert.Equal(t, 2, resp.Jobs[0].Runs)
	assert.Empty(t, resp.Skipped)
	c.run("wait", "web-3")

	r = c.run("kill", "--all")
	require.Equal(t, 0, r.code, r.stderr)
	assert.Equal(t, "job 3 (worker): killed (SIGKILL)\n", r.stdout)
	assert.Equal(t, "jobtop: skipped 3 jobs that cannot be killed: 1 failed, 2 killed\n", r.stderr)

	// Both selectors: jobs that match both.
	r = c.run("rm", "--state", "killed", "--name", "web-*")
	require.Equal(t, 0, r.code, r.stderr)
	assert.Equal(t, "job 1 (web-1): removed\njob 2 (web-2): removed\n", r.stdout)

	// Nothing matches: said on stderr, not an error.
	r = c.run("stop", "--name", "db*")
	assert.Equal(t, 0, r.code)
	assert.Empty(t, r.stdout)
	assert.Equal(t, "jobtop: no job matches --name db*\n", r.stderr)

	for _, bad := range []struct {
		args []string
		code int // 2: the command line, flags the instance cannot read included
		want string
	}{
		{[]string{"stop"}, 2, "jobtop: stop which jobs? give job IDs or names, or --all, --state STATE or --name GLOB\n"},
		{[]string{"stop", "3", "--all"}, 2, "jobtop: give job IDs or names, or --all, not both\n"},
		{[]string{"stop", "--state", "sleeping"}, 2, `jobtop: state "sleeping" is not one of queued, running, stopping, succeeded, failed, killed, timed_out, error, created, ended` + "\n"},
		{[]string{"kill", "--name", "[x"}, 2, `jobtop: name pattern "[x" is not valid: use *, ? and [...] as in shell patterns` + "\n"},
		{[]string{"rm", "--finished", "--state", "failed"}, 2, "jobtop: --finished is --state ended: give one of them\n"},
	} {
		r := c.run(bad.args...)
		assert.Equal(t, bad.code, r.code, "%v", bad.args)
		assert.Equal(t, bad.want, r.stderr, "%v", bad.args)
	}
	assert.Len(t, c.states(), 2, "no bad call changed anything")
}

// Several --name patterns pick the jobs any of them matches, and * and ?
// match a namespace's "/": given twice, the first pattern was dropped and
// its jobs left running; "api*" did not match "api/web".
func TestActionNamePatterns(t *testing.T) {
	c := newCLI(t)
	c.serve()
	for _, name := range []string{"aa-1", "bb-1", "api/web", "cc-1"} {
		c.startJob("exec sleep 60", "--name", name)
	}
	r := c.run("stop", "--name", "aa-*", "--name", "bb-*,api*")
	require.Equal(t, 0, r.code, r.stderr)
	assert.Equal(t, "job 1 (aa-1): killed (SIGTERM)\njob 2 (bb-1): killed (SIGTERM)\njob 3 (api/web): killed (SIGTERM)\n", r.stdout)
	assert.Equal(t, jobs.StateRunning, c.states()[4], "cc-1 matches none")

	r = c.run("stop", "--all", "--state", "failed")
	assert.Equal(t, "jobtop: no job matches --all --state failed\n", r.stderr, "there are jobs")
	for empty, said := range map[[4]string]string{
		{"--name", "aa-*", "--name", ""}:  "jobtop: an empty --name picks nothing: give a pattern\n",
		{"--name", "*", "--state", ""}:    "jobtop: an empty --state picks nothing: give a state\n",
		{"--name", "*", "--state", "ok,"}: "jobtop: --state \"ok,\": an empty item of the list picks nothing: give a state between the commas\n",
	} {
		r := c.run(append([]string{"rm"}, empty[:]...)...)
		assert.Equal(t, 2, r.code, "%v picks nothing", empty)
		assert.Equal(t, said, r.stderr, "%v", empty)
	}
	assert.Len(t, c.states(), 4, "nothing removed")
}

// A stop of more jobs than the instance keeps finished answers for each:
// those removed once they ended are printed as they were last, and
// counted on stderr. They were left out, so 1,000 stopped jobs printed
// some 600 lines.
func TestBulkAnswersForJobsRemovedOnceEnded(t *testing.T) {
	c := newCLI(t)
	c.serveIn("", "--keep-finished", "2")
	for range 6 {
		c.startJob("exec sleep 60")
	}
	resp := c.bulkJSON("stop", "--all")
	require.Len(t, resp.Jobs, 6)
	for _, j := range resp.Jobs {
		assert.Equal(t, jobs.StateKilled, j.State, "job %d", j.ID)
	}
	assert.Len(t, resp.Removed, 4)
	r := c.run("stop", "--all", "--json")
	assert.Contains(t, r.stdout, `"removed": []`, "always there")
	assert.Equal(t, 2, c.run("stop", "--name", "web-*,").code, "an empty pattern in the list")
	assert.Len(t, c.states(), 2)

	for range 4 {
		c.startJob("exec sleep 60")
	}
	r = c.run("kill", "--all")
	require.Equal(t, 0, r.code, r.stderr)
	assert.Equal(t, 4, strings.Count(r.stdout, ": killed (SIGKILL)\n"), r.stdout)
	assert.Contains(t, r.stderr, "jobtop: 2 jobs of these ended and were removed since")
}

// A restart with wait answers once each job runs its new run: a job
// whose new run was still starting (queued, "starting") was answered
// "queued".
func TestBulkRestartWaitsForTheNewRuns(t *testing.T) {
	c := newCLI(t)
	c.serve()
	for range 40 {
		c.startJob("exec sleep 60")
	}
	resp := c.bulkJSON("restart", "--all")
	require.Len(t, resp.Jobs, 40)
	for _, j := range resp.Jobs {
		assert.Equal(t, jobs.StateRunning, j.State, "job %d: %s", j.ID, j.Reason)
		assert.Equal(t, 2, j.Runs)
	}
}

// A job that could not start again says why: "error" alone told nothing.
func TestBulkRestartSaysWhyAJobCouldNotStart(t *testing.T) {
	c := newCLI(t)
	c.serve()
	dir := filepath.Join(c.dir, "gone")
	require.NoError(t, os.Mkdir(dir, 0o755))
	c.run("wait", c.startJob("true", "--cwd", dir, "--name", "cw1"))
	require.NoError(t, os.Remove(dir))
	r := c.run("restart", "--all")
	require.Equal(t, 1, r.code, "a job that could not start again fails the restart: %s", r.stderr)
	assert.Contains(t, r.stdout, "job 1 (cw1): error: ")
	assert.Contains(t, r.stdout, "does not exist")
	r = c.run("restart", "cw1")
	assert.Equal(t, 1, r.code, "one job too")
	assert.Contains(t, r.stdout, "job 1 (cw1): error: ")
	r = c.run("rm", "cw1")
	assert.Equal(t, 0, r.code, "removing it is no failure: %s", r.stderr)
}

// rm --finished and clean drop every job that has ended, and leave the
// rest (running, or never started).
func TestRmFinishedAndClean(t *testing.T) {
	c := newCLI(t)
	c.serve()
	c.ok("wait", c.startJob("true"))
	c.run("wait", c.startJob("false"))
	c.startJob("exec sleep 60", "--name", "runs")
	r := c.run("rm", "--finished")
	require.Equal(t, 0, r.code, r.stderr)
	assert.Equal(t, "job 1 (true): removed\njob 2 (false): removed\n", r.stdout)
	assert.Empty(t, r.stderr, "the running job is not picked by --finished")
	assert.Equal(t, map[jobs.ID]jobs.State{3: jobs.StateRunning}, c.states())

	c.ok("wait", c.startJob("true"))
	c.ok("kill", "runs")
	r = c.run("clean")
	require.Equal(t, 0, r.code, r.stderr)
	assert.Equal(t, "job 3 (runs): removed\njob 4 (true): removed\n", r.stdout)
	assert.Empty(t, c.states())

	r = c.run("clean")
	assert.Equal(t, 0, r.code, "nothing to clean is not an error")
	assert.Equal(t, "jobtop: no job has ended: nothing to clean\n", r.stderr, "no flag it was not given")
	assert.Equal(t, "{\n  \"jobs\": [],\n  \"skipped\": [],\n  \"failed\": [],\n  \"removed\": []\n}\n", c.ok("clean", "--json"))
}

// One job keeps the one-job output: --json prints the job object.
func TestActionOnOneJobKeepsItsShape(t *testing.T) {
	c := newCLI(t)
	c.serve()
	c.startJob("exec sleep 60", "--name", "web")
	var info jobs.Info
	require.NoError(t, json.Unmarshal([]byte(c.ok("stop", "web", "--json")), &info))
	assert.Equal(t, jobs.StateKilled, info.State)
	r := c.run("stop", "web")
	assert.Equal(t, 1, r.code)
	assert.Equal(t, "jobtop: cannot stop job 1: it has ended (killed)\n", r.stderr)
}

// bulkJSON runs a bulk action with --json, requires exit 0, and reads
// its answer.
func (c *cli) bulkJSON(args ...string) control.BulkResponse {
	c.t.Helper()
	r := c.run(append(args, "--json")...)
	require.Equal(c.t, 0, r.code, r.stderr)
	var resp control.BulkResponse
	require.NoError(c.t, json.Unmarshal([]byte(r.stdout), &resp))
	return resp
}

// Stopping a job that waits for a slot says why it shows killed with no
// signal: it never ran.
func TestStopAQueuedJobSaysItNeverRan(t *testing.T) {
	c := newCLI(t)
	c.serveIn("", "--max-running", "1")
	c.startJob("exec sleep 60", "--name", "runs")
	c.startJob("exec sleep 60", "--name", "waits")
	r := c.run("stop", "--all")
	require.Equal(t, 0, r.code, r.stderr)
	assert.Contains(t, r.stdout, "job 1 (runs): killed (SIGTERM)\n")
	assert.Contains(t, r.stdout, "job 2 (waits): killed (stopped before it started)\n")
}

// A wait that gives up on a job waiting for a slot does not call it
// running.
func TestWaitOnAQueuedJobSaysItStaysQueued(t *testing.T) {
	c := newCLI(t)
	c.serveIn("", "--max-running", "1")
	c.startJob("exec sleep 60", "--name", "runs")
	c.startJob("exec sleep 60", "--name", "waits")
	r := c.run("wait", "waits", "--timeout", "0.1")
	assert.Equal(t, exitTimedOut, r.code)
	assert.Equal(t, "jobtop: job 2 is still queued after 100ms (it stays queued; jobtop stop 2 ends it)\n", r.stderr)
	r = c.run("wait", "waits", "--ready", "--timeout", "0.1")
	assert.Equal(t, exitTimedOut, r.code)
	assert.Equal(t, "jobtop: job 2 is not ready after 100ms (it is queued; it stays queued)\n", r.stderr)
}

// Restarting a job whose dependency can no longer be met answers at once
// with why it could not start (it waited for a run that never came).
func TestRestartOfAJobWhoseDependencyFailedAnswers(t *testing.T) {
	c := newCLI(t)
	file := writeJobFile(t, t.TempDir(), "jobtop.yaml",
		"jobs:\n  a: {cmd: exit 1}\n  b: {cmd: echo b, depends_on: {a: succeeded}}\n")
	c.serveIn("", "-f", file)
	r := c.run("wait", "b")
	require.Equal(t, exitNoRun, r.code, r.stderr)
	for _, args := range [][]string{{"restart", "b"}, {"restart", "--state", "error"}} {
		r = c.run(args...)
		assert.Equal(t, 1, r.code, "%v: %s", args, r.stderr)
		assert.Contains(t, r.stdout, "job 2 (b): error: dependency a failed (exit 1)\n", "%v", args)
	}
}

// A kill or stop of one job answers for it when it was removed before
// the answer (its end ended ten jobs run after it, which pushed it, the
// oldest finished, past --keep-finished): as it was last, with a note,
// exit 0. It said "no job with ID 1", exit 1, for a kill that worked.
func TestKillOfOneJobRemovedOnceEnded(t *testing.T) {
	c := newCLI(t)
	c.serveIn("", "--keep-finished", "5")
	for verb, signal := range map[string]string{"kill": "SIGKILL", "stop": "SIGTERM"} {
		a := c.startJob("exec sleep 300", "--name", "A"+verb)
		for range 10 {
			c.startJob("true", "--after", a)
		}
		r := c.run(verb, a)
		require.Equal(t, 0, r.code, "%s: %s", verb, r.stderr)
		assert.Equal(t, "job "+a+" (A"+verb+"): killed ("+signal+")\n", r.stdout, verb)
		assert.Equal(t, "jobtop: job "+a+" ended and was removed since (shown as it was last): "+
			"the instance keeps at most so many finished jobs (its --keep-finished), or another client removed it\n", r.stderr, verb)
		assert.Equal(t, 1, c.run("status", a).code, "%s: removed", verb)
	}

	// The same through the bulk path, which says it in the singular.
	a := c.startJob("exec sleep 300", "--name", "Abulk")
	for range 10 {
		c.startJob("true", "--after", a)
	}
	r := c.run("kill", "--name", "Abulk")
	require.Equal(t, 0, r.code, r.stderr)
	assert.Equal(t, "job "+a+" (Abulk): killed (SIGKILL)\n", r.stdout)
	assert.Equal(t, "jobtop: 1 job of these ended and was removed since (shown as it was last): "+
		"the instance keeps at most so many finished jobs (its --keep-finished), or another client removed it\n", r.stderr)
}
