package ui

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"jobtop/jobs"
)

// The "all" view interleaves the jobs' lines in the order they arrived,
// each behind its job's name.
func TestAllViewOrdersLinesByArrival(t *testing.T) {
	mgr := newManager(t)
	f := []string{mkfifo(t, "f0"), mkfifo(t, "f1"), mkfifo(t, "f2"), mkfifo(t, "f3")}
	// Each job waits on a fifo before each line but its first, so the
	// test decides the order: a1 b1 a2 b2 b3 a3.
	start(t, mgr, "alpha", fmt.Sprintf("echo a1; read x < %s; echo a2; read x < %s; echo a3", f[1], f[3]))
	start(t, mgr, "bravo-job", fmt.Sprintf("read x < %s; echo b1; read x < %s; echo b2; echo b3", f[0], f[2]))
	m := newSizedModel(t, mgr, Config{}, 100, 30)
	lineCount := func(id jobs.ID) uint64 { info, _ := m.table.Get(id); return info.Lines }
	for i, step := range []struct {
		id    jobs.ID
		lines uint64
	}{{1, 1}, {2, 1}, {1, 2}, {2, 2}} {
		pumpUntil(t, m, fmt.Sprintf("step %d", i), func() bool { return lineCount(step.id) >= step.lines })
		writeFifo(t, f[i], "go\n")
	}
	pumpUntil(t, m, "both jobs to end", func() bool { return m.stateCountForTest(jobs.StateSucceeded) == 2 })

	press(t, m, "A")
	require.Equal(t, viewAll, m.mode)
	require.Equal(t, []string{
		"alpha     │ a1",
		"bravo-job │ b1",
		"alpha     │ a2",
		"bravo-job │ b2",
		"bravo-job │ b3",
		"alpha     │ a3",
	}, paneText(m.all))
	view := m.View()
	requireFits(t, view, 100, 30, "all view")
	require.Contains(t, view, "all jobs  2 jobs")
	require.Contains(t, m.statusView(), "[all follow]")

	// Search works as in any pane.
	press(t, m, "enter")
	search(t, m, "3")
	require.Contains(t, m.all.headerView(), "/3 match 2/2")
	press(t, m, "&")
	require.Equal(t, []string{"bravo-job │ b3", "alpha     │ a3"}, paneText(m.all))

	press(t, m, "A")
	require.Equal(t, viewSingle, m.mode, "A again goes back")
}

func TestAllViewNamesInTheirColours(t *testing.T) {
	st := colourStyles(t)
	mgr := newManager(t)
	start(t, mgr, "one", "echo first")
	start(t, mgr, "two", "sleep 0.2; echo second")
	m := newSizedModel(t, mgr, Config{Styles: st}, 80, 20)
	pumpUntil(t, m, "both", func() bool { return m.stateCountForTest(jobs.StateSucceeded) == 2 })
	press(t, m, "A")
	rows := m.all.rows
	require.Len(t, rows, 2)
	one, two := m.pal.jobName(1), m.pal.jobName(2)
	require.NotEqual(t, one.Open, two.Open, "each job has its own colour")
	require.True(t, strings.HasPrefix(rows[0], one.Open+"one"+one.Close), "%q", rows[0])
	require.True(t, strings.HasPrefix(rows[1], two.Open+"two"+two.Close), "%q", rows[1])
}

// allSource reads windows of the merged stream exactly as a merge of every
// line would give them, however the lines of the jobs interleave.
func TestAllSourceWindowsMatchTheMergedStream(t *testing.T) {
	mgr, err := jobs.NewManager(jobs.Options{LogDir: t.TempDir(), Store: jobs.StoreOptions{MaxLines: 250}})
	require.NoError(t, err)
	t.Cleanup(func() { _ = mgr.Shutdown(context.Background()) })
	var ids []jobs.ID
	for _, c := range []string{"a", "b", "c"} {
		info, err := mgr.Start(jobs.Spec{Command: fmt.Sprintf("for i in $(seq 1 400); do echo %s$i; done", c)})
		require.NoError(t, err)
		ids = append(ids, info.ID)
	}
	for _, id := range ids {
		_, err := mgr.Wait(context.Background(), id)
		require.NoError(t, err)
	}
	src := newAllSource()
	src.setJobs(ids, func(id jobs.ID) (jobs.OutputReader, bool) {
		r, err := mgr.Output(id)
		return r, err == nil
	})
	// The truth: every line held, sorted by arrival.
	var all []viewLine
	for _, id := range ids {
		r, _ := mgr.Output(id)
		for _, l := range r.ReadAfter(0, 0).Lines {
			all = append(all, viewLine{Line: l, key: l.Arrival, job: id})
		}
	}
	slices.SortFunc(all, func(a, b viewLine) int { return cmpKey(a.key, b.key) })
	require.Len(t, all, 750, "each store holds its newest 250 lines")
	texts := func(ls []viewLine) []string {
		out := make([]string, len(ls))
		for i, l := range ls {
			out[i] = l.Text
		}
		return out
	}
	require.Equal(t, texts(all[len(all)-40:]), texts(src.tail(40)))
	first, ok := src.oldest()
	require.True(t, ok)
	require.Equal(t, all[0].key, first)
	for _, i := range []int{0, 1, 100, 373, 700, 749} {
		k := all[i].key
		require.Equal(t, texts(all[i:min(i+30, len(all))]), texts(src.from(k, 30)), "from line %d", i)
		require.Equal(t, texts(all[max(i-30, 0):i]), texts(src.before(k, 30)), "before line %d", i)
		require.EqualValues(t, len(all)-i-1, src.countAfter(k), "after line %d", i)
	}
	require.Empty(t, src.from(all[len(all)-1].key+1, 10))
}
