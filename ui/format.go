package ui

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"jobtop/jobs"
	"jobtop/styles"
)

// palette holds the escape sequences of the styles drawn on hot paths
// (every table row, every output line), built once from the Styles.
type palette struct {
	st                           *styles.Styles
	header, selected, blur       styles.Seq
	title, titleFocused          styles.Seq
	muted, stderr, meta, errText styles.Seq
	states                       map[jobs.State]styles.Seq
	border, borderFocused        styles.Seq
	match, matchCurrent          styles.Seq
	marked, unseen               styles.Seq
	flag, paused                 styles.Seq
	input, inputBorder, cursor   styles.Seq
	jobNames                     []styles.Seq
}

// jobName is the colour of a job's name where jobs are told apart.
func (p *palette) jobName(id jobs.ID) styles.Seq {
	if len(p.jobNames) == 0 || id <= 0 {
		return styles.Seq{}
	}
	return p.jobNames[(int(id)-1)%len(p.jobNames)]
}

func newPalette(st *styles.Styles) *palette {
	s := st.State
	var names []styles.Seq
	for _, n := range st.JobNames {
		names = append(names, styles.SeqOf(n))
	}
	return &palette{
		border:        styles.SeqOf(st.Border),
		borderFocused: styles.SeqOf(st.BorderFocused),
		match:         styles.SeqOf(st.Match),
		matchCurrent:  styles.SeqOf(st.MatchCurrent),
		marked:        styles.SeqOf(st.Marked),
		flag:          styles.SeqOf(st.Flag),
		paused:        styles.SeqOf(st.Paused),
		input:         styles.SeqOf(st.Input),
		inputBorder:   styles.SeqOf(st.InputBorder),
		cursor:        styles.SeqOf(st.Cursor),
		unseen:        styles.SeqOf(st.Unseen),
		jobNames:      names,
		st:            st,
		header:        styles.SeqOf(st.TableHeader),
		selected:      styles.SeqOf(st.Selected),
		blur:          styles.SeqOf(st.SelectedBlur),
		title:         styles.SeqOf(st.Title),
		titleFocused:  styles.SeqOf(st.TitleFocused),
		muted:         styles.SeqOf(st.Muted),
		stderr:        styles.SeqOf(st.Stderr),
		meta:          styles.SeqOf(st.Meta),
		errText:       styles.SeqOf(st.PromptError),
		states: map[jobs.State]styles.Seq{
			jobs.StateRunning:   styles.SeqOf(s.Running),
			jobs.StateQueued:    styles.SeqOf(s.Queued),
			jobs.StateStopping:  styles.SeqOf(s.Stopping),
			jobs.StateSucceeded: styles.SeqOf(s.Succeeded),
			jobs.StateFailed:    styles.SeqOf(s.Failed),
			jobs.StateKilled:    styles.SeqOf(s.Killed),
			jobs.StateTimedOut:  styles.SeqOf(s.TimedOut),
			jobs.StateError:     styles.SeqOf(s.Error),
			jobs.StateCreated:   styles.SeqOf(st.Muted),
		},
	}
}

// stateOrder is the order states are counted in the status bar.
var stateOrder = []jobs.State{
	jobs.StateRunning, jobs.StateQueued, jobs.StateStopping, jobs.StateSucceeded,
	jobs.StateFailed, jobs.StateKilled, jobs.StateTimedOut, jobs.StateError,
	jobs.StateCreated,
}

// stateSymbol is the one-cell mark of a state, readable without colour.
func stateSymbol(s jobs.State) string {
	switch s {
	case jobs.StateRunning:
		return "●"
	case jobs.StateQueued:
		return "○"
	case jobs.StateStopping:
		return "◐"
	case jobs.StateSucceeded:
		return "✓"
	case jobs.StateFailed:
		return "✗"
	case jobs.StateKilled:
		return "■"
	case jobs.StateTimedOut:
		return "⧗"
	case jobs.StateCreated:
		return "◌"
	case jobs.StateError:
		return "⊘" // could not start ("!" is the row mark of an unseen end)
	}
	return "?"
}

// stateLabel is a state as people read it ("timed out").
func stateLabel(s jobs.State) string {
	return strings.ReplaceAll(string(s), "_", " ")
}

// statusText is the STATUS cell: symbol, state and, for ended jobs, the
// exit code or signal ("✗ failed (2)", "■ killed (TERM)"); a running job
// whose ready check passed gets a check mark ("● running ✓"), and one
// whose health check fails says so instead ("● unhealthy"), and so
// does one whose main process is paused by kill -STOP or ^Z ("● paused").
func statusText(info jobs.Info) string {
	text := stateSymbol(info.State) + " " + stateLabel(info.State)
	switch {
	case info.State == jobs.StateRunning && info.Stopped:
		text = stateSymbol(info.State) + " paused"
	case info.State == jobs.StateRunning && info.Health == jobs.HealthUnhealthy:
		text = stateSymbol(info.State) + " unhealthy"
	case info.State == jobs.StateFailed && info.ExitCode != nil:
		text += " (" + strconv.Itoa(*info.ExitCode) + ")"
	case info.State == jobs.StateKilled && info.Signal != 0:
		text += " (" + strings.TrimPrefix(info.Signal.String(), "SIG") + ")"
	case info.State == jobs.StateRunning && info.Readiness != "" && info.Ready:
		text += " ✓" // its ready check passed
	}
	return text
}

// formatRuntime is a run time in at most six cells: 4.2s, 42s, 3m05s,
// 2h03m, 3d04h.
func formatRuntime(d time.Duration) string {
	switch {
	case d < 0:
		d = 0
		fallthrough
	case d < 10*time.Second:
		return strconv.FormatFloat(d.Seconds(), 'f', 1, 64) + "s"
	case d < time.Minute:
		return strconv.Itoa(int(d/time.Second)) + "s"
	case d < time.Hour:
		return fmt.Sprintf("%dm%02ds", int(d/time.Minute), int(d%time.Minute/time.Second))
	case d < 100*time.Hour:
		return fmt.Sprintf("%dh%02dm", int(d/time.Hour), int(d%time.Hour/time.Minute))
	}
	return fmt.Sprintf("%dd%02dh", int(d/(24*time.Hour)), int(d%(24*time.Hour)/time.Hour))
}

// formatCount is a count in at most six cells: 999, 12.3k, 123k, 1.2M.
func formatCount(n uint64) string {
	switch {
	case n < 10_000:
		return strconv.FormatUint(n, 10)
	case n < 100_000:
		return strconv.FormatFloat(float64(n)/1e3, 'f', 1, 64) + "k"
	case n < 1_000_000:
		return strconv.FormatUint(n/1000, 10) + "k"
	case n < 100_000_000:
		return strconv.FormatFloat(float64(n)/1e6, 'f', 1, 64) + "M"
	}
	return strconv.FormatUint(n/1_000_000, 10) + "M"
}

// formatCPU is a CPU share in percent of one core in at most five cells:
// 0.4, 12, 250, 1.2k.
func formatCPU(pct float64) string {
	switch {
	case pct < 0:
		pct = 0
		fallthrough
	case pct < 9.95:
		return strconv.FormatFloat(pct, 'f', 1, 64)
	case pct < 999.5:
		return strconv.FormatFloat(pct, 'f', 0, 64)
	}
	return strconv.FormatFloat(pct/1000, 'f', 1, 64) + "k"
}

// formatBytes is a size in at most five cells: 512K, 12.3M, 123M, 1.2G.
func formatBytes(n int64) string {
	const k, m, g = 1 << 10, 1 << 20, 1 << 30
	switch {
	case n < 0:
		n = 0
		fallthrough
	case n < 1000*k:
		return strconv.FormatInt((n+k-1)/k, 10) + "K"
	case n < 99*m+m/2:
		return strconv.FormatFloat(float64(n)/m, 'f', 1, 64) + "M"
	case n < 999*m+m/2:
		return strconv.FormatInt((n+m/2)/m, 10) + "M"
	case n < 99*g+g/2:
		return strconv.FormatFloat(float64(n)/g, 'f', 1, 64) + "G"
	}
	return strconv.FormatInt((n+g/2)/g, 10) + "G"
}

// fit makes text exactly width cells: cut with "…" when longer, padded
// with spaces when shorter (on the left when alignRight).
func fit(text string, width int, alignRight bool) string {
	if width <= 0 {
		return ""
	}
	w := textWidth(text)
	if w > width {
		text = truncateText(text, width, "…")
		w = textWidth(text)
	}
	pad := strings.Repeat(" ", width-w)
	if alignRight {
		return pad + text
	}
	return text + pad
}

// cut shortens text to at most width cells.
func cut(text string, width int) string {
	if width <= 0 {
		return ""
	}
	if textWidth(text) <= width {
		return text
	}
	return truncateText(text, width, "…")
}

// pick is one when n is 1, else other: pick(n, "it", "them").
func pick(n int, one, other string) string {
	if n == 1 {
		return one
	}
	return other
}

// plural writes "1 job", "3 jobs".
func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return strconv.Itoa(n) + " " + word + "s"
}
