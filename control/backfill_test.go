package control

import (
	"context"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"jobtop/jobs"
	"jobtop/vtscreen/vtfast"
)

// mirrorOf is the attached mirror's store of a job.
func mirrorOf(t *testing.T, c *Client, id jobs.ID) *mirrorStore {
	t.Helper()
	m := c.mirror.Load()
	require.NotNil(t, m)
	_, store, err := m.get(id)
	require.NoError(t, err)
	return store
}

// waitFirst polls until the mirror holds the lines first..last (each look
// checked by check, when given).
func waitFirst(t *testing.T, s *mirrorStore, first, last uint64, check func(jobs.StoreStats)) {
	t.Helper()
	deadline := time.Now().Add(testTimeout)
	for {
		st := s.Stats()
		if check != nil {
			check(st)
		}
		if st.First == first && st.Last == last {
			return
		}
		require.True(t, time.Now().Before(deadline), "the mirror holds lines %d..%d, not %d..%d", st.First, st.Last, first, last)
		time.Sleep(10 * time.Millisecond)
	}
}

// requireSeqLines checks that lines are the output of seq from..to, numbered
// from first.
func requireSeqLines(t *testing.T, lines []jobs.Line, first uint64, from, to int) {
	t.Helper()
	require.Equal(t, to-from+1, len(lines))
	for i, l := range lines {
		require.Equal(t, first+uint64(i), l.Seq)
		require.Equal(t, strconv.Itoa(from+i), l.Text)
	}
}

// A client attached after a job wrote 10,000 lines holds all of them,
// as the instance does, not only the newest it fetched at once.
func TestAttachedMirrorBackfillsWhatTheInstanceHolds(t *testing.T) {
	in := startInstance(t)
	info := in.startJob(t, "seq 10000")
	info = in.waitEnded(t, info.ID)
	require.EqualValues(t, 10000, info.Lines)
	require.Zero(t, info.Dropped)

	require.NoError(t, in.client.Attach(ctxT(t)))
	store := mirrorOf(t, in.client, info.ID)
	waitFirst(t, store, 1, 10000, nil)
	st := store.Stats()
	assert.EqualValues(t, 10000, st.Last)
	assert.Zero(t, st.Dropped)
	requireSeqLines(t, store.ReadAfter(0, 0).Lines, 1, 1, 10000)
	requireSeqLines(t, store.ReadAfter(4000, 10).Lines, 4001, 4001, 4010)
	assert.Equal(t, heldChunks(store), store.chunks)
}

// A job that outran the mirror (which then read from its tail) leaves no
// gap once it ended: the lines the instance holds are fetched.
func TestAttachedMirrorFillsTheGapAJobLeft(t *testing.T) {
	in, sub := attached(t)
	fifo := mkfifo(t)
	info := in.startJob(t, "cat "+fifo+" >/dev/null; seq 9500")
	waitEvent(t, sub, info.ID, func(ev jobs.Event) bool { return ev.Job.State == jobs.StateRunning })
	store := mirrorOf(t, in.client, info.ID)

	// The mirror cannot read while the job writes: it falls behind by
	// more than it fetches at once, twice over.
	store.mu.Lock()
	writeFifo(t, fifo, "go\n")
	ended := in.waitEnded(t, info.ID)
	store.mu.Unlock()
	require.EqualValues(t, 9500, ended.Lines)

	waitFirst(t, store, 1, 9500, func(st jobs.StoreStats) {
		require.Equal(t, st.First-1, st.Dropped)
	})
	waitEvent(t, sub, info.ID, func(ev jobs.Event) bool { return ev.Job.State.Done() })
	require.EqualValues(t, 9500, store.Stats().Last)
	requireSeqLines(t, store.ReadAfter(0, 0).Lines, 1, 1, 9500)
	assert.Equal(t, heldChunks(store), store.chunks)
}

// An instance whose jobs keep more than the mirror's bounds: backfill
// fills the mirror with 16 KiB lines up to its 16 MiB of text, never past,
// the text packed, and then stops.
func TestAttachedMirrorBackfillKeepsItsBounds(t *testing.T) {
	socket := filepath.Join(shortTempDir(t), "s.sock")
	mgr, err := jobs.NewManager(jobs.Options{
		Emulator: func(c, r int) jobs.Emulator { return vtfast.New(c, r) },
		LogDir:   t.TempDir(),
		Env:      map[string]string{SocketEnv: socket},
		Store:    jobs.StoreOptions{MaxBytes: 64 << 20},
	})
	require.NoError(t, err)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
		defer cancel()
		mgr.Shutdown(ctx) //nolint:errcheck // best effort in cleanup
	})
	srv, err := ListenAndServe(mgr, socket, Instance{Kind: "serve"})
	require.NoError(t, err)
	t.Cleanup(func() { srv.Close() })
	c := NewClient(socket)
	t.Cleanup(func() { c.Close() })

	// 1,200 lines of 16 KiB (about 19 MiB), then 5,000 short ones.
	const size = 16<<10 - 4
	info, err := mgr.Start(jobs.Spec{Command: fmt.Sprintf(`p=$(head -c %d /dev/zero | tr '\0' x); i=1; while [ $i -le 1200 ]; do printf '%%05d%%s\n' $i "$p"; i=$((i+1)); done; seq 5000`, size-5)})
	require.NoError(t, err)
	in := &instance{mgr: mgr, server: srv, socket: socket, client: c}
	info = in.waitEnded(t, info.ID)
	require.EqualValues(t, 6200, info.Lines)
	require.Zero(t, info.Dropped, "the instance holds every line")

	require.NoError(t, c.Attach(ctxT(t)))
	store := mirrorOf(t, c, info.ID)
	bound := func(st jobs.StoreStats) {
		require.LessOrEqual(t, st.Text, int64(mirrorBytes))
		require.LessOrEqual(t, st.Retained, mirrorLines)
		require.LessOrEqual(t, st.Memory, st.Text+int64(mirrorLines)*mirrorEntrySize+2*mirrorChunkMax)
	}
	// 5,000 short lines and as many long ones as fit: 1,023.
	long := (mirrorBytes - 5000*4) / size
	first := uint64(1200 - long + 1)
	waitFirst(t, store, first, 6200, bound)
	st := store.Stats()
	bound(st)
	assert.Less(t, st.Memory, st.Text+st.Text/10, "the text is packed")
	_, more, _ := store.backfillPage(1, mirrorBackfillLines, time.Now())
	assert.Zero(t, more, "the mirror is full")
	lines := store.ReadAfter(0, 0).Lines
	require.Equal(t, 5000+long, len(lines))
	for i, l := range lines[:long] {
		require.Equal(t, first+uint64(i), l.Seq)
		require.Equal(t, size, len(l.Text))
		require.True(t, strings.HasPrefix(l.Text, fmt.Sprintf("%05d", first+uint64(i))))
	}
	requireSeqLines(t, lines[long:], 1201, 1, 5000)
	assert.Equal(t, heldChunks(store), store.chunks)
	u := c.mirror.Load().memoryUse()
	assert.Equal(t, st.Text, u.Text)
	assert.Equal(t, st.Memory, u.Memory)
}

// Jobs removed while their older lines are being fetched stay removed:
// no panic, no event for them after their removal, nothing held.
func TestAttachedMirrorBackfillLetsRemovedJobsGo(t *testing.T) {
	in := startInstance(t)
	var ids []jobs.ID
	for range 4 {
		info := in.startJob(t, "seq 10000")
		ids = append(ids, info.ID)
	}
	for _, id := range ids {
		in.waitEnded(t, id)
	}
	require.NoError(t, in.client.Attach(ctxT(t)))
	sub := in.client.Subscribe()
	t.Cleanup(sub.Close)
	// Wait until backfill is under way, then remove every job.
	waitFirst(t, mirrorOf(t, in.client, ids[0]), 1, 10000, nil)
	for _, id := range ids {
		require.NoError(t, in.client.Remove(id))
	}

	removed := make(map[jobs.ID]bool)
	sentinel := in.startJob(t, "true")
	deadline := time.After(testTimeout)
	for done := false; !done; {
		select {
		case batch, open := <-sub.C():
			require.True(t, open)
			for _, ev := range batch {
				require.False(t, removed[ev.Job.ID], "an event for job %d after its removal", ev.Job.ID)
				if ev.Kind == jobs.EventRemoved {
					removed[ev.Job.ID] = true
				}
				done = done || ev.Job.ID == sentinel.ID && ev.Job.State.Done()
			}
		case <-deadline:
			t.Fatal("the sentinel job did not end")
		}
	}
	require.Len(t, in.client.List(), 1)
	for _, id := range ids {
		_, err := in.client.Get(id)
		require.Error(t, err)
	}
	u := in.client.mirror.Load().memoryUse()
	st := mirrorOf(t, in.client, sentinel.ID).Stats()
	assert.Equal(t, st.Text, u.Text)
}
