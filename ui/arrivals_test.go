package ui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// Jobs started from outside one after another (a loop of jobtop run),
// each arriving in an event batch of its own, share one notice that
// counts them all; after a quiet while, or once another notice replaced
// it, the next arrival has a notice of its own.
func TestArrivalsNoticeCountsEveryJob(t *testing.T) {
	mgr := newManager(t)
	clock := time.Now()
	m := newSizedModel(t, mgr, Config{Now: func() time.Time { return clock }}, 160, 20)
	for i, name := range []string{"a", "b", "c", "d", "e"} {
		start(t, mgr, name, "exec sleep 60")
		pumpUntil(t, m, name+" in the table", func() bool { return m.table.Len() == i+1 })
		clock = clock.Add(time.Second)
	}
	require.Contains(t, m.statusView(), "5 jobs started from outside this TUI: 1 a, 2 b, 3 c, 4 d, 5 e")

	clock = clock.Add(arrivalsWindow + time.Second)
	start(t, mgr, "f", "exec sleep 60")
	pumpUntil(t, m, "f in the table", func() bool { return m.table.Len() == 6 })
	require.Contains(t, m.statusView(), "│ job 6 f started from outside this TUI", "a while later: news of its own")

	require.NoError(t, mgr.Kill(1))
	pumpUntil(t, m, "the kill's notice", func() bool { return strings.Contains(m.statusView(), "job 1 a killed") })
	start(t, mgr, "g", "exec sleep 60")
	pumpUntil(t, m, "g in the table", func() bool { return m.table.Len() == 7 })
	require.Contains(t, m.statusView(), "│ job 7 g started from outside this TUI", "the notice it would add to is gone")
}

// An arrivals notice names the first jobs and counts the others: one
// that stands for hours of agents' jobs keeps no list of them all.
func TestArrivalsNoticeNamesTheFirstJobs(t *testing.T) {
	mgr := newManager(t)
	clock := time.Now()
	m := newSizedModel(t, mgr, Config{Now: func() time.Time { return clock }}, 160, 20)
	var names []string
	for i := 1; i <= maxArrivalLabels+3; i++ {
		start(t, mgr, fmt.Sprintf("j%d", i), "exec sleep 60")
		if i <= maxArrivalLabels {
			names = append(names, fmt.Sprintf("%d j%d", i, i))
		}
	}
	pumpUntil(t, m, "every job", func() bool { return m.table.Len() == maxArrivalLabels+3 })
	want := fmt.Sprintf("%d jobs started from outside this TUI: %s, and 3 more", maxArrivalLabels+3, strings.Join(names, ", "))
	require.Equal(t, want, m.notice.text)
	require.Len(t, m.arrivals.labels, maxArrivalLabels)
}
