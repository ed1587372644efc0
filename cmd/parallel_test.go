package cmd

import (
	"context"
	"encoding/json"
	"os"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"jobtop/control"
	"jobtop/jobs"
)

// instanceLimit is max_running in GET /v1/instance.
func (c *cli) instanceLimit() int {
	c.t.Helper()
	client := control.NewClient(c.socket)
	defer client.Close()
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	inst, err := client.Instance(ctx)
	require.NoError(c.t, err)
	return inst.MaxRunning
}

// waitState polls a job until it is in state.
func (c *cli) waitState(id string, state jobs.State) {
	c.t.Helper()
	require.Eventually(c.t, func() bool { return c.status(id).State == state },
		testTimeout, 20*time.Millisecond, "job %s never %s", id, state)
}

// A higher limit starts queued jobs at once, in the order they were
// queued; 0 lifts it.
func TestParallelRaisedStartsQueuedJobs(t *testing.T) {
	c := newCLI(t)
	c.serveIn("", "--max-running", "1")
	a := c.startJob("exec sleep 60", "--name", "a")
	b := c.startJob("exec sleep 60", "--name", "b")
	d := c.startJob("exec sleep 60", "--name", "d")
	assert.Equal(t, "1\n", c.ok("parallel"))
	assert.Equal(t, 1, c.instanceLimit())
	assert.Equal(t, jobs.StateQueued, c.status(b).State)

	assert.Equal(t, "2\n", c.ok("parallel", "2"))
	c.waitState(b, jobs.StateRunning)
	info := c.status(d)
	assert.Equal(t, jobs.StateQueued, info.State, "the next in the queue started, not this one")
	assert.Equal(t, "waiting for a free slot (2 running)", info.Reason)
	assert.Equal(t, "2\n", c.ok("parallel"))
	assert.Equal(t, 2, c.instanceLimit())

	assert.Equal(t, "no limit\n", c.ok("parallel", "0"))
	c.waitState(d, jobs.StateRunning)
	assert.Equal(t, "no limit\n", c.ok("parallel"))
	assert.JSONEq(t, `{"max_running": 0}`, c.ok("parallel", "--json"))
	assert.Equal(t, 0, c.instanceLimit())
	assert.Equal(t, jobs.StateRunning, c.status(a).State)
}

// A lower limit stops nothing: the jobs running go on, and a new one waits
// until fewer than the limit run.
func TestParallelLoweredLeavesRunningJobs(t *testing.T) {
	c := newCLI(t)
	c.serve()
	a := c.startJob("exec sleep 60", "--name", "a")
	b := c.startJob("exec sleep 60", "--name", "b")
	c.waitState(a, jobs.StateRunning)
	c.waitState(b, jobs.StateRunning)
	assert.Equal(t, "1\n", c.ok("parallel", "1"))
	assert.Equal(t, jobs.StateRunning, c.status(a).State)
	assert.Equal(t, jobs.StateRunning, c.status(b).State)

	d := c.startJob("echo d", "--name", "d")
	assert.Equal(t, "waiting for a free slot (2 running)", c.status(d).Reason)
	c.ok("kill", a)
	info := c.status(d)
	assert.Equal(t, jobs.StateQueued, info.State, "one still runs, and the limit is 1")
	assert.Equal(t, "waiting for a free slot (1 running)", info.Reason)
	c.ok("kill", b)
	c.ok("wait", d)
	assert.Equal(t, []string{"d"}, c.logLines(d))
}

// A negative limit or one that is no number is refused (exit 2), and the
// limit stays.
func TestParallelRefusesBadInput(t *testing.T) {
	c := newCLI(t)
	c.serveIn("", "--max-running", "010") // decimal: pflag read it as octal 8
	// -0 is a number a flag took: refused, not a silent no-op.
	for _, args := range [][]string{{"-1"}, {"abc"}, {"1.5"}, {""}, {"1", "2"}, {"-0"}, {"-00"}, {"99999999999999999999"}} {
		r := c.run(append([]string{"parallel"}, args...)...)
		assert.Equal(t, usageExit, r.code, "%q: %s", args, r.stderr)
		assert.Contains(t, r.stderr, "jobtop: parallel", "%q", args)
	}
	assert.Equal(t, "10\n", c.ok("parallel"))

	// The API says the same (400).
	client := control.NewClient(c.socket)
	defer client.Close()
	_, err := client.SetParallel(context.Background(), -1)
	assert.True(t, control.IsBadRequest(err), "%v", err)
	assert.Equal(t, "10\n", c.ok("parallel"))
}

// A reload that leaves max_parallel as it was keeps the limit set at run
// time; one that changes it sets the file's.
func TestParallelAReloadKeepsItUnlessMaxParallelChanged(t *testing.T) {
	c := newCLI(t)
	dir := t.TempDir()
	file := writeJobFile(t, dir, "jobtop.yaml", "max_parallel: 1\njobs:\n  a: {cmd: exec sleep 60}\n")
	c.serveIn(dir, "-f", file)
	assert.Equal(t, "1\n", c.ok("parallel"))
	c.ok("parallel", "4")

	c.ok("reload")
	assert.Equal(t, "4\n", c.ok("parallel"), "max_parallel did not change")

	writeJobFile(t, dir, "jobtop.yaml", "max_parallel: 2\njobs:\n  a: {cmd: exec sleep 60}\n")
	var resp control.ReloadResponse
	require.NoError(t, json.Unmarshal([]byte(c.ok("reload", "--json")), &resp))
	require.NotNil(t, resp.MaxRunning)
	assert.Equal(t, 2, *resp.MaxRunning)
	assert.Contains(t, resp.Summary, "max_parallel now 2")
	assert.Equal(t, "2\n", c.ok("parallel"))

	require.NoError(t, os.WriteFile(file, []byte("jobs:\n  a: {cmd: exec sleep 60}\n"), 0o600))
	assert.Contains(t, c.ok("reload"), "max_parallel now no limit")
	assert.Equal(t, "no limit\n", c.ok("parallel"))
}

// The limit set with `jobtop parallel` outlives the instance for the one
// `jobtop run` starts in the background next, which says so: a batch
// meant to run 2 at a time ran all at once after an idle exit, without
// a word.
func TestParallelCarriesOverToTheNextAutoStartedInstance(t *testing.T) {
	c := newCLI(t)
	srv := c.serveIn("", "--idle-exit", "1s")
	exited := make(chan error, 1)
	go func() { exited <- srv.Wait() }()
	assert.Equal(t, "2\n", c.ok("parallel", "2"))
	select {
	case err := <-exited:
		require.NoError(t, err, "it exits cleanly, once idle")
	case <-time.After(testTimeout):
		t.Fatal("serve did not exit once idle")
	}

	r := c.run("run", "--name", "a", "--", "exec sleep 60")
	require.Equal(t, 0, r.code, r.stderr)
	assert.Contains(t, r.stderr, "; parallel limit 2, from the last instance on the socket (jobtop parallel 0 lifts it)\n")
	assert.Equal(t, "2\n", c.ok("parallel"))
	c.startJob("exec sleep 60", "--name", "b")
	third := c.startJob("exec sleep 60", "--name", "c")
	info := c.status(third)
	assert.Equal(t, jobs.StateQueued, info.State, "2 at a time")
	assert.Equal(t, "waiting for a free slot (2 running)", info.Reason)

	// No limit is the last instance's too: the next says nothing of one.
	assert.Equal(t, "no limit\n", c.ok("parallel", "0"))
	c.ok("shutdown")
	r = c.run("run", "--", "true")
	require.Equal(t, 0, r.code, r.stderr)
	assert.NotContains(t, r.stderr, "parallel limit")
	assert.Equal(t, "no limit\n", c.ok("parallel"))
}
