package jobs

import (
	"os"
	"runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// line80 is an 80-column line (79 characters and the newline).
const line80 = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789abcdefg"

func TestTwentyMegabytesComplete(t *testing.T) {
	m := newManager(t, Options{})
	info := start(t, m, Spec{Command: "yes '" + line80 + "' | head -c 20M; echo tail"})
	info = wait(t, m, info.ID)
	assert.Equal(t, StateSucceeded, info.State)
	assert.Equal(t, int64(20<<20+5), info.Bytes)
	// 20 MiB of 80-byte lines: 262144 whole lines, then "tail".
	assert.Equal(t, uint64(20<<20/80+1), info.Lines)
	assert.Equal(t, "tail", info.LastLine)
	st, err := m.Output(info.ID)
	require.NoError(t, err)
	assert.Equal(t, DefaultMaxLines, st.Stats().Retained, "the store is at its cap")
}

// TestGigabyteStaysBounded writes 1 GiB and checks that the job finishes
// and the heap stays near the store's bound, not the output's size.
func TestGigabyteStaysBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("1 GiB of output")
	}
	m := newManager(t, Options{LogCap: 8 << 20})
	// Long lines keep the line count (and the race detector's cost) low;
	// the bytes still flow through the pipe, the log cap and the store.
	id := start(t, m, Spec{Command: "head -c 1G /dev/zero"}).ID
	var peak uint64
	done := make(chan struct{})
	go func() {
		defer close(done)
		var ms runtime.MemStats
		for {
			got, _ := m.Get(id)
			if got.State.Done() {
				return
			}
			runtime.ReadMemStats(&ms)
			peak = max(peak, ms.HeapInuse)
			time.Sleep(20 * time.Millisecond)
		}
	}()
	// A gigabyte under the race detector on a busy 2-core machine can
	// take a minute.
	info := waitWithin(t, m, id, 5*time.Minute)
	<-done
	assert.Equal(t, StateSucceeded, info.State)
	assert.Equal(t, int64(1<<30), info.Bytes)
	assert.Zero(t, info.LogDropped, "the log rotates: nothing is dropped")
	for _, f := range info.LogFiles {
		st, err := os.Stat(f)
		require.NoError(t, err)
		assert.LessOrEqual(t, st.Size(), int64(8<<20), f)
	}
	require.Len(t, info.LogFiles, 2, "the log rotated, keeping the newest output")
	t.Logf("peak heap in use %d MiB", peak>>20)
	// The store holds at most 16 MiB of text; allow for read buffers,
	// test and runtime overhead.
	assert.Less(t, peak, uint64(64<<20))
}

// A job's LastOutputAt is when it last wrote (what moved Bytes): none
// before it wrote, then the time of its last write, which jobtop's own
// lines (a restart's marker) do not move.
func TestLastOutputAtIsTheLastWrite(t *testing.T) {
	m := newManager(t, Options{})
	dir := t.TempDir()
	gate := dir + "/gate"
	silent := start(t, m, Spec{Command: "exec sleep 600"})
	before := time.Now()
	talker := start(t, m, Spec{Command: "echo first; while [ ! -e " + gate + " ]; do sleep 0.02; done; echo second; exec sleep 600"})
	first := waitFor(t, m, talker.ID, "its first line", func(i Info) bool { return i.LastLine == "first" })
	require.NotNil(t, first.LastOutputAt)
	assert.False(t, first.LastOutputAt.Before(before), "%v is before the start at %v", first.LastOutputAt, before)
	assert.False(t, first.LastOutputAt.After(time.Now()))
	got, err := m.Get(silent.ID)
	require.NoError(t, err)
	assert.Nil(t, got.LastOutputAt, "a job that wrote nothing")

	beforeSecond := time.Now()
	require.NoError(t, os.WriteFile(gate, nil, 0o600))
	second := waitFor(t, m, talker.ID, "its second line", func(i Info) bool { return i.LastLine == "second" })
	require.NotNil(t, second.LastOutputAt)
	assert.False(t, second.LastOutputAt.Before(beforeSecond), "%v is before the second write at %v", second.LastOutputAt, beforeSecond)

	// A kill writes no output of the job's: the time stays.
	require.NoError(t, m.Kill(talker.ID))
	ended := wait(t, m, talker.ID)
	require.NotNil(t, ended.LastOutputAt)
	assert.Equal(t, *second.LastOutputAt, *ended.LastOutputAt)
}
