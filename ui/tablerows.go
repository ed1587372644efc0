package ui

import (
	"strconv"
	"strings"
	"time"

	"jobtop/jobs"
)

// Filtering reports whether rows are picked: by the filter's text, or
// because ended jobs are hidden.
func (t *jobTable) Filtering() bool { return t.filter.active() || t.hideEnded }

// shows reports whether a job passes the filter and the hiding of ended
// jobs (which the job typed into is spared).
func (t *jobTable) shows(j jobs.Info) bool {
	if t.hideEnded && j.State.Ended() && j.ID != t.typedInto {
		return false
	}
	return !t.filter.active() || t.filter.match(j)
}

// KeepTyped spares the job typed into (0: none) the hiding of ended
// jobs (H): input mode lasts across a job's runs, and between them the
// job stays in its row and its pane, as without H, until input mode is
// left; then H hides it. A filter's text still hides it.
func (t *jobTable) KeepTyped(id jobs.ID) {
	if t.typedInto == id {
		return
	}
	t.typedInto = id
	if t.hideEnded {
		t.Refilter()
	}
}

// SetHideEnded hides or shows the jobs that have ended (H).
func (t *jobTable) SetHideEnded(hide bool) {
	t.hideEnded = hide
	t.Refilter()
}

// HidingEnded reports whether ended jobs are hidden.
func (t *jobTable) HidingEnded() bool { return t.hideEnded }

// Ended counts the jobs that have ended, hidden or not.
func (t *jobTable) Ended() int {
	n := 0
	for _, j := range t.jobs {
		if j.State.Ended() {
			n++
		}
	}
	return n
}

// countText is "7 of 18" when the table shows fewer job rows than there
// are jobs (its height, a filter or H hides some), else "".
func (t *jobTable) countText() string {
	shown := min(t.visibleRows(), t.Len()-t.offset)
	if shown >= len(t.jobs) || len(t.jobs) == 0 {
		return ""
	}
	return strconv.Itoa(max(shown, 0)) + " of " + strconv.Itoa(len(t.jobs))
}

// withCount is the header line, exactly the table's width, with the
// count of rows shown at its right end when some are hidden and it fits.
func (t *jobTable) withCount(header string) string {
	count := t.countText()
	if count == "" || t.width < len(count)+20 {
		return cut(header, t.width)
	}
	return fit(strings.TrimRight(header, " "), t.width-len(count)-1, false) + " " + count
}

// shortWait is a time to wait in a few cells, rounded up: 4s, 99s, 2m,
// 99m, 2h, 99h, 5d.
func shortWait(d time.Duration) string { return shortSpan(d, true) }

// shortAgo is a time gone by in the same cells, rounded down (3m40s is
// 3m), and "<1s" under a second (a clock behind, negative, too).
func shortAgo(d time.Duration) string {
	if d < time.Second {
		return "<1s"
	}
	return shortSpan(d, false)
}

// shortSpan is d in whole seconds up to 99s, then minutes up to 99m,
// hours up to 99h, then days; rounded up or down.
func shortSpan(d time.Duration, up bool) string {
	div := func(a, b int64) int64 {
		if up {
			return (a + b - 1) / b
		}
		return a / b
	}
	n, unit := div(int64(d), int64(time.Second)), "s"
	for _, u := range []struct {
		per  int64
		unit string
	}{{60, "m"}, {60, "h"}, {24, "d"}} {
		if n < 100 {
			break
		}
		n, unit = div(n, u.per), u.unit
	}
	return strconv.FormatInt(n, 10) + unit
}

// countdown is " 4s" for a stopping job: the seconds left before
// SIGKILL ends it; " ↻4s" for an ended job its restart policy runs again
// then; "" for other jobs, or once the time has come. Under a second
// either reads "<1s" (" <1s", " ↻<1s"): a 10ms backoff, or the last
// instant of a grace period, is no 1s wait.
func countdown(info jobs.Info, now time.Time) string {
	var left time.Duration
	mark := ""
	switch {
	case now.IsZero():
		return ""
	case info.State == jobs.StateStopping && info.KillAt != nil:
		left = info.KillAt.Sub(now)
	case info.RestartAt != nil && info.State.Done():
		left, mark = info.RestartAt.Sub(now), "↻"
	}
	switch {
	case left <= 0:
		return ""
	case left < time.Second:
		return " " + mark + "<1s"
	}
	return " " + mark + shortWait(left)
}
