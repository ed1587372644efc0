package keeper

import (
	"os"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"
)

// TestAStashSaysWhatItCouldNotGiveBack: with the fd table near full, the
// files take cannot place are closed by the kernel; take names their
// runs, so the keeper can say so in their logs.
func TestAStashSaysWhatItCouldNotGiveBack(t *testing.T) {
	s := newStash()
	require.NotNil(t, s)
	const n = 50
	var writers []*os.File
	for i := range n {
		writers = append(writers, stashPipe(t, s, RunID(i+1), func(RunID) bool { return true }))
	}
	var got map[RunID][]int
	var lost []RunID
	withFDRoom(t, 10, func() { got, lost = s.take() })
	assert.NotEmpty(t, lost, "the table had room for about 10")
	assert.Equal(t, n, len(got)+len(lost), "every run is given back or named")
	for _, id := range lost {
		_, err := writers[id-1].Write([]byte("x"))
		assert.ErrorIs(t, err, syscall.EPIPE, "run %d's file was closed", id)
	}
	for _, fds := range got {
		closeFDs(fds)
	}
	for _, w := range writers {
		w.Close()
	}
}

// TestARepackNearTheFDLimitLosesNothingSilently: a repack holds at most
// two messages' files at once, so with room for a few dozen fds it keeps
// every live run's; whatever it could not keep, take names.
func TestARepackNearTheFDLimitLosesNothingSilently(t *testing.T) {
	s := newStash()
	require.NotNil(t, s)
	const n = 300
	ended := map[RunID]bool{}
	live := func(id RunID) bool { return !ended[id] }
	var writers []*os.File
	for i := range n {
		writers = append(writers, stashPipe(t, s, RunID(i+1), live))
	}
	withFDRoom(t, 2*stashRunsPerMessage+10, func() {
		for i := range n / 4 { // enough ended runs for a repack
			ended[RunID(i+1)] = true
			s.end(RunID(i+1), live)
		}
	})
	got, lost := s.take()
	assert.Empty(t, lost, "the repack had room for two messages' files")
	for i, w := range writers {
		id := RunID(i + 1)
		if ended[id] {
			continue
		}
		require.Contains(t, got, id, "live run %d given back", id)
		_, err := w.Write([]byte("x"))
		assert.NoError(t, err, "run %d's read end is open", id)
	}
	for _, fds := range got {
		closeFDs(fds)
	}
	for _, w := range writers {
		w.Close()
	}
}

// TestARefusedFlushLeavesEachRunInOnePlace: when the socket refuses
// batches, runs wait in the table; when it then takes only some of them,
// each run is in flight or waiting, never both, so take gives every file
// back once and nothing stays open after.
func TestARefusedFlushLeavesEachRunInOnePlace(t *testing.T) {
	s := newStash()
	require.NotNil(t, s)
	require.NoError(t, unix.SetsockoptInt(s.w, unix.SOL_SOCKET, unix.SO_SNDBUF, 1)) // the smallest the kernel allows
	live := func(RunID) bool { return true }
	var writers []*os.File
	id := RunID(0)
	for len(s.pending) < stashRunsPerMessage+20 && id < 2000 { // refused: more than a message waits
		id++
		writers = append(writers, stashPipe(t, s, id, live))
	}
	require.Greater(t, len(s.pending), stashRunsPerMessage, "the socket refused batches")
	queued, err := unix.IoctlGetInt(s.w, unix.SIOCOUTQ)
	require.NoError(t, err)
	require.NoError(t, unix.SetsockoptInt(s.w, unix.SOL_SOCKET, unix.SO_SNDBUF, (queued+2)/2)) // room for about one more
	for range stashBatch {
		id++
		writers = append(writers, stashPipe(t, s, id, live))
	}
	for run := range s.pending {
		assert.NotContains(t, s.runs, run, "run %d is both waiting and in flight", run)
	}
	got, lost := s.take()
	assert.Equal(t, int(id), len(got)+len(lost), "every run given back or named once")
	for _, fds := range got {
		closeFDs(fds)
	}
	for i, w := range writers {
		_, err := w.Write([]byte("x"))
		assert.ErrorIs(t, err, syscall.EPIPE, "run %d's read end: no copy left open", i+1)
		w.Close()
	}
}

// withFDRoom runs f with the process's fd limit lowered to room more
// than it has open, and puts the limit back.
func withFDRoom(t *testing.T, room int, f func()) {
	t.Helper()
	var saved syscall.Rlimit
	require.NoError(t, syscall.Getrlimit(syscall.RLIMIT_NOFILE, &saved))
	low := saved
	low.Cur = uint64(openFDs(t) + room)
	require.NoError(t, syscall.Setrlimit(syscall.RLIMIT_NOFILE, &low))
	defer func() { require.NoError(t, syscall.Setrlimit(syscall.RLIMIT_NOFILE, &saved)) }()
	f()
}
