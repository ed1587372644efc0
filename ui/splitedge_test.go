package ui

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"jobtop/jobs"
)

// In a split view, a row that holds text a terminal may draw narrower
// than jobtop counts it (⚠️: one cell in tmux 3.3) erases the rest of the
// screen's row and moves to its box's right edge (EL, CHA) before it
// draws the edge; a row of ASCII is drawn as it is. The top edges, which
// hold job names and commands, always do.
func TestSplitRowsPlaceTheRightEdge(t *testing.T) {
	mgr := newManager(t)
	start(t, mgr, "warn", "echo 'plain line'; echo 'warn ⚠️⚠️ end'; exec sleep 60")
	start(t, mgr, "other", "echo 'other line'; exec sleep 60")
	m := newSizedModel(t, mgr, Config{}, 100, 30)
	pumpUntil(t, m, "both jobs' output", func() bool {
		js := m.table.Jobs()
		return len(js) == 2 && js[0].Lines == 2 && js[1].Lines == 1
	})
	press(t, m, "s")
	require.Equal(t, viewSplit, m.mode)
	require.Len(t, m.screen.panes, 2)
	edge := m.screen.panes[0].w // the left box's right edge, from 1

	view := m.View()
	requireFits(t, view, 100, 30, "split")
	ls := lines(view)
	y := m.screen.outputY
	require.Contains(t, ls[y], "\x1b[K\x1b[50G", "the left box's top edge")
	require.True(t, strings.HasSuffix(ls[y], "\x1b[K\x1b[100G╮"), "%q", ls[y])
	pad := strings.Repeat(" ", edge-12)
	require.Equal(t, "│plain line"+pad+"││other line"+pad+"│", ls[y+1], "ASCII rows as they are")
	warn := "│warn ⚠️⚠️ end" + strings.Repeat(" ", edge-15) + "\x1b[K\x1b[50G│"
	require.True(t, strings.HasPrefix(ls[y+2], warn), "%q", ls[y+2])
	require.Equal(t, jobs.ID(1), m.split[0].JobID())
}
