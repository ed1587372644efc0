package ui

import (
	"io"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"jobtop/jobs"
)

// Quiet alerts: a running job with a quiet time (notify: {quiet: 30s} in
// the job file, or m in the TUI) that writes nothing for that long gets a
// notice, a "…" mark before its row and an alert (the bell when it is
// on, a terminal notification with --notify); when it writes again, a
// notice and an alert say so and the mark goes. The time since it last
// wrote comes from the activity samples (sparkline.go), so nothing is
// done per line of output; a job first seen (an attached TUI's jobs that
// ran before it) is quiet since its last output (Info.LastOutputAt), or
// its run's start.

// defaultQuiet is the quiet time m sets on a job that has none.
const defaultQuiet = 30 * time.Second

// quietWatch is the TUI's side of quiet alerts.
type quietWatch struct {
	// set holds what m chose per job, over the job's own: 0 is off.
	set map[jobs.ID]time.Duration
	// since holds the jobs found quiet: when they last wrote.
	since map[jobs.ID]time.Time
}

func newQuietWatch() *quietWatch {
	return &quietWatch{set: make(map[jobs.ID]time.Duration), since: make(map[jobs.ID]time.Time)}
}

// after is a job's quiet time: m's choice, else its spec's; 0 for none.
func (q *quietWatch) after(info *jobs.Info) time.Duration {
	if len(q.set) > 0 {
		if d, ok := q.set[info.ID]; ok {
			return d
		}
	}
	if info.NotifyQuiet == "" {
		return 0
	}
	d, _ := time.ParseDuration(info.NotifyQuiet)
	return d
}

// isQuiet reports whether a job is marked quiet.
func (q *quietWatch) isQuiet(id jobs.ID) bool {
	_, ok := q.since[id]
	return ok
}

// toggleQuiet turns the quiet alert of the current job on (its own quiet
// time, or defaultQuiet) or off.
func (m *Model) toggleQuiet(info jobs.Info) {
	name := jobLabel(info)
	if m.quiet.after(&info) > 0 {
		m.quiet.set[info.ID] = 0
		delete(m.quiet.since, info.ID)
		m.flash("quiet alert off for " + name)
		return
	}
	d, _ := time.ParseDuration(info.NotifyQuiet)
	if d <= 0 {
		d = defaultQuiet
	}
	m.quiet.set[info.ID] = d
	m.flash("quiet alert on for " + name + ": after " + formatSpan(d) + " without output")
}

// checkQuiet raises the alert of a running job that went quiet by now;
// the tick calls it for each running job.
func (m *Model) checkQuiet(info *jobs.Info, now time.Time) tea.Cmd {
	after := m.quiet.after(info)
	act := m.table.activity.jobs[info.ID]
	if after <= 0 || act == nil {
		delete(m.quiet.since, info.ID)
		return nil
	}
	if m.quiet.isQuiet(info.ID) || now.Sub(act.spoke) < after {
		return nil
	}
	m.quiet.since[info.ID] = act.spoke
	text := jobLabel(*info) + " has written nothing for " + formatSpan(now.Sub(act.spoke).Truncate(time.Second))
	m.setNotice(text, true)
	return m.alert(text)
}

// checkSpoke ends the quiet alerts of jobs that wrote since; it runs with
// each event batch, and costs nothing while no job is quiet.
func (m *Model) checkSpoke(now time.Time) tea.Cmd {
	var cmds []tea.Cmd
	for id, since := range m.quiet.since {
		act := m.table.activity.jobs[id]
		if act == nil || !act.spoke.After(since) {
			continue
		}
		delete(m.quiet.since, id)
		info, ok := m.table.Get(id)
		if !ok || !info.State.Active() {
			continue
		}
		text := jobLabel(info) + " writes again after " + formatSpan(act.spoke.Sub(since).Truncate(time.Second)) + " quiet"
		m.setNotice(text, false)
		cmds = append(cmds, m.alert(text))
	}
	return tea.Batch(cmds...)
}

// alert tells the person something they may not be looking at: the bell
// when it is on, a terminal notification with --notify.
func (m *Model) alert(text string) tea.Cmd {
	var cmds []tea.Cmd
	if m.bell {
		cmds = append(cmds, ringBell(m.cfg.Terminal))
	}
	if m.cfg.Notify {
		cmds = append(cmds, notify(m.cfg.Terminal, m.cfg.NotifyOSC777, text))
	}
	return tea.Batch(cmds...)
}

// notifyText is text made safe inside an OSC sequence: one line, no
// control characters, no ";" (OSC 777 splits on it).
func notifyText(s string) string {
	s = plainText(label(s))
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || r == ';' {
			return ' '
		}
		return r
	}, s)
}

// notify writes a terminal notification: OSC 9, and OSC 777 as well where
// the terminal understands it.
func notify(w io.Writer, osc777 bool, text string) tea.Cmd {
	if w == nil {
		return nil
	}
	text = notifyText(text)
	seq := "\x1b]9;" + text + "\a"
	if osc777 {
		seq += "\x1b]777;notify;jobtop;" + text + "\a"
	}
	return func() tea.Msg {
		_, _ = io.WriteString(w, seq)
		return nil
	}
}
