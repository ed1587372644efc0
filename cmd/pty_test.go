package cmd

import (
	"fmt"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// waitLog polls jobtop logs until its output holds want.
func (c *cli) waitLog(id, want string) {
	c.t.Helper()
	require.Eventually(c.t, func() bool { return strings.Contains(c.ok("logs", id), want) }, testTimeout, 20*time.Millisecond,
		"job %s never wrote %q", id, want)
}

func TestSendAnswersAPrompt(t *testing.T) {
	c := newCLI(t)
	c.serve()
	id := c.startJob(`bash -c "read -p 'Overwrite? [y/N] ' a; echo answer=\$a"`, "--tty")
	info := c.status(id)
	assert.True(t, info.TTY)
	c.waitLog(id, "Overwrite? [y/N] ")
	c.ok("send", id, "--enter", "y")
	c.ok("wait", id)
	assert.Equal(t, []string{"Overwrite? [y/N] y", "answer=y"}, c.logLines(id))
}

func TestSendToStdinPipe(t *testing.T) {
	c := newCLI(t)
	c.serve()
	id := c.startJob("read a; echo got=$a; cat", "--stdin", "pipe")
	c.ok("send", id, `first\nsecond`, "--enter")
	c.waitLog(id, "second")
	assert.Equal(t, []string{"got=first", "second"}, c.logLines(id))
}

func TestSendRefusals(t *testing.T) {
	c := newCLI(t)
	c.serve()
	pipes := c.startJob("sleep 600")
	r := c.run("send", pipes, "x")
	assert.NotEqual(t, 0, r.code)
	assert.Contains(t, r.stderr, "cannot send input to job "+pipes+": it runs on pipes with stdin on /dev/null")

	done := c.startJob("true", "--tty")
	c.ok("wait", done)
	r = c.run("send", done, "x")
	assert.Contains(t, r.stderr, "cannot send input to job "+done+": it is succeeded")

	r = c.run("send", done, `\q`)
	assert.Contains(t, r.stderr, `unknown escape \q`)
	r = c.run("send", done)
	assert.Contains(t, r.stderr, "nothing to send")
	r = c.run("run", "--tty", "--stdin", "pipe", "--", "true")
	assert.Contains(t, r.stderr, "--stdin pipe is for jobs on pipes")
	r = c.run("run", "--stdin", "file", "--", "true")
	assert.Contains(t, r.stderr, `stdin "file" is not one of null, pipe`)
}

// TestServeKilledLeavesNothingOfTTYJobs: TTY jobs hang up with their
// terminal's master, but that is not what is relied on: the keeper stops
// them as it stops pipe jobs.
func TestServeKilledLeavesNothingOfTTYJobs(t *testing.T) {
	c := newCLI(t)
	serve := c.serve()
	mark := fmt.Sprintf("%s-%d", t.Name(), time.Now().UnixNano())
	// One ignores the hang-up: only the keeper's stop ends it.
	c.startJob("trap '' HUP; "+jobTree, "--tty", "--env", "TEST_MARK="+mark)
	c.startJob(jobTree, "--tty", "--env", "TEST_MARK="+mark)
	require.Eventually(t, func() bool { return len(markedProcs(mark)) == 8 }, testTimeout, 10*time.Millisecond)
	require.NoError(t, serve.Process.Signal(syscall.SIGKILL))
	serve.Wait() //nolint:errcheck // killed on purpose
	requireNoneLeft(t, mark, 10*time.Second)
}
