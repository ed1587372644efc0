package cmd

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strconv"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/stretchr/testify/require"

	"jobtop/jobs"
)

// heapLive is the bytes of live heap objects after a full collection.
func heapLive() int64 {
	runtime.GC()
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	return int64(s[0].Value.Uint64())
}

// heapRetained is the heap memory the process keeps from the system:
// live objects and the free pages not yet handed back.
func heapRetained() int64 {
	s := []metrics.Sample{
		{Name: "/memory/classes/heap/objects:bytes"},
		{Name: "/memory/classes/heap/unused:bytes"},
		{Name: "/memory/classes/heap/free:bytes"},
	}
	metrics.Read(s)
	var n uint64
	for _, x := range s {
		n += x.Value.Uint64()
	}
	return int64(n)
}

// An attached TUI holds its jobs' text in about as many bytes as the
// instance does (the README's bound: 1.5 times the text), and when the
// jobs are removed on the instance, the heap they took is freed and
// handed back to the system.
func TestAttachedTUIMemoryFollowsTheTextItMirrors(t *testing.T) {
	c := newCLI(t)
	c.serve()
	const (
		jobCount = 16
		bursts   = 25 // of 1000 lines: 2.5 times a job's line bound
		width    = 100
	)
	// Bursts apart, so the mirror takes most lines in (a job that
	// outruns it is read from its tail, and its older lines behind:
	// the instance's 10,000 lines of each job, enough text for its
	// memory limit to fall by more than 8 MiB after clean).
	script := fmt.Sprintf(`for b in $(seq 0 %d); do awk -v b=$b 'BEGIN { for (i = 0; i < 1000; i++) printf "%%0%dd\n", b*1000+i }'; sleep 0.05; done`, bursts-1, width)

	// Attached first, as the reviewer's TUI was: the jobs write while it
	// watches, so it mirrors every line the instance holds.
	client, model := attachedModel(t, c)
	model.Update(tea.WindowSizeMsg{Width: 160, Height: 40})
	model.View()
	before := heapLive()

	ids := make([]jobs.ID, jobCount)
	for i := range ids {
		n, err := strconv.Atoi(c.startJob(script))
		require.NoError(t, err)
		ids[i] = jobs.ID(n)
	}
	for _, id := range ids {
		c.ok("wait", strconv.Itoa(int(id)))
	}
	var text int64
	for _, id := range ids {
		// Measured once the mirror holds what it will: every line the
		// instance holds (older ones arrive behind the newest).
		require.Eventually(t, func() bool {
			info, err := client.Get(id)
			out, err2 := client.Output(id)
			return err == nil && err2 == nil && out.Stats().Last == bursts*1000 && out.Stats().First == info.Dropped+1
		}, testTimeout, 20*time.Millisecond, "job %d is mirrored, every line the instance holds", id)
		out, err := client.Output(id)
		require.NoError(t, err)
		text += int64(out.Stats().Retained * width)
	}
	require.GreaterOrEqual(t, text, int64(jobCount*4096*width))
	for range ids { // draw every job's output once
		model.View()
		model.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{'j'}})
	}
	held := heapLive() - before
	perByte := float64(held) / float64(text)
	t.Logf("attached: %d bytes of text mirrored in %d bytes of heap (%.2f a byte)", text, held, perByte)
	require.LessOrEqual(t, perByte, 1.5, "an attached TUI holds at most 1.5 bytes a byte of text")

	// As jobtop attach does: the limit falls with what the mirror holds,
	// and the memory of removed jobs is handed back without waiting for a
	// collection that an idle TUI would not start.
	governor, stop := context.WithCancel(context.Background())
	defer stop()
	t.Cleanup(func() { debug.SetMemoryLimit(math.MaxInt64) })
	governMemory(governor, client, 10*time.Millisecond)
	kept := heapRetained()
	c.ok("clean")
	require.Eventually(t, func() bool { return len(client.List()) == 0 }, testTimeout, 10*time.Millisecond)
	deadline := time.Now().Add(testTimeout)
	for retained := heapRetained(); retained > kept-text/2; retained = heapRetained() {
		require.True(t, time.Now().Before(deadline),
			"after clean the process still keeps %d bytes of heap from the system (%d before)", retained, kept)
		<-time.After(10 * time.Millisecond)
	}
	live := heapLive() - before
	t.Logf("after clean: %d bytes live above the start, %d kept (%d before)", live, heapRetained(), kept)
	require.Less(t, live, text/20, "removed jobs' text is freed")
	require.Empty(t, client.List())
	runtime.KeepAlive(model)
}
