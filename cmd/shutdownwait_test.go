package cmd

import (
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestWaitAndFollowWhenTheInstanceShutsDown: jobtop shutdown (or the TUI
// quitting) while a wait or a follow runs stops the job: wait exited 143
// ("job 1 was killed by SIGTERM") and logs -f 0, as if the job had been
// killed by someone. The instance ended it because it was ending, so the
// job has no outcome of its own: wait exits 255 and logs -f 1, as the
// README says, naming the cause.
func TestWaitAndFollowWhenTheInstanceShutsDown(t *testing.T) {
	c := newCLI(t)
	c.serve()
	id := c.startJob("echo up; exec sleep 600", "--name", "long")
	c.ok("wait", id, "--until", "^up$", "--timeout", "20s")
	wait, waited := c.startWait("wait", id)
	many, waitedMany := c.startWait("wait", "--all")
	follow, followed := c.startWait("logs", "-f", id)
	followJSON, followedJSON := c.startWait("logs", "-f", "--json", id)
	all, followedAll := c.startWait("logs", "--all", "-f")
	for _, p := range []*struct {
		pid int
		out func() string
	}{
		{wait.Process.Pid, nil}, {many.Process.Pid, nil},
		{follow.Process.Pid, follow.Stdout.(*lockedBuffer).String},
		{followJSON.Process.Pid, followJSON.Stdout.(*lockedBuffer).String},
		{all.Process.Pid, all.Stdout.(*lockedBuffer).String},
	} {
		require.Eventually(t, func() bool {
			return hasSocket(p.pid) && (p.out == nil || strings.Contains(p.out(), "up"))
		}, testTimeout, 10*time.Millisecond, "pid %d waiting", p.pid)
	}
	r := c.run("shutdown")
	require.Equal(t, 0, r.code, r.stderr)

	cause := "ended while waiting for job " + id + ": it stopped job " + id + " as it shut down (jobtop shutdown, its TUI quit, or a signal), and its jobs end with it"
	r = waited()
	assert.Equal(t, exitInstanceGone, r.code, r.stderr)
	assert.Contains(t, r.stderr, "jobtop: the jobtop instance on "+c.socket+" "+cause)
	r = waitedMany()
	assert.Equal(t, exitInstanceGone, r.code, r.stderr)
	assert.Contains(t, r.stderr, "ended while waiting for 1 job: it stopped job "+id+" as it shut down")
	for name, r := range map[string]result{"logs -f": followed(), "logs -f --json": followedJSON()} {
		assert.Equal(t, 1, r.code, "%s: %s", name, r.stderr)
		assert.Contains(t, r.stderr, "ended while following job "+id+"'s output: it stopped job "+id+" as it shut down", name)
	}
	r = followedAll()
	assert.Equal(t, 1, r.code, r.stderr)
	assert.Contains(t, r.stderr, "ended while following every job's output: it stopped its jobs as it shut down")
}

// TestWaitOnAStoppedInstance: an instance stopped with SIGSTOP takes the
// connection and never answers; wait gave up with exit 1, where the
// README promises 255 when no instance answers. logs --follow exits 1,
// as documented.
func TestWaitOnAStoppedInstance(t *testing.T) {
	c := newCLI(t)
	serve := c.serve()
	id := c.startJob("exec sleep 600")
	require.NoError(t, serve.Process.Signal(syscall.SIGSTOP))
	t.Cleanup(func() { serve.Process.Signal(syscall.SIGCONT) }) //nolint:errcheck // before its SIGTERM
	for _, args := range [][]string{{"wait", id}, {"wait", "--all"}, {"wait", id, "--until", "x"}} {
		r := c.run(append(args, "--answer-timeout", "1s")...)
		assert.Equal(t, exitInstanceGone, r.code, "%v: %s", args, r.stderr)
		assert.Contains(t, r.stderr, "did not answer within 1s: it is stopped", args)
	}
	r := c.run("logs", "-f", id, "--answer-timeout", "1s")
	assert.Equal(t, 1, r.code, r.stderr)
	assert.Contains(t, r.stderr, "did not answer within 1s: it is stopped")
}
