package cmd

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"jobtop/control"
	"jobtop/jobs"
)

// startWait starts `jobtop ARGS...` in the background; its result comes
// from the returned function, once it has exited. Its Stdout is a
// *lockedBuffer, to be read while it runs.
func (c *cli) startWait(args ...string) (*exec.Cmd, func() result) {
	c.t.Helper()
	cmd := exec.Command(binary, args...)
	cmd.Env = c.env
	var stdout, stderr lockedBuffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	require.NoError(c.t, cmd.Start())
	exited := make(chan struct{})
	var err error
	go func() { err = cmd.Wait(); close(exited) }()
	c.t.Cleanup(func() {
		cmd.Process.Kill() //nolint:errcheck // may have exited
		<-exited
	})
	return cmd, func() result {
		c.t.Helper()
		select {
		case <-exited:
		case <-time.After(testTimeout):
			c.t.Fatalf("jobtop %v did not end", args)
		}
		code := 0
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			code = exit.ExitCode()
		} else {
			require.NoError(c.t, err)
		}
		return result{stdout: stdout.String(), stderr: stderr.String(), code: code}
	}
}

// sockets counts the sockets process pid holds connected. A socket
// that is only open is not enough: a client opens its socket, then
// connects, and an instance killed in between is one it never reached
// ("no jobtop is listening").
func sockets(pid int) int {
	connected := connectedSockets()
	n := 0
	fds, _ := os.ReadDir(filepath.Join("/proc", strconv.Itoa(pid), "fd"))
	for _, fd := range fds {
		if link, err := os.Readlink(filepath.Join("/proc", strconv.Itoa(pid), "fd", fd.Name())); err == nil && connected[link] {
			n++
		}
	}
	return n
}

// connectedSockets are the unix sockets that are connected, as a
// process's fd links name them ("socket:[INODE]"): the St column of
// /proc/net/unix is 03 (SS_CONNECTED) for a client once it connected.
func connectedSockets() map[string]bool {
	b, _ := os.ReadFile("/proc/net/unix")
	out := make(map[string]bool)
	for _, line := range strings.Split(string(b), "\n")[1:] {
		if f := strings.Fields(line); len(f) >= 7 && f[5] == "03" {
			out["socket:["+f[6]+"]"] = true
		}
	}
	return out
}

// lines are the lines of out, without the last newline.
func lines(out string) []string {
	return strings.Split(strings.TrimSuffix(out, "\n"), "\n")
}

// TestWaitManySucceed waits for several jobs by ID and by name: exit 0,
// one line each as it ends.
func TestWaitManySucceed(t *testing.T) {
	c := newCLI(t)
	c.serve()
	fifo := mkfifo(t)
	a := c.startJob("read x < "+fifo, "--name", "a")
	b := c.startJob("true", "--name", "b")
	wait, result := c.startWait("wait", a, "b", "--timeout", "60s")
	require.Eventually(t, func() bool { return hasSocket(wait.Process.Pid) }, testTimeout, 10*time.Millisecond)
	writeFifo(t, fifo, "go\n")
	r := result()
	require.Equal(t, 0, r.code, r.stderr)
	assert.ElementsMatch(t, []string{"job " + a + " (a) succeeded", "job " + b + " (b) succeeded"}, lines(r.stdout))
	assert.Empty(t, r.stderr)
}

// TestWaitManyFailedFirstByID exits with the code of the job with the
// lowest ID that did not succeed, not of the one that failed first.
func TestWaitManyFailedFirstByID(t *testing.T) {
	c := newCLI(t)
	c.serve()
	fifo := mkfifo(t)
	ok := c.startJob("true", "--name", "ok")
	later := c.startJob("read x < "+fifo+"; exit 3", "--name", "later")
	first := c.startJob("exit 4", "--name", "first")
	require.Eventually(t, func() bool { return c.status(first).State.Done() }, testTimeout, 10*time.Millisecond)
	wait, result := c.startWait("wait", ok, later, first)
	require.Eventually(t, func() bool { return hasSocket(wait.Process.Pid) }, testTimeout, 10*time.Millisecond)
	writeFifo(t, fifo, "go\n")
	r := result()
	assert.Equal(t, 3, r.code, r.stderr)
	out := lines(r.stdout)
	require.Len(t, out, 3, r.stdout)
	assert.Contains(t, out, "job "+later+" (later) failed (exit 3)")
	assert.Contains(t, out, "job "+first+" (first) failed (exit 4)")
	assert.Contains(t, out, "job "+ok+" (ok) succeeded")
	assert.Contains(t, r.stderr, "2 of 3 jobs did not succeed; the exit is that of the first by ID, job "+later+" (later), which failed (exit 3)")
}

// TestWaitManyAll waits for every job; a timed-out and a killed one say
// so and exit as the one-job wait does.
func TestWaitManyAll(t *testing.T) {
	c := newCLI(t)
	c.serve()
	c.startJob("true", "--name", "one")
	c.startJob("true", "--name", "two")
	r := c.run("wait", "--all")
	require.Equal(t, 0, r.code, r.stderr)
	assert.ElementsMatch(t, []string{"job 1 (one) succeeded", "job 2 (two) succeeded"}, lines(r.stdout))

	c.startJob("exec sleep 600", "--name", "killed")
	c.ok("kill", "3")
	r = c.run("wait", "--all")
	assert.Equal(t, 128+int(syscall.SIGKILL), r.code, r.stderr)
	assert.Contains(t, lines(r.stdout), "job 3 (killed) was killed by SIGKILL")
}

// TestWaitManyEndedInIDOrder: the jobs that had ended when wait started
// are printed first, in ID order, whatever order their waits answered
// in; a job that ends afterwards comes after them.
func TestWaitManyEndedInIDOrder(t *testing.T) {
	c := newCLI(t)
	c.serve()
	fifo := mkfifo(t)
	var want []string
	for i := range 12 {
		id := c.startJob("exit "+strconv.Itoa(i%2), "--name", "j"+strconv.Itoa(i))
		outcome := "succeeded"
		if i%2 == 1 {
			outcome = "failed (exit 1)"
		}
		want = append(want, "job "+id+" (j"+strconv.Itoa(i)+") "+outcome)
	}
	last := c.startJob("read x < "+fifo, "--name", "last")
	for i := 1; i <= 12; i++ {
		c.run("wait", strconv.Itoa(i)) // ended before wait --all starts
	}
	wait, result := c.startWait("wait", "--all")
	require.Eventually(t, func() bool { return hasSocket(wait.Process.Pid) }, testTimeout, 10*time.Millisecond)
	writeFifo(t, fifo, "go\n")
	r := result()
	assert.Equal(t, 1, r.code, r.stderr)
	assert.Equal(t, append(want, "job "+last+" (last) succeeded"), lines(r.stdout))
}

// TestWaitManySelectors picks jobs by --name and --state, as the bulk
// commands do; a job not picked is not waited for.
func TestWaitManySelectors(t *testing.T) {
	c := newCLI(t)
	c.serve()
	other := c.startJob("exec sleep 600", "--name", "other")
	web1 := c.startJob("true", "--name", "web-1")
	web2 := c.startJob("exit 5", "--name", "web-2")
	r := c.run("wait", "--name", "web-*")
	assert.Equal(t, 5, r.code, r.stderr)
	assert.ElementsMatch(t, []string{"job " + web1 + " (web-1) succeeded", "job " + web2 + " (web-2) failed (exit 5)"}, lines(r.stdout))

	r = c.run("wait", "--state", "failed")
	assert.Equal(t, 5, r.code, r.stderr)
	assert.Equal(t, []string{"job " + web2 + " (web-2) failed (exit 5)"}, lines(r.stdout))

	r = c.run("wait", "--state", "succeeded", "--name", "web-*,other")
	assert.Equal(t, 0, r.code, r.stderr)
	assert.Equal(t, []string{"job " + web1 + " (web-1) succeeded"}, lines(r.stdout))
	assert.Equal(t, jobs.StateRunning, c.status(other).State)

	r = c.run("wait", "--state", "bogus")
	assert.Equal(t, usageExit, r.code, r.stderr)
}

// TestWaitManyTimeout gives up after --timeout with 124, naming the jobs
// still running; those that ended are printed.
func TestWaitManyTimeout(t *testing.T) {
	c := newCLI(t)
	c.serve()
	done := c.startJob("true", "--name", "done")
	long := c.startJob("exec sleep 600", "--name", "long")
	r := c.run("wait", done, long, "--timeout", "0.3")
	assert.Equal(t, exitTimedOut, r.code, r.stderr)
	assert.Equal(t, []string{"job " + done + " (done) succeeded"}, lines(r.stdout))
	assert.Contains(t, r.stderr, "1 of 2 jobs has not ended after 300ms: job "+long+" (long) is running (it goes on")
	assert.Equal(t, jobs.StateRunning, c.status(long).State, "the job keeps running")
}

// TestWaitManyNothing: a selector that picks no job says so and exits 0,
// as the bulk commands do; an unknown job named is an error.
func TestWaitManyNothing(t *testing.T) {
	c := newCLI(t)
	c.serve()
	c.startJob("exec sleep 600", "--name", "long")
	r := c.run("wait", "--name", "nomatch-*")
	assert.Equal(t, 0, r.code, r.stderr)
	assert.Empty(t, r.stdout)
	assert.Equal(t, "jobtop: no job matches --name nomatch-*\n", r.stderr)

	r = c.run("wait", "1", "nosuch")
	assert.Equal(t, 1, r.code, r.stderr)
	assert.Contains(t, r.stderr, `no job "nosuch"`)
	assert.Contains(t, r.stderr, "`jobtop ls` lists them")
}

// TestWaitManyRefusesUntilReady: --until and --ready watch one job.
func TestWaitManyRefusesUntilReady(t *testing.T) {
	c := newCLI(t)
	c.serve()
	a := c.startJob("true")
	b := c.startJob("true")
	r := c.run("wait", a, b, "--until", "x")
	assert.Equal(t, usageExit, r.code, r.stderr)
	assert.Contains(t, r.stderr, "--until watches one job's output: give one job ID or name, not "+a+" "+b)
	r = c.run("wait", "--all", "--ready")
	assert.Equal(t, usageExit, r.code, r.stderr)
	assert.Equal(t, "jobtop: --ready waits for one job: give one job ID or name, not --all\n", r.stderr, "not '(there are no jobs)': there are")
	r = c.run("wait", "--ready")
	assert.Equal(t, usageExit, r.code, r.stderr)
	assert.Equal(t, "jobtop: --ready waits for one job: give its ID or name\n", r.stderr)
	r = c.run("wait", a, "--all")
	assert.Equal(t, usageExit, r.code, r.stderr)
}

// TestWaitManyInstanceKilled: the instance killed while wait waits for
// several of its jobs: 255, and it says so.
func TestWaitManyInstanceKilled(t *testing.T) {
	c := newCLI(t)
	serve := c.serve()
	a := c.startJob("exec sleep 600")
	b := c.startJob("exec sleep 600")
	done := c.startJob("true")
	c.ok("wait", done)
	wait, result := c.startWait("wait", a, b, done)
	require.Eventually(t, func() bool { return hasSocket(wait.Process.Pid) }, testTimeout, 10*time.Millisecond)
	// Both waits are asked before the instance goes, and the third is
	// answered (its wait, asked at the same time, can be answered after
	// the others are asked).
	require.Eventually(t, func() bool { return sockets(wait.Process.Pid) >= 2 }, testTimeout, 10*time.Millisecond)
	require.Eventually(t, func() bool { return wait.Stdout.(*lockedBuffer).String() != "" }, testTimeout, 10*time.Millisecond)
	require.NoError(t, serve.Process.Signal(syscall.SIGKILL))
	r := result()
	assert.Equal(t, exitInstanceGone, r.code, r.stderr)
	// Two: the third had ended.
	assert.Contains(t, r.stderr, "jobtop: the jobtop instance on "+c.socket+" ended while waiting for 2 jobs, and its jobs ended with it")
	assert.Equal(t, "job "+done+" (true) succeeded\n", r.stdout)
}

// TestManyExit: the exit of several jobs' wait is the one-job wait's for
// the first by ID that did not succeed, a job removed while waited for
// counting as not succeeded (1); the timeout's 124 wins.
func TestManyExit(t *testing.T) {
	two := 2
	ok := waited{job: jobs.Info{ID: 1, Name: "ok", State: jobs.StateSucceeded}, ended: true}
	removed := waited{job: jobs.Info{ID: 2, Name: "gone", State: jobs.StateRunning}, removed: true}
	failed := waited{job: jobs.Info{ID: 3, Name: "bad", State: jobs.StateFailed, ExitCode: &two}, ended: true}
	running := waited{job: jobs.Info{ID: 4, Name: "slow", State: jobs.StateQueued}}

	assert.NoError(t, manyExit([]waited{ok, ok}, droppedFailures{}, 0))

	var exit *ExitError
	require.ErrorAs(t, manyExit([]waited{ok, removed, failed}, droppedFailures{}, 0), &exit)
	assert.Equal(t, 1, exit.Code)
	assert.EqualError(t, exit, "2 of 3 jobs did not succeed; the exit is that of the first by ID, job 2 (gone), which was removed while waited for")

	require.ErrorAs(t, manyExit([]waited{ok, failed}, droppedFailures{}, 0), &exit)
	assert.Equal(t, 2, exit.Code)

	// One stopped that exited 0 by itself is no failure: the exit is the
	// first real one's, not its 0.
	zero, five := 0, 5
	trapped := waited{job: jobs.Info{ID: 5, Name: "trap0", State: jobs.StateKilled, Signal: jobs.Signal(syscall.SIGTERM), ExitCode: &zero}, ended: true}
	trapped5 := waited{job: jobs.Info{ID: 6, Name: "trap5", State: jobs.StateKilled, Signal: jobs.Signal(syscall.SIGTERM), ExitCode: &five}, ended: true}
	assert.NoError(t, manyExit([]waited{ok, trapped}, droppedFailures{}, 0))
	require.ErrorAs(t, manyExit([]waited{trapped, trapped5}, droppedFailures{}, 0), &exit)
	assert.Equal(t, 5, exit.Code)
	assert.EqualError(t, exit, "1 of 2 jobs did not succeed; the exit is that of the first by ID, job 6 (trap5), which was stopped by SIGTERM, and exited 5")

	require.ErrorAs(t, manyExit([]waited{ok, failed, running}, droppedFailures{}, time.Second), &exit)
	assert.Equal(t, exitTimedOut, exit.Code)
	assert.EqualError(t, exit, "1 of 3 jobs has not ended after 1s: job 4 (slow) is queued (it goes on; jobtop stop ends it)")
	require.ErrorAs(t, manyExit([]waited{running}, droppedFailures{}, time.Second), &exit)
	assert.EqualError(t, exit, "1 of 1 job has not ended after 1s: job 4 (slow) is queued (it goes on; jobtop stop ends it)")

	// Of many, the first few are named (900 made a line of 25 KB).
	many := make([]waited, 12)
	for i := range many {
		many[i] = waited{job: jobs.Info{ID: jobs.ID(i + 1), Name: "s", State: jobs.StateRunning}}
	}
	require.ErrorAs(t, manyExit(many, droppedFailures{}, time.Second), &exit)
	assert.EqualError(t, exit, "12 of 12 jobs have not ended after 1s: job 1 (s) is running, job 2 (s) is running, job 3 (s) is running, "+
		"job 4 (s) is running, job 5 (s) is running, job 6 (s) is running, job 7 (s) is running, job 8 (s) is running, "+
		"job 9 (s) is running, job 10 (s) is running, and 2 more (they go on; jobtop stop ends them)")
}

// A job never started (autostart: false) is not waited for by --all, nor
// what waits for it (however far down a chain): `wait --all` on a job
// file with one would never succeed, or never return. Each is said on
// stderr. Named by its ID, or picked by --name or --state, it is waited
// for, and is an error, as before: a script asked for that very job.
func TestWaitManySkipsJobsNeverStarted(t *testing.T) {
	c := newCLI(t)
	file := "jobs:\n  build:\n    cmd: true\n  later:\n    cmd: echo later\n    autostart: false\n" +
		"  api:\n    cmd: echo api\n    depends_on: {later: completed}\n  web:\n    cmd: echo web\n    depends_on: {api: started}\n"
	c.serveJobFile(file)
	c.startJob("echo deployed", "--name", "deploy", "--after", "later") // the engine's other wording
	r := c.run("wait", "--all")
	require.Equal(t, 0, r.code, r.stderr)
	assert.Equal(t, []string{"job 1 (build) succeeded"}, lines(r.stdout))
	assert.Equal(t, []string{
		"jobtop: not waiting for job 2 (later): it was never started (jobtop restart 2 starts it)",
		"jobtop: not waiting for job 3 (api): it waits for job 2 (later), which will not start by itself",
		"jobtop: not waiting for job 4 (web): it waits for job 3 (api), which will not start by itself",
		"jobtop: not waiting for job 5 (deploy): it waits for job 2 (later), which will not start by itself",
	}, lines(r.stderr))

	for _, args := range [][]string{{"1", "2"}, {"--name", "later"}, {"--state", "created"}} {
		r = c.run(append([]string{"wait"}, args...)...)
		assert.Equal(t, exitNoRun, r.code, "%q: %s", args, r.stderr)
	}
}

// TestWaitSaysAReloadRemovedTheJob: a job a reload stopped to remove it
// is said to be removed by the reload, not killed, in the line `wait`
// prints for it and in the exit's reason; the exit is still the one-job
// wait's for how it ended (128+15 for SIGTERM).
func TestWaitSaysAReloadRemovedTheJob(t *testing.T) {
	zero := 0
	gone := waited{job: jobs.Info{ID: 2, Name: "gone", State: jobs.StateKilled, Signal: jobs.Signal(syscall.SIGTERM), Removing: "reload"}, ended: true}
	var out strings.Builder
	printWaited(&out, gone)
	assert.Equal(t, "job 2 (gone) was removed by a reload: it was killed by SIGTERM\n", out.String())

	var exit *ExitError
	require.ErrorAs(t, manyExit([]waited{gone}, droppedFailures{}, 0), &exit)
	assert.Equal(t, 143, exit.Code)
	assert.EqualError(t, exit, "1 of 1 job did not succeed; the exit is that of the first by ID, job 2 (gone), which was removed by a reload: it was killed by SIGTERM")
	require.ErrorAs(t, jobExit(gone.job), &exit)
	assert.Equal(t, 143, exit.Code)
	assert.EqualError(t, exit, "job 2 was removed by a reload: it was killed by SIGTERM")

	// One that exited 0 once stopped is no failure, as before.
	trapped := gone
	trapped.job.ExitCode = &zero
	assert.NoError(t, manyExit([]waited{trapped}, droppedFailures{}, 0))
	out.Reset()
	printWaited(&out, trapped)
	assert.Equal(t, "job 2 (gone) was removed by a reload: it was stopped by SIGTERM, and exited 0\n", out.String())
}

// TestWaitAllAcrossAReload: `wait --all` waiting while a reload removes
// one of its jobs says the reload removed it, and how it ended, and
// exits as that end does.
func TestWaitAllAcrossAReload(t *testing.T) {
	c := newCLI(t)
	dir := t.TempDir()
	stop, tick := mkfifo(t), filepath.Join(t.TempDir(), "tick")
	require.NoError(t, syscall.Mkfifo(tick, 0o600))
	// gone ends only once told after its stop; tick when told. gone
	// forks once, and says up once its sleep runs (where /proc tells):
	// a child forked with the trap and not yet exec'd takes the stop's
	// TERM and loses it, and the trap would never open the fifo.
	sleepRuns := `p=$!; while [ -e /proc/$p/comm ] && { read c < /proc/$p/comm; [ "$c" != sleep ]; }; do :; done; `
	gone := "  gone:\n    cmd: trap 'read x < " + stop + "; exit 3' TERM; sleep 600 & " + sleepRuns + "echo up; wait\n"
	writeJobFile(t, dir, "jobtop.yaml", "jobs:\n"+gone+"  tick:\n    cmd: read x < "+tick+"\n")
	c.serveIn(dir)
	c.eventually("both run", func(j map[string]jobs.Info) bool {
		return j["gone"].LastLine == "up" && j["tick"].State == jobs.StateRunning
	})
	wait, result := c.startWait("wait", "--all")
	require.Eventually(t, func() bool { return hasSocket(wait.Process.Pid) }, testTimeout, 10*time.Millisecond)
	// tick's line says both waits were asked (they are asked at once).
	writeFifo(t, tick, "go\n")
	require.Eventually(t, func() bool { return wait.Stdout.(*lockedBuffer).String() != "" }, testTimeout, 10*time.Millisecond)

	writeJobFile(t, dir, "jobtop.yaml", "jobs:\n  tick:\n    cmd: read x < "+tick+"\n")
	c.ok("reload")
	writeFifo(t, stop, "go\n")
	r := result()
	assert.Equal(t, 3, r.code, r.stderr)
	assert.Equal(t, []string{"job 2 (tick) succeeded", "job 1 (gone) was removed by a reload: it was stopped by SIGTERM, and exited 3"}, lines(r.stdout))
	assert.Contains(t, r.stderr, "which was removed by a reload: it was stopped by SIGTERM, and exited 3")
}

// TestWaitAllOutlivesRetention: wait --all asks after a few dozen jobs at
// once; those it asks after later may have ended and been dropped by
// --keep-finished meanwhile. Their outcome is still known (rev34: with
// 1,000 jobs and the default 500 kept, hundreds that succeeded were
// reported "removed while waited for", and the exit was 1). The jobs
// are started as jobtop run starts them (a job file's are kept).
func TestWaitAllOutlivesRetention(t *testing.T) {
	c := newCLI(t)
	c.serveIn("", "--keep-finished", "5")
	client := control.NewClient(c.socket)
	defer client.Close()
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	const n = 150
	for i := 1; i <= n; i++ {
		cmd := "sleep 3"
		if i == n {
			cmd = "sleep 4; exit 7"
		}
		_, err := client.StartJob(ctx, control.StartRequest{Name: fmt.Sprintf("j%03d", i), Command: cmd})
		require.NoError(t, err)
	}
	r := c.run("wait", "--all")
	assert.Equal(t, 7, r.code, r.stderr)
	assert.NotContains(t, r.stdout, "removed while waited for")
	assert.Contains(t, r.stdout, fmt.Sprintf("job %d (j%03d) failed (exit 7)\n", n, n))
	assert.Contains(t, r.stderr, fmt.Sprintf("the exit is that of the first by ID, job %d (j%03d), which failed (exit 7)", n, n))
	assert.Less(t, len(c.jobsByName()), 10, "the jobs were dropped")
}

// TestWaitAllCountsJobsTheCapDropped: "did every job pass" counts every
// job the instance ran. Failed jobs the cap on finished jobs removed
// before wait --all began made it exit 0 (7 false, then 5 true, with
// --keep-finished 5); a job removed by hand (rm) is not counted:
// someone chose to.
func TestWaitAllCountsJobsTheCapDropped(t *testing.T) {
	c := newCLI(t)
	c.serveIn("", "--keep-finished", "5")
	byHand := c.startJob("exit 9", "--name", "byhand")
	c.run("wait", byHand)
	c.ok("rm", byHand)
	for i := range 7 {
		id := c.startJob(fmt.Sprintf("exit %d", 3+i), "--name", fmt.Sprintf("bad%d", i))
		assert.Equal(t, 3+i, c.run("wait", id).code)
	}
	for range 5 {
		c.ok("wait", c.startJob("true", "--name", "good"))
	}
	require.Len(t, c.jobsByName(), 1, "only the 5 jobs named good are kept")

	r := c.run("wait", "--all")
	assert.Equal(t, 3, r.code, "the exit of the first by ID that failed, job 2 (bad0): %s", r.stderr)
	assert.Contains(t, r.stderr, "counting 7 jobs removed by the cap on finished jobs (--keep-finished) that did not succeed: "+
		"job 2 (bad0) failed (exit 3), job 3 (bad1) failed (exit 4), job 4 (bad2) failed (exit 5), and 4 more\n")
	assert.Contains(t, r.stderr, "0 of 5 jobs waited for did not succeed, and 7 jobs the cap on finished jobs removed before; "+
		"the exit is that of the first by ID, job 2 (bad0), removed by the cap on finished jobs, which failed (exit 3)")
	assert.NotContains(t, r.stderr, "byhand")
	assert.Equal(t, strings.Repeat("succeeded\n", 5), regexp.MustCompile(`job \d+ \(good\) `).ReplaceAllString(r.stdout, ""))

	// A pick by state or name counts the dropped jobs it picks.
	r = c.run("wait", "--state", "failed")
	assert.Equal(t, 3, r.code, r.stderr)
	assert.Contains(t, r.stderr, "counting 7 jobs")
	r = c.run("wait", "--name", "bad[56]")
	assert.Equal(t, 8, r.code, r.stderr)
	assert.Contains(t, r.stderr, "counting 2 jobs removed by the cap on finished jobs (--keep-finished) that did not succeed: job 7 (bad5) failed (exit 8), job 8 (bad6) failed (exit 9)\n")
	r = c.run("wait", "--name", "good")
	assert.Equal(t, 0, r.code, r.stderr)
	assert.Empty(t, r.stderr)
}

// The cap's failed jobs are counted until they are dealt with: a later
// job of the same name stands for one (run again, it passed), and
// `jobtop clean` forgets them all (rev54: a failure counted for ever,
// in every later wait of a long-lived instance).
func TestWaitCountsTheCapsFailuresUntilDealtWith(t *testing.T) {
	c := newCLI(t)
	c.serveIn("", "--keep-finished", "2")
	assert.Equal(t, 2, c.run("wait", c.startJob("exit 2", "--name", "build")).code)
	c.ok("wait", c.startJob("true", "--name", "f1"))
	c.ok("wait", c.startJob("true", "--name", "f2"))
	c.ok("wait", c.startJob("true", "--name", "build"))
	r := c.run("wait", "--name", "build")
	assert.Equal(t, 0, r.code, "the build run again stands for the one that failed: %s", r.stderr)

	assert.Equal(t, 5, c.run("wait", c.startJob("exit 5", "--name", "lint")).code)
	c.ok("wait", c.startJob("true", "--name", "f3"))
	c.ok("wait", c.startJob("true", "--name", "f4"))
	r = c.run("wait", "--all")
	require.Equal(t, 5, r.code, "lint, dropped, still counts: %s", r.stderr)
	c.ok("clean")
	r = c.run("wait", "--state", "failed")
	assert.Equal(t, 0, r.code, "cleaned: %s", r.stderr)
	assert.NotContains(t, r.stderr, "counting")
	assert.Equal(t, 5, c.run("wait", "5").code, "named, it is still waited for as it ended")
}

// TestWaitInsideAJobLeavesItOut: a job that waits for every job of its
// own instance (a summary job) waited for itself, and never ended. Now
// it leaves itself out, and the jobs queued behind it, saying so; named,
// it refuses (exit 2). The jobs it waits for are still counted.
func TestWaitInsideAJobLeavesItOut(t *testing.T) {
	c := newCLI(t)
	c.serve()
	bad := c.startJob("exit 3", "--name", "bad")
	c.run("wait", bad)
	// It waits until the job queued behind it is there.
	summary := c.startJob("until "+binary+" status after >/dev/null 2>&1; do sleep 0.05; done; "+binary+" wait --all; echo rc=$?", "--name", "summary")
	after := c.startJob("true", "--name", "after", "--after", summary)
	r := c.run("wait", summary, "--timeout", "20s")
	require.Equal(t, 0, r.code, "the summary job ended: %s", r.stderr)
	out := c.ok("logs", summary)
	assert.Contains(t, out, "rc=3\n", "it counted job 1")
	assert.Contains(t, out, fmt.Sprintf("not waiting for job %s (summary): it is the job this wait runs in", summary))
	assert.Contains(t, out, fmt.Sprintf("not waiting for job %s (after): it waits for job %s (summary), which cannot end while this wait runs in it", after, summary))

	for _, ref := range []string{"$JOBTOP_JOB_ID", "self", "1 $JOBTOP_JOB_ID"} {
		id := c.startJob(binary+" wait "+ref+"; echo rc=$?", "--name", "self")
		r := c.run("wait", id, "--timeout", "20s")
		require.Equal(t, 0, r.code, "wait %s inside job %s ended: %s", ref, id, r.stderr)
		out := c.ok("logs", id)
		assert.Contains(t, out, "rc=2\n", ref)
		assert.Contains(t, out, fmt.Sprintf("job %s (self) is the job this wait runs in (JOBTOP_JOB_ID=%s): it cannot end while it waits for itself", id, id), ref)
	}
}

// A JOBTOP_JOB_ID left over (a tmux server started in a job keeps it; a
// new instance numbers from 1 again) names a job that ended, or one that
// is not this process's: waited for as any other, its failure counted
// (rev54: `JOBTOP_JOB_ID=2 wait --all` exited 0 over job 2's exit 3).
func TestWaitWithAStaleJobIDCountsThatJob(t *testing.T) {
	c := newCLI(t)
	c.serve()
	fail := c.startJob("exit 3", "--name", "fail")
	c.run("wait", fail)
	sleeper := c.startJob("exec sleep 300", "--name", "sleeper")
	for _, stale := range []string{fail, sleeper} {
		stale := append(slices.Clone(c.env), "JOBTOP_JOB_ID="+stale)
		cmd := exec.Command(binary, "wait", "--state", "failed")
		cmd.Env = stale
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		err := cmd.Run()
		var exit *exec.ExitError
		require.ErrorAs(t, err, &exit, stderr.String())
		assert.Equal(t, 3, exit.ExitCode(), stderr.String())
		assert.NotContains(t, stderr.String(), "the job this wait runs in")
	}
	stale := append(slices.Clone(c.env), "JOBTOP_JOB_ID="+fail)
	cmd := exec.Command(binary, "wait", fail)
	cmd.Env = stale
	err := cmd.Run()
	var exit *exec.ExitError
	require.ErrorAs(t, err, &exit)
	assert.Equal(t, 3, exit.ExitCode(), "waited for as it ended, not refused as itself")
}

// A job a reload removed before it ever started is said so without the
// hint to restart it: it is gone (rev36).
func TestJobEndOfANeverStartedJobGone(t *testing.T) {
	code, why, ok := jobEnd(jobs.Info{ID: 41, State: jobs.StateCreated, Removing: "reload"})
	assert.False(t, ok)
	assert.Equal(t, exitNoRun, code)
	assert.Equal(t, "was removed by a reload: it was never started", why)
	_, why, _ = jobEnd(jobs.Info{ID: 41, State: jobs.StateCreated})
	assert.Equal(t, "was never started (jobtop restart 41 starts it)", why)
}

// Jobs named by ID that ended and were removed before wait asked (here
// by --keep-finished 1) are waited for as they ended, as `wait ID` alone
// waits for one (rev36: "no job with ID 1"); an ID no job ever had is
// still an error.
func TestWaitForSeveralRemovedJobs(t *testing.T) {
	c := newCLI(t)
	c.serveIn("", "--keep-finished", "1")
	ids := []string{c.startJob("exit 0", "--name", "a"), c.startJob("exit 2", "--name", "b"), c.startJob("exit 0", "--name", "c")}
	for _, id := range ids {
		c.run("wait", id)
	}
	require.Len(t, c.states(), 1, "two were removed")
	r := c.run("wait", ids[0], ids[1], ids[2])
	assert.Equal(t, 2, r.code, r.stderr)
	assert.Equal(t, "job "+ids[0]+" (a) succeeded\njob "+ids[1]+" (b) failed (exit 2)\njob "+ids[2]+" (c) succeeded\n", r.stdout)
	r = c.run("wait", ids[0], "99")
	assert.Equal(t, 1, r.code)
	assert.Contains(t, r.stderr, "no job with ID 99")
}
