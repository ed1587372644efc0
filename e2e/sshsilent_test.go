package e2e

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"jobtop/control"
)

// syncBuffer is a bytes.Buffer a running command writes while the test
// reads it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// A far instance stopped with SIGSTOP while `logs --follow` reads it
// over ssh has not ended: the client says what it knows (no answer for
// so long; stopped, hung or the link down; the jobs may still run) and
// how to check, not that the instance ended with its jobs, and leaves
// no ssh behind. Resumed, the instance still runs the job.
func TestSSHFollowOfAStoppedInstance(t *testing.T) {
	bin := binary(t)
	h := startSSHD(t)
	h.installJobtop(t, bin)
	name := "127.0.0.1:" + strconv.Itoa(h.port)
	sock := filepath.Join(h.farDir, "t.sock")
	r := newRemote(t, bin, h, "--remote-socket", sock)
	r.shutdownOnCleanup()
	require.Equal(t, "1\n", r.ok("run", "--name", "tick", "--", "while :; do echo t; sleep 1; done"))

	follow := exec.Command(r.bin, append(append([]string{}, r.flags...), "logs", "1", "--follow")...)
	follow.Env = append(append(os.Environ(), r.env...), r.host.env...)
	var stdout, stderr syncBuffer
	follow.Stdout, follow.Stderr = &stdout, &stderr
	require.NoError(t, follow.Start())
	done := make(chan error, 1)
	go func() { done <- follow.Wait() }()
	t.Cleanup(func() {
		follow.Process.Kill() //nolint:errcheck // may have ended
		<-done
	})
	require.Eventually(t, func() bool { return strings.Count(stdout.String(), "t\n") >= 2 }, deadline, 20*time.Millisecond,
		"the follow never showed the job's lines: %s", stderr.String())

	cont := stopInstance(t, sock)

	select {
	case <-done:
		done <- nil // for the cleanup
	case <-time.After(control.HostSilence + deadline):
		t.Fatalf("logs --follow has not given up %v after the instance stopped: %s", control.HostSilence+deadline, stderr.String())
	}
	said := stderr.String()
	assert.Contains(t, said, "jobtop: no answer from the jobtop instance on host "+name+" for 30s while following job 1's output: "+
		"it may be stopped (SIGSTOP: kill -CONT it) or hung, or the link to the host down, and its jobs may still run; "+
		"`ssh "+h.url+" jobtop ls --socket "+sock+"` says whether it answers")
	assert.NotContains(t, said, "ended")
	// Its ssh, whose far dial-stdio waits on the stopped instance, went
	// with it.
	assert.Empty(t, h.sshProcesses(0), "an ssh of logs --follow outlived it")

	cont()
	assert.Contains(t, r.ok("status", "1"), "running", "the job ran on")
}
