package mcp

import (
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"

	"jobtop/jobs"
)

// JobSummary is a job as the tools return it: what a model needs to
// decide its next call, nothing more.
type JobSummary struct {
	ID    int    `json:"id"`
	Name  string `json:"name"`
	State string `json:"state" jsonschema:"queued, running, stopping, succeeded, failed, killed, timed_out, error or created"`
	// ExitCode and Signal are the API's exit_code and signal: null
	// until a run ended with one.
	ExitCode *int    `json:"exit_code" jsonschema:"the exit code of the run that ended, null until one ended by exiting (a stopped job that handled its stop signal and exited: its code, with signal the one it was sent)"`
	Signal   *string `json:"signal" jsonschema:"the signal that ended the run, or that a stop sent it when it exited on it; null for none"`
	// KilledFromOutside: a signal jobtop did not send ended it.
	KilledFromOutside bool   `json:"killed_from_outside,omitempty" jsonschema:"a signal jobtop did not send ended it: a kill from outside jobtop, or the out-of-memory killer (SIGKILL)"`
	Error             string `json:"error,omitempty" jsonschema:"why it could not start, timed out, or ended without running (a job it runs after failed); not why it is queued (reason)"`
	Reason            string `json:"reason,omitempty" jsonschema:"why a queued job waits (waiting for a free slot, for a job it depends on), what its restart policy does next (restarting in 2s), or what a stopping job stops (processes its main process left running); not an error"`
	Ready             bool   `json:"ready,omitempty" jsonschema:"ready as a job that depends on it sees it: it runs and its ready check passed (a job without one is ready once running), or it succeeded"`
	Health            string `json:"health,omitempty" jsonschema:"what its health check finds while it runs: starting, healthy or unhealthy; absent without one"`
	Runtime           string `json:"runtime,omitempty" jsonschema:"how long the current or last run took so far"`
	// Lines is the API's lines: the newest line's number, jobtop's
	// notes included; JobLines what the job wrote (Info.JobLines).
	Lines    uint64 `json:"lines" jsonschema:"the newest output line's number, as the API's lines, jobtop's own notes (run markers, health notes) included: read_output with this cursor reads only what comes after"`
	JobLines uint64 `json:"job_lines" jsonschema:"output lines the job itself wrote so far, in all its runs: lines without jobtop's notes, a line longer than 16 KiB counted once (what jobtop status prints as output: N lines)"`
	LastLine string `json:"last_line,omitempty" jsonschema:"its newest output line, of any run, cut to 200 bytes (never a run marker)"`
	Origin   string `json:"origin,omitempty" jsonschema:"mcp for jobs started by a coding agent; empty for the person's own"`
	TTY      bool   `json:"tty,omitempty" jsonschema:"it runs on a terminal: send_input types into it, read_screen shows it"`
	// hasCheck says the job has a ready check, so the text form says
	// when it passed (every other running job is ready).
	hasCheck bool
	// checkPassed says its ready check passed in the current run, or
	// the last before it ended (Ready is also a job that succeeded).
	checkPassed bool
	// outside is how a run killed from outside ended, as the TUI and
	// jobtop status say it: "killed by SIGKILL from outside jobtop (out
	// of memory?)"; "" for any other end.
	outside string
	// signalled is how a run a signal ended, or asked to end, ended, as
	// jobtop ls and jobtop status say it: "SIGTERM", "3 after SIGTERM";
	// "" for a run no signal ended.
	signalled string
}

// JobDetail is one job in full, for job_status.
type JobDetail struct {
	JobSummary
	Command string `json:"command" jsonschema:"the command, cut to 2 KiB"`
	Cwd     string `json:"cwd,omitempty"`
	// PID, Usage, StartedAt and EndedAt are the API's pid, usage,
	// started_at and ended_at.
	PID         *int       `json:"pid" jsonschema:"the main process of the current run, or of the last once it ended; null before one started, and once it exited while what it left running is stopped"`
	Usage       jobs.Usage `json:"usage" jsonschema:"CPU (percent of one core) and resident memory (bytes) of its process tree, as last sampled (every 2 s) while it runs; 0 otherwise"`
	StartedAt   *time.Time `json:"started_at" jsonschema:"when the current or last run started; null before one started"`
	EndedAt     *time.Time `json:"ended_at" jsonschema:"when the last run ended; null while it runs, and before one ended"`
	Runs        int        `json:"runs" jsonschema:"runs started so far (restarts add one)"`
	Readiness   string     `json:"readiness,omitempty" jsonschema:"its ready check, e.g. log: listening on"`
	ReadyError  string     `json:"ready_error,omitempty" jsonschema:"why its ready check has not passed yet, once it failed its checks in a row"`
	HealthCheck string     `json:"health_check,omitempty" jsonschema:"its health check, e.g. http: http://127.0.0.1:8080/healthz"`
	HealthError string     `json:"health_error,omitempty" jsonschema:"its last failed health check"`
	Dropped     uint64     `json:"dropped_lines,omitempty" jsonschema:"old lines memory no longer holds (the log file has them)"`
	LogPath     string     `json:"log_path" jsonschema:"the file holding every byte the job wrote"`
	LogDropped  int64      `json:"log_dropped,omitempty" jsonschema:"bytes the log file lost to write errors (a full disk): then it does not hold every byte"`
	Client      string     `json:"client,omitempty" jsonschema:"the MCP client that started it"`
}

// lastLineBytes bounds LastLine.
const lastLineBytes = 200

// errorBytes bounds Error, and commandBytes JobDetail's Command: an
// answer must not flood a model's context with a job's huge script.
const (
	errorBytes   = 1024
	commandBytes = 2048
)

func summarize(j jobs.Info, now time.Time) JobSummary {
	s := JobSummary{
		ID: int(j.ID), Name: j.Name, State: string(j.State),
		Ready: j.Ready, Health: string(j.Health), Lines: j.Lines, JobLines: j.JobLines(), Origin: j.Origin, TTY: j.TTY, hasCheck: j.Readiness != "",
		checkPassed: j.Ready && (j.State.Active() || j.LastRunWasReady()),
		LastLine:    cutText(plain(j.LastLine), lastLineBytes),
	}
	if j.ExitCode != nil && j.State.Done() {
		code := *j.ExitCode
		s.ExitCode = &code
	}
	if j.Signal != 0 && j.State.Done() {
		name := j.Signal.String()
		s.Signal = &name
		s.signalled = j.ExitText()
	}
	if j.State.Done() {
		s.outside = j.KilledFromOutsideText()
		s.KilledFromOutside = s.outside != ""
	}
	s.Error, s.Reason = cutText(j.Error, errorBytes), cutText(j.Reason, errorBytes)
	if d := j.Runtime(now); d > 0 && j.State != jobs.StateQueued {
		s.Runtime = formatDuration(d)
	}
	return s
}

func detail(j jobs.Info, now time.Time) JobDetail {
	d := JobDetail{
		JobSummary: summarize(j, now),
		Command:    cutText(j.Command, commandBytes), Cwd: j.Dir, Runs: j.Runs, Readiness: j.Readiness,
		ReadyError: j.ReadyError, HealthCheck: j.HealthCheck, HealthError: j.HealthError,
		Dropped: j.Dropped, LogPath: j.LogPath, LogDropped: j.LogDropped, Client: j.Client,
		StartedAt: j.Started, EndedAt: j.Ended, Usage: j.Usage,
	}
	if j.PID != 0 {
		pid := j.PID
		d.PID = &pid
	}
	return d
}

// line is the one-line text form of a job: "3 web running 12.3s ready: last line".
func (s JobSummary) line() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d %s %s", s.ID, s.Name, s.outcome())
	if s.Runtime != "" {
		b.WriteString(" " + s.Runtime)
	}
	if s.Origin != "" {
		b.WriteString(" [" + s.Origin + "]")
	}
	switch {
	case s.Error != "":
		b.WriteString(": " + s.Error)
	case s.Reason != "" && s.State == string(jobs.StateQueued):
		b.WriteString(": " + s.Reason)
	case s.LastLine != "":
		b.WriteString(": " + s.LastLine)
	}
	return b.String()
}

// outcome is the state with how it ended or that it is ready or
// unhealthy: "failed (exit 2)", "killed (SIGKILL)", "killed (3 after
// SIGTERM)", "killed by SIGKILL from outside jobtop (out of memory?)",
// "running, ready", "running, unhealthy".
func (s JobSummary) outcome() string {
	switch {
	case s.Health == string(jobs.HealthUnhealthy) && s.State == string(jobs.StateRunning):
		return s.State + ", unhealthy"
	case s.outside != "":
		return s.outside
	case s.signalled != "":
		return s.State + " (" + s.signalled + ")"
	case s.ExitCode != nil && s.State != string(jobs.StateSucceeded):
		return fmt.Sprintf("%s (exit %d)", s.State, *s.ExitCode)
	case s.Ready && s.hasCheck && s.State == string(jobs.StateRunning):
		return s.State + ", ready"
	case s.hasCheck && s.State == string(jobs.StateRunning):
		return s.State + ", not ready yet"
	}
	return s.State
}

// text is the multi-line text form of a job's details.
func (d JobDetail) text() string {
	var b strings.Builder
	b.WriteString(d.line() + "\n")
	fmt.Fprintf(&b, "command: %s\n", d.Command)
	if d.Cwd != "" {
		fmt.Fprintf(&b, "cwd: %s\n", d.Cwd)
	}
	if d.PID != nil && (d.State == string(jobs.StateRunning) || d.State == string(jobs.StateStopping)) {
		fmt.Fprintf(&b, "pid: %d", *d.PID)
		if d.Usage.RSS > 0 {
			fmt.Fprintf(&b, ", cpu %s%%, memory %s", strconv.FormatFloat(d.Usage.CPU, 'f', 1, 64), jobs.FormatBytes(d.Usage.RSS))
		}
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "runs: %d, output: %s, newest line's cursor %d", d.Runs, plural(int(d.JobLines), "line"), d.Lines)
	if d.Dropped > 0 {
		fmt.Fprintf(&b, " (%d no longer in memory)", d.Dropped)
	}
	b.WriteString("\n")
	if d.LogDropped > 0 {
		fmt.Fprintf(&b, "log file: lost %d bytes it could not write (a full disk?)\n", d.LogDropped)
	}
	if d.Readiness != "" {
		fmt.Fprintf(&b, "ready check: %s: %s\n", d.Readiness, d.readyState())
	}
	if d.HealthCheck != "" {
		fmt.Fprintf(&b, "health check: %s: %s\n", d.HealthCheck, d.healthState())
	}
	if d.Client != "" {
		fmt.Fprintf(&b, "started by: %s\n", d.Client)
	}
	fmt.Fprintf(&b, "log file: %s", d.LogPath)
	return b.String()
}

// readyState says whether the ready check passed, and why not.
func (d JobDetail) readyState() string {
	switch {
	case d.checkPassed:
		return "passed"
	case d.Ready:
		return "met: the job succeeded (its check never passed)"
	case d.ReadyError != "":
		return "not passed yet (" + d.ReadyError + ")"
	case d.State == string(jobs.StateRunning):
		return "not passed yet"
	}
	return "not passed"
}

// healthState is what the health check found.
func (d JobDetail) healthState() string {
	switch {
	case d.Health == "":
		return "not checked (the job does not run)"
	case d.HealthError != "" && d.Health == string(jobs.HealthUnhealthy):
		return "unhealthy (" + d.HealthError + ")"
	}
	return d.Health
}

// plain is a line of output as a model should read it: escape sequences
// and other control characters removed, a "\r" rewrite reduced to what
// it shows.
func plain(s string) string {
	if i := strings.LastIndexByte(strings.TrimRight(s, "\r"), '\r'); i >= 0 {
		s = s[i+1:]
	}
	s = ansi.Strip(s)
	if strings.IndexFunc(s, isControl) < 0 {
		return s
	}
	return strings.Map(func(r rune) rune {
		switch {
		case r == '\t':
			return r
		case isControl(r):
			return -1
		}
		return r
	}, s)
}

func isControl(r rune) bool { return r < 0x20 && r != '\t' || r == 0x7f || r >= 0x80 && r < 0xa0 }

// cutText cuts s to at most n bytes on a rune boundary, saying how much
// was cut.
func cutText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	keep := n
	for keep > 0 && !utf8.RuneStart(s[keep]) {
		keep--
	}
	return s[:keep] + "… [" + plural(len(s)-keep, "byte") + " cut]"
}

// formatDuration writes a duration for a model: 850ms, 12.3s, 4m05s, 2h03m.
func formatDuration(d time.Duration) string {
	switch {
	case d < time.Second:
		return fmt.Sprintf("%dms", d.Milliseconds())
	case d < time.Minute:
		return fmt.Sprintf("%.1fs", d.Seconds())
	case d < time.Hour:
		return fmt.Sprintf("%dm%02ds", int(d.Minutes()), int(d.Seconds())%60)
	}
	return fmt.Sprintf("%dh%02dm", int(d.Hours()), int(d.Minutes())%60)
}
