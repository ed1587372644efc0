package ui

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"jobtop/jobs"
	"jobtop/keymap"
	"jobtop/styles"
)

func scaleTable(t *testing.T) *jobTable {
	t.Helper()
	km := keymap.DefaultKeyMap()
	st := styles.Default()
	tb := newJobTable(&km, newPalette(&st))
	tb.SetSize(160, 20)
	return tb
}

func nameColumn(t *testing.T, tb *jobTable) int {
	t.Helper()
	for _, c := range tb.cols {
		if c.kind == colName {
			return c.width
		}
	}
	t.Fatal("no NAME column")
	return 0
}

// Names are measured once each, and the NAME column follows a rename
// both ways, and a removal of the longest.
func TestTableNameColumnFollowsRenamesAndRemovals(t *testing.T) {
	tb := scaleTable(t)
	for i := 1; i <= 3; i++ {
		tb.Upsert(jobs.Info{ID: jobs.ID(i), Name: "short", State: jobs.StateRunning})
	}
	base := nameColumn(t, tb)
	long := strings.Repeat("n", base+10)
	tb.Upsert(jobs.Info{ID: 2, Name: long, State: jobs.StateRunning})
	require.Equal(t, base+10, nameColumn(t, tb), "a rename to a longer name widens NAME")
	tb.Upsert(jobs.Info{ID: 2, Name: "short", State: jobs.StateRunning})
	require.Equal(t, base, nameColumn(t, tb), "a rename of the longest to a short name narrows NAME")
	tb.Upsert(jobs.Info{ID: 4, Name: long, State: jobs.StateRunning})
	require.Equal(t, base+10, nameColumn(t, tb))
	tb.Remove(4)
	require.Equal(t, base, nameColumn(t, tb), "removing the longest narrows NAME")
}

// The "all" view's name prefixes follow renames and removals of the
// widest name.
func TestJobNamesFollowRenamesAndRemovals(t *testing.T) {
	st := styles.Default()
	n := newJobNames(newPalette(&st))
	n.set(jobs.Info{ID: 1, Name: "ab"})
	n.set(jobs.Info{ID: 2, Name: "abcdef"})
	require.Equal(t, 6, n.width)
	n.set(jobs.Info{ID: 2, Name: "abcdef"}) // every event sets it again: nothing changes
	require.Equal(t, 6, n.width)
	n.set(jobs.Info{ID: 2, Name: "abc"})
	require.Equal(t, 3, n.width)
	n.set(jobs.Info{ID: 3, Name: "abcdefgh"})
	require.Equal(t, 8, n.width)
	n.forget(3)
	require.Equal(t, 3, n.width)
	_, _, w := n.prefix(2, 100)
	require.Equal(t, 3+3, w)
}

// Jobs that arrive while the table is filtered get a row when they
// match, and none when they do not; the rows already there stay.
func TestJobsArrivingWhileFilteredGetTheirRows(t *testing.T) {
	tb := scaleTable(t)
	tb.Upsert(jobs.Info{ID: 1, Name: "web", State: jobs.StateRunning})
	tb.SetFilter("db")
	require.Equal(t, 0, tb.Len())
	tb.Upsert(jobs.Info{ID: 2, Name: "db-main", State: jobs.StateRunning})
	tb.Upsert(jobs.Info{ID: 3, Name: "api", State: jobs.StateRunning})
	tb.Upsert(jobs.Info{ID: 4, Name: "db-replica", State: jobs.StateRunning})
	require.Equal(t, 2, tb.Len())
	require.Equal(t, jobs.ID(2), tb.row(0).ID)
	require.Equal(t, jobs.ID(4), tb.row(1).ID)
	sel, ok := tb.Selected()
	require.True(t, ok, "a job is selected once one is shown")
	require.Equal(t, jobs.ID(2), sel.ID)
	require.Contains(t, tb.View(), "db-replica")
	require.NotContains(t, tb.View(), "api")
}
