package cmd

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"
)

// TestRunWaitsForAServeStillLoadingItsJobFile: while serve loads its job
// file (20,000 jobs take seconds; here it waits for the test's cue), it
// already holds its socket. jobtop run meanwhile does not take the socket
// for free and start a second serve (which the first would find in its
// way once loaded): it waits for the first, up to its answer timeout,
// and is answered by it once the file is in.
func TestRunWaitsForAServeStillLoadingItsJobFile(t *testing.T) {
	c := newCLI(t)
	dir := t.TempDir()
	// The load waits for the test's cue (loadGateEnv) before it reads
	// the file: a file's env_cmds would not do, they run after the claim
	// in the code before it too.
	require.NoError(t, os.WriteFile(filepath.Join(dir, "jobtop.yaml"), []byte("jobs:\n  loaded:\n    cmd: sleep 600\n"), 0o600))
	gate := filepath.Join(c.dir, "loaded")
	serve := exec.Command(binary, "serve")
	serve.Env = append(c.env[:len(c.env):len(c.env)], loadGateEnv+"="+gate)
	serve.Dir = dir
	serveLog, err := os.Create(filepath.Join(c.dir, "serve.err"))
	require.NoError(t, err)
	defer serveLog.Close()
	serve.Stderr = serveLog
	require.NoError(t, serve.Start())
	t.Cleanup(func() {
		os.WriteFile(gate, nil, 0o600)        //nolint:errcheck // may be there
		serve.Process.Signal(syscall.SIGTERM) //nolint:errcheck // may have exited
		serve.Wait()                          //nolint:errcheck // stopped on purpose
	})
	require.Eventually(t, func() bool { return lockHeld(c.socket) }, testTimeout, 10*time.Millisecond,
		"serve holds its socket's lock while it loads its job file")

	// A run with a short answer timeout gives up on it, and starts none.
	r := c.run("run", "--answer-timeout", "1s", "--", "echo", "early")
	assert.NotEqual(t, 0, r.code)
	assert.NotContains(t, r.stderr, "no instance was listening")
	assert.Contains(t, r.stderr, fmt.Sprintf("(pid %d) took the connection but did not answer within 1s", serve.Process.Pid))

	// One that waits is answered once the file is in.
	run := exec.Command(binary, "run", "--", "echo", "hi")
	run.Env = c.env
	var runOut, runErr bytes.Buffer
	run.Stdout, run.Stderr = &runOut, &runErr
	require.NoError(t, run.Start())
	ran := make(chan error, 1)
	go func() { ran <- run.Wait() }()
	require.Eventually(t, func() bool { return connectedUnixSocket(run.Process.Pid) }, testTimeout, 10*time.Millisecond,
		"run connected to the socket")
	require.NoError(t, os.WriteFile(gate, nil, 0o600))
	select {
	case err := <-ran:
		require.NoError(t, err, "run: %s", runErr.String())
	case <-time.After(testTimeout):
		run.Process.Kill() //nolint:errcheck // stuck
		t.Fatal("run was never answered")
	}
	assert.Equal(t, "2\n", runOut.String(), "after the file's job")
	assert.Empty(t, runErr.String())
	inst := c.waitAnswering()
	assert.Equal(t, serve.Process.Pid, inst.PID, "the serve that loaded answers")
	c.ok("wait", "2")
	assert.Equal(t, []string{"hi"}, c.logLines("2"))
	if !assert.True(t, processAlive(serve.Process.Pid), "serve goes on") {
		said, _ := os.ReadFile(serveLog.Name())
		t.Logf("serve said: %s", said)
	}
}

// lockHeld says whether some process holds the socket's lock.
func lockHeld(socket string) bool {
	f, err := os.Open(socket + ".lock")
	if err != nil {
		return false
	}
	defer f.Close()
	if err := unix.Flock(int(f.Fd()), unix.LOCK_SH|unix.LOCK_NB); err != nil {
		return true
	}
	unix.Flock(int(f.Fd()), unix.LOCK_UN) //nolint:errcheck // closed next
	return false
}

// connectedUnixSocket says whether process pid has a connected unix
// socket (/proc/net/unix state 03): it has connected to a listening one,
// answered or not.
func connectedUnixSocket(pid int) bool {
	fds, err := os.ReadDir(fmt.Sprintf("/proc/%d/fd", pid))
	if err != nil {
		return false
	}
	mine := map[string]bool{}
	for _, fd := range fds {
		link, err := os.Readlink(fmt.Sprintf("/proc/%d/fd/%s", pid, fd.Name()))
		if inode, ok := strings.CutPrefix(link, "socket:["); err == nil && ok {
			mine[strings.TrimSuffix(inode, "]")] = true
		}
	}
	table, err := os.ReadFile("/proc/net/unix")
	if err != nil {
		return false
	}
	for _, line := range strings.Split(string(table), "\n")[1:] {
		f := strings.Fields(line)
		if len(f) >= 7 && f[5] == "03" && mine[f[6]] {
			return true
		}
	}
	return false
}

// gatedInstance starts jobtop ARGS in dir with the load gate closed
// (loadGateEnv), and waits until some process holds the socket's lock or
// the instance exits. It returns the process, its stderr, and the gate
// (a file to write to open it). The process is ended at cleanup.
func gatedInstance(t *testing.T, c *cli, dir string, args ...string) (proc *exec.Cmd, stderr *bytes.Buffer, gate string, exited chan error) {
	// exited gets the process's end once, for the test; the cleanup
	// waits for the end itself (done).
	t.Helper()
	gate = filepath.Join(c.dir, "loaded")
	proc = exec.Command(binary, args...)
	proc.Env = append(c.env[:len(c.env):len(c.env)], loadGateEnv+"="+gate)
	proc.Dir = dir
	stderr = new(bytes.Buffer)
	proc.Stderr = stderr
	require.NoError(t, proc.Start())
	exited = make(chan error, 1)
	done := make(chan struct{})
	go func() {
		exited <- proc.Wait()
		close(done)
	}()
	t.Cleanup(func() {
		os.WriteFile(gate, nil, 0o600)       //nolint:errcheck // may be there
		proc.Process.Signal(syscall.SIGTERM) //nolint:errcheck // may have exited
		select {
		case <-done:
		case <-time.After(testTimeout):
			proc.Process.Kill() //nolint:errcheck // stuck
		}
	})
	return proc, stderr, gate, exited
}

// assertClaimedWhileLoading checks that, while an instance loads its job
// file, the socket is held and a run gives up on it (its answer timeout)
// instead of starting an instance of its own.
func assertClaimedWhileLoading(t *testing.T, c *cli) {
	t.Helper()
	require.Eventually(t, func() bool { return lockHeld(c.socket) }, testTimeout, 10*time.Millisecond,
		"the socket's lock is held while the job file loads")
	r := c.run("run", "--answer-timeout", "1s", "--", "echo", "early")
	assert.NotEqual(t, 0, r.code)
	assert.NotContains(t, r.stderr, "no instance was listening", "run started no instance of its own")
}

// TestTUIClaimsItsSocketBeforeItLoadsItsJobFile: plain jobtop (and
// jobtop -f FILE) holds its socket from the first moment, as serve does:
// a run while its job file loads starts no second instance.
func TestTUIClaimsItsSocketBeforeItLoadsItsJobFile(t *testing.T) {
	for _, args := range [][]string{nil, {"-f", "jobtop.yaml"}} {
		t.Run(fmt.Sprint(len(args)), func(t *testing.T) {
			c := newCLI(t)
			dir := t.TempDir()
			require.NoError(t, os.WriteFile(filepath.Join(dir, "jobtop.yaml"), []byte("jobs:\n  loaded:\n    cmd: sleep 600\n"), 0o600))
			_, stderr, gate, exited := gatedInstance(t, c, dir, args...)
			assertClaimedWhileLoading(t, c)
			require.NoError(t, os.WriteFile(gate, nil, 0o600))
			select {
			case err := <-exited:
				assert.Error(t, err, "no terminal here")
			case <-time.After(testTimeout):
				t.Fatal("jobtop did not end")
			}
			assert.Contains(t, stderr.String(), "no terminal here")
			assert.False(t, lockHeld(c.socket), "the socket given up")
		})
	}
}

// TestServeDetachClaimsItsSocketBeforeItLoadsItsJobFile: serve -D holds
// the socket from the first moment (its parent claims it and hands it to
// the detached serve), so a run while the file loads starts no second
// instance; then -D says where it runs, as before. A file with problems
// is still reported by -D, with exit 1, and the socket given up.
func TestServeDetachClaimsItsSocketBeforeItLoadsItsJobFile(t *testing.T) {
	c := newCLI(t)
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "jobtop.yaml"), []byte("jobs:\n  loaded:\n    cmd: sleep 600\n"), 0o600))
	_, stderr, gate, exited := gatedInstance(t, c, dir, "serve", "-D", "--idle-exit", "10m")
	assertClaimedWhileLoading(t, c)
	require.NoError(t, os.WriteFile(gate, nil, 0o600))
	select {
	case err := <-exited:
		require.NoError(t, err, stderr.String())
	case <-time.After(testTimeout):
		t.Fatal("serve -D did not end")
	}
	inst := c.waitAnswering()
	t.Cleanup(func() { syscall.Kill(inst.PID, syscall.SIGTERM) }) //nolint:errcheck // may have gone
	assert.Contains(t, stderr.String(), fmt.Sprintf("jobtop: serving 1 job from jobtop.yaml in the background (pid %d, socket %s", inst.PID, c.socket))
	assert.Equal(t, []string{"1"}, func() []string {
		var ids []string
		for id := range c.states() {
			ids = append(ids, id.String())
		}
		return ids
	}(), "the file's job, and no other")
	c.ok("shutdown")
	require.Eventually(t, func() bool { return !processAlive(inst.PID) }, testTimeout, 20*time.Millisecond)

	require.NoError(t, os.Remove(gate))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "jobtop.yaml"), []byte("jobs:\n  loaded:\n    cmnd: x\n"), 0o600))
	_, stderr, gate, exited = gatedInstance(t, c, dir, "serve", "-D")
	require.Eventually(t, func() bool { return lockHeld(c.socket) }, testTimeout, 10*time.Millisecond)
	require.NoError(t, os.WriteFile(gate, nil, 0o600))
	select {
	case err := <-exited:
		var exit *exec.ExitError
		require.ErrorAs(t, err, &exit)
		assert.Equal(t, 1, exit.ExitCode())
	case <-time.After(testTimeout):
		t.Fatal("serve -D did not end")
	}
	fg := c.runIn(dir, "serve")
	assert.Equal(t, fg.stderr, stderr.String(), "a file with problems, as serve says it")
	assert.False(t, lockHeld(c.socket), "the socket given up")
}
