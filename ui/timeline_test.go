package ui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/golden"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"jobtop/jobs"
)

// timelineJobs are five jobs of a build: one that succeeded, one that
// failed twice and is waiting out its backoff, one killed, one timed out
// and one still running (ready for a while).
func timelineJobs() []jobs.Info {
	exit := func(c int) *int { return &c }
	build := ended(1, -9*time.Minute, -6*time.Minute, jobs.StateSucceeded, 0)
	flaky1 := ended(1, -8*time.Minute, -7*time.Minute, jobs.StateFailed, 1)
	flaky2 := ended(2, -6*time.Minute, -4*time.Minute, jobs.StateFailed, 1)
	killed := ended(1, -5*time.Minute, -3*time.Minute, jobs.StateKilled, 0)
	killed.Signal = jobs.Signal(15)
	slow := ended(1, -4*time.Minute, -2*time.Minute, jobs.StateTimedOut, 0)
	return []jobs.Info{
		{ID: 1, Name: "build", Command: "make", State: jobs.StateSucceeded, Runs: 1, Started: &build.Started, Ended: build.Ended, ExitCode: exit(0), History: []jobs.RunRecord{build}},
		{ID: 2, Name: "flaky-tests", Command: "go test", State: jobs.StateFailed, Runs: 2, Started: &flaky2.Started, Ended: flaky2.Ended, ExitCode: exit(1),
			Reason: "restarting in 4m0s (attempt 2)", History: []jobs.RunRecord{flaky1, flaky2}},
		{ID: 3, Name: "db", Command: "postgres", State: jobs.StateKilled, Runs: 1, Started: &killed.Started, Ended: killed.Ended, Signal: killed.Signal, History: []jobs.RunRecord{killed}},
		{ID: 4, Name: "lint", Command: "golangci-lint run", State: jobs.StateTimedOut, Runs: 1, Started: &slow.Started, Ended: slow.Ended, History: []jobs.RunRecord{slow}},
		{ID: 5, Name: "web", Command: "npm run dev", State: jobs.StateRunning, Runs: 1, PID: 4242, Started: atp(-3 * time.Minute), Ready: true, ReadyAt: atp(-2 * time.Minute)},
	}
}

func newTimelineModel(t *testing.T, width, height int, list ...jobs.Info) *Model {
	t.Helper()
	return newSizedModel(t, newFixedEngine(list...), Config{Now: func() time.Time { return fixedNow }}, width, height)
}

// TestTimelineGolden draws the timeline at several terminal sizes.
func TestTimelineGolden(t *testing.T) {
	for _, size := range [][2]int{{120, 30}, {80, 24}, {60, 14}, {40, 10}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			m := newTimelineModel(t, size[0], size[1], timelineJobs()...)
			m.Update(keyMsg("T"))
			view := m.View()
			requireFits(t, view, size[0], size[1], "timeline")
			golden.RequireEqual(t, []byte(view))
		})
	}
}

// timelineRow is the timeline's line for a job, found by its label.
func timelineRow(t *testing.T, m *Model, name string) string {
	t.Helper()
	ls := lines(m.View())
	for _, l := range ls[m.screen.frame.table:] {
		if strings.Contains(l, " "+name+" ") {
			return l
		}
	}
	t.Fatalf("no timeline row for %s in:\n%s", name, m.View())
	return ""
}

func TestTimelineBarsSayHowRunsEnded(t *testing.T) {
	m := newTimelineModel(t, 120, 30, timelineJobs()...)
	m.Update(keyMsg("T"))
	row := timelineRow(t, m, "flaky-tests")
	assert.Equal(t, 2, strings.Count(row, "✗"), "two failed runs: %q", row)
	assert.Contains(t, row, "✗╌", "the backoff between the runs is a dotted gap")
	assert.True(t, strings.HasSuffix(row, "╌"), "a restart is coming: the gap runs to now: %q", row)
	assert.Contains(t, timelineRow(t, m, "build"), "█✓")
	assert.Contains(t, timelineRow(t, m, "db"), "█■")
	assert.Contains(t, timelineRow(t, m, "lint"), "█⧗")
	web := timelineRow(t, m, "web")
	assert.True(t, strings.HasSuffix(web, "█"), "a running bar reaches now: %q", web)
	assert.True(t, strings.HasSuffix(timelineRow(t, m, "build"), "│"), "the now line")
	axis := lines(m.View())[m.screen.frame.table+m.screen.frame.pane-1]
	assert.Contains(t, axis, "now")
	assert.Contains(t, axis, "-4m")

	// A bar's length is its run's share of the span: build ran 3 of the
	// 10 minutes shown.
	build := timelineRow(t, m, "build")
	barW := textWidth(build) - (markerWidth + m.timeline.labelWidth(m.table) + 1)
	assert.InDelta(t, float64(barW)*3/10, strings.Count(build, "█")+1, 2)
}

func TestTimelineZoomAndEnter(t *testing.T) {
	m := newTimelineModel(t, 100, 24, timelineJobs()...)
	m.Update(keyMsg("T"))
	require.NotNil(t, m.timeline)
	assert.Contains(t, m.View(), "last 10m (all runs)")
	m.Update(keyMsg("+"))
	assert.Contains(t, m.View(), "last 5m ·")
	assert.NotContains(t, timelineRow(t, m, "build"), "✓", "build ended before the last 5 minutes")
	m.Update(keyMsg("+"))
	assert.Contains(t, m.View(), "last 2m ·")
	m.Update(keyMsg("-"))
	m.Update(keyMsg("-"))
	m.Update(keyMsg("-"))
	assert.Contains(t, m.View(), "last 30m ·")
	assert.Contains(t, timelineRow(t, m, "build"), "✓")

	// The selection moves with j/k; enter opens the selected job's output.
	m.Update(keyMsg("j"))
	m.Update(keyMsg("j"))
	assert.Contains(t, timelineRow(t, m, "db"), "▸")
	m.Update(keyMsg("enter"))
	assert.Nil(t, m.timeline)
	assert.Equal(t, focusOutput, m.focus)
	assert.Equal(t, jobs.ID(3), m.activePane().JobID())

	m.Update(keyMsg("esc"))
	m.Update(keyMsg("T"))
	m.Update(keyMsg("T"))
	assert.Nil(t, m.timeline, "T closes it")
}

// TestTimelineScrollsWithTheSelection: on a short screen the rows shown
// follow the table's selection.
func TestTimelineScrollsWithTheSelection(t *testing.T) {
	var list []jobs.Info
	for i := 1; i <= 30; i++ {
		r := ended(1, -time.Duration(31-i)*time.Minute, -time.Duration(30-i)*time.Minute, jobs.StateSucceeded, 0)
		list = append(list, jobs.Info{ID: jobs.ID(i), Name: fmt.Sprintf("step-%02d", i), State: jobs.StateSucceeded, Runs: 1, Started: &r.Started, Ended: r.Ended, History: []jobs.RunRecord{r}})
	}
	m := newTimelineModel(t, 80, 20, list...)
	m.Update(keyMsg("T"))
	assert.NotContains(t, m.View(), "step-30")
	m.Update(keyMsg("G"))
	row := timelineRow(t, m, "step-30")
	assert.Contains(t, row, "▸")
	requireFits(t, m.View(), 80, 20, "scrolled timeline")
}

// The labels right-align the IDs, as the table does, so the names (and
// the bars after them) line up from job 10 on.
func TestTimelineLabelsLineUp(t *testing.T) {
	var list []jobs.Info
	for i := 1; i <= 12; i++ {
		r := ended(1, -time.Duration(13-i)*time.Minute, -time.Duration(12-i)*time.Minute, jobs.StateSucceeded, 0)
		list = append(list, jobs.Info{ID: jobs.ID(i), Name: fmt.Sprintf("step-%02d", i), State: jobs.StateSucceeded, Runs: 1, Started: &r.Started, Ended: r.Ended, History: []jobs.RunRecord{r}})
	}
	m := newTimelineModel(t, 100, 40, list...)
	m.Update(keyMsg("T"))
	nine, ten := timelineRow(t, m, "step-09"), timelineRow(t, m, "step-10")
	require.Equal(t, strings.Index(nine, "step-09"), strings.Index(ten, "step-10"), "names in one column:\n%s\n%s", nine, ten)
	require.Contains(t, nine, "  9 step-09")
	require.Contains(t, ten, " 10 step-10")
}

// A run restarted at once starts in the cell where the run before ended:
// that run's end symbol stays, the next run's bar starts after it, at
// every zoom level.
func TestTimelineRestartAtOnceKeepsTheEndSymbol(t *testing.T) {
	first := ended(1, -4*time.Minute, -2*time.Minute, jobs.StateFailed, 1)
	second := ended(2, -2*time.Minute, -90*time.Second, jobs.StateKilled, 0)
	list := []jobs.Info{{ID: 1, Name: "server", Command: "serve", State: jobs.StateRunning, Runs: 3, PID: 4242,
		Started: atp(-90 * time.Second), History: []jobs.RunRecord{first, second}}}
	m := newTimelineModel(t, 100, 20, list...)
	m.Update(keyMsg("T"))
	for _, zoom := range []string{"", "+", "-", "-"} {
		if zoom != "" {
			m.Update(keyMsg(zoom))
		}
		row := timelineRow(t, m, "server")
		require.Equal(t, 1, strings.Count(row, "✗"), "the first run failed: %q", row)
		require.Equal(t, 1, strings.Count(row, "■"), "the second run was killed: %q", row)
		require.Regexp(t, `✗█+■█+$`, row, "three runs back to back")
	}
}
