package ui

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestSearchFindsTheLineBeingWritten: a prompt the job waits at is shown
// in the pane before its newline, and a search finds it there (the
// filter shows it too); once the line is complete it is the same one
// match.
func TestSearchFindsTheLineBeingWritten(t *testing.T) {
	fifo := mkfifo(t, "answer")
	mgr := newManager(t)
	start(t, mgr, "ask", `echo before; printf 'Continue? [y/N] '; read a <`+fifo+`; echo answer=$a; exec sleep 100`)
	m := newSizedModel(t, mgr, Config{}, 100, 30)
	press(t, m, "enter")
	p := m.single
	pumpUntil(t, m, "the prompt in the pane", func() bool { return slices.Contains(paneText(p), "Continue? [y/N]") })

	search(t, m, "Continue")
	require.True(t, p.search.complete)
	require.Contains(t, p.headerView(), "/Continue match 1/1")
	press(t, m, "n")
	require.Contains(t, p.headerView(), "match 1/1")
	require.NotContains(t, m.notice.text, "no match")
	press(t, m, "&")
	require.Equal(t, []string{"Continue? [y/N]"}, paneText(p), "the filter shows the line being written")
	press(t, m, "&")

	writeFifo(t, fifo, "y\n")
	pumpUntil(t, m, "the completed line", func() bool {
		runPendingScans(t, m)
		return slices.Contains(paneText(p), "Continue? [y/N] answer=y")
	})
	runPendingScans(t, m)
	require.Len(t, p.search.index, 1, "the completed line is the match the prompt was")
	require.False(t, p.search.index[0].partial)
	require.Contains(t, p.headerView(), "/Continue match 1/1")
}
