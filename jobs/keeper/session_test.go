package keeper

import (
	"net"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"

	"jobtop/jobs/proc"
)

// These tests run the keeper as it runs on macOS, without a child
// subreaper: what leaves a run's tree is found by the run's session and
// by its JOBTOP_RUN environment variable, or not at all.

func startSessionKeeper(t *testing.T) (*Client, *recorder) {
	t.Helper()
	keeperTestEnv = []string{noSubreaperEnv + "=1"}
	defer func() { keeperTestEnv = nil }()
	c, rec := startKeeper(t)
	require.Empty(t, c.Warning(), "no subreaper is not a failure here")
	return c, rec
}

// killMarked kills what a test left running on purpose.
func killMarked(t *testing.T, mark string) {
	t.Cleanup(func() {
		for _, pid := range marked(mark) {
			syscall.Kill(pid, syscall.SIGKILL) //nolint:errcheck // test cleanup
		}
	})
}

func TestWithoutSubreaperOrphansAreFoundBySessionAndEnvironment(t *testing.T) {
	c, rec := startSessionKeeper(t)
	t.Cleanup(func() { c.Close() })
	mark := "orphans-" + t.Name()
	killMarked(t, mark)
	// Both sleeps lose their parent at once: one stays in the run's
	// session, one leaves it but keeps its environment.
	spawnShell(t, c, 3, "(sleep 600 &); (setsid sleep 600 &); exit 5", mark, time.Second)
	ev := rec.next(t)
	assert.Equal(t, Event{Run: 3, Kind: Exited, Status: ev.Status, Left: 2, At: ev.At}, ev)
	assert.Equal(t, 5, ev.Status.ExitStatus())
	for _, pid := range marked(mark) {
		p, err := proc.Get(pid)
		require.NoError(t, err)
		assert.NotEqual(t, c.Identity().PID, p.PPID, "not the keeper's child")
	}
	c.Signal(3, syscall.SIGTERM)
	// Nothing tells the keeper by SIGCHLD: it looks again on its own.
	assert.Equal(t, Event{Run: 3, Kind: Empty}, withoutTime(rec.next(t)))
	assert.Empty(t, marked(mark))
}

func TestWithoutSubreaperLifelineEndStopsEverything(t *testing.T) {
	c, _ := startSessionKeeper(t)
	mark := "lifeline-" + t.Name()
	killMarked(t, mark)
	spawnShell(t, c, 1, "sleep 600 & setsid sleep 600 & (sleep 600 &); (setsid sleep 600 &); wait", mark, time.Second)
	spawnShell(t, c, 2, "trap '' TERM; sleep 600 & (sleep 600 &); wait", mark, 300*time.Millisecond)
	eventually(t, "both runs' processes", func() bool { return len(marked(mark)) >= 8 })
	keeperPID := c.Identity().PID
	require.NoError(t, c.Close())
	assert.False(t, alive(keeperPID), "the keeper exited")
	assert.Empty(t, marked(mark), "nothing of either run is left")
}

// TestWithoutSubreaperTheEscapeIsNotFollowed pins down what the README
// says cannot be followed without a subreaper: a process that leaves the
// run's session, drops JOBTOP_RUN, and whose parent exits. And a process
// that was never the keeper's is left alone.
func TestWithoutSubreaperTheEscapeIsNotFollowed(t *testing.T) {
	c, rec := startSessionKeeper(t)
	mark := "escape-" + t.Name()
	killMarked(t, mark)
	// The main process outlives the escape: a look while the escaping
	// process still had JOBTOP_RUN (before its exec) would follow it.
	spawnShell(t, c, 1, "(setsid env -u JOBTOP_RUN sleep 600 &); sleep 0.3; exit 0", mark, time.Second)
	assert.Equal(t, Event{Run: 1, Kind: Exited, Left: 0}, withoutTime(rec.next(t)))
	assert.Equal(t, Event{Run: 1, Kind: Empty}, withoutTime(rec.next(t)))
	eventually(t, "the escaped process", func() bool { return len(marked(mark)) == 1 })

	stranger := exec.Command("sh", "-c", "(sleep 600 &)")
	stranger.Env = []string{"PATH=" + os.Getenv("PATH"), "TEST_MARK=" + mark}
	require.NoError(t, stranger.Run())
	eventually(t, "the stranger", func() bool { return len(marked(mark)) == 2 })

	require.NoError(t, c.Close())
	assert.Len(t, marked(mark), 2, "the escaped process and the stranger live on")
}

// TestStreamFraming runs the macOS framing over a stream socket pair:
// messages larger than the socket's buffer, and files that arrive with
// their own message.
func TestStreamFraming(t *testing.T) {
	fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_STREAM, 0)
	require.NoError(t, err)
	a, b := fileConn(t, fds[0]), fileConn(t, fds[1])
	defer a.Close()

	big := strings.Repeat("y", 1<<20)
	pr, pw, err := os.Pipe()
	require.NoError(t, err)
	defer pr.Close()
	sent := make(chan error, 1)
	go func() {
		err := sendStream(a, request{Op: opSpawn, Run: 1, Env: []string{"A=" + big}})
		if err == nil {
			err = sendStream(a, request{Op: opSpawn, Run: 2}, int(pw.Fd()), int(pw.Fd()), int(pw.Fd()))
		}
		if err == nil {
			err = sendStream(a, event{Ev: evAlive})
		}
		pw.Close()
		sent <- err
	}()
	r := newReceiver(b)
	var first request
	files, err := r.receiveStream(&first)
	require.NoError(t, err)
	assert.Empty(t, files)
	assert.Equal(t, RunID(1), first.Run)
	assert.Equal(t, "A="+big, first.Env[0])

	var second request
	files, err = r.receiveStream(&second)
	require.NoError(t, err)
	assert.Equal(t, RunID(2), second.Run)
	require.Len(t, files, 3, "the files come with their own message")
	_, err = syscall.Write(files[1], []byte("through the received file"))
	require.NoError(t, err)
	closeFDs(files)

	var third event
	files, err = r.receiveStream(&third)
	require.NoError(t, err)
	assert.Empty(t, files)
	assert.Equal(t, evAlive, third.Ev)
	require.NoError(t, <-sent)

	buf := make([]byte, 64)
	n, _ := pr.Read(buf)
	assert.Equal(t, "through the received file", string(buf[:n]))

	a.Close()
	_, err = r.receiveStream(&third)
	assert.ErrorIs(t, err, errClosed, "the peer's close is the lifeline's end")
	b.Close()
}

func fileConn(t *testing.T, fd int) *net.UnixConn {
	t.Helper()
	f := os.NewFile(uintptr(fd), "stream")
	defer f.Close()
	c, err := net.FileConn(f)
	require.NoError(t, err)
	return c.(*net.UnixConn)
}

// withoutTime is ev without its time, checked to be there.
func withoutTime(ev Event) Event {
	if ev.At.IsZero() {
		return Event{} // fails the comparison: every exit and empty has one
	}
	ev.At = time.Time{}
	return ev
}
