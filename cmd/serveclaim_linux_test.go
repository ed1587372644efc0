package cmd

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
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

	"jobtop/control"
)

// TestRunWaitsForAServeStillLoadingItsJobFile: while serve loads its job
// file (20,000 jobs take seconds; here it waits for the test's cue), it
// already holds its socket, and answers who it is at once, saying it is
// loading. jobtop run meanwhile does not take the socket for free and
// start a second serve (which the first would find in its way once
// loaded), nor give up after its answer timeout on an instance that
// answers: it says it waits, once, and is answered once the file's jobs
// are in place.
func TestRunWaitsForAServeStillLoadingItsJobFile(t *testing.T) {
	c := newCLI(t)
	dir := sleeperDir(t)
	serve, serveLog, gate, _ := gatedInstance(t, c, dir, "serve")
	require.Eventually(t, func() bool { return lockHeld(c.socket) }, testTimeout, 10*time.Millisecond,
		"serve holds its socket's lock while it loads its job file")

	// It answers who it is at once, loading.
	inst := loadingInstanceOn(t, c.socket)
	assert.Equal(t, serve.Process.Pid, inst.PID)
	assert.Equal(t, "serve", inst.Kind)
	assert.Equal(t, filepath.Join(dir, "jobtop.yaml"), inst.Loading)

	// A run, even with a short answer timeout, waits for it, and says so.
	run := waitingRun(t, c, serve.Process.Pid, filepath.Join(dir, "jobtop.yaml"), "--answer-timeout", "1s")
	time.Sleep(1500 * time.Millisecond) // past its answer timeout: it still waits
	require.NoError(t, os.WriteFile(gate, nil, 0o600))
	r := run()
	require.Equal(t, 0, r.code, r.stderr)
	assert.Equal(t, "2\n", r.stdout, "after the file's job")
	assert.Equal(t, fmt.Sprintf("jobtop: waiting for the instance on %s (pid %d) to load %s\n", c.socket, serve.Process.Pid, filepath.Join(dir, "jobtop.yaml")), r.stderr, "said once")
	inst = c.waitAnswering()
	assert.Equal(t, serve.Process.Pid, inst.PID, "the serve that loaded answers")
	assert.Empty(t, inst.Loading)
	c.ok("wait", "2")
	assert.Equal(t, []string{"hi"}, c.logLines("2"))
	assert.True(t, processAlive(serve.Process.Pid), "serve goes on: %s", serveLog)
}

// TestRunWaitingForALoadIsToldTheFilesProblems: a run that waits for an
// instance loading a job file with problems is told them, and that the
// instance stopped.
func TestRunWaitingForALoadIsToldTheFilesProblems(t *testing.T) {
	c := newCLI(t)
	dir := t.TempDir()
	file := filepath.Join(dir, "jobtop.yaml")
	require.NoError(t, os.WriteFile(file, []byte("jobs:\n  loaded:\n    cmnd: sleep 600\n"), 0o600))
	serve, _, gate, exited := gatedInstance(t, c, dir, "serve")
	run := waitingRun(t, c, serve.Process.Pid, file)
	require.NoError(t, os.WriteFile(gate, nil, 0o600))
	r := run()
	assert.Equal(t, 1, r.code)
	assert.Contains(t, r.stderr, fmt.Sprintf("jobtop: the jobtop instance on %s (pid %d) stopped before it served: jobtop.yaml has 1 problem; nothing was started:\n", c.socket, serve.Process.Pid))
	assert.Contains(t, r.stderr, `unknown key "cmnd"`)
	assert.NotContains(t, r.stderr, "no instance was listening")
	assert.NotZero(t, exitCode(t, exited, "serve did not end"), "serve exits 1")
}

// TestAttachToALoadingInstanceSaysItWaits: the TUI attaching to an
// instance still loading its job file says, on the terminal, that it
// waits for it, rather than show nothing.
func TestAttachToALoadingInstanceSaysItWaits(t *testing.T) {
	c := newCLI(t)
	dir := t.TempDir()
	file := filepath.Join(dir, "jobtop.yaml")
	require.NoError(t, os.WriteFile(file, []byte("jobs:\n  loaded:\n    cmd: sleep 600\n"), 0o600))
	serve, _, gate, _ := gatedInstance(t, c, dir, "serve")
	attach := waitingCommand(t, c, serve.Process.Pid, file, "attach")
	require.NoError(t, os.WriteFile(gate, nil, 0o600))
	r := attach()
	assert.Equal(t, 1, r.code, "no terminal here, once attached")
	assert.True(t, strings.HasPrefix(r.stderr, fmt.Sprintf("jobtop: waiting for the instance on %s (pid %d) to load %s\njobtop: ", c.socket, serve.Process.Pid, file)), r.stderr)
	assert.Contains(t, r.stderr, "no terminal here")
}

// waitingRun starts jobtop run -- echo hi (with flags before the --),
// and waits until it says that it waits for the instance of pid to load
// file. It returns the function that waits for its end.
func waitingRun(t *testing.T, c *cli, pid int, file string, flags ...string) func() result {
	t.Helper()
	return waitingCommand(t, c, pid, file, append(append([]string{"run"}, flags...), "--", "echo", "hi")...)
}

// waitingCommand is waitingRun for jobtop ARGS.
func waitingCommand(t *testing.T, c *cli, pid int, file string, args ...string) func() result {
	t.Helper()
	run := exec.Command(binary, args...)
	run.Env = c.env
	errPath := filepath.Join(t.TempDir(), "run.err")
	errFile, err := os.Create(errPath)
	require.NoError(t, err)
	defer errFile.Close()
	var out bytes.Buffer
	run.Stdout, run.Stderr = &out, errFile
	require.NoError(t, run.Start())
	ran := make(chan error, 1)
	go func() { ran <- run.Wait() }()
	t.Cleanup(func() { run.Process.Kill() }) //nolint:errcheck // may have ended
	// pid 0: any.
	head, tail := fmt.Sprintf("jobtop: waiting for the instance on %s (pid %d) to load %s\n", c.socket, pid, file), ""
	if pid == 0 {
		head, tail, _ = strings.Cut(head, "(pid 0)")
		head, tail = head+"(pid ", ")"+tail
	}
	require.Eventually(t, func() bool {
		said, _ := os.ReadFile(errPath)
		return strings.HasPrefix(string(said), head) && strings.HasSuffix(string(said), tail) && strings.Count(string(said), "\n") == 1
	}, testTimeout, 10*time.Millisecond, "run says it waits for the load")
	return func() result {
		t.Helper()
		var err error
		select {
		case err = <-ran:
		case <-time.After(testTimeout):
			t.Fatal("run was never answered")
		}
		said, _ := os.ReadFile(errPath)
		r := result{stdout: out.String(), stderr: string(said)}
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			r.code = exit.ExitCode()
		}
		return r
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

// awaitHoldOrExit waits until some process holds the socket's lock and
// listens on it, or proc (started) exits. exited gets proc's end once,
// for the test; done is closed at that end, for the test's cleanup.
func awaitHoldOrExit(t *testing.T, c *cli, proc *exec.Cmd, what string) (exited chan error, done chan struct{}) {
	t.Helper()
	exited, done = make(chan error, 1), make(chan struct{})
	go func() {
		exited <- proc.Wait()
		close(done)
	}()
	require.Eventually(t, func() bool {
		select {
		case <-done:
			return true
		default:
			// The lock is taken before the socket listens: a client
			// between the two found no instance (a flaky test).
			return lockHeld(c.socket) && listening(c.socket)
		}
	}, testTimeout, 10*time.Millisecond, "%s holds its socket or exits", what)
	return exited, done
}

// gatedInstance starts jobtop ARGS in dir with the load gate closed
// (loadGateEnv), and waits until some process holds the socket's lock and
// listens on it, or the instance exits. It returns the process, its
// stderr, and the gate (a file to write to open it). The process is ended at cleanup.
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
	exited, done := awaitHoldOrExit(t, c, proc, fmt.Sprintf("jobtop %v", args))
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

// listening reports whether a connection to socket is taken (listened
// for), answered or not.
func listening(socket string) bool {
	conn, err := net.Dial("unix", socket)
	if err != nil {
		return false
	}
	conn.Close()
	return true
}

// assertClaimedWhileLoading checks that, while an instance (of pid)
// loads its job file (file), the socket is held and a run waits for it,
// saying so, instead of starting an instance of its own; the run's end
// is then had with the function returned.
func assertClaimedWhileLoading(t *testing.T, c *cli, pid int, file string) func() result {
	t.Helper()
	require.Eventually(t, func() bool { return lockHeld(c.socket) }, testTimeout, 10*time.Millisecond,
		"the socket's lock is held while the job file loads")
	return waitingRun(t, c, pid, file, "--answer-timeout", "1s")
}

// TestTUIClaimsItsSocketBeforeItLoadsItsJobFile: plain jobtop (and
// jobtop -f FILE) holds its socket from the first moment, as serve does:
// a run while its job file loads starts no second instance.
func TestTUIClaimsItsSocketBeforeItLoadsItsJobFile(t *testing.T) {
	for _, args := range [][]string{nil, {"-f", "jobtop.yaml"}} {
		t.Run(fmt.Sprint(len(args)), func(t *testing.T) {
			c := newCLI(t)
			dir := sleeperDir(t)
			tui, stderr, gate, exited := gatedInstance(t, c, dir, args...)
			run := assertClaimedWhileLoading(t, c, tui.Process.Pid, filepath.Join(dir, "jobtop.yaml"))
			require.NoError(t, os.WriteFile(gate, nil, 0o600))
			assert.NotZero(t, exitCode(t, exited, "jobtop did not end"), "no terminal here")
			assert.Contains(t, stderr.String(), "no terminal here")
			r := run()
			assert.Equal(t, 1, r.code)
			assert.Contains(t, r.stderr, fmt.Sprintf("(pid %d) stopped before it served: jobtop's TUI draws on its standard output", tui.Process.Pid), "the run waiting is told")
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
	dir := sleeperDir(t)
	_, stderr, gate, exited := gatedInstance(t, c, dir, "serve", "-D", "--idle-exit", "10m")
	run := assertClaimedWhileLoading(t, c, 0, filepath.Join(dir, "jobtop.yaml"))
	require.NoError(t, os.WriteFile(gate, nil, 0o600))
	require.Zero(t, exitCode(t, exited, "serve -D did not end"), stderr.String())
	inst := c.waitAnswering()
	t.Cleanup(func() { syscall.Kill(inst.PID, syscall.SIGTERM) }) //nolint:errcheck // may have gone
	assert.Contains(t, stderr.String(), fmt.Sprintf("jobtop: serving 1 job from jobtop.yaml in the background (pid %d, socket %s", inst.PID, c.socket))
	r := run()
	require.Equal(t, 0, r.code, r.stderr)
	assert.Equal(t, "2\n", r.stdout, "the run's job, after the file's, in the one instance")
	assert.Contains(t, r.stderr, fmt.Sprintf("(pid %d)", inst.PID))
	c.ok("shutdown")
	require.Eventually(t, func() bool { return !processAlive(inst.PID) }, testTimeout, 20*time.Millisecond)

	require.NoError(t, os.Remove(gate))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "jobtop.yaml"), []byte("jobs:\n  loaded:\n    cmnd: x\n"), 0o600))
	_, stderr, gate, exited = gatedInstance(t, c, dir, "serve", "-D")
	require.NoError(t, os.WriteFile(gate, nil, 0o600))
	assert.Equal(t, 1, exitCode(t, exited, "serve -D did not end"))
	fg := c.runIn(dir, "serve")
	assert.Equal(t, fg.stderr, stderr.String(), "a file with problems, as serve says it")
	assert.False(t, lockHeld(c.socket), "the socket given up")
}

// TestServeLooksAtAnInstanceOnItsSocketForItsAnswerTimeout: serve and
// jobtop -f give an instance already on their socket that does not
// answer (busy, or hung: here a socket the test holds and never
// answers) --answer-timeout to say who it is, not a fixed second.
func TestServeLooksAtAnInstanceOnItsSocketForItsAnswerTimeout(t *testing.T) {
	c := newCLI(t)
	lock, err := os.OpenFile(c.socket+".lock", os.O_RDWR|os.O_CREATE, 0o600)
	require.NoError(t, err)
	defer lock.Close()
	require.NoError(t, unix.Flock(int(lock.Fd()), unix.LOCK_EX|unix.LOCK_NB))
	l, err := net.Listen("unix", c.socket)
	require.NoError(t, err)
	defer l.Close() // never accepts: the kernel takes connections, none is answered

	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "jobtop.yaml"), []byte("jobs:\n  a:\n    cmd: sleep 600\n"), 0o600))
	for _, args := range [][]string{{"serve", "--answer-timeout", "2s"}, {"-f", "jobtop.yaml", "--answer-timeout", "2s"}} {
		began := time.Now()
		r := c.runIn(dir, args...)
		assert.Equal(t, 1, r.code, "%v: %s", args, r.stderr)
		assert.Contains(t, r.stderr, fmt.Sprintf("another jobtop (pid %d) is listening on %s but did not answer within 2s: it is busy", os.Getpid(), c.socket), args)
		assert.GreaterOrEqual(t, time.Since(began), 2*time.Second, args)
	}
}

// TestServeDetachEndedWhileLoadingStartsNothing: serve -D ended while
// the serve it started in the background loads its job file (^C,
// SIGTERM, even SIGKILL) leaves nothing running, as the foreground
// serve's load stopped by ^C does: that serve gives the socket up
// before it starts any job.
func TestServeDetachEndedWhileLoadingStartsNothing(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGKILL, syscall.SIGINT} {
		t.Run(unix.SignalName(sig), func(t *testing.T) {
			c := newCLI(t)
			dir := t.TempDir()
			marker := filepath.Join(dir, "started")
			require.NoError(t, os.WriteFile(filepath.Join(dir, "jobtop.yaml"), []byte("jobs:\n  loaded:\n    cmd: touch "+marker+" && sleep 600\n"), 0o600))
			parent, stderr, gate, exited := gatedInstance(t, c, dir, "serve", "-D")
			inst := loadingInstanceOn(t, c.socket)
			require.NotEmpty(t, inst.Loading)
			child := inst.PID
			t.Cleanup(func() { syscall.Kill(child, syscall.SIGKILL) }) //nolint:errcheck // gone, if all is well

			require.NoError(t, parent.Process.Signal(sig))
			assert.NotZero(t, exitCode(t, exited, "serve -D did not end"))
			if sig != syscall.SIGKILL {
				assert.Equal(t, fmt.Sprintf("jobtop: %s: stopped the background serve (pid %d) before it started any job\n", unix.SignalName(sig), child), stderr.String())
			}
			require.NoError(t, os.WriteFile(gate, nil, 0o600))
			require.Eventually(t, func() bool { return !processAlive(child) }, testTimeout, 20*time.Millisecond, "the background serve gives up")
			assert.False(t, lockHeld(c.socket), "the socket given up")
			assert.NoFileExists(t, marker, "no job started")
		})
	}
}

// TestServeStoppedWhileLoadingTellsTheClientsWaiting: a serve ended by
// a signal while it loads its job file tells the clients waiting for it
// which signal stopped it (not a bare EOF), removes its socket, and says
// on stderr that it stopped while loading.
func TestServeStoppedWhileLoadingTellsTheClientsWaiting(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP} {
		t.Run(unix.SignalName(sig), func(t *testing.T) {
			c := newCLI(t)
			dir := t.TempDir()
			file := filepath.Join(dir, "jobtop.yaml")
			require.NoError(t, os.WriteFile(file, []byte("jobs:\n  loaded:\n    cmd: sleep 600\n"), 0o600))
			serve, stderr, _, exited := gatedInstance(t, c, dir, "serve")
			run := waitingRun(t, c, serve.Process.Pid, file)
			require.NoError(t, serve.Process.Signal(sig))
			r := run()
			assert.Equal(t, 1, r.code)
			assert.Contains(t, r.stderr, fmt.Sprintf("jobtop: the jobtop instance on %s (pid %d) was stopped by %s before it served\n", c.socket, serve.Process.Pid, unix.SignalName(sig)))
			assert.Equal(t, 128+int(sig), exitCode(t, exited, "serve did not end"))
			assert.Equal(t, fmt.Sprintf("jobtop: %s: stopped while loading the job file; nothing was started\n", unix.SignalName(sig)), stderr.String())
			assert.NoFileExists(t, c.socket, "the socket removed")
			assert.False(t, lockHeld(c.socket), "the socket given up")
		})
	}
}

// TestServeDetachSaysHowTheBackgroundServeDied: when the serve that
// serve -D started dies, before its report or after it (while its jobs
// start), serve -D says how (killed by which signal), not "exited with
// -1" nor "no jobtop is listening", and quotes no empty log.
func TestServeDetachSaysHowTheBackgroundServeDied(t *testing.T) {
	for _, after := range []bool{false, true} {
		t.Run(fmt.Sprint("after report ", after), func(t *testing.T) {
			c := newCLI(t)
			dir := sleeperDir(t)
			startGate := filepath.Join(c.dir, "start")
			c.env = append(c.env, startGateEnv+"="+startGate)
			if after {
				require.NoError(t, os.WriteFile(filepath.Join(c.dir, "loaded"), nil, 0o600)) // the load gate, open
			}
			parent, stderr, _, exited := gatedInstance(t, c, dir, "serve", "-D")
			inst := loadingInstanceOn(t, c.socket)
			child := inst.PID
			if after {
				require.Eventually(t, func() bool { _, err := os.Stat(startGate + ".waiting"); return err == nil }, testTimeout, 10*time.Millisecond, "reported, about to start its jobs")
				require.Eventually(t, func() bool { return connectedUnixSocket(parent.Process.Pid) }, testTimeout, 10*time.Millisecond, "serve -D waits for its jobs")
			}
			require.NoError(t, syscall.Kill(child, syscall.SIGKILL))
			assert.Equal(t, 1, exitCode(t, exited, "serve -D did not end"))
			assert.Equal(t, fmt.Sprintf("jobtop: jobtop serve (pid %d) was killed by SIGKILL before it served\n", child), stderr.String())
		})
	}
}

// TestServeDetachSaysWhatItsJobsStartWarned: serve -D prints the
// warnings of its jobs' start (an env_cmds command that failed), as the
// foreground serve does, not only the job file's own.
func TestServeDetachSaysWhatItsJobsStartWarned(t *testing.T) {
	c := newCLI(t)
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "process-compose.yaml"), []byte("version: \"0.5\"\nenv_cmds:\n  GONE: \"exit 3\"\nprocesses:\n  a:\n    command: sleep 600\n"), 0o600))
	r := c.runIn(dir, "serve", "-D")
	require.Equal(t, 0, r.code, r.stderr)
	t.Cleanup(func() { c.run("shutdown") })
	assert.Regexp(t, `(?m)^\S*process-compose\.yaml: warning: env_cmds\.GONE: .*; GONE is not set$`, r.stderr)
	assert.Contains(t, r.stderr, "jobtop: serving 1 job from process-compose.yaml in the background")
}

// TestServeAgainstALoadingInstanceSaysItLoads: a second serve (or serve
// -D) on the socket of an instance still loading its job file says it
// is loading, not only that it listens.
func TestServeAgainstALoadingInstanceSaysItLoads(t *testing.T) {
	c := newCLI(t)
	dir := t.TempDir()
	file := filepath.Join(dir, "jobtop.yaml")
	require.NoError(t, os.WriteFile(file, []byte("jobs:\n  loaded:\n    cmd: sleep 600\n"), 0o600))
	serve, _, _, _ := gatedInstance(t, c, dir, "serve")
	for _, args := range [][]string{{"serve"}, {"serve", "-D"}} {
		r := c.runIn(dir, args...)
		assert.Equal(t, 1, r.code, args)
		assert.Contains(t, r.stderr, fmt.Sprintf("(serve, pid %d, running since ", serve.Process.Pid), args)
		assert.Contains(t, r.stderr, fmt.Sprintf("is already listening on %s, still loading its job file %s; ", c.socket, file), args)
	}
}

// TestServeKilledWhileLoadingTellsTheClientsWaiting: a serve killed
// (SIGKILL: nothing to catch) while it loads its job file leaves the
// clients waiting a word on it, not a bare EOF.
func TestServeKilledWhileLoadingTellsTheClientsWaiting(t *testing.T) {
	c := newCLI(t)
	dir := t.TempDir()
	file := filepath.Join(dir, "jobtop.yaml")
	require.NoError(t, os.WriteFile(file, []byte("jobs:\n  loaded:\n    cmd: sleep 600\n"), 0o600))
	serve, _, _, _ := gatedInstance(t, c, dir, "serve")
	run := waitingRun(t, c, serve.Process.Pid, file)
	require.NoError(t, serve.Process.Kill())
	r := run()
	assert.Equal(t, 1, r.code)
	assert.Contains(t, r.stderr, fmt.Sprintf("jobtop: the jobtop instance on %s (pid %d) ended before it served\n", c.socket, serve.Process.Pid))
}

// TestAnInstanceAtAGateWhoseTestEndedExits: a test that ends without
// opening its load gate (it failed, or left a background serve behind)
// removes its directory; an instance at that gate exits instead of
// waiting for ever (two such serves were found an hour after their test).
func TestAnInstanceAtAGateWhoseTestEndedExits(t *testing.T) {
	c := newCLI(t)
	dir := sleeperDir(t)
	gateDir := t.TempDir()
	proc := exec.Command(binary, "serve")
	proc.Env = append(c.env[:len(c.env):len(c.env)], loadGateEnv+"="+filepath.Join(gateDir, "loaded"))
	proc.Dir = dir
	require.NoError(t, proc.Start())
	exited := make(chan error, 1)
	go func() { exited <- proc.Wait() }()
	t.Cleanup(func() { proc.Process.Kill() }) //nolint:errcheck // may have exited
	require.Eventually(t, func() bool { return lockHeld(c.socket) }, testTimeout, 10*time.Millisecond, "serve at its gate")
	require.NoError(t, os.RemoveAll(gateDir))
	assert.NotZero(t, exitCode(t, exited, "serve still waits at a gate whose directory is gone"), "it exits 1")
}

// TestServeDetachInterruptedWhileItsJobsStartSaysWhatGoesOn: ^C to
// serve -D once its serve has the go-ahead (starting a big file's jobs
// takes a minute) said nothing: serve -D died of the signal and the
// serve went on. It says the serve goes on and how to stop it.
func TestServeDetachInterruptedWhileItsJobsStartSaysWhatGoesOn(t *testing.T) {
	c := newCLI(t)
	dir := sleeperDir(t)
	startGate := filepath.Join(c.dir, "start")
	c.env = append(c.env, startGateEnv+"="+startGate)
	require.NoError(t, os.WriteFile(filepath.Join(c.dir, "loaded"), nil, 0o600)) // the load gate, open
	parent, stderr, _, exited := gatedInstance(t, c, dir, "serve", "-D")
	require.Eventually(t, func() bool { _, err := os.Stat(startGate + ".waiting"); return err == nil }, testTimeout, 10*time.Millisecond, "reported, about to start its jobs")
	require.Eventually(t, func() bool { return connectedUnixSocket(parent.Process.Pid) }, testTimeout, 10*time.Millisecond, "serve -D waits for its jobs")
	inst := loadingInstanceOn(t, c.socket)
	t.Cleanup(func() { syscall.Kill(inst.PID, syscall.SIGKILL) }) //nolint:errcheck // the serve goes on

	require.NoError(t, parent.Process.Signal(syscall.SIGINT))
	assert.Equal(t, 130, exitCode(t, exited, "serve -D did not end"))
	assert.Equal(t, fmt.Sprintf("jobtop: SIGINT: the serve in the background (pid %d) goes on starting its jobs; jobtop shutdown --socket %s stops it\n", inst.PID, c.socket), stderr.String())
	assert.True(t, processAlive(inst.PID), "the serve goes on")
}

// exitCode waits for the end of a process the test started (exited, as
// gatedInstance gives it) and returns its exit code (-1: ended by a
// signal); the test fails with notEnded if it has not ended in time.
func exitCode(t *testing.T, exited <-chan error, notEnded string) int {
	t.Helper()
	select {
	case err := <-exited:
		if err == nil {
			return 0
		}
		var exit *exec.ExitError
		require.ErrorAs(t, err, &exit)
		return exit.ExitCode()
	case <-time.After(testTimeout):
		t.Fatal(notEnded)
		return 0
	}
}

// sleeperDir is a directory with a job file of one job, loaded, that
// sleeps.
func sleeperDir(t *testing.T) string {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "jobtop.yaml"), []byte("jobs:\n  loaded:\n    cmd: sleep 600\n"), 0o600))
	return dir
}

// loadingInstanceOn is who answers on socket (an instance loading, or
// served).
func loadingInstanceOn(t *testing.T, socket string) control.Instance {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	client := control.NewClient(socket)
	defer client.Close()
	inst, err := client.Instance(ctx)
	require.NoError(t, err)
	return inst
}
