package cmd

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/creack/pty"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"jobtop/control"
)

// lockedBuffer is a bytes.Buffer a running command writes while the
// test reads it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// follow starts `jobtop logs ARGS... --follow` and returns its output as
// it grows and a wait for its end.
func (c *cli) follow(args ...string) (*lockedBuffer, func()) {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	cmd := exec.CommandContext(ctx, binary, append(append([]string{"logs"}, args...), "--follow")...)
	cmd.Env = c.env
	out := &lockedBuffer{}
	cmd.Stdout = out
	require.NoError(c.t, cmd.Start())
	wait := func() {
		defer cancel()
		require.NoError(c.t, cmd.Wait(), "logs --follow")
	}
	c.t.Cleanup(func() { cancel(); cmd.Wait() }) //nolint:errcheck // ended by the test or here
	return out, wait
}

// TestLogsFollowShowsPrompt: a follower sees a prompt the job waits at,
// before its newline, and the rest of the line once it is complete, with
// no text printed twice.
func TestLogsFollowShowsPrompt(t *testing.T) {
	c := newCLI(t)
	c.serve()
	id := c.startJob(`printf "Continue? [y/N] "; read a; echo answer=$a`, "--stdin", "pipe")
	out, wait := c.follow(id)
	require.Eventually(t, func() bool { return out.String() == "Continue? [y/N] " }, testTimeout, 10*time.Millisecond,
		"the pending prompt is shown")
	c.ok("send", id, "--enter", "y")
	wait()
	assert.Equal(t, "Continue? [y/N] answer=y\n", out.String())
}

// TestLogsFollowRedrawnPartial: off a terminal, a partial line that is
// redrawn (\r), not grown, is not shown until complete, then whole;
// a partial shown before it was redrawn is ended.
func TestLogsFollowRedrawnPartial(t *testing.T) {
	c := newCLI(t)
	c.serve()
	// A fifo per step: a read that opened the fifo while the previous
	// step's writer still held it would end at that writer's EOF.
	step := []string{mkfifo(t), mkfifo(t), mkfifo(t)}
	id := c.startJob(`printf 'get '; read x <` + step[0] + `; printf '\r1%%'; read x <` + step[1] + `; printf '\rdone\n'; printf 'a'; read x <` + step[2] + `; echo b`)
	out, wait := c.follow(id)
	require.Eventually(t, func() bool { return out.String() == "get " }, testTimeout, 10*time.Millisecond)
	writeFifo(t, step[0], "\n")
	require.Eventually(t, func() bool { return out.String() == "get \n" }, testTimeout, 10*time.Millisecond)
	writeFifo(t, step[1], "\n")
	require.Eventually(t, func() bool { return out.String() == "get \ndone\na" }, testTimeout, 10*time.Millisecond)
	writeFifo(t, step[2], "\n")
	wait()
	assert.Equal(t, "get \ndone\nab\n", out.String())
}

// progressBar is a job writing a line, then drawing a bar as tqdm does
// ("\r" and the frame), a frame per step (a fifo written by the test),
// then a line below the bar. It returns once the first frame is drawn:
// a follower that prints the line has read that frame with it.
func progressBar(t *testing.T, c *cli) (id string, step []string) {
	step = []string{mkfifo(t), mkfifo(t)}
	id = c.startJob(`printf 'start\n\repoch 1:   0%%|     | 0/40'; read x <` + step[0] +
		`; printf '\repoch 1:  55%%|###  | 22/40'; read x <` + step[1] +
		`; printf '\repoch 1: 100%%|#####| 40/40\n'; echo next`)
	require.Eventually(t, func() bool {
		var r control.OutputResponse
		require.NoError(t, json.Unmarshal([]byte(c.ok("logs", id, "--json")), &r))
		return len(r.Partial) == 1 && strings.HasSuffix(r.Partial[0].Text, "0/40") && r.Partial[0].Redrawn
	}, testTimeout, 10*time.Millisecond, "the first frame is drawn")
	return id, step
}

// TestLogsFollowProgressBarToAPipe: a follower printing to a pipe
// prints a bar's line once, complete: not its first frame as well (it
// did, as a line of its own above the finished bar).
func TestLogsFollowProgressBarToAPipe(t *testing.T) {
	c := newCLI(t)
	c.serve()
	id, step := progressBar(t, c)
	out, wait := c.follow(id)
	require.Eventually(t, func() bool { return strings.HasPrefix(out.String(), "start\n") }, testTimeout, 10*time.Millisecond)
	writeFifo(t, step[0], "\n")
	writeFifo(t, step[1], "\n")
	wait()
	assert.Equal(t, "start\nepoch 1: 100%|#####| 40/40\nnext\n", out.String())
}

// TestLogsFollowProgressBarOnATerminal: on a terminal, a follower draws
// each frame of a bar over the one before, on one line, and the next
// line below the finished bar (it froze at the first frame).
func TestLogsFollowProgressBarOnATerminal(t *testing.T) {
	c := newCLI(t)
	c.serve()
	id, step := progressBar(t, c)
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	follow := exec.CommandContext(ctx, binary, "logs", id, "--follow")
	follow.Env = append(c.env[:len(c.env):len(c.env)], "TERM=xterm-256color")
	master, err := pty.StartWithSize(follow, &pty.Winsize{Cols: 100, Rows: 30})
	require.NoError(t, err)
	t.Cleanup(func() { cancel(); follow.Wait(); master.Close() }) //nolint:errcheck // ended by the test or here
	out := &lockedBuffer{}
	go io.Copy(out, master) //nolint:errcheck // ends when the pty closes

	require.Eventually(t, func() bool { return strings.HasSuffix(out.String(), "epoch 1:   0%|     | 0/40") }, testTimeout, 10*time.Millisecond)
	writeFifo(t, step[0], "\n")
	require.Eventually(t, func() bool {
		return strings.HasSuffix(out.String(), "epoch 1:   0%|     | 0/40\r\x1b[Jepoch 1:  55%|###  | 22/40")
	}, testTimeout, 10*time.Millisecond, "the frame drawn over the first: %q", out)
	writeFifo(t, step[1], "\n")
	require.NoError(t, follow.Wait())
	require.Eventually(t, func() bool { return strings.HasSuffix(out.String(), "next\r\n") }, testTimeout, 10*time.Millisecond)
	assert.Equal(t, "start\r\nepoch 1:   0%|     | 0/40\r\x1b[Jepoch 1:  55%|###  | 22/40\r\x1b[Jepoch 1: 100%|#####| 40/40\r\nnext\r\n", out.String())
}

// TestLogsFollowPartialCutInACharacter: a line being written that ends in
// the first bytes of a character is shown up to it, then the rest, once:
// never the line again.
func TestLogsFollowPartialCutInACharacter(t *testing.T) {
	c := newCLI(t)
	c.serve()
	step := mkfifo(t)
	id := c.startJob(`printf 'caf\303'; read x <` + step + `; printf '\251 ok\n'`)
	out, wait := c.follow(id)
	require.Eventually(t, func() bool { return out.String() == "caf" }, testTimeout, 10*time.Millisecond)
	writeFifo(t, step, "\n")
	wait()
	assert.Equal(t, "café ok\n", out.String())
}

// A follower still reading a job's output when the job is killed and
// removed gets the rest of it and ends as for a job that ended: it said
// "no job with ID N", exit 1, once the job was gone from the list. The
// follower here is held (its stdout not read) while the job, whose
// output is far more than the pipes and socket buffers hold, is killed
// and removed.
func TestLogsFollowOfAJobRemovedWhileRead(t *testing.T) {
	c := newCLI(t)
	c.serve()
	marker := filepath.Join(c.dir, "written")
	id := c.startJob(`awk 'BEGIN { s = sprintf("%1000s", ""); gsub(/ /, "x", s); for (i = 1; i <= 20000; i++) print i, s }'; touch ` + marker + `; exec sleep 300`)

	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	r, w, err := os.Pipe()
	require.NoError(t, err)
	defer r.Close()
	follow := exec.CommandContext(ctx, binary, "logs", id, "--follow")
	follow.Env = c.env
	follow.Stdout = w
	var stderr lockedBuffer
	follow.Stderr = &stderr
	require.NoError(t, follow.Start())
	w.Close()
	t.Cleanup(func() { cancel(); follow.Wait() }) //nolint:errcheck // ended by the test or here
	lines := bufio.NewReaderSize(r, 1<<20)
	_, err = lines.ReadString('\n') // it follows
	require.NoError(t, err)
	require.Eventually(t, func() bool { _, err := os.Stat(marker); return err == nil }, testTimeout, 20*time.Millisecond)

	c.ok("kill", id)
	c.ok("rm", id)
	var last string
	for {
		line, err := lines.ReadString('\n')
		if err != nil {
			break
		}
		last = line
	}
	require.NoError(t, follow.Wait(), "stderr: %s", stderr.String())
	assert.True(t, strings.HasPrefix(last, "20000 x"), "the last line: %.20q", last)
	assert.NotContains(t, stderr.String(), "no job")
}
