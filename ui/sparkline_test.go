package ui

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"jobtop/jobs"
)

func TestSparklineCountsLinesPerSecond(t *testing.T) {
	a := newActivity()
	info := jobs.Info{ID: 1, State: jobs.StateRunning}
	a.sample(&info, at(-60*time.Second))
	// Ten lines a second for the first half of the minute, then one a
	// second, then nothing for the last 12 seconds.
	for s := -59; s <= -12; s++ {
		if s <= -30 {
			info.Lines += 10
		} else {
			info.Lines++
		}
		a.sample(&info, at(time.Duration(s)*time.Second))
	}
	got := a.sparkline(1, fixedNow, 12, false)
	require.Equal(t, 12, len([]rune(got)))
	assert.Equal(t, "▃▃▃▃▃▃▁▁▁▁  ", got, "5 seconds a cell: 10 lines a second, then 1")

	// A minute later it is all gone.
	assert.Equal(t, strings.Repeat(" ", 12), a.sparkline(1, at(time.Minute), 12, false))
	// Samples of the same second add up; nothing was counted per line.
	a.sample(&info, at(2*time.Minute))
	info.Lines += 500
	a.sample(&info, at(2*time.Minute+100*time.Millisecond))
	a.sample(&info, at(2*time.Minute+900*time.Millisecond))
	assert.Equal(t, uint32(500), a.jobs[1].lines[(fixedNow.Unix()+120)%activitySeconds])
}

// Every job's lines are on one scale, a block up about three times as
// many lines a second: a job writing a line every 2 seconds does not
// look like one flooding.
func TestSparklineScaleIsSharedByEveryJob(t *testing.T) {
	a := newActivity()
	rates := map[jobs.ID]uint64{1: 1, 2: 10, 3: 100, 4: 1000, 5: 450000}
	infos := map[jobs.ID]*jobs.Info{}
	for id := range rates {
		infos[id] = &jobs.Info{ID: id, State: jobs.StateRunning}
		a.sample(infos[id], at(-60*time.Second))
	}
	for s := -59; s <= 0; s++ {
		for id, n := range rates {
			infos[id].Lines += n
			a.sample(infos[id], at(time.Duration(s)*time.Second))
		}
	}
	want := map[jobs.ID]string{1: "▁", 2: "▃", 3: "▅", 4: "▇", 5: "█"}
	for id, block := range want {
		assert.Equal(t, strings.Repeat(block, 12), a.sparkline(id, fixedNow, 12, false), "%d lines a second", rates[id])
	}
	slow := &jobs.Info{ID: 6, State: jobs.StateRunning}
	a.sample(slow, at(-60*time.Second))
	for s := -59; s <= 0; s += 2 {
		slow.Lines++
		a.sample(slow, at(time.Duration(s)*time.Second))
	}
	assert.Equal(t, strings.Repeat("▁", 12), a.sparkline(6, fixedNow, 12, false), "a line every 2 seconds")
}

func TestSparklineCPU(t *testing.T) {
	a := newActivity()
	info := jobs.Info{ID: 1, State: jobs.StateRunning}
	for s := -59; s <= 0; s++ {
		info.Usage.CPU = 0
		if s > -30 {
			info.Usage.CPU = 50
		}
		a.sample(&info, at(time.Duration(s)*time.Second))
	}
	// CPU is scaled to at least 100%: 50% is half height.
	assert.Equal(t, "      ▄▄▄▄▄▄", a.sparkline(1, fixedNow, 12, true))
}

// TestSparklineColumnsWhenWide: the columns show only where the output
// keeps room, the CPU one only wider still; the frame always fits.
func TestSparklineColumnsWhenWide(t *testing.T) {
	list := timelineJobs()
	for _, c := range []struct {
		width      int
		lines, cpu bool
	}{{80, false, false}, {110, false, false}, {120, true, false}, {140, true, true}, {220, true, true}} {
		m := newTimelineModel(t, c.width, 24, list...)
		head := lines(m.View())[0]
		assert.Equal(t, c.lines, strings.Contains(head, "LINES/S 1m"), "%d columns: %q", c.width, head)
		assert.Equal(t, c.cpu, strings.Contains(head, "CPU% 1m"), "%d columns: %q", c.width, head)
		requireFits(t, m.View(), c.width, 24, "sparklines")
	}
}

// TestSparklineOfARealJob: a job that writes shows activity in its row,
// sampled from the events and the tick.
func TestSparklineOfARealJob(t *testing.T) {
	mgr := newManager(t)
	now := time.Now()
	clock := func() time.Time { return now }
	m := newSizedModel(t, mgr, Config{Now: clock}, 200, 20)
	start(t, mgr, "writer", "for i in $(seq 1 300); do echo line $i; done; exec sleep 600")
	pumpUntil(t, m, "300 lines", func() bool {
		info, _ := m.table.Get(1)
		return info.Lines == 300
	})
	now = now.Add(time.Second)
	m.Update(tickMsg{})
	row := lines(m.View())[1]
	require.Contains(t, row, "▅", "300 lines in a second: %q", row)
	col := strings.Index(lines(m.View())[0], "LINES/S 1m")
	require.Positive(t, col)
}

// jobtop's own notes (a health note, a run marker) are not the job's
// activity: LINES/S counts only the job's lines, as LINES does.
func TestSparklineLeavesOutJobtopsNotes(t *testing.T) {
	a := newActivity()
	info := jobs.Info{ID: 1, State: jobs.StateRunning, Lines: 10}
	a.sample(&info, at(-2*time.Second))
	info.Lines, info.MetaLines = 13, 3 // three health notes
	a.sample(&info, at(-time.Second))
	assert.Equal(t, uint32(0), a.jobs[1].lines[(fixedNow.Unix()-1)%activitySeconds])
	info.Lines += 2 // two of the job's
	a.sample(&info, fixedNow)
	assert.Equal(t, uint32(2), a.jobs[1].lines[fixedNow.Unix()%activitySeconds])
}
