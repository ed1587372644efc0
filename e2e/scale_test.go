package e2e

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
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

// TestScale drives a built `jobtop serve` with many sleeping jobs and
// checks what scale must not cost: OS threads (bounded, not per job),
// file descriptors (at most 4 per running job), memory per idle job, the
// time to start and to stop them all, and that nothing is left running.
// JOBTOP_SCALE=1 runs it with 1,000 jobs and checks the time bounds too
// (against a shell doing the same in the same run); otherwise 100 jobs and
// no time bounds (CI machines are too noisy for them). It runs for jobs
// on pipes and for jobs on terminals (a pty each: its master is read
// through the poller too, so threads must not grow either).
func TestScale(t *testing.T) {
	t.Run("pipes", func(t *testing.T) { scale(t, false) })
	t.Run("tty", func(t *testing.T) { scale(t, true) })
}

func scale(t *testing.T, tty bool) {
	n, full := 100, os.Getenv("JOBTOP_SCALE") != ""
	if full {
		n = 1000
	}
	bin := binary(t)
	dir := t.TempDir()
	require.NoError(t, os.Chmod(dir, 0o700)) // a socket's directory must be private
	sock := filepath.Join(dir, "s.sock")
	mark := fmt.Sprintf("scale-%d-%d", os.Getpid(), time.Now().UnixNano())
	serve := exec.Command(bin, "serve", "--no-file", "--socket", sock)
	serve.Env = append(os.Environ(), "XDG_STATE_HOME="+dir)
	require.NoError(t, serve.Start())
	t.Cleanup(func() {
		serve.Process.Kill() //nolint:errcheck // may have exited
		serve.Wait()         //nolint:errcheck // ended on purpose
	})
	client := control.NewClient(sock)
	defer client.Close()
	ctx := context.Background()
	require.Eventually(t, func() bool { _, err := client.Instance(ctx); return err == nil }, deadline, 20*time.Millisecond)
	pid := serve.Process.Pid
	fds0, rss0 := countFDs(pid), statusField(pid, "VmRSS")

	shell := shellStarts(t, n)
	began := time.Now()
	for i := range n {
		_, err := client.StartJob(ctx, control.StartRequest{Command: "exec sleep 300", Name: fmt.Sprintf("s%d", i),
			Env: map[string]string{"TEST_MARK": mark}, TTY: tty})
		require.NoError(t, err)
	}
	started := time.Since(began)
	require.Eventually(t, func() bool { return len(processesWithEnv("TEST_MARK", mark)) == n }, deadline, 50*time.Millisecond)

	threads := statusField(pid, "Threads")
	fdsPerJob := float64(countFDs(pid)-fds0) / float64(n)
	var rssPerJob float64
	for range 3 { // the heap settles after a GC or two
		time.Sleep(500 * time.Millisecond)
		rssPerJob = float64(statusField(pid, "VmRSS")-rss0) * 1024 / float64(n)
	}
	// The first of each, then the median of five more: one call on a
	// shared machine is as much its load as jobtop.
	lists := make([]time.Duration, 6)
	for i := range lists {
		lists[i] = timeIt(func() { _, err := client.Jobs(ctx); require.NoError(t, err) })
	}
	lss := make([]time.Duration, 6)
	for i := range lss {
		ls := exec.Command(bin, "ls", "--socket", sock)
		lss[i] = timeIt(func() { require.NoError(t, ls.Run()) })
	}
	listFirst, listTook := lists[0], median(lists[1:])
	lsFirst, lsTook := lss[0], median(lss[1:])

	require.NoError(t, serve.Process.Signal(syscall.SIGTERM))
	began = time.Now()
	require.NoError(t, serve.Wait())
	stopped := time.Since(began)
	left := processesWithEnv("TEST_MARK", mark)

	t.Logf("%d jobs: start %v (a shell: %v, %.2fx), GET /v1/jobs %v (first %v), jobtop ls %v (first %v), stop all and exit %v",
		n, started.Round(time.Millisecond), shell.Round(time.Millisecond), float64(started)/float64(shell),
		listTook.Round(time.Microsecond), listFirst.Round(time.Microsecond), lsTook.Round(time.Millisecond),
		lsFirst.Round(time.Millisecond), stopped.Round(time.Millisecond))
	t.Logf("serve: %d threads, %.2f fds and %.0f KB RSS per job", threads, fdsPerJob, rssPerJob/1024)
	// Beside the baseline: a shell whose jobs each get a log
	// file, as jobtop's do (creating a file is most of a start where the
	// disk is slow to).
	logged := shellStartsEach(t, n, "sleep 300 > $i.log 2>&1 &")
	t.Logf("a shell starting %d `sleep 300 > $i.log &`: %v (jobtop %.2fx that)", n, logged.Round(time.Millisecond),
		float64(started)/float64(logged))
	assert.Empty(t, left, "nothing is left running")
	assert.LessOrEqual(t, threads, 50, "OS threads do not grow with jobs")
	assert.LessOrEqual(t, fdsPerJob, 4.0)
	assert.LessOrEqual(t, rssPerJob, 100.0*1024, "memory per idle job")
	if full {
		assert.LessOrEqual(t, float64(started), 2*float64(shell), "starting through the API, against a shell")
		assert.LessOrEqual(t, stopped, 3*time.Second, "stopping everything and exiting")
		assert.LessOrEqual(t, listTook, 20*time.Millisecond, "GET /v1/jobs, median of five")
		assert.LessOrEqual(t, lsTook, 20*time.Millisecond, "jobtop ls (a process start included), median of five")
	}
}

// shellStarts times a shell starting n `sleep 300 &`, then kills them.
func shellStarts(t *testing.T, n int) time.Duration { return shellStartsEach(t, n, "sleep 300 &") }

// shellStartsEach times a shell running job (a command line ending in
// &, $i its number) n times in dir, then kills what it started.
func shellStartsEach(t *testing.T, n int, job string) time.Duration {
	sh := exec.Command("bash", "-c", fmt.Sprintf("echo $$; exec >/dev/null 2>&1; for i in $(seq %d); do %s done", n, job))
	sh.Dir = t.TempDir()
	sh.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	began := time.Now()
	out, err := sh.Output()
	took := time.Since(began)
	require.NoError(t, err)
	sid, _ := strconv.Atoi(strings.TrimSpace(string(out)))
	syscall.Kill(-sid, syscall.SIGKILL) //nolint:errcheck // the sleeps are in the shell's session and group
	// Gone before the test goes on: one killed in its redirection's open
	// may create its file after the kill, under the temporary
	// directory's removal.
	require.Eventually(t, func() bool { return !sessionAlive(sid) }, deadline, 10*time.Millisecond)
	return took
}

// sessionAlive reports whether a process that is not a zombie is in
// session sid.
func sessionAlive(sid int) bool {
	alive := false
	eachProcStat(func(_ int, _ string, f []string) bool {
		alive = len(f) > 3 && f[0] != "Z" && f[3] == strconv.Itoa(sid)
		return !alive
	})
	return alive
}

func timeIt(f func()) time.Duration {
	began := time.Now()
	f()
	return time.Since(began)
}

// statusField reads a number from /proc/PID/status ("Threads", "VmRSS" in kB).
func statusField(pid int, name string) int {
	b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, name+":"); ok {
			n, _ := strconv.Atoi(strings.Fields(v)[0])
			return n
		}
	}
	return 0
}

func countFDs(pid int) int {
	entries, _ := os.ReadDir(fmt.Sprintf("/proc/%d/fd", pid))
	return len(entries)
}

// processesWithEnv lists live processes with name=value in their
// environment.
func processesWithEnv(name, value string) []string {
	var found []string
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "environ"))
		if err != nil || isZombie(e.Name()) {
			continue
		}
		if slices.Contains(strings.Split(string(b), "\x00"), name+"="+value) {
			found = append(found, e.Name())
		}
	}
	return found
}

var _ = jobs.StateRunning
