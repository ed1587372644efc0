//go:build linux || freebsd

package keeper

import (
	"os"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// stashPipe makes a pipe, stashes its read end for run id and closes
// the test's copy: the stash holds it alone. It returns the write end.
func stashPipe(t *testing.T, s *stash, id RunID, live func(RunID) bool) *os.File {
	t.Helper()
	r, w, err := os.Pipe()
	require.NoError(t, err)
	rc, err := r.SyscallConn()
	require.NoError(t, err)
	var fd int
	require.NoError(t, rc.Control(func(f uintptr) { fd = int(f) }))
	d, err := syscall.Dup(fd) // the stash owns what it is given
	require.NoError(t, err)
	s.put(id, []int{d}, live)
	r.Close()
	return w
}

func openFDs(t *testing.T) int {
	entries, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skip("no /proc/self/fd")
	}
	return len(entries)
}

// TestAStashHoldsFilesOutsideTheFDTable: a thousand runs' pipes are held
// open by the stash (a write to them does not fail) while the process's
// fd table does not grow; the files of runs that ended are let go at a
// repack (a write fails with EPIPE); take gives back each live run's.
func TestAStashHoldsFilesOutsideTheFDTable(t *testing.T) {
	s := newStash()
	require.NotNil(t, s)
	before := openFDs(t)
	const n = 1000
	writers := make([]*os.File, n)
	ended := map[RunID]bool{}
	live := func(id RunID) bool { return !ended[id] }
	for i := range n {
		writers[i] = stashPipe(t, s, RunID(i+1), live)
		if i%2 == 1 { // every other run ends at once
			ended[RunID(i+1)] = true
			s.end(RunID(i+1), live)
		}
	}
	assert.LessOrEqual(t, openFDs(t)-before, n+2+stashBatch, "the writers, the stash's pair and a batch: no read ends")
	assert.Less(t, s.msgs, stashMaxMessages, "repacked as it filled")

	s.repack(live)
	for i, w := range writers {
		_, err := w.Write([]byte("x"))
		if ended[RunID(i+1)] {
			assert.ErrorIs(t, err, syscall.EPIPE, "run %d ended: its read end was let go", i+1)
		} else {
			assert.NoError(t, err, "run %d: its read end is held", i+1)
		}
	}
	got, lost := s.take()
	assert.Empty(t, lost)
	assert.Len(t, got, n/2)
	for id, fds := range got {
		require.False(t, ended[id])
		require.Len(t, fds, 1)
		b := make([]byte, 4)
		k, err := syscall.Read(fds[0], b)
		require.NoError(t, err)
		assert.Equal(t, "x", string(b[:k]), "run %d's own pipe", id)
		syscall.Close(fds[0])
	}
	for _, w := range writers {
		w.Close()
	}
}

// TestAStashLetsEndedRunsGoSoon: with no start after them, a few ended
// runs are enough for their files to go (a pty stays allocated while its
// master is held).
func TestAStashLetsEndedRunsGoSoon(t *testing.T) {
	s := newStash()
	require.NotNil(t, s)
	ended := map[RunID]bool{}
	live := func(id RunID) bool { return !ended[id] }
	var writers []*os.File
	n := stashBatch + stashEndedRepack/2 // a batch in flight, some waiting
	for i := range n {
		writers = append(writers, stashPipe(t, s, RunID(i+1), live))
	}
	require.Equal(t, 1, s.msgs, "a full batch went in flight")
	for _, id := range []RunID{RunID(n), 1, 2, 3, 4, 5, 6, 7, 8} { // one waiting, then enough in flight for a repack
		ended[id] = true
		s.end(id, live)
	}
	for i, w := range writers {
		_, err := w.Write([]byte("x"))
		if ended[RunID(i+1)] {
			assert.ErrorIs(t, err, syscall.EPIPE, "run %d's read end was let go", i+1)
		} else {
			assert.NoError(t, err, "run %d's read end is held", i+1)
		}
		w.Close()
	}
	got, lost := s.take()
	assert.Len(t, got, n-len(ended))
	assert.Empty(t, lost)
	for _, fds := range got {
		closeFDs(fds)
	}
}
