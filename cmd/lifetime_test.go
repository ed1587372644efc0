package cmd

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"jobtop/control"
	"jobtop/jobs"
	"jobtop/jobs/proc"
)

// jobTree is a job leaving processes every way a job can: in its group,
// in a session of their own, and orphaned by a subshell.
const jobTree = "sleep 600 & setsid sleep 600 & (sleep 600 &); wait"

// markedProcs lists live processes with TEST_MARK=mark in their
// environment: found without asking jobtop.
func markedProcs(mark string) []int {
	procs, _ := proc.List()
	var out []int
	for _, p := range procs {
		if v, ok := proc.Env(p.PID, "TEST_MARK"); ok && v == mark && !p.Zombie {
			out = append(out, p.PID)
		}
	}
	return out
}

// startTrees starts two jobs with a tree each in the instance, marked,
// and waits until all eight processes run.
func (c *cli) startTrees(t *testing.T) string {
	t.Helper()
	mark := fmt.Sprintf("%s-%d", t.Name(), time.Now().UnixNano())
	t.Cleanup(func() { // a test that failed leaves none of them running
		for _, pid := range markedProcs(mark) {
			syscall.Kill(pid, syscall.SIGKILL) //nolint:errcheck // may be gone
		}
	})
	for range 2 {
		c.startJob(jobTree, "--env", "TEST_MARK="+mark)
	}
	require.Eventually(t, func() bool { return treesComplete(mark) }, testTimeout, 10*time.Millisecond)
	return mark
}

// treesComplete reports whether the two trees are whole and settled:
// their 6 sleeps and 2 shells, and no subshell still on its way to fork
// the orphan (a test that went on then could see a process appear after
// it looked).
func treesComplete(mark string) bool {
	pids := markedProcs(mark)
	sleeps := 0
	for _, pid := range pids {
		if comm, _ := os.ReadFile(fmt.Sprintf("/proc/%d/comm", pid)); strings.TrimSpace(string(comm)) == "sleep" {
			sleeps++
		}
	}
	return len(pids) == 8 && sleeps == 6
}

func requireNoneLeft(t *testing.T, mark string, within time.Duration) {
	t.Helper()
	require.Eventually(t, func() bool { return len(markedProcs(mark)) == 0 }, within, 10*time.Millisecond,
		"processes of the jobs are still running: %v", markedProcs(mark))
}

// keeperOf finds the keeper process of an instance: its child named
// jobtop-keeper.
func keeperOf(t *testing.T, pid int) int {
	t.Helper()
	procs, err := proc.List()
	require.NoError(t, err)
	for _, p := range procs {
		if p.PPID == pid {
			if b, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", p.PID)); err == nil && strings.HasPrefix(string(b), "jobtop-keeper") {
				return p.PID
			}
		}
	}
	t.Fatalf("instance %d has no keeper", pid)
	return 0
}

func TestServeStopsEveryJobOnSignals(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP} {
		t.Run(sig.String(), func(t *testing.T) {
			c := newCLI(t)
			serve := c.serve()
			mark := c.startTrees(t)
			require.NoError(t, serve.Process.Signal(sig))
			done := make(chan error, 1)
			go func() { done <- serve.Wait() }()
			select {
			case err := <-done:
				require.NoError(t, err, "serve exits cleanly")
			case <-time.After(testTimeout):
				t.Fatal("serve did not exit")
			}
			requireNoneLeft(t, mark, testTimeout)
		})
	}
}

// TestServeKilledLeavesNothing: SIGKILL gives serve no chance to clean
// up; its keeper sees its lifeline end and stops every job within their
// grace (the sleeps end on SIGTERM at once).
func TestServeKilledLeavesNothing(t *testing.T) {
	c := newCLI(t)
	serve := c.serve()
	mark := c.startTrees(t)
	require.NoError(t, serve.Process.Signal(syscall.SIGKILL))
	serve.Wait() //nolint:errcheck // killed on purpose
	requireNoneLeft(t, mark, 5*time.Second)
}

// TestNextInstanceStopsWhatADeadOneLeft: serve and its keeper are both
// killed, so nothing cleans up; the next instance on the socket stops what
// they left and says so.
func TestNextInstanceStopsWhatADeadOneLeft(t *testing.T) {
	for _, tc := range []struct {
		name       string
		keeperDies bool
	}{
		{"the keeper killed too", true},
		// A job can stop its keeper; the next instance does not wait for
		// a stopped keeper to clean up.
		{"the keeper left stopped", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := newCLI(t)
			first := c.serve()
			mark := c.startTrees(t)
			keeper := keeperOf(t, first.Process.Pid)
			stopWhole(t, keeper) // so it cannot clean up first
			require.NoError(t, first.Process.Signal(syscall.SIGKILL))
			first.Wait() //nolint:errcheck // killed on purpose
			if tc.keeperDies {
				require.NoError(t, syscall.Kill(keeper, syscall.SIGKILL))
			} else {
				t.Cleanup(func() { syscall.Kill(keeper, syscall.SIGKILL) }) //nolint:errcheck // should be gone
			}
			// A look at the process table can miss a process that is
			// being read as it looks: nothing stopped them if all 8 are
			// there again.
			require.Eventually(t, func() bool { return treesComplete(mark) }, testTimeout, 10*time.Millisecond,
				"nothing stopped them: %v", markedProcs(mark))

			// (Its jobs are counted as it last recorded them, shortly
			// after each start: maybe not yet, or only the first: "its
			// job", one recorded; "its jobs", none yet.)
			assert.Regexp(t, "^"+regexp.QuoteMeta(fmt.Sprintf("jobtop: the last instance on %s (pid %d) ended without shutting down (killed, or crashed?); its keeper died too, so this one stopped the 8 processes its ", c.socket, first.Process.Pid))+"(2 jobs|jobs|job) left running\n$", c.serveNext(t))
			requireNoneLeft(t, mark, testTimeout)
			p, err := proc.Get(keeper)
			assert.True(t, err != nil || p.Zombie, "the stopped keeper was killed")
		})
	}
}

// serveNext starts another serve on c's socket (stopped when the test
// ends) and returns the first line it writes to stderr.
func (c *cli) serveNext(t *testing.T) string {
	t.Helper()
	stderr := c.startServe(exec.Command(binary, "serve", "--no-file"))
	line, err := bufio.NewReader(stderr).ReadString('\n')
	require.NoError(t, err)
	go io.Copy(io.Discard, stderr) //nolint:errcheck // the rest is of no interest
	return line
}

// stopWhole stops process pid with SIGSTOP and waits until every thread
// of it has stopped. Until then a thread that was not the one woken for
// the signal still runs (the keeper's, reading its lifeline's end, stops
// every job as it should).
func stopWhole(t *testing.T, pid int) {
	t.Helper()
	require.NoError(t, syscall.Kill(pid, syscall.SIGSTOP))
	require.Eventually(t, func() bool {
		tasks, err := os.ReadDir(fmt.Sprintf("/proc/%d/task", pid))
		if err != nil || len(tasks) == 0 {
			return false
		}
		for _, task := range tasks {
			b, err := os.ReadFile(fmt.Sprintf("/proc/%d/task/%s/stat", pid, task.Name()))
			s := string(b)
			i := strings.LastIndexByte(s, ')')
			if err != nil || i < 0 || len(s) <= i+2 || s[i+2] != 'T' {
				return false
			}
		}
		return true
	}, testTimeout, 10*time.Millisecond, "process %d did not stop", pid)
}

// TestAsPIDOneReapsOrphans: in a PID namespace of its own (a container),
// jobtop is PID 1 and every orphan reaches it. Here the keeper is killed,
// so the jobs' processes, which it was reaping, fall to PID 1 as they die:
// none may stay a zombie.
func TestAsPIDOneReapsOrphans(t *testing.T) {
	if err := exec.Command("unshare", "-Urpf", "--mount-proc", "true").Run(); err != nil {
		t.Skipf("no PID namespaces here (unshare -Urpf: %v)", err)
	}
	c := newCLI(t)
	ns := exec.Command("unshare", "-Urpf", "--mount-proc", binary, "serve", "--no-file")
	ns.Env = c.env
	require.NoError(t, ns.Start())
	t.Cleanup(func() {
		ns.Process.Signal(syscall.SIGKILL) //nolint:errcheck // may have exited
		ns.Wait()                          //nolint:errcheck // stopped on purpose
	})
	c.waitAnswering()
	init := childOf(t, ns.Process.Pid)
	serve := childOf(t, init)
	mark := c.startTrees(t)
	require.NoError(t, syscall.Kill(keeperOf(t, serve), syscall.SIGKILL))
	requireNoneLeft(t, mark, testTimeout)
	require.Eventually(t, func() bool {
		procs, _ := proc.List()
		for _, p := range procs {
			if p.PPID == init && p.Zombie {
				return false
			}
		}
		return true
	}, testTimeout, 10*time.Millisecond, "PID 1 reaps what reaches it")

	// It passes SIGTERM on, and ends as serve does.
	require.NoError(t, syscall.Kill(init, syscall.SIGTERM))
	require.NoError(t, ns.Wait())
}

// childOf finds the one child of pid.
func childOf(t *testing.T, pid int) int {
	t.Helper()
	var child int
	require.Eventually(t, func() bool {
		procs, _ := proc.List()
		for _, p := range procs {
			if p.PPID == pid {
				child = p.PID
				return true
			}
		}
		return false
	}, testTimeout, 10*time.Millisecond)
	return child
}

// TestWaitUntilSeesOnlyTheCurrentRun: after a restart, wait --until must
// not match a line the previous run wrote, however many lines came after
// it (the first answer of a read holds at most 1,000).
func TestWaitUntilSeesOnlyTheCurrentRun(t *testing.T) {
	c := newCLI(t)
	c.serve()
	flag := filepath.Join(c.dir, "second-run")
	id := c.startJob(`if [ -e ` + flag + ` ]; then echo run2 starting; exec sleep 600; fi; echo READY run1; seq 1 1010; exec sleep 600`)
	c.ok("wait", id, "--until", "^1010$", "--timeout", "20s")
	require.NoError(t, os.WriteFile(flag, nil, 0o600))
	c.ok("restart", id)
	c.ok("wait", id, "--until", "run2 starting", "--timeout", "20s")
	r := c.run("wait", id, "--until", "READY", "--timeout", "1s")
	assert.Equal(t, 124, r.code, "no line of this run matches; stdout %q", r.stdout)
	// A timeout that runs out before the first answer (a loaded machine)
	// is still the timeout's exit.
	r = c.run("wait", id, "--until", "READY", "--timeout", "1ns")
	assert.Equal(t, 124, r.code, "stderr %q", r.stderr)
}

// TestNextRunSaysTheLastInstanceDied: the serve a `run` started in the
// background is killed (kill -9); its keeper stops its jobs, and the
// next `run`, which starts a new instance, says once on stderr that the
// last one ended without shutting down and that its jobs were stopped:
// the user would otherwise never learn it.
func TestNextRunSaysTheLastInstanceDied(t *testing.T) {
	c := newCLI(t)
	mark := fmt.Sprintf("%s-%d", t.Name(), time.Now().UnixNano())
	t.Cleanup(func() {
		for _, pid := range markedProcs(mark) {
			syscall.Kill(pid, syscall.SIGKILL) //nolint:errcheck // may be gone
		}
	})
	for range 3 {
		c.startJob("exec sleep 300", "--env", "TEST_MARK="+mark)
	}
	first := c.waitAnswering()
	// Its record of what runs (what the next instance reads) is written
	// shortly after each start.
	require.Eventually(t, func() bool {
		var rec struct{ Mains []json.RawMessage }
		b, err := os.ReadFile(c.socket + ".keeper")
		return err == nil && json.Unmarshal(b, &rec) == nil && len(rec.Mains) == 3
	}, testTimeout, 10*time.Millisecond, "the instance never recorded its 3 jobs")
	require.NoError(t, syscall.Kill(first.PID, syscall.SIGKILL))
	require.Eventually(t, func() bool { return !processAlive(first.PID) }, testTimeout, 10*time.Millisecond)
	requireNoneLeft(t, mark, testTimeout)

	r := c.run("run", "--", "exec sleep 300")
	require.Equal(t, 0, r.code, r.stderr)
	next := c.waitAnswering()
	t.Cleanup(func() {
		syscall.Kill(next.PID, syscall.SIGTERM) //nolint:errcheck // may be gone
		require.Eventually(t, func() bool { return !processAlive(next.PID) }, testTimeout, 20*time.Millisecond)
	})
	assert.Contains(t, r.stderr, fmt.Sprintf("started one in the background (jobtop serve, pid %d,", next.PID))
	assert.Contains(t, r.stderr, fmt.Sprintf("jobtop: the last instance on %s (pid %d) ended without shutting down (killed, or crashed?); its keeper stopped its 3 jobs\n", c.socket, first.PID))
	// Said once: the instance that answers now is not news.
	r = c.run("run", "--", "true")
	require.Equal(t, 0, r.code, r.stderr)
	assert.Empty(t, r.stderr)
}

// The queue of an instance killed (kill -9) is lost with it: the next
// instance's notice says so, apart from the job its keeper stopped (it
// said "its keeper stopped its job", and nothing of the two queued jobs
// that never ran).
func TestNextRunSaysTheQueueOfTheLastInstanceIsLost(t *testing.T) {
	c := newCLI(t)
	serve := c.serveIn("", "--max-running", "1")
	running := c.startJob("exec sleep 300", "--name", "running")
	c.startJob("exec sleep 300", "--name", "second")
	c.startJob("exec sleep 300", "--name", "third")
	c.waitState(running, jobs.StateRunning)
	// Its record (what the next instance reads) is written shortly after
	// each change.
	require.Eventually(t, func() bool {
		var rec struct {
			Mains  []json.RawMessage
			Queued int
		}
		b, err := os.ReadFile(c.socket + ".keeper")
		return err == nil && json.Unmarshal(b, &rec) == nil && len(rec.Mains) == 1 && rec.Queued == 2
	}, testTimeout, 10*time.Millisecond, "the instance never recorded its running job and its 2 queued ones")
	require.NoError(t, serve.Process.Signal(syscall.SIGKILL))
	serve.Wait() //nolint:errcheck // killed on purpose

	r := c.run("run", "--", "true")
	require.Equal(t, 0, r.code, r.stderr)
	assert.Contains(t, r.stderr, fmt.Sprintf("jobtop: the last instance on %s (pid %d) ended without shutting down (killed, or crashed?); its keeper stopped its job, and its 2 queued jobs never started\n", c.socket, serve.Process.Pid))
}

// The TUI's status bar tells of a dead last instance in 80 columns, what
// became of its jobs included: the socket's path, long in a project's
// directory, cut that off (rev53).
func TestPreviousEndNoticeFitsTheStatusBar(t *testing.T) {
	for _, e := range []control.PreviousEnd{{PID: 4194304, Jobs: 3}, {PID: 4194304, Jobs: 1}, {PID: 4194304}} {
		note := previousEndNotice(&e)
		assert.LessOrEqual(t, len(note), 80, note)
		assert.Contains(t, note, "4194304")
	}
	assert.Equal(t, "the last instance (pid 77) died; its keeper stopped its 3 jobs",
		previousEndNotice(&control.PreviousEnd{PID: 77, Jobs: 3}))
	// Queued jobs that never ran are told too, in few words, which the
	// status bar shows whole beside the job counts at 80 columns (rev59:
	// "its keeper stopped its job, 1 qu…").
	for _, tc := range []struct {
		end  control.PreviousEnd
		want string
	}{
		{control.PreviousEnd{PID: 77, Jobs: 1, Queued: 2}, "last instance died: 1 job stopped, 2 queued never ran"},
		{control.PreviousEnd{PID: 4194304, Jobs: 3, Queued: 200}, "last instance died: 3 jobs stopped, 200 queued never ran"},
		{control.PreviousEnd{PID: 4194304, Jobs: 3, Stopped: 12, Queued: 2}, "last instance died: 12 processes stopped, 2 queued never ran"},
		{control.PreviousEnd{Queued: 1000}, "last instance died: none was running, 1000 queued never ran"},
	} {
		note := previousEndNotice(&tc.end)
		assert.Equal(t, tc.want, note)
		assert.LessOrEqual(t, len(note), 60, note)
	}
}
