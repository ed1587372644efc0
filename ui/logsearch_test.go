package ui

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/stretchr/testify/require"

	"jobtop/jobs"
)

// logSearchModel is a model over a job that wrote 5,000 lines (every
// 500th a HIT) to a store that keeps only the newest 100, its pane
// focused.
func logSearchModel(t *testing.T) *Model {
	t.Helper()
	mgr, err := jobs.NewManager(jobs.Options{LogDir: t.TempDir(), Store: jobs.StoreOptions{MaxLines: 100}})
	require.NoError(t, err)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), deadline)
		defer cancel()
		require.NoError(t, mgr.Shutdown(ctx))
	})
	start(t, mgr, "long", `for i in $(seq 1 5000); do if [ $((i % 500)) = 0 ]; then echo "line $i HIT"; else echo "line $i"; fi; done`)
	m := newSizedModel(t, mgr, Config{}, 100, 30)
	pumpUntil(t, m, "the job to end", func() bool { return m.stateCountForTest(jobs.StateSucceeded) == 1 })
	press(t, m, "enter")
	return m
}

// pumpLogScan runs the log scans until the search is complete.
func pumpLogScan(t *testing.T, m *Model) {
	t.Helper()
	end := time.Now().Add(deadline)
	for ls := m.activePane().logSearch; ls != nil && !ls.complete; {
		require.True(t, time.Now().Before(end), "the log scan did not end")
		_, cmd := m.Update(ls.scan()())
		_ = cmd // the next scan: run above, from where this one stopped
	}
}

func TestLogSearchFindsWhatMemoryDropped(t *testing.T) {
	m := logSearchModel(t)
	p := m.single
	search(t, m, "hit")
	require.Contains(t, p.headerView(), "/hit match 1/1", "memory holds only the last 100 lines: one HIT")

	press(t, m, "L")
	require.NotNil(t, p.logSearch)
	pumpLogScan(t, m)
	require.Contains(t, p.headerView(), "/hit match 1/10 (log)")
	rows := paneText(p)
	require.Equal(t, "line 500 HIT", rows[0], "the first match, read back from disk")
	require.Equal(t, "line 5000 HIT", rows[9])
	press(t, m, "n", "n")
	require.Contains(t, p.headerView(), "match 3/10 (log)")
	press(t, m, "N", "N", "N")
	require.Contains(t, p.headerView(), "match 10/10 (log)")
	require.Equal(t, "search wrapped to the last match", m.notice.text)

	press(t, m, "L")
	require.Nil(t, p.logSearch, "L again: back to the output in memory")
	require.Contains(t, p.headerView(), "/hit match 1/1")
	require.Contains(t, strings.Join(paneText(p), "\n"), "line 5000 HIT")
}

// A search that finds nothing in memory, where older lines are only in
// the log file, says so and points at L.
func TestSearchNoMatchInMemoryPointsAtTheLog(t *testing.T) {
	m := logSearchModel(t)
	p := m.single
	search(t, m, "line 1234")
	require.Contains(t, p.headerView(), "/line 1234 no match in memory (L: the log)")
	press(t, m, "n")
	require.Equal(t, "no match for line 1234 in memory; its older lines are in the log file: L searches it", m.notice.text)
	press(t, m, "L")
	pumpLogScan(t, m)
	require.Contains(t, p.headerView(), "match 1/1 (log)")

	// "/" again shows the search as it is, in the log file: enter keeps
	// searching there.
	press(t, m, "/")
	require.Contains(t, m.View(), "[log file]")
	press(t, m, "enter")
	pumpLogScan(t, m)
	require.Contains(t, p.headerView(), "match 1/1 (log)")
}

func TestLogSearchFromThePrompt(t *testing.T) {
	m := logSearchModel(t)
	p := m.single
	press(t, m, "/")
	typeText(t, m, "re:line 1\\d\\d\\d HIT")
	_, cmd := m.Update(keyMsg("ctrl+l"))
	require.Equal(t, tea.ClearScreen(), cmd(), "ctrl+l still redraws too")
	require.Contains(t, m.View(), "[log file]")
	press(t, m, "enter")
	pumpLogScan(t, m)
	require.Contains(t, p.headerView(), "match 1/2 (log)")
	require.Equal(t, []string{"line 1000 HIT", "line 1500 HIT"}, paneText(p)[:2])
	press(t, m, "esc")
	require.Nil(t, p.logSearch)
	require.Nil(t, p.search)
}

// A log search reads only a file: a device in a log's place (a link to
// /dev/full) is an error at once, not zeros read for ever.
func TestLogSearchReadsOnlyAFile(t *testing.T) {
	if _, err := os.Stat("/dev/full"); err != nil {
		t.Skip("no /dev/full")
	}
	m, err := newMatcher("x", false)
	require.NoError(t, err)
	_, _, done, err := scanLogFile("/dev/full", 0, 1<<20, m)
	require.True(t, done)
	require.ErrorContains(t, err, "not a regular file")
}

// TestLogSearchOverLongLines: a line longer than the scan's buffer is
// matched on its own text (its first 64 KiB), not on the lines read
// after it, and one still being written at the end of the file waits.
func TestLogSearchOverLongLines(t *testing.T) {
	long := strings.Repeat("Z", 200<<10)
	head := "needle " + strings.Repeat("Y", 100<<10)
	text := long + "\nneedle here\ntail\n" + head + "\n" + long
	path := t.TempDir() + "/1.log"
	require.NoError(t, os.WriteFile(path, []byte(text), 0o600))
	m, err := newMatcher("needle", false)
	require.NoError(t, err)
	read, found, done, err := scanLogFile(path, 0, 1<<30, m)
	require.NoError(t, err)
	require.True(t, done)
	second := int64(len(long) + 1)
	fourth := second + int64(len("needle here\ntail\n"))
	require.Equal(t, []int64{second, fourth}, found)
	require.Equal(t, int64(len(text)-len(long)), read, "the last line, still unended, is left for the next scan")
}
