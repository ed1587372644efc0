package keeper

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestARunOutlivesJobtopsEndsOfItsOutput: when jobtop dies, its ends of a
// run's output close with it. The keeper holds copies, so the run's
// writes as it stops (a server logging its shutdown) neither fail with
// EPIPE on pipes nor hang up its terminal: its trap runs to the end, in
// its grace, and what it writes is appended to its log after a marker.
func TestARunOutlivesJobtopsEndsOfItsOutput(t *testing.T) {
	for _, tc := range []struct {
		name          string
		tty, macOSWay bool // the macOS way: no stash, held in the table
	}{{"pipes", false, false}, {"terminal", true, false}, {"pipes the macOS way", false, true}} {
		tty := tc.tty
		t.Run(tc.name, func(t *testing.T) {
			start := startKeeper
			if tc.macOSWay {
				start = startSessionKeeper
			}
			c, _ := start(t)
			dir := t.TempDir()
			done, log := filepath.Join(dir, "done"), filepath.Join(dir, "run.log")
			require.NoError(t, os.WriteFile(log, []byte("up, no newline yet"), 0o600))
			script := "trap 'echo draining; echo on stderr >&2; sleep 0.3; echo drained > " + done + "; exit 0' TERM; " +
				"echo up; while :; do sleep 0.05; done"
			s := Spawn{Run: 1, Path: "/bin/sh", Argv: []string{"sh", "-c", script},
				Env: []string{"PATH=" + os.Getenv("PATH")}, StopSignal: syscall.SIGTERM, Grace: 10 * time.Second, Log: log}
			var ours []*os.File
			if tty {
				master, slave, err := pty.Open()
				require.NoError(t, err)
				s.Stdin, s.Stdout, s.Stderr, s.TTY = slave, slave, slave, true
				ours = []*os.File{master}
				defer slave.Close()
			} else {
				outR, outW, err := os.Pipe()
				require.NoError(t, err)
				errR, errW, err := os.Pipe()
				require.NoError(t, err)
				null, err := os.Open(os.DevNull)
				require.NoError(t, err)
				defer null.Close()
				s.Stdin, s.Stdout, s.Stderr = null, outW, errW
				ours = []*os.File{outR, errR}
				defer outW.Close()
				defer errW.Close()
			}
			s.Hold = ours
			_, err := c.Spawn(s)
			require.NoError(t, err)
			s.Stdin.Close()
			s.Stdout.Close()
			s.Stderr.Close()
			line, err := bufio.NewReader(ours[0]).ReadString('\n')
			require.NoError(t, err)
			require.Equal(t, "up", strings.TrimSpace(line))

			for _, f := range ours { // jobtop dies: its ends close, and the lifeline
				f.Close()
			}
			require.NoError(t, c.Close())
			b, err := os.ReadFile(done)
			require.NoError(t, err, "the run's trap ran to its end")
			assert.Equal(t, "drained\n", string(b))
			b, err = os.ReadFile(log)
			require.NoError(t, err)
			got := strings.ReplaceAll(string(b), "\r", "")
			assert.True(t, strings.HasPrefix(got, "up, no newline yet\n"+drainMarker), "%q", got)
			assert.Contains(t, got, "draining\n")
			assert.Contains(t, got, "on stderr\n")
		})
	}
}

// The keeper appends maxDrain bytes of what a run writes, to the byte,
// then drops the rest and says so once, on a line of its own.
func TestDrainSaysWhenItDropsOutput(t *testing.T) {
	path := filepath.Join(t.TempDir(), "1.log")
	require.NoError(t, os.WriteFile(path, []byte("before\n"), 0o600))
	l := newDrainLog(path)
	l.left.Store(16)
	l.write([]byte("kept, no nl"))
	l.write([]byte("kept+dropped\n"))
	l.write([]byte("dropped too\n"))
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, "before\n"+drainMarker+"kept, no nlkept+\n"+fullMarker, string(b))
}

// The keeper drains into the file it opened, whatever takes its name
// meanwhile: once jobtop is gone, a new instance's job can have a log of
// the same name, and none of the old run's output may land in it.
func TestDrainKeepsToTheFileItOpened(t *testing.T) {
	dir := t.TempDir()
	path, moved := filepath.Join(dir, "1.log"), filepath.Join(dir, "old.log")
	require.NoError(t, os.WriteFile(path, []byte("before\n"), 0o600))
	l := newDrainLog(path)
	l.write([]byte("first\n"))
	require.NoError(t, os.Rename(path, moved))
	require.NoError(t, os.WriteFile(path, []byte("another job's\n"), 0o600))
	l.write([]byte("second\n"))
	l.marker(fullMarker)
	l.close()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, "another job's\n", string(b), "the file now at the path is not written")
	b, err = os.ReadFile(moved)
	require.NoError(t, err)
	assert.Equal(t, "before\n"+drainMarker+"first\nsecond\n"+fullMarker, string(b))
}

// The keeper's after-death append never writes through a symlink put at
// the log's path: the file it points at is left as it was.
func TestTheDrainLogNeverAppendsThroughASymlink(t *testing.T) {
	dir := t.TempDir()
	outside := filepath.Join(t.TempDir(), "keys.txt")
	require.NoError(t, os.WriteFile(outside, []byte("alice's keys\n"), 0o600))
	path := filepath.Join(dir, "1.log")
	require.NoError(t, os.Symlink(outside, path))
	l := newDrainLog(path)
	l.write([]byte("the run's last output\n"))
	l.marker("a marker")
	l.close()
	b, err := os.ReadFile(outside)
	require.NoError(t, err)
	assert.Equal(t, "alice's keys\n", string(b))
}
