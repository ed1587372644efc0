package jobs

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fullDisk stands in for a disk that fills and empties: while full, every
// write to a log file fails with ENOSPC, as a full file system's does.
type fullDisk struct {
	full  atomic.Bool
	tries atomic.Int64 // writes tried while full
}

// simulateFullDisk routes the logs' writes through a fullDisk, and sets
// how often a failed log tries again, for the test.
func simulateFullDisk(t *testing.T, retryEvery time.Duration) *fullDisk {
	d := &fullDisk{}
	t.Cleanup(func() { logTestHooks.Store(nil) })
	logTestHooks.Store(&logHooks{retryEvery: retryEvery, write: func(f *os.File, p []byte) (int, error) {
		if d.full.Load() {
			d.tries.Add(1)
			return 0, &os.PathError{Op: "write", Path: f.Name(), Err: syscall.ENOSPC}
		}
		return f.Write(p)
	}})
	return d
}

// lostMarker matches the line a log gets where writing resumed.
var lostMarker = regexp.MustCompile(`\[jobtop\] ([0-9]+) bytes lost here \(no space left on device\)\n`)

// A run that met a full disk loses what it wrote to its log (counted,
// with the error), without trying the disk for each write; the next run,
// with room again, is written, after a line that says what was lost.
func TestALogIsWrittenAgainAfterTheDiskWasFull(t *testing.T) {
	disk := simulateFullDisk(t, time.Hour) // only a new run tries again
	m := newManager(t, Options{})
	disk.full.Store(true)
	info := wait(t, m, start(t, m, Spec{Command: "seq 1 30000"}).ID)
	require.Equal(t, StateSucceeded, info.State)
	lost := info.LogDropped
	assert.Greater(t, lost, int64(len(seqOutput(1, 30000))), "the run's output and its separator are lost")
	assert.Contains(t, info.LogError, "no space left on device")
	assert.LessOrEqual(t, disk.tries.Load(), int64(2), "a full disk is not tried for each write")

	disk.full.Store(false)
	_, err := m.Restart(info.ID)
	require.NoError(t, err)
	info = wait(t, m, info.ID)
	b, err := os.ReadFile(info.LogPath)
	require.NoError(t, err)
	require.Regexp(t, `^`+lostMarker.String()+`\[jobtop\] ── run 2 · started \S+ ──\n`+regexp.QuoteMeta(seqOutput(1, 30000))+`$`, string(b),
		"run 2 is written, after a line that says what was lost before it")
	assert.Equal(t, strconv.FormatInt(lost, 10), lostMarker.FindStringSubmatch(string(b))[1], "the marker says how many bytes were lost")
	assert.Equal(t, lost, info.LogDropped, "lost so far: nothing more")
	assert.Contains(t, info.LogError, "no space left on device", "the last error")
}

// While a run goes on writing, its log tries the disk again every so
// often: once there is room, the rest of the run's output is written.
func TestALogIsWrittenAgainOnceTheDiskHasRoom(t *testing.T) {
	disk := simulateFullDisk(t, 20*time.Millisecond)
	m := newManager(t, Options{})
	dir := t.TempDir()
	disk.full.Store(true)
	id := start(t, m, Spec{Dir: dir, Command: "i=0; while [ ! -e stop ]; do i=$((i+1)); echo $i; sleep 0.005; done; echo done"}).ID
	waitFor(t, m, id, "output lost to the full disk", func(i Info) bool { return i.LogDropped > 100 })
	disk.full.Store(false)
	log := filepath.Join(m.LogDir(), id.String()+".log")
	eventually(t, "the log written again", func() bool {
		b, _ := os.ReadFile(log)
		return lostMarker.Match(b)
	})
	require.NoError(t, writeFile(filepath.Join(dir, "stop")))
	info := wait(t, m, id)
	require.Equal(t, StateSucceeded, info.State)

	b, err := os.ReadFile(log)
	require.NoError(t, err)
	m1 := lostMarker.FindSubmatchIndex(b)
	require.Equal(t, 0, m1[0], "the disk was full from the start: the marker begins the log")
	lost, _ := strconv.ParseInt(string(b[m1[2]:m1[3]]), 10, 64)
	assert.Equal(t, info.LogDropped, lost, "all that was lost, lost before the marker")
	rest := strings.Split(strings.TrimSuffix(string(b[m1[1]:]), "\ndone\n"), "\n")
	first, err := strconv.Atoi(rest[0])
	require.NoError(t, err, "after the marker, the run's output: %q", rest[0])
	assert.Equal(t, seqOutput(first, first+len(rest)-1), strings.Join(rest, "\n")+"\n", "every line from there on, in order")
}
