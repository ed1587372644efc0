package ui

import (
	"math"
	"strings"
	"time"

	"jobtop/jobs"
)

// Activity in the job table: per job, the output lines written in each
// second of the last minute and the CPU% sampled in each, drawn as
// sparklines. Nothing is counted per line of output: the counts are the
// differences between the line totals the store already keeps
// (jobs.Info.JobLines: the job's own, not jobtop's notes), sampled when event batches (at most one a frame)
// and the once-a-second tick arrive. A drawn sparkline is kept until the
// next sample or second.

// activitySeconds is how far back the sparklines look.
const activitySeconds = 60

// sparkBlocks are the sparkline's levels, lowest first; a second with
// nothing is a space.
var sparkBlocks = []rune("▁▂▃▄▅▆▇█")

// jobActivity is one job's last minute, in rings indexed by Unix second
// modulo activitySeconds. A slot holds the newest second with that index
// up to last; slots of seconds after last are zero.
type jobActivity struct {
	lines [activitySeconds]uint32
	cpu   [activitySeconds]float32
	last  int64 // the newest second sampled
	total uint64
	bytes int64
	// spoke is when the job's output last grew (when first seen: when
	// it last wrote, lastSpoke), for quiet alerts.
	spoke time.Time

	drawn      [2]string // lines, CPU: the sparklines drawn for drawnAt
	drawnWidth [2]int
	drawnAt    [2]int64
}

// activity holds every job's last minute.
type activity struct {
	jobs map[jobs.ID]*jobActivity
}

func newActivity() *activity { return &activity{jobs: make(map[jobs.ID]*jobActivity)} }

// sample records a job's snapshot at now: the lines written since the
// last sample go to now's second, and its CPU% is now's second's.
func (a *activity) sample(info *jobs.Info, now time.Time) {
	sec := now.Unix()
	j := a.jobs[info.ID]
	if j == nil {
		j = &jobActivity{last: sec, total: info.JobLines(), bytes: info.Bytes, spoke: lastSpoke(info, now), drawnAt: [2]int64{-1, -1}}
		a.jobs[info.ID] = j
	}
	if info.JobLines() == j.total && info.Bytes == j.bytes && (!info.State.Active() || info.Usage.CPU == 0) {
		return // nothing to count: the sparklines drawn stand
	}
	if sec > j.last {
		for s := max(j.last+1, sec-activitySeconds+1); s <= sec; s++ {
			j.lines[s%activitySeconds], j.cpu[s%activitySeconds] = 0, 0
		}
		j.last = sec
	}
	if lines := info.JobLines(); lines > j.total && sec == j.last {
		j.lines[sec%activitySeconds] += uint32(min(lines-j.total, 1<<31))
	}
	if info.Bytes != j.bytes {
		j.spoke = now
	}
	j.total, j.bytes = info.JobLines(), info.Bytes
	if info.State.Active() && sec == j.last {
		j.cpu[sec%activitySeconds] = float32(max(j.cpu[sec%activitySeconds], float32(info.Usage.CPU)))
	}
	j.drawnAt = [2]int64{-1, -1}
}

// lastSpoke is when a job first seen at now last wrote, for its quiet
// clock: its last output (an attached TUI sees jobs that ran before it),
// or its run's start if that came later (or it never wrote); now when
// neither is known or both are later (another host's clock).
func lastSpoke(info *jobs.Info, now time.Time) time.Time {
	var at time.Time
	if info.LastOutputAt != nil {
		at = *info.LastOutputAt
	}
	if info.Started != nil && info.Started.After(at) {
		at = *info.Started
	}
	if at.IsZero() || at.After(now) {
		return now
	}
	return at
}

// begin starts counting a job that is new: every line it has counts.
func (a *activity) begin(id jobs.ID, now time.Time) {
	if a.jobs[id] == nil {
		a.jobs[id] = &jobActivity{last: now.Unix(), spoke: now, drawnAt: [2]int64{-1, -1}}
	}
}

// forget drops a removed job.
func (a *activity) forget(id jobs.ID) { delete(a.jobs, id) }

// sparkline draws a job's lines (cpu false) or CPU% per second over the
// last minute, as of now, in width cells: each cell the busiest of its
// seconds. Lines are on one scale for every job, so that rows compare at
// a glance: a block up is about three times as many lines a second
// (linesLevel); CPU is scaled to the busiest cell, and at least 100%.
func (a *activity) sparkline(id jobs.ID, now time.Time, width int, cpu bool) string {
	j := a.jobs[id]
	if j == nil || width <= 0 {
		return ""
	}
	which := 0
	if cpu {
		which = 1
	}
	sec := now.Unix()
	if j.drawnAt[which] == sec && j.drawnWidth[which] == width {
		return j.drawn[which]
	}
	per := max((activitySeconds+width-1)/width, 1)
	cells := make([]float64, width)
	peak := 0.0
	if cpu {
		peak = 100
	}
	for c := 0; c < width; c++ {
		// Cell c holds the per seconds ending (width-1-c)*per seconds
		// before now.
		end := sec - int64((width-1-c)*per)
		for s := end - int64(per) + 1; s <= end; s++ {
			if s > j.last || s <= sec-activitySeconds || s <= j.last-activitySeconds {
				continue
			}
			v := float64(j.lines[s%activitySeconds])
			if cpu {
				v = float64(j.cpu[s%activitySeconds])
			}
			cells[c] = max(cells[c], v)
		}
		peak = max(peak, cells[c])
	}
	var b strings.Builder
	for _, v := range cells {
		if v <= 0 || peak <= 0 {
			b.WriteByte(' ')
			continue
		}
		level := linesLevel(v)
		if cpu {
			level = int(v / peak * float64(len(sparkBlocks)-1))
		}
		b.WriteRune(sparkBlocks[min(max(level, 0), len(sparkBlocks)-1)])
	}
	j.drawn[which], j.drawnWidth[which], j.drawnAt[which] = b.String(), width, sec
	return j.drawn[which]
}

// linesLevel is the block for n lines a second: two a decade, so ▁ is a
// line or so, ▃ 10, ▅ 100, ▇ 1,000 and █ 3,000 or more. Scaled to each
// row's own busiest second instead, a job writing a line every 2 seconds
// drew the same full blocks as one flooding at 450 a second.
func linesLevel(n float64) int { return int(2 * math.Log10(max(n, 1))) }

// The sparkline columns: lines a second, and CPU%, each sparkWidth cells
// wide. They come before OUTPUT, and only when the output keeps at least
// sparkOutputKeep cells; CPU's only when a second pair fits.
const (
	colActivity colKind = 101
	colCPUSpark colKind = 102

	sparkWidth      = 12
	sparkOutputKeep = 30
)

// withActivityColumns carves the sparkline columns out of a wide OUTPUT
// column.
func withActivityColumns(cols []column) []column {
	n := len(cols)
	if n == 0 || cols[n-1].kind != colOutput {
		return cols
	}
	out := cols[n-1]
	var add []column
	for _, c := range []column{
		{kind: colActivity, title: "LINES/S 1m", width: sparkWidth},
		{kind: colCPUSpark, title: "CPU% 1m", width: sparkWidth},
	} {
		if out.width-c.width-colSep < sparkOutputKeep {
			break
		}
		out.width -= c.width + colSep
		add = append(add, c)
	}
	if len(add) == 0 {
		return cols
	}
	return append(append(cols[:n-1:n-1], add...), out)
}

// sparkCell is a sparkline column's cell.
func (t *jobTable) sparkCell(info jobs.Info, c column) string {
	if t.activity == nil {
		return ""
	}
	return t.activity.sparkline(info.ID, t.now, c.width, c.kind == colCPUSpark)
}
