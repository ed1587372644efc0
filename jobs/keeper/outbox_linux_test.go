package keeper

import (
	"os"
	"path/filepath"
	"runtime"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"

	"jobtop/jobs/proc"
)

// TestKeeperReapsWhileJobtopDoesNotRead: a jobtop that reads nothing
// (stopped with SIGSTOP) lets the keeper's socket buffer fill up, here at
// once: the buffer is made as small as the system allows, and the
// keeper is asked for many answers. The keeper's loop goes on all the
// same: a run that exits meanwhile is reaped (no zombie), and once jobtop
// reads again every message arrives, in order, its exit once.
func TestKeeperReapsWhileJobtopDoesNotRead(t *testing.T) {
	mine, theirs, err := socketPair()
	require.NoError(t, err)
	defer theirs.Close() // kept to look at the keeper's end
	fd := int(theirs.Fd())
	require.NoError(t, unix.SetsockoptInt(fd, unix.SOL_SOCKET, unix.SO_SNDBUF, 1))
	sndbuf, err := unix.GetsockoptInt(fd, unix.SOL_SOCKET, unix.SO_SNDBUF)
	require.NoError(t, err)
	cmd := keeperCommand(theirs, nil)
	require.NoError(t, cmd.Start())
	defer func() {
		mine.Close() // the lifeline: the keeper stops its run and exits
		cmd.Wait()   //nolint:errcheck // its status says nothing here
	}()
	r := newReceiver(mine)
	next := func() event { // the next message that is not a heartbeat
		t.Helper()
		for {
			var ev event
			fds, err := r.receive(&ev)
			closeFDs(fds)
			require.NoError(t, err)
			if ev.Ev != evAlive {
				return ev
			}
		}
	}
	require.Equal(t, evHello, next().Ev)

	null, err := os.OpenFile(os.DevNull, os.O_RDWR, 0)
	require.NoError(t, err)
	defer null.Close()
	gate := filepath.Join(t.TempDir(), "go")
	script := "while [ ! -e " + gate + " ]; do sleep 0.01; done; exit 3"
	n := int(null.Fd())
	require.NoError(t, send(mine, request{Op: opSpawn, Run: 1, Path: "/bin/sh", Argv: []string{"sh", "-c", script},
		Env: []string{"PATH=" + os.Getenv("PATH")}, StopSignal: int(syscall.SIGTERM)}, n, n, n))
	spawned := next()
	require.Equal(t, evSpawned, spawned.Ev)
	require.Empty(t, spawned.Err)
	pid := spawned.PID

	// Requests without their files: each is answered, and the answers
	// fill the buffer.
	const asked = 100 // few enough for the requests' own buffer
	for i := range asked {
		require.NoError(t, send(mine, request{Op: opSpawn, Run: RunID(100 + i)}))
	}
	eventually(t, "the keeper's socket buffer to fill", func() bool {
		queued, err := unix.IoctlGetInt(fd, unix.SIOCOUTQ)
		return err == nil && queued >= sndbuf
	})

	opened := time.Now()
	require.NoError(t, os.WriteFile(gate, nil, 0o600))
	eventually(t, "the run's main process to be reaped", func() bool {
		_, err := proc.Get(pid)
		return err != nil
	})
	reaped := time.Now()

	for i := range asked {
		ev := next()
		require.Equal(t, evSpawned, ev.Ev, "answer %d", i)
		require.Equal(t, RunID(100+i), ev.Run, "answers in order")
		require.NotEmpty(t, ev.Err)
	}
	exit := next()
	assert.Equal(t, event{Ev: evExit, Run: 1, Status: exit.Status, At: exit.At}, exit)
	assert.Equal(t, 3, unix.WaitStatus(exit.Status).ExitStatus())
	// Stamped when it was reaped, not when jobtop read it; its wall
	// clock, a moment after the test saw it gone at most.
	at := time.Unix(0, exit.At)
	assert.False(t, at.Before(opened.Round(0)), "reaped at %v, before it could exit (%v)", at, opened)
	assert.True(t, at.Before(reaped.Round(0).Add(time.Second)), "reaped at %v, seen gone at %v", at, reaped)
	assert.Equal(t, event{Ev: evEmpty, Run: 1, At: exit.At}, next(), "one exit, then empty, which ended with it")
}

// TestOutboxSendsAtOnceWhenIdle: an answer put while nothing waits is in
// the socket when put returns, sent by the caller, not handed to the
// writer (a goroutine to wake, on the path of every start). The test
// runs on one P, so the writer could not have run meanwhile; the message
// is read without yielding. (TestKeeperReapsWhileJobtopDoesNotRead: what
// a full socket does not take waits, in order.)
func TestOutboxSendsAtOnceWhenIdle(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	mine, other := connPair(t)
	o := newOutbox(other)
	rc, err := mine.SyscallConn()
	require.NoError(t, err)
	readNow := func() (event, error) { // recvmsg at once, on this goroutine
		buf := make([]byte, 1+chunkSize)
		var n int
		var rerr error
		require.NoError(t, rc.Control(func(fd uintptr) {
			n, _, _, _, rerr = unix.Recvmsg(int(fd), buf, nil, unix.MSG_DONTWAIT)
		}))
		if rerr != nil {
			return event{}, rerr
		}
		var ev event
		return ev, unmarshal(buf[1:n], &ev)
	}
	for run := range RunID(3) {
		o.put(event{Ev: evSpawned, Run: run + 1, PID: 100})
		got, err := readNow()
		require.NoError(t, err, "answer %d is in the socket when put returns", run+1)
		assert.Equal(t, event{Ev: evSpawned, Run: run + 1, PID: 100}, got)
	}
}
