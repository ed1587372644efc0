package cmd

import (
	"bytes"
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

	"github.com/creack/pty"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"
)

// TestServeSignalledWhileItsJobsStartStopsAtOnce: a file of thousands
// of jobs takes seconds to start; SIGTERM meanwhile ends the start at
// once (the jobs not started yet never start) and goes straight to the
// stop of those that did, rather than first start every job only to
// stop them all. The clients waiting for the instance are told it was
// stopped, and nothing is left running.
func TestServeSignalledWhileItsJobsStartStopsAtOnce(t *testing.T) {
	// About 7 s to start on an idle 2-core machine; without the start
	// cut short, thousands of them run by the time it is stopped (the
	// launches lag the start, and those not launched when the stop
	// comes never are).
	const n = 10000
	c := newCLI(t)
	dir := t.TempDir()
	mark := fmt.Sprintf("%s-%d", t.Name(), time.Now().UnixNano())
	t.Cleanup(func() { // a test that failed leaves none of them running
		for _, pid := range markedProcs(mark) {
			syscall.Kill(pid, syscall.SIGKILL) //nolint:errcheck // may be gone
		}
	})
	var file strings.Builder
	file.WriteString("jobs:\n")
	for i := range n {
		fmt.Fprintf(&file, "  job%05d: {cmd: \"exec sleep 600\", env: {TEST_MARK: %s}}\n", i, mark)
	}
	require.NoError(t, os.WriteFile(filepath.Join(dir, "jobtop.yaml"), []byte(file.String()), 0o600))
	logs := filepath.Join(c.dir, "state", "jobtop", "logs")
	// Each job that starts gets its log file: how many ever started.
	started := func() int {
		found, _ := filepath.Glob(filepath.Join(logs, "*", "*.log"))
		return len(found)
	}

	serve := exec.Command(binary, "serve")
	serve.Env, serve.Dir = c.env, dir
	var stderr bytes.Buffer
	serve.Stderr = &stderr
	require.NoError(t, serve.Start())
	exited := make(chan error, 1)
	go func() { exited <- serve.Wait() }()
	t.Cleanup(func() { serve.Process.Kill() }) //nolint:errcheck // ended, if all is well
	require.Eventually(t, func() bool { return len(markedProcs(mark)) >= 20 }, testTimeout, 10*time.Millisecond, "some jobs run")
	ls := waitingCommand(t, c, serve.Process.Pid, filepath.Join(dir, "jobtop.yaml"), "ls")
	atSignal := started()
	require.Less(t, atSignal, n/8, "the start is under way, far from done (the machine is too slow or too fast for this test)")

	require.NoError(t, serve.Process.Signal(syscall.SIGTERM))
	assert.Zero(t, exitCode(t, exited, "serve did not end"), stderr.String())
	ever := started()
	t.Logf("%d of %d jobs had started at SIGTERM, %d ever", atSignal, n, ever)
	assert.Less(t, ever, n/4, "the start ended at the signal: far fewer jobs ever started than the file has")
	assert.Empty(t, markedProcs(mark), "no job process is left")
	said := regexp.MustCompile(`jobtop: terminated while the job file's jobs started \((\d+) of 10000\): stopping them \(again to kill them at once\)\n`).FindStringSubmatch(stderr.String())
	if assert.NotNil(t, said, stderr.String()) {
		count, _ := strconv.Atoi(said[1])
		assert.Equal(t, ever, count, "it says how many started")
	}
	assert.NotContains(t, stderr.String(), "serving on", "it never served")
	r := ls()
	assert.Equal(t, 1, r.code)
	assert.Contains(t, r.stderr, fmt.Sprintf("jobtop: the jobtop instance on %s (pid %d) was stopped by SIGTERM before it served\n", c.socket, serve.Process.Pid), "the client waiting is told")
	assert.NoFileExists(t, c.socket, "the socket removed")
	assert.False(t, lockHeld(c.socket), "the socket given up")
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
	errPath := filepath.Join(t.TempDir(), "stderr")
	errFile, err := os.Create(errPath)
	require.NoError(t, err)
	defer errFile.Close()
	proc.Stderr = errFile
	master, err := pty.StartWithAttrs(proc, &pty.Winsize{Cols: 100, Rows: 30}, &syscall.SysProcAttr{Setsid: true, Setctty: true})
	require.NoError(t, err)
	t.Cleanup(func() { master.Close() })
	go func() { // what it draws, if it gets that far, is not looked at
		buf := make([]byte, 4096)
		for {
			if _, err := master.Read(buf); err != nil {
				return
			}
		}
	}()
	exited = make(chan error, 1)
	done := make(chan struct{})
	go func() {
		exited <- proc.Wait()
		close(done)
	}()
	require.Eventually(t, func() bool {
		select {
		case <-done:
			return true
		default:
			return lockHeld(c.socket) && listening(c.socket)
		}
	}, testTimeout, 10*time.Millisecond, "jobtop holds its socket or exits")
	t.Cleanup(func() {
		os.WriteFile(gate, nil, 0o600) //nolint:errcheck // may be there
		proc.Process.Kill()            //nolint:errcheck // may have exited
		<-done
	})
	return proc, func() string { said, _ := os.ReadFile(errPath); return string(said) }, gate, exited
}
