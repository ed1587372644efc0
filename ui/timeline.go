package ui

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"jobtop/jobs"
)

// timeline draws, in place of the output, one row per job of the table
// (in the table's order, scrolled with its selection) and time across: a
// bar per run in the colour of how it ended, ending in the end's symbol,
// the gaps between runs (restarts, backoff) dotted, a "now" line at the
// right edge and a labelled time axis. It reads the runs from the jobs'
// snapshots (jobs.Info.RunRecords) and holds only its zoom and scroll.
type timeline struct {
	pal *palette
	// span is the time the width shows, ending now; 0 fits every run.
	span   time.Duration
	offset int // the first job row shown
	width  int
	height int
}

// timelineSpans are the zoom levels, narrowest first.
var timelineSpans = []time.Duration{
	10 * time.Second, 30 * time.Second, time.Minute, 2 * time.Minute, 5 * time.Minute,
	10 * time.Minute, 30 * time.Minute, time.Hour, 2 * time.Hour, 6 * time.Hour, 12 * time.Hour, 24 * time.Hour,
}

// timelineLabelMax caps the width of the job labels at the left.
const timelineLabelMax = 20

func newTimeline(pal *palette) *timeline { return &timeline{pal: pal} }

// SetSize sets the area the timeline draws in.
func (tl *timeline) SetSize(w, h int) { tl.width, tl.height = w, h }

// zoom narrows (in) or widens the span by one level, starting from the
// span that fits every run.
func (tl *timeline) zoom(in bool, fit time.Duration) {
	cur := tl.span
	if cur == 0 {
		cur = fit
	}
	i := 0
	for i < len(timelineSpans) && timelineSpans[i] < cur {
		i++
	}
	// timelineSpans[i] is the first level at least cur.
	switch {
	case in && i > 0:
		tl.span = timelineSpans[i-1]
	case in:
		tl.span = timelineSpans[0]
	case i < len(timelineSpans) && timelineSpans[i] > cur:
		tl.span = timelineSpans[i]
	case i+1 < len(timelineSpans):
		tl.span = timelineSpans[i+1]
	default:
		tl.span = timelineSpans[len(timelineSpans)-1]
	}
}

// fitSpan is the narrowest zoom level that shows every run from the
// first one's start to now (whole days past the widest level).
func fitSpan(list []jobs.Info, now time.Time) time.Duration {
	var span time.Duration
	for _, j := range list {
		for _, r := range j.History {
			span = max(span, now.Sub(r.Started))
		}
		if j.Started != nil {
			span = max(span, now.Sub(*j.Started))
		}
	}
	for _, s := range timelineSpans {
		if s > span {
			return s
		}
	}
	day := 24 * time.Hour
	return (span/day + 1) * day
}

// View draws the timeline over the table's rows: a title line, the job
// rows, and the axis; exactly height lines of at most width cells.
func (tl *timeline) View(t *jobTable, now time.Time) string {
	if tl.width <= 0 || tl.height <= 0 {
		return ""
	}
	span := tl.span
	if span == 0 {
		span = fitSpan(t.Jobs(), now)
	}
	labelW := tl.labelWidth(t)
	maxID, _ := tableIDs(t.Jobs())
	idW := len(strconv.Itoa(maxID))
	barW := tl.width - markerWidth - labelW - 1
	lines := make([]string, 0, tl.height)
	title := "timeline · last " + formatSpan(span)
	if tl.span == 0 {
		title += " (all runs)"
	}
	title += " · +/- zoom · enter: output · T: close"
	lines = append(lines, tl.pal.header.Wrap(fit(title, tl.width, false)))
	rows := max(tl.height-2, 0)
	tl.scrollTo(t, rows)
	for r := 0; r < rows && len(lines) < tl.height; r++ {
		i := tl.offset + r
		if i >= t.Len() {
			lines = append(lines, "")
			continue
		}
		lines = append(lines, tl.rowView(t, t.row(i), now, span, labelW, idW, barW))
	}
	if len(lines) < tl.height {
		lines = append(lines, strings.Repeat(" ", markerWidth+labelW+1)+tl.pal.muted.Wrap(axisLine(now, span, barW)))
	}
	return strings.Join(lines, "\n")
}

// RowAt is the job drawn on line y of the timeline's view, as last drawn
// (0 is the title, the axis is last).
func (tl *timeline) RowAt(t *jobTable, y int) (jobs.ID, bool) {
	i := tl.offset + y - 1
	if y < 1 || y > tl.height-2 || i >= t.Len() {
		return 0, false
	}
	return t.row(i).ID, true
}

// labelWidth is the width of the job labels: "ID name", capped.
func (tl *timeline) labelWidth(t *jobTable) int {
	maxID, _ := tableIDs(t.Jobs())
	w := len(strconv.Itoa(maxID)) + 1 + max(t.longestName, 4)
	return min(w, timelineLabelMax, max(tl.width/3, 6))
}

// scrollTo keeps the table's selected job among the rows shown.
func (tl *timeline) scrollTo(t *jobTable, rows int) {
	c := t.cursor()
	if c < tl.offset {
		tl.offset = c
	}
	if rows > 0 && c >= tl.offset+rows {
		tl.offset = c - rows + 1
	}
	tl.offset = max(min(tl.offset, t.Len()-rows), 0)
}

// rowView is one job's row: the selection marker, its label and its bars.
func (tl *timeline) rowView(t *jobTable, info jobs.Info, now time.Time, span time.Duration, labelW, idW, barW int) string {
	var b strings.Builder
	// IDs right-aligned, as in the table, so the names line up.
	lbl := fit(fmt.Sprintf("%*s %s", idW, shownID(info).String(), label(info.Name)), labelW, false)
	if info.ID == t.selected {
		b.WriteString(tl.pal.selected.Wrap("▸   " + lbl))
	} else {
		b.WriteString("    " + lbl)
	}
	b.WriteByte(' ')
	if barW > 0 {
		b.WriteString(tl.bars(info, now, span, barW))
	}
	return b.String()
}

// timelineCell is one cell of a row of bars: its text and its style.
type timelineCell struct {
	text  string
	state jobs.State // the run's state; "" for a gap or nothing
	gap   bool
}

// bars draws a job's runs in barW cells covering [now-span, now].
func (tl *timeline) bars(info jobs.Info, now time.Time, span time.Duration, barW int) string {
	cells := make([]timelineCell, barW)
	start := now.Add(-span)
	col := func(at time.Time) int {
		return int(int64(at.Sub(start)) * int64(barW) / int64(span))
	}
	clamp := func(x int) int { return min(max(x, 0), barW-1) }
	gap := func(from, to int) {
		for x := max(from, 0); x <= min(to, barW-1); x++ {
			if cells[x].text == "" {
				cells[x] = timelineCell{text: "╌", gap: true}
			}
		}
	}
	runs := info.RunRecords()
	// A run restarted at once starts in the cell where the one before
	// ended: the end symbols go on after every bar, so they stay.
	type endMark struct {
		x     int
		state jobs.State
	}
	var ends []endMark
	var prevEnd *time.Time
	for _, r := range runs {
		end := now
		if r.Ended != nil {
			end = *r.Ended
		}
		from, to := col(r.Started), col(end)
		if prevEnd != nil {
			gap(col(*prevEnd)+1, from-1)
		}
		prevEnd = r.Ended
		if to < 0 || from > barW-1 {
			continue
		}
		from, to = clamp(from), clamp(to)
		for x := from; x <= to; x++ {
			cells[x] = timelineCell{text: "█", state: r.State}
		}
		if r.Ended != nil && col(end) <= barW-1 {
			ends = append(ends, endMark{to, r.State})
		}
	}
	for _, e := range ends {
		cells[e.x] = timelineCell{text: stateSymbol(e.state), state: e.state}
	}
	// A restart waiting out its backoff, or queued.
	waiting := info.State == jobs.StateQueued || info.State.Done() && strings.HasPrefix(info.Reason, "restarting")
	if waiting && prevEnd != nil {
		gap(col(*prevEnd)+1, barW-1)
	}
	if cells[barW-1].text == "" {
		cells[barW-1].text = "│" // now
	}
	var b strings.Builder
	for _, c := range cells {
		switch {
		case c.text == "":
			b.WriteByte(' ')
		case c.gap || c.text == "│":
			b.WriteString(tl.pal.muted.Wrap(c.text))
		default:
			b.WriteString(tl.pal.states[c.state].Wrap(c.text))
		}
	}
	return b.String()
}

// axisLine is the time axis under the bars: ticks at round steps before
// now, labelled "-30s", "-2m"…, and "now" at the right end.
func axisLine(now time.Time, span time.Duration, barW int) string {
	if barW <= 0 {
		return ""
	}
	row := []rune(strings.Repeat("─", barW))
	labels := make([]rune, barW)
	for i := range labels {
		labels[i] = ' '
	}
	step := axisStep(span, barW)
	put := func(x int, text string) bool {
		if x < 0 || x+len(text) > barW {
			return false
		}
		for i := max(x-1, 0); i < min(x+len(text)+1, barW); i++ {
			if labels[i] != ' ' {
				return false
			}
		}
		copy(labels[x:], []rune(text))
		return true
	}
	nowText := "now"
	put(barW-len(nowText), nowText)
	row[barW-1] = '┤'
	for back := step; back < span; back += step {
		x := int(int64(span-back) * int64(barW) / int64(span))
		if x >= barW-1 {
			continue
		}
		row[x] = '┼'
		put(x, "-"+formatSpan(back))
	}
	// One line: the labels sit on the axis.
	out := make([]rune, barW)
	for i := range out {
		out[i] = row[i]
		if labels[i] != ' ' {
			out[i] = labels[i]
		}
	}
	return string(out)
}

// axisStep is the round step between ticks that leaves at least about
// nine cells between labels.
func axisStep(span time.Duration, barW int) time.Duration {
	steps := []time.Duration{
		time.Second, 2 * time.Second, 5 * time.Second, 10 * time.Second, 15 * time.Second, 30 * time.Second,
		time.Minute, 2 * time.Minute, 5 * time.Minute, 10 * time.Minute, 15 * time.Minute, 30 * time.Minute,
		time.Hour, 2 * time.Hour, 3 * time.Hour, 6 * time.Hour, 12 * time.Hour,
	}
	for _, s := range steps {
		if int64(s)*int64(barW)/int64(span) >= 9 {
			return s
		}
	}
	return 24 * time.Hour
}

// formatSpan is a span as short as it reads: 10s, 2m, 1m30s, 6h.
func formatSpan(d time.Duration) string {
	switch {
	case d < time.Minute:
		return strconv.Itoa(int(d/time.Second)) + "s"
	case d < time.Hour && d%time.Minute == 0:
		return strconv.Itoa(int(d/time.Minute)) + "m"
	case d < time.Hour:
		return strconv.Itoa(int(d/time.Minute)) + "m" + strconv.Itoa(int(d%time.Minute/time.Second)) + "s"
	case d%time.Hour == 0:
		return strconv.Itoa(int(d/time.Hour)) + "h"
	}
	return strconv.Itoa(int(d/time.Hour)) + "h" + strconv.Itoa(int(d%time.Hour/time.Minute)) + "m"
}
