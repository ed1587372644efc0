package ui

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"jobtop/jobs"
	"jobtop/keymap"
	"jobtop/styles"
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
	}{{1, 1}, {2, 1}, {1, 2}, {2, 3}} { // b3 is written before a3 is let go: b2 alone could race it
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
			all = append(all, viewLine{Line: l, key: lineKeyOf(l), job: id})
		}
	}
	slices.SortFunc(all, func(a, b viewLine) int { return a.key.compare(b.key) })
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
	require.Empty(t, src.from(all[len(all)-1].key.next(), 10))
}

// sliceReader is an OutputReader over fixed lines (the oldest first
// dropped), for arrivals a real store would take timing to produce.
type sliceReader struct{ lines []jobs.Line }

func (r sliceReader) ReadAfter(cursor uint64, max int) jobs.Chunk {
	c := jobs.Chunk{Next: cursor}
	for _, l := range r.lines {
		if l.Seq > cursor && (max <= 0 || len(c.Lines) < max) {
			c.Lines = append(c.Lines, l)
			c.Next = l.Seq
		}
	}
	return c
}

func (r sliceReader) Tail(n int) jobs.Chunk {
	ls := r.lines[max(len(r.lines)-n, 0):]
	c := jobs.Chunk{Lines: ls}
	if len(r.lines) > 0 {
		c.Next = r.lines[len(r.lines)-1].Seq
	}
	return c
}

func (r sliceReader) Stats() jobs.StoreStats {
	if len(r.lines) == 0 {
		return jobs.StoreStats{First: 1}
	}
	return jobs.StoreStats{First: r.lines[0].Seq, Last: r.lines[len(r.lines)-1].Seq, Retained: len(r.lines)}
}

func (r sliceReader) LastLine() string { return "" }

// Lines of one read of a job's output share their arrival (a store may
// stamp a whole read at once): the "all" view orders those by sequence
// number, and scrolling through it visits every line once.
func TestAllViewLinesSharingAnArrival(t *testing.T) {
	job := func(id string, groups ...[2]uint64) sliceReader { // {arrival, lines}
		var r sliceReader
		seq := uint64(10) // the first nine were dropped
		for _, g := range groups {
			for i := uint64(0); i < g[1]; i++ {
				r.lines = append(r.lines, jobs.Line{Seq: seq, Arrival: g[0], Text: fmt.Sprintf("%s%d", id, seq)})
				seq++
			}
		}
		return r
	}
	readers := map[jobs.ID]jobs.OutputReader{
		1: job("a", [2]uint64{1, 3}, [2]uint64{4, 2}),
		2: job("b", [2]uint64{2, 2}, [2]uint64{5, 1}),
		3: job("c", [2]uint64{3, 4}, [2]uint64{6, 2}),
	}
	src := newAllSource()
	src.setJobs([]jobs.ID{1, 2, 3}, func(id jobs.ID) (jobs.OutputReader, bool) { return readers[id], true })
	want := []string{"a10", "a11", "a12", "b10", "b11", "c10", "c11", "c12", "c13", "a13", "a14", "b12", "c14", "c15"}
	got := func(ls []viewLine) []string {
		out := []string{}
		for _, l := range ls {
			out = append(out, l.Text)
		}
		return out
	}
	require.Equal(t, want, got(src.tail(100)))
	require.Equal(t, want[len(want)-5:], got(src.tail(5)))
	all := src.tail(100)
	for i, l := range all {
		require.Equal(t, want[i:min(i+4, len(want))], got(src.from(l.key, 4)), "from %s", l.Text)
		require.Equal(t, want[max(i-4, 0):i], got(src.before(l.key, 4)), "before %s", l.Text)
		require.EqualValues(t, len(want)-i-1, src.countAfter(l.key), "after %s", l.Text)
	}

	// A pane three rows high, scrolled from the bottom up one row at a
	// time, shows every line at its top once, in order.
	st := styles.New(styles.DefaultPalette(), false)
	km := keymap.DefaultKeyMap()
	p := newOutputPane(&km, newPalette(&st))
	p.SetFocused(true)
	p.UpdateKeys(&km)
	p.SetSize(40, 4)
	p.SetAll(src, newJobNames(p.pal))
	var tops []string
	for i := 0; i < 20; i++ {
		tops = append(tops, paneText(p)[0])
		p.Update(keyMsg("k"))
	}
	slices.Reverse(tops)
	tops = slices.Compact(tops)
	require.True(t, strings.HasPrefix(tops[0], "27 older lines are in the log files"), "the dropped lines' note is the top row: %q", tops[0])
	require.Equal(t, want[:len(want)-2], tops[1:])
	p.Update(keyMsg("G"))
	require.Equal(t, want[len(want)-3:], paneText(p))
}

// The file o in the "all" view gives the pager holds the lines the view
// shows, as it shows them: the note on lines no longer in memory first,
// each line behind its job's name, and only the matches under &.
func TestAllViewPagerFileHoldsWhatTheViewShows(t *testing.T) {
	state := t.TempDir()
	t.Setenv("XDG_STATE_HOME", state)
	mgr, err := jobs.NewManager(jobs.Options{LogDir: t.TempDir(), Store: jobs.StoreOptions{MaxLines: 5}})
	require.NoError(t, err)
	t.Cleanup(func() { _ = mgr.Shutdown(context.Background()) })
	start(t, mgr, "count", "seq 1 8")
	m := newSizedModel(t, mgr, Config{}, 100, 30)
	pumpUntil(t, m, "the job to end", func() bool { return m.stateCountForTest(jobs.StateSucceeded) == 1 })
	press(t, m, "A")
	require.True(t, m.km.Pager.Enabled())
	require.Equal(t, "open all output", m.km.Pager.Help().Desc, "help says what o opens here")

	paged := func() []string {
		t.Helper()
		press(t, m, "o")
		files, err := filepath.Glob(filepath.Join(state, "jobtop", "pager", "all-*"))
		require.NoError(t, err)
		require.Len(t, files, 1, "the pager's file (no pager runs here to remove it)")
		b, err := os.ReadFile(files[0])
		require.NoError(t, err)
		require.NoError(t, os.Remove(files[0]))
		return strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	}
	shown := paneText(m.all)
	require.Contains(t, shown[0], "3 older lines are in the log files — A then o opens the selected job's")
	require.Equal(t, "count │ 8", shown[len(shown)-1])
	require.Equal(t, shown, paged())

	press(t, m, "enter")
	search(t, m, "7")
	press(t, m, "&")
	require.Equal(t, []string{"count │ 7"}, paneText(m.all))
	require.Equal(t, []string{"count │ 7"}, paged())
}

// The all view, focused, has no job of its own: x, X, r, d and m act on
// none (the table's selection may be out of sight) and say where to pick
// one; from the table they act on its selection, as ever.
func TestAllViewFocusedSaysWhereToPickTheJobToActOn(t *testing.T) {
	mgr, m := runningJobs(t, 2)
	press(t, m, "j", "A", "tab", "z")
	require.Equal(t, focusOutput, m.focus)
	require.Equal(t, allPane, m.activePane().kind)
	require.NotContains(t, m.helpView(), "x stop", "help shows only what works")
	press(t, m, "x")
	require.Contains(t, m.statusView(), "x stops the job selected in the table")
	for _, k := range []string{"x", "X", "r", "d", "m"} {
		press(t, m, k)
		require.True(t, strings.HasPrefix(m.notice.text, k+" "), "%s: %s", k, m.notice.text)
		require.Contains(t, m.notice.text, "esc to the table to pick one", k)
	}
	for _, j := range mgr.List() {
		require.Equal(t, jobs.StateRunning, j.State, "job %d is left running", j.ID)
		require.Equal(t, 1, j.Runs, "job %d was not restarted", j.ID)
	}

	press(t, m, "esc", "x")
	require.Equal(t, focusTable, m.focus)
	info, err := mgr.Get(2)
	require.NoError(t, err)
	require.NotEqual(t, jobs.StateRunning, info.State, "x from the table stops the selected job")
	require.Contains(t, m.notice.text, "stopping job 2")
}
