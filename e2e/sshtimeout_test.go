package e2e

import (
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"jobtop/control"
)

// runBounded runs a command of r, failing the test if it has not
// returned within deadline (a hang, which the test is about).
func (r *remote) runBounded(args ...string) (string, string, int) {
	r.t.Helper()
	type result struct {
		out, errOut string
		code        int
	}
	done := make(chan result, 1)
	go func() {
		out, errOut, code := r.run(args...)
		done <- result{out, errOut, code}
	}()
	select {
	case res := <-done:
		return res.out, res.errOut, res.code
	case <-time.After(deadline):
		r.t.Fatalf("jobtop --host %v has not returned after %v", args, deadline)
		return "", "", 0
	}
}

// A far end that connects and never answers (a far jobtop instance
// stopped with SIGSTOP; a far program that reads and says nothing) makes
// the read commands give up after --host-timeout, saying what did not
// answer and what to check, instead of hanging for ever. The limit is on
// the first answer only: a wait that lasts longer than it still waits.
func TestSSHFarEndThatNeverAnswers(t *testing.T) {
	bin := binary(t)
	h := startSSHD(t)
	h.installJobtop(t, bin)
	name := "127.0.0.1:" + strconv.Itoa(h.port)
	sock := filepath.Join(h.farDir, "t.sock")
	// The far instance starts with the default limit (starting it may
	// take a few seconds on a busy machine); then a shorter one, with
	// room for ssh on a busy machine: the far side gives up after two
	// thirds of it, and ssh has the last third to log in and carry its
	// words back (8s and 9s left too little on a loaded 2-core machine:
	// the client's own limit cut first).
	r := newRemote(t, bin, h, "--remote-socket", sock)
	r.shutdownOnCleanup()
	require.Equal(t, "1\n", r.ok("run", "--name", "nap", "--", "sleep 20; echo rested")) // longer than the limit below
	r.flags = append(r.flags, "--host-timeout", "15s")
	_, errOut, code := r.runBounded("wait", "1")
	require.Equal(t, 0, code, "a wait longer than --host-timeout is not cut by it: %s", errOut)
	assert.Contains(t, r.ok("logs", "1"), "rested")

	pid := farPID(t, sock)
	cont := stopInstance(t, sock)

	// The far dial-stdio gives up first (two thirds of --host-timeout:
	// 10s), and says, as a local command would, which process did not
	// answer and that it is stopped, in the words of the limit given
	// here (15s, about: it knows two thirds of it).
	for _, args := range [][]string{{"ls"}, {"status", "1"}, {"logs", "1"}} {
		_, errOut, code = r.runBounded(args...)
		assert.Equal(t, 1, code, "jobtop --host %v", args)
		assert.Contains(t, errOut, fmt.Sprintf("jobtop: jobtop dial-stdio on host %s failed (exit status 1): the jobtop instance on %s (pid %d) did not answer within about 15s: it is stopped (SIGSTOP, or ^Z where it runs); `kill -CONT %d` there resumes it; --host-timeout DUR sets the limit where you ran jobtop (0: wait as long as it takes)", name, sock, pid, pid), "jobtop --host %v", args)
	}
	// logs --follow and --stderr ask about the job before they read: one
	// connection that gives up is the end of it, not a second wait.
	counted, count := filepath.Join(h.farBin, "jobtop-counted"), filepath.Join(h.farDir, "dials")
	writeFile(t, counted, "#!/bin/sh\necho dial >> "+count+"\nexec "+filepath.Join(h.farBin, "jobtop")+" \"$@\"\n")
	require.NoError(t, os.Chmod(counted, 0o700))
	for _, args := range [][]string{{"logs", "1", "--follow"}, {"logs", "1", "--stderr"}} {
		require.NoError(t, os.RemoveAll(count))
		_, errOut, code = newRemote(t, bin, h, "--remote-socket", sock, "--remote-bin", counted, "--host-timeout", "15s").runBounded(args...)
		assert.Equal(t, 1, code, "jobtop --host %v: %s", args, errOut)
		assert.Contains(t, errOut, "did not answer within about 15s", "jobtop --host %v", args)
		dials, err := os.ReadFile(count)
		require.NoError(t, err)
		assert.Equal(t, "dial\n", string(dials), "jobtop --host %v waits once", args)
	}
	// With no limit there, the client's own is the one that cuts.
	far := filepath.Join(h.farBin, "jobtop-no-limit")
	writeFile(t, far, "#!/bin/sh\nexec "+filepath.Join(h.farBin, "jobtop")+" \"$@\" --answer-timeout 0\n")
	require.NoError(t, os.Chmod(far, 0o700))
	_, errOut, code = newRemote(t, bin, h, "--remote-socket", sock, "--remote-bin", far, "--host-timeout", "3s").runBounded("ls")
	assert.Equal(t, 1, code)
	assert.Contains(t, errOut, "jobtop: no answer from "+far+" dial-stdio on host "+name+" within 3s: check that `ssh "+h.url+" true` logs in without asking anything, and that the jobtop instance there answers (`ssh "+h.url+" "+far+" ls --socket "+sock+"`")
	assert.Contains(t, errOut, "--host-timeout DUR sets the limit")
	cont()
	assert.Contains(t, r.ok("ls"), "nap", "once it runs again, it answers")

	// A far program that reads its input and never answers.
	mute := filepath.Join(h.farBin, "mute")
	writeFile(t, mute, "#!/bin/sh\nexec cat >/dev/null\n")
	require.NoError(t, os.Chmod(mute, 0o700))
	_, errOut, code = newRemote(t, bin, h, "--remote-bin", mute, "--host-timeout", "1").runBounded("ls")
	assert.Equal(t, 1, code)
	assert.Contains(t, errOut, "jobtop: no answer from "+mute+" dial-stdio on host "+name+" within 1s: check that")

	require.Eventually(t, func() bool { return len(h.sshProcesses(0)) == 0 }, deadline, 20*time.Millisecond,
		"no ssh outlives a command that gave up: %v", h.sshProcesses(0))
}

// farPID is the PID of the instance listening on sock.
func farPID(t *testing.T, sock string) int {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	c := control.NewClient(sock)
	defer c.Close()
	inst, err := c.Instance(ctx)
	require.NoError(t, err)
	return inst.PID
}

// stopInstance stops the instance listening on sock with SIGSTOP, and
// returns what lets it go on, which the test's cleanup also runs (before
// a shutdown registered earlier).
func stopInstance(t *testing.T, sock string) (cont func()) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	c := control.NewClient(sock)
	defer c.Close()
	inst, err := c.Instance(ctx)
	require.NoError(t, err)
	require.NoError(t, syscall.Kill(inst.PID, syscall.SIGSTOP))
	stopped := true
	cont = func() {
		if stopped {
			syscall.Kill(inst.PID, syscall.SIGCONT) //nolint:errcheck // it may have ended
			stopped = false
		}
	}
	t.Cleanup(cont)
	return cont
}

// Tab completion against a host that takes the connection and never
// says a word (not even ssh's banner) gives up after its two seconds and
// leaves no ssh behind: one orphan a TAB, before.
func TestSSHCompletionLeavesNoSSH(t *testing.T) {
	bin := binary(t)
	h := startSSHD(t)
	mute, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer mute.Close()
	go func() {
		var held []net.Conn
		for {
			c, err := mute.Accept()
			if err != nil {
				for _, c := range held {
					c.Close()
				}
				return
			}
			held = append(held, c)
		}
	}()
	port := mute.Addr().(*net.TCPAddr).Port
	r := newRemote(t, bin, h)
	r.flags = []string{"--host", fmt.Sprintf("ssh://127.0.0.1:%d", port)}
	out, _, code := r.runBounded("__complete", "logs", "")
	assert.Equal(t, 0, code)
	assert.Contains(t, out, ":4", "no job to offer, and no file names")
	assert.Empty(t, h.sshProcesses(0), "an ssh of the completion outlived it")
}
