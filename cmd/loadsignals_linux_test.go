package cmd

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"

	"jobtop/control"
)

// bigFileJobs is how many jobs startingServe's file has: it takes
// about 6 s to load and 15 to start on an idle 2-core machine. Without
// the start cut short, some 5,000 of them have run by the time it is
// stopped (the launches lag the start, and those not launched when the
// stop comes never are); with it, the few hundred that had, and those
// on their way: 2,000 at most, seen on a machine loaded 13 deep.
const bigFileJobs = 20000

// startingServe starts jobtop serve on a file of bigFileJobs sleeping
// jobs, marked (TEST_MARK=mark), calls whileLoading (if not nil) once it
// holds its socket and loads the file, and returns as soon as some of
// the jobs run, while the rest still start. started counts the jobs
// that ever started (each gets its log file).
func startingServe(t *testing.T, c *cli, whileLoading func(pid int, file string)) (serve *exec.Cmd, stderr *bytes.Buffer, exited chan error, mark string, started func() int) {
	t.Helper()
	dir := t.TempDir()
	mark = fmt.Sprintf("%s-%d", t.Name(), time.Now().UnixNano())
	t.Cleanup(func() { // a test that failed leaves none of them running
		for _, pid := range markedProcs(mark) {
			syscall.Kill(pid, syscall.SIGKILL) //nolint:errcheck // may be gone
		}
	})
	var text strings.Builder
	text.WriteString("jobs:\n")
	for i := range bigFileJobs {
		fmt.Fprintf(&text, "  job%05d: {cmd: \"exec sleep 600\", env: {TEST_MARK: %s}}\n", i, mark)
	}
	file := filepath.Join(dir, "jobtop.yaml")
	require.NoError(t, os.WriteFile(file, []byte(text.String()), 0o600))
	logs := filepath.Join(c.dir, "state", "jobtop", "logs")
	started = func() int {
		found, _ := filepath.Glob(filepath.Join(logs, "*", "*.log"))
		return len(found)
	}

	serve = exec.Command(binary, "serve")
	serve.Env, serve.Dir = c.env, dir
	stderr = new(bytes.Buffer)
	serve.Stderr = stderr
	require.NoError(t, serve.Start())
	exited = make(chan error, 1)
	go func() { exited <- serve.Wait() }()
	t.Cleanup(func() { serve.Process.Kill() }) //nolint:errcheck // ended, if all is well
	if whileLoading != nil {
		require.Eventually(t, func() bool { return lockHeld(c.socket) && listening(c.socket) }, testTimeout, 10*time.Millisecond, "serve holds its socket")
		whileLoading(serve.Process.Pid, file)
		require.Zero(t, started(), "the file is still loading (the machine is too fast for this test)")
	}
	// The file takes 6 s to load on an idle machine; five times that on
	// one loaded 4 deep.
	require.Eventually(t, func() bool { return len(markedProcs(mark)) >= 20 }, 4*testTimeout, 10*time.Millisecond, "some jobs run")
	return serve, stderr, exited, mark, started
}

// assertStartCut checks, once serve has ended, that its start ended at
// once when it was stopped (atStop jobs had started then): far fewer
// jobs ever started than the file has, stderr says how many (the match
// of its line said), no job process is left, and the socket is gone.
func assertStartCut(t *testing.T, c *cli, atStop int, mark string, started func() int, said *regexp.Regexp, stderr string) {
	t.Helper()
	ever := started()
	t.Logf("%d of %d jobs had started when stopped, %d ever", atStop, bigFileJobs, ever)
	// With the cut, 1,300-3,700 log files were found here; without it,
	// 5,000-5,900 (the helper that wrote these tests): too close for a
	// bound that must hold on a slower, busier machine. Half the file is
	// loose; what fails without the cut is the message and the
	// clients' answer (below, and in the callers).
	assert.Less(t, ever, bigFileJobs/2, "the start ended at once: far fewer jobs ever started than the file has")
	assert.Empty(t, markedProcs(mark), "no job process is left")
	if m := said.FindStringSubmatch(stderr); assert.NotNil(t, m, stderr) {
		// Put in place: those still queued when the stop came never
		// ran, and not every log file of theirs is there once serve has
		// ended (3,399 files for 3,660 said, once, on a loaded
		// machine): it says at least as many as there are files.
		count, _ := strconv.Atoi(m[1])
		assert.LessOrEqual(t, ever, count, "it says how many were put in place")
		assert.Less(t, count, bigFileJobs/2, "it says how far the start got")
	}
	assert.NotContains(t, stderr, "serving on", "it never served")
	assert.NoFileExists(t, c.socket, "the socket removed")
	assert.False(t, lockHeld(c.socket), "the socket given up")
}

// TestServeSignalledWhileItsJobsStartStopsAtOnce: a file of thousands
// of jobs takes seconds to start; SIGTERM meanwhile ends the start at
// once (the jobs not started yet never start) and goes straight to the
// stop of those that did, rather than first start every job only to
// stop them all. The clients waiting for the instance are told it was
// stopped, and nothing is left running.
func TestServeSignalledWhileItsJobsStartStopsAtOnce(t *testing.T) {
	c := newCLI(t)
	var ls func() result
	serve, stderr, exited, mark, started := startingServe(t, c, func(pid int, file string) {
		ls = waitingCommand(t, c, pid, file, "ls")
	})
	atSignal := started()
	require.NoError(t, serve.Process.Signal(syscall.SIGTERM))
	assert.Zero(t, exitCode(t, exited, "serve did not end"), stderr.String())
	assertStartCut(t, c, atSignal, mark, started, regexp.MustCompile(`jobtop: terminated while the job file's jobs started \((\d+) of 20000 put in place\): stopping them \(again to kill them at once\)\n`), stderr.String())
	r := ls()
	assert.Equal(t, 1, r.code)
	assert.Contains(t, r.stderr, fmt.Sprintf("jobtop: the jobtop instance on %s (pid %d) was stopped by SIGTERM before it served\n", c.socket, serve.Process.Pid), "the client waiting is told")
}

// TestServeShutDownWhileItsJobsStartStopsAtOnce: jobtop shutdown while
// a big file's jobs start ends the start at once, as SIGTERM does, and
// is answered once the jobs that did start have stopped (it waited for
// every job to start first).
func TestServeShutDownWhileItsJobsStartStopsAtOnce(t *testing.T) {
	c := newCLI(t)
	serve, stderr, exited, mark, started := startingServe(t, c, nil)
	// Asked from here, not by a jobtop shutdown process: one slow to
	// start on the busy machine would ask once many more jobs run.
	client := control.NewClient(c.socket)
	defer client.Close()
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	atAsked := started()
	resp, err := client.Shutdown(ctx)
	require.NoError(t, err, "answered, once the jobs that did start have stopped")
	assert.Equal(t, serve.Process.Pid, resp.Instance.PID)
	assert.Zero(t, exitCode(t, exited, "serve did not end"), stderr.String())
	assertStartCut(t, c, atAsked, mark, started, regexp.MustCompile(`jobtop: shutdown asked over the API while the job file's jobs started \((\d+) of 20000 put in place\): stopping them \(a signal kills them at once\)\n`), stderr.String())
	assert.NotZero(t, resp.Stopped)
	for _, j := range resp.Jobs {
		if !j.State.Done() {
			t.Errorf("job %d had not ended when the shutdown was answered: %s", j.ID, j.State)
			break
		}
	}
}

// TestTUIStoppedWhileLoadingTellsTheClientsWaiting: plain jobtop, in a
// terminal, ended by a signal while it loads its job file (20,000 jobs
// take seconds), ends at once as serve does: exit 128 + the signal's
// number, a word on stderr, its socket removed, and the clients waiting
// for it told which signal stopped it (not a bare EOF: the default
// action killed it).
func TestTUIStoppedWhileLoadingTellsTheClientsWaiting(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP} {
		t.Run(unix.SignalName(sig), func(t *testing.T) {
			c := newCLI(t)
			dir := t.TempDir()
			file := filepath.Join(dir, "jobtop.yaml")
			marker := filepath.Join(dir, "started")
			require.NoError(t, os.WriteFile(file, []byte("jobs:\n  loaded:\n    cmd: touch "+marker+" && sleep 600\n"), 0o600))
			tui, stderr, _, exited := gatedTUI(t, c, dir)
			ls := waitingCommand(t, c, tui.Process.Pid, file, "ls")
			require.NoError(t, tui.Process.Signal(sig))
			assert.Equal(t, 128+int(sig), exitCode(t, exited, "jobtop did not end"))
			assert.Equal(t, fmt.Sprintf("jobtop: %s: stopped while loading the job file; nothing was started\n", unix.SignalName(sig)), stderr())
			r := ls()
			assert.Equal(t, 1, r.code)
			assert.Contains(t, r.stderr, fmt.Sprintf("jobtop: the jobtop instance on %s (pid %d) was stopped by %s before it served\n", c.socket, tui.Process.Pid, unix.SignalName(sig)))
			assert.NoFileExists(t, c.socket, "the socket removed")
			assert.False(t, lockHeld(c.socket), "the socket given up")
			assert.NoFileExists(t, marker, "no job started")
		})
	}
}

// gatedTUI is gatedInstance for plain jobtop in a terminal of its own
// (a pty: its stdin and stdout; stderr is read apart, with the function
// returned).
func gatedTUI(t *testing.T, c *cli, dir string) (proc *exec.Cmd, stderr func() string, gate string, exited chan error) {
	t.Helper()
	gate = filepath.Join(c.dir, "loaded")
	proc = exec.Command(binary)
	proc.Env = append(c.env[:len(c.env):len(c.env)], loadGateEnv+"="+gate, "TERM=xterm-256color")
	proc.Dir = dir
	master, stderr := startOnPTY(t, proc, 100)
	go func() { // what it draws, if it gets that far, is not looked at
		buf := make([]byte, 4096)
		for {
			if _, err := master.Read(buf); err != nil {
				return
			}
		}
	}()
	exited, done := awaitHoldOrExit(t, c, proc, "jobtop")
	t.Cleanup(func() {
		os.WriteFile(gate, nil, 0o600) //nolint:errcheck // may be there
		proc.Process.Kill()            //nolint:errcheck // may have exited
		<-done
	})
	return proc, stderr, gate, exited
}
