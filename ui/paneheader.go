package ui

import (
	"strconv"
	"strings"
	"time"

	"jobtop/jobs"
)

// headerView is the pane's title: the job, its state and command on the
// left; the search, follow and wrap flags on the right.
func (p *outputPane) headerView() string {
	key := p.headerKey(p.width, false)
	if key != p.header.key {
		p.header = headerCache{key: key, text: p.drawHeader()}
	}
	return p.header.text
}

func (p *outputPane) drawHeader() string {
	mark, left, right := p.headerParts()
	left = mark + left
	title := p.pal.title
	if p.focused {
		title = p.pal.titleFocused
	}
	rightW := textWidth(right)
	if rightW >= p.width {
		right, rightW = "", 0
	}
	return title.Wrap(fit(left, p.width-rightW, false)) + right
}

// headerParts are the header's focus mark ("▸ " when focused), its left
// text (in the title style, which it re-opens after its own colours) and
// its right flags.
func (p *outputPane) headerParts() (mark, left, right string) {
	title := p.pal.title
	mark = "  "
	if p.focused {
		title, mark = p.pal.titleFocused, "▸ "
	}
	if !p.has {
		return mark, "no job selected", ""
	}
	var b strings.Builder
	if p.kind == allPane {
		b.WriteString("all jobs")
		if p.names != nil {
			b.WriteString("  " + p.pal.muted.Open + plural(len(p.base.(*allSource).ids), "job") + p.pal.muted.Close + title.Open)
		}
	} else {
		info := p.job
		state := p.pal.states[info.State]
		b.WriteString(jobLabel(info) + "  ")
		b.WriteString(state.Open + statusText(info) + state.Close + title.Open)
		if info.Runs > 1 {
			b.WriteString(" · run " + strconv.Itoa(info.Runs))
		}
		if why := outsideNote(info); why != "" {
			b.WriteString(" · " + p.pal.muted.Open + why + p.pal.muted.Close + title.Open)
		}
		if ago := endedAgo(info, p.now); ago != "" {
			b.WriteString(" · " + ago)
		}
		if why := gaveUp(info); why != "" {
			b.WriteString(" · " + p.pal.muted.Open + why + p.pal.muted.Close + title.Open)
		}
		if why := probeNote(info); why != "" {
			b.WriteString(" · " + p.pal.muted.Open + label(why) + p.pal.muted.Close + title.Open)
		}
		if o := originText(info); o != "" {
			b.WriteString("  " + p.pal.muted.Open + o + p.pal.muted.Close + title.Open)
		}
		if cmd := label(info.Command); cmd != label(info.Name) {
			b.WriteString("  " + p.pal.muted.Open + "$ " + cmd + p.pal.muted.Close + title.Open)
		}

	}
	return mark, b.String(), " " + strings.Join(p.flags(), " ")
}

// endedAgo is how long ago an ended job's last run ended, against the
// model's clock: "<1s ago", "42s ago", "3m ago" (shortAgo); "" for a job
// that has not ended, or with no clock yet.
func endedAgo(info jobs.Info, now time.Time) string {
	if !info.State.Ended() || info.Ended == nil || now.IsZero() {
		return ""
	}
	return shortAgo(now.Sub(*info.Ended)) + " ago"
}

// outsideNote says that a job's last run was killed by a signal jobtop
// did not send, and the memory it reached: "from outside jobtop (out of
// memory?) · peak RSS 1.8G" (the state before it says "killed (KILL)");
// "" for any other end.
func outsideNote(info jobs.Info) string {
	text := info.KilledFromOutsideText()
	if text == "" || info.State != jobs.StateKilled {
		return ""
	}
	text = strings.TrimPrefix(text, "killed by "+info.Signal.String()+" ")
	if info.PeakRSS > 0 {
		text += " · peak RSS " + formatBytes(info.PeakRSS)
	}
	return text
}

// gaveUp is why an ended job with a restart policy stays ended: "gave up
// after 3 restarts", or "".
func gaveUp(info jobs.Info) string {
	if info.State.Done() && strings.HasPrefix(info.Reason, "gave up") {
		return label(info.Reason)
	}
	return ""
}

// probeNote is why a running job is not ready or not healthy, from its
// probes ("not ready: GET ...: status 503"), or "" when nothing fails.
func probeNote(info jobs.Info) string {
	switch {
	case !info.State.Active():
		return ""
	case info.Health == jobs.HealthUnhealthy:
		return "unhealthy: " + info.HealthError
	case info.ReadyError != "":
		return "not ready: " + info.ReadyError
	}
	return ""
}

// flags are the pane's modes as the header shows them.
func (p *outputPane) flags() []string {
	flag := p.pal.flag
	var flags []string
	switch {
	case p.typing && p.kind == jobPane && !p.job.State.Active():
		// Keys are dropped until the job's next run.
		flags = append(flags, p.pal.input.Wrap(" INPUT "), "job ended · "+p.km.LeaveInput.Help().Key+" leaves")
	case p.typing:
		flags = append(flags, p.pal.input.Wrap(" INPUT "), p.km.LeaveInput.Help().Key+" leaves")
	}
	if p.scr != nil {
		return append(flags, p.screenFlags()...)
	}
	if ls := p.logSearch; ls != nil {
		flags = append(flags, flag.Wrap(ls.flag()))
	} else if s := p.search; s != nil {
		flags = append(flags, flag.Wrap(p.searchFlag()))
		if s.filter {
			flags = append(flags, flag.Wrap("filter"))
		}
	}
	if p.sel != nil {
		flags = append(flags, flag.Wrap("select"))
	}
	if p.follow {
		flags = append(flags, flag.Wrap("following"))
	} else {
		paused := "paused"
		if p.below > 0 {
			paused += " ↓" + formatCount(p.below)
		}
		flags = append(flags, p.pal.paused.Wrap(paused))
	}
	if p.wrap {
		flags = append(flags, flag.Wrap("wrap"))
	} else if p.xoff > 0 {
		flags = append(flags, flag.Wrap("col "+strconv.Itoa(p.xoff+1)))
	}
	return flags
}

// searchFlag is the search and where it is: "/error match 3/17".
func (p *outputPane) searchFlag() string {
	s := p.search
	label := "/" + sanitize(s.m.label(), false)
	if len([]rune(label)) > 24 {
		label = string([]rune(label)[:23]) + "…"
	}
	n := len(s.index)
	more := ""
	if !s.complete {
		more = "…"
	}
	switch i := s.currentIndex(); {
	case n == 0 && s.complete && p.olderInLog():
		return label + " no match in memory (L: the log)"
	case n == 0 && s.complete:
		return label + " no match"
	case i > 0:
		return label + " match " + strconv.Itoa(i) + "/" + strconv.Itoa(n) + more
	}
	return label + " " + plural(n, "match") + more
}

// headerCache is the last header drawn and what it was drawn from: the
// header changes far less often than the rows, and a split view draws
// four of them every frame.
type headerCache struct {
	key                  headerKey
	text, corner, bottom string
}

// headerKey is everything a header is drawn from.
type headerKey struct {
	width                   int
	boxed, focused, has     bool
	kind                    paneKind
	id                      jobs.ID
	name, command           string
	state                   jobs.State
	exit                    int
	signal                  jobs.Signal
	runs, jobCount          int
	follow, wrap, selecting bool
	xoff                    int
	below                   uint64
	search                  string
	filter                  bool
	status, probeNote       string // statusText (ready and health marks) and probeNote
	gaveUp, ago, outside    string
	typing, screen          bool
	catchingUp              bool
}

func (p *outputPane) headerKey(width int, boxed bool) headerKey {
	k := headerKey{
		width: width, boxed: boxed, focused: p.focused, has: p.has, kind: p.kind,
		id: p.job.ID, name: p.job.Name, command: p.job.Command, state: p.job.State,
		exit: -1, signal: p.job.Signal, runs: p.job.Runs,
		follow: p.follow, wrap: p.wrap, xoff: p.xoff, below: p.below, selecting: p.sel != nil,
		status: statusText(p.job), probeNote: probeNote(p.job), gaveUp: gaveUp(p.job), ago: endedAgo(p.job, p.now), outside: outsideNote(p.job),
		typing: p.typing, screen: p.scr != nil, catchingUp: p.job.CatchingUp,
	}
	if p.job.ExitCode != nil {
		k.exit = *p.job.ExitCode
	}
	if p.kind == allPane && p.has {
		k.jobCount = len(p.base.(*allSource).ids)
	}
	if p.search != nil {
		k.search, k.filter = p.searchFlag(), p.search.filter
	}
	if p.logSearch != nil {
		k.search = p.logSearch.flag()
	}
	return k
}
