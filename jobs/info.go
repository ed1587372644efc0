package jobs

import (
	"strconv"
	"strings"
	"time"
)

// ID identifies a job within one Manager: 1, 2, 3… never reused.
type ID int

func (id ID) String() string { return strconv.Itoa(int(id)) }

// ParseID reads a job ID as people type it ("3").
func ParseID(s string) (ID, error) {
	n, err := strconv.Atoi(s)
	if err != nil || n <= 0 {
		return 0, &NotFoundError{Text: s}
	}
	return ID(n), nil
}

// BadID says why s, which reads as a job ID (digits, after a "-" maybe),
// names no job whatever jobs there are ("0 is not a job ID (IDs start at
// 1)", "no job with ID 99999999999999999999"); "" when s may be an ID,
// or reads as a name. No name is a bare number or starts with "-"
// (CheckName), so such an s is never a name.
func BadID(s string) string {
	digits := strings.TrimPrefix(strings.TrimPrefix(s, "+"), "-")
	switch {
	case digits == "" || strings.Trim(digits, "0123456789") != "":
		return ""
	case strings.HasPrefix(s, "-") || strings.Trim(digits, "0") == "":
		return s + " is not a job ID (IDs start at 1)"
	}
	if _, err := strconv.Atoi(digits); err != nil {
		return "no job with ID " + s
	}
	return ""
}

// Info is a snapshot of a job. The JSON field names are part of the API.
type Info struct {
	ID      ID       `json:"id"`
	Name    string   `json:"name"`
	Command string   `json:"command"`
	Argv    []string `json:"argv,omitempty"`
	Dir     string   `json:"cwd,omitempty"`
	// Description is the job's description: free text for people
	// (Spec.Description, a job file's description:).
	Description string `json:"description,omitempty"`
	State       State  `json:"state"`
	// Reason says why a queued job waits ("waiting for a slot", "waiting
	// for db: ready").
	Reason string `json:"reason,omitempty"`
	// Removing says the job was stopped to be removed once it has ended,
	// and by what: "reload" (a reload of the job file that no longer has
	// it). A run started since (a restart) keeps the job: then it is "".
	Removing string `json:"removing,omitempty"`
	// PID is the current run's main process, the last run's once it
	// ended; 0 when there is none, which MarshalJSON writes as null.
	PID int `json:"pid,omitempty"`
	// Stopped says the job's main process is paused: stopped by a signal
	// (kill -STOP, ^Z: SIGSTOP, SIGTSTP, SIGTTIN, SIGTTOU) or by a tracer,
	// as the last sample (Options.SampleInterval) found it. False while
	// it runs or once it ended, and where the system does not say.
	Stopped  bool   `json:"stopped,omitempty"`
	ExitCode *int   `json:"exit_code"`
	Signal   Signal `json:"signal"`
	// EndRequested says the last run ended because it was asked to (a
	// stop, a kill, a restart, a timeout, jobtop shutting down), not by
	// itself or by a signal from outside jobtop. It is not part of the API.
	EndRequested bool `json:"-"`
	// ShuttingDown says the manager is shutting down (Shutdown): no run
	// is coming, and a run ending now was ended by jobtop's own exit. It
	// is not part of the API.
	ShuttingDown bool `json:"-"`
	// ShutDown says the manager's Shutdown ended the job: it stopped its
	// run, took it off the queue or cancelled its restart, because
	// jobtop was ending. A wait answers it as the instance ending. It is
	// not part of the API.
	ShutDown bool       `json:"-"`
	Error    string     `json:"error"`
	Started  *time.Time `json:"started_at"`
	Ended    *time.Time `json:"ended_at"`
	// KillAt is when a stopping job gets SIGKILL if it has not exited by
	// then (the end of its grace period); nil unless it is stopping.
	KillAt *time.Time `json:"kill_at,omitempty"`
	// RestartAt is when the restart policy runs an ended job again; nil
	// unless it waits out its backoff to.
	RestartAt *time.Time `json:"restart_at,omitempty"`
	// Runs counts the runs started so far (1 for a job never restarted).
	Runs int `json:"runs"`
	// Ends counts the times the job ended: a run's end, or a queued run
	// stopped or failed before it started. A wait for a stop to take
	// effect waits for it to grow, whatever runs or queues the job again
	// meanwhile. Not in the API's JSON.
	Ends int `json:"-"`
	// RunCursor is the output cursor just before the current run's first
	// line: reading after it gives only this run's output.
	RunCursor uint64 `json:"run_cursor"`
	// ClearedCursor, for a job on a terminal, is the output cursor at its
	// last clear of the screen that left the cursor at the top left
	// (clear, ctrl+l at a shell's prompt, a reset, a dev server's clear
	// and home before each build), in this run or an earlier one (a run
	// again goes on below the screen the last one left, as a program run
	// again in the same terminal does): reading after it gives the lines
	// a terminal shows, from its top row, the lines before being its
	// scrollback. 0 when no run has cleared it so.
	ClearedCursor uint64 `json:"cleared_cursor,omitempty"`
	// Restarts counts runs started by the restart policy.
	Restarts int `json:"restarts"`
	// Ready says the job is ready as a dependant with a ready condition
	// sees it: it runs and its ready check passed (a job without one:
	// once it runs), or it succeeded, whether its check passed first or
	// not (LastRunWasReady tells). A job stopping, or ended otherwise,
	// is not ready.
	Ready bool `json:"ready"`
	// ReadyAt is when the current run became ready; nil until it has.
	ReadyAt *time.Time `json:"ready_at,omitempty"`
	// History is the job's ended runs, oldest first: the newest
	// MaxRunHistory of them. It is shared: do not change it.
	History []RunRecord `json:"history,omitempty"`
	// Readiness describes the job's ready check ("log: listening on",
	// "after: 2s"); empty when it has none and is ready once running.
	Readiness string `json:"readiness,omitempty"`
	// ReadyError is why the ready probe has not passed, once it failed
	// its number of checks in a row; "" when ready.
	ReadyError string `json:"ready_error,omitempty"`
	// Health is what the health check found while the job runs:
	// "starting", "healthy" or "unhealthy"; "" without a health check or
	// when the job does not run.
	Health Health `json:"health,omitempty"`
	// HealthCheck describes the health check ("http:
	// http://127.0.0.1:8080/healthz"); "" for none.
	HealthCheck string `json:"health_check,omitempty"`
	// HealthError is the last failed health check while the job runs.
	HealthError string `json:"health_error,omitempty"`
	// Usage is the CPU and memory of the job's process tree, sampled
	// every Options.SampleInterval while it runs.
	Usage Usage `json:"usage"`
	// PeakRSS is the most resident memory the current run's process
	// tree had (the last run's once it ended), as sampled; 0 before a
	// sample. A run killed for its memory shows what it reached.
	PeakRSS int64 `json:"peak_rss_bytes,omitempty"`
	// KilledFromOutside says the last run was killed by a signal jobtop
	// did not send (the kernel's OOM killer, a kill -9 PID): not a stop,
	// a kill, a timeout or a shutdown of jobtop's.
	KilledFromOutside bool `json:"killed_from_outside,omitempty"`
	// LogPath names the file the job's output is written to. It rotates
	// at its cap: LogFiles lists the files holding the newest output,
	// oldest first (LogPath.1, then LogPath).
	LogPath  string   `json:"log_path"`
	LogFiles []string `json:"log_files,omitempty"`
	// LogDropped counts bytes the log file lost to write errors so far
	// (the log tries again: see "Where output goes" in the README).
	LogDropped int64 `json:"log_dropped,omitempty"`
	// LogError is the last error that kept output from the log file (the
	// file could not be made, a write failed), "" for none. It stays
	// once writing resumes.
	LogError string `json:"log_error,omitempty"`
	// Lines is the Seq of the newest line, held or dropped, jobtop's meta
	// lines (a restart's "── run 2 ──") included: a cursor read after it
	// returns only what comes next, and a cursor past it is refused.
	Lines uint64 `json:"lines"`
	// MetaLines counts jobtop's own lines among Lines (a restart's "──
	// run 2 ──", a stop command's, a health check's): Lines-MetaLines
	// is how many lines the job wrote.
	MetaLines uint64 `json:"meta_lines,omitempty"`
	// LineCuts counts the pieces among Lines that continue a line longer
	// than the store's line bound (16 KiB), held as lines of their own:
	// Lines-MetaLines-LineCuts is how many lines the job wrote.
	LineCuts uint64 `json:"line_cuts,omitempty"`
	Bytes    int64  `json:"bytes"`
	// LastOutputAt is when the job last wrote (what moved Bytes), in any
	// run; nil when it never wrote. jobtop's own lines do not move it.
	LastOutputAt *time.Time `json:"last_output_at,omitempty"`
	Dropped      uint64     `json:"dropped_lines"`
	// LastLine is the job's newest output (OutputStore.LastLine): never a
	// meta line.
	LastLine string `json:"last_line"`
	// NotifyQuiet is Spec.Notify.Quiet as text ("30s"); "" for none.
	NotifyQuiet string `json:"notify_quiet,omitempty"`
	// Origin and Client say who started the job (Spec.Origin, Spec.Client).
	Origin string `json:"origin,omitempty"`
	Client string `json:"client,omitempty"`
	// TTY says the job runs on a terminal, of Cols x Rows; Stdin is
	// "pipe" for a pipe job whose stdin takes input (Spec.Stdin).
	TTY   bool      `json:"tty,omitempty"`
	Cols  int       `json:"cols,omitempty"`
	Rows  int       `json:"rows,omitempty"`
	Stdin StdinMode `json:"stdin,omitempty"`
	// Screen says a TTY job draws a screen (a full-screen program, see
	// Manager.Screen) rather than lines; CatchingUp that its emulator
	// fell behind and dropped output, and shows the screen again once
	// the program redraws.
	Screen     bool `json:"screen,omitempty"`
	CatchingUp bool `json:"catching_up,omitempty"`
	// AltScreen says the screen is the alternate one (a full-screen
	// program), not the main one (an inline TUI, a progress display
	// drawing over its lines, whose LastLine is the last line it wrote,
	// as in line mode; empty when the program placed the cursor on rows
	// in this screen mode, as top drawing its frames from home without
	// the alternate screen does: its lines are pieces of frames).
	AltScreen bool `json:"alt_screen,omitempty"`
	// placedCursor: the run's screen mode on the main screen placed the
	// cursor (termState.placed), for addOutputStats.
	placedCursor bool
	// After are the jobs, by ID, this one starts after once each has
	// succeeded (Spec.After).
	After []ID `json:"after,omitempty"`
	// Spec is what the job runs; not part of the API's JSON.
	Spec Spec `json:"-"`
	// Host is where the job runs when a client shows the jobs of several
	// instances at once (jobtop attach --host): the host's name ("b",
	// "local"), and HostID the job's ID there (ID is then the client's
	// own). Empty for an instance's own jobs; never set by a Manager.
	Host   string `json:"host,omitempty"`
	HostID ID     `json:"-"`
}

// LastRunWasReady reports whether the job's last run, ended, became
// ready before it ended (a job with no ready check is ready once it runs).
func (i Info) LastRunWasReady() bool {
	if i.State.Active() || len(i.History) == 0 {
		return false
	}
	last := i.History[len(i.History)-1]
	return last.Run == i.Runs && last.Ready != nil
}

// JobLines is how many lines the job wrote, in all its runs: Lines
// without jobtop's own (MetaLines), a line longer than 16 KiB once
// however many pieces hold it (LineCuts). An instance too old to count
// them says 0 of them.
func (i Info) JobLines() uint64 {
	return i.Lines - min(i.MetaLines+i.LineCuts, i.Lines)
}

// Runtime is how long the current or last run took (so far).
func (i Info) Runtime(now time.Time) time.Duration {
	if i.Started == nil {
		return 0
	}
	end := now
	if i.Ended != nil {
		end = *i.Ended
	}
	return end.Sub(*i.Started)
}

// NotFoundError is returned for an ID no job has.
type NotFoundError struct {
	ID   ID
	Text string // the ID as given, when it was not a number
	// First is the manager's first ID when ID is below it: an earlier
	// manager on the same ID mark (Options.IDPath; in jobtop, an earlier
	// instance on the same socket) gave ID, and has ended. 0 otherwise.
	First ID
}

func (e *NotFoundError) Error() string {
	if e.Text != "" {
		return "no job " + strconv.Quote(e.Text) + ": job IDs are numbers like 1, 2, 3"
	}
	if e.First != 0 {
		return "no job with ID " + e.ID.String() + ": job " + e.ID.String() + " belonged to an earlier jobtop instance on this socket, which has ended (its results are gone; this one numbers its jobs from " + e.First.String() + ")"
	}
	return "no job with ID " + e.ID.String()
}

// RefusedWaitingToRestart is why a job that ended and waits out its
// restart policy's backoff cannot be removed.
const RefusedWaitingToRestart = "it waits to restart (its restart policy); stop it first"

// InvalidActionError is returned when an action does not apply to a job's state,
// e.g. removing a running job.
type InvalidActionError struct {
	ID     ID
	State  State
	Action string
	// Why, when set, says what stands in the way instead of the state
	// ("it runs on pipes with stdin on /dev/null; ...").
	Why string
}

func (e *InvalidActionError) Error() string {
	if e.Why != "" {
		return "cannot " + e.Action + " job " + e.ID.String() + ": " + e.Why
	}
	msg := "cannot " + e.Action + " job " + e.ID.String() + ": it is " + string(e.State)
	if e.State.Ended() {
		msg = "cannot " + e.Action + " job " + e.ID.String() + ": it has ended (" + string(e.State) + ")"
	}
	switch {
	case e.Action != "remove":
	case e.State == StateStopping:
		msg += "; wait for it to end, or kill it"
	case e.State.Active() || e.State == StateQueued:
		msg += "; stop it first"
	}
	return msg
}

// KilledFromOutsideText says how a run killed from outside jobtop ended,
// for people: "killed by SIGKILL from outside jobtop (out of memory?)"
// (the OOM killer sends SIGKILL), "killed by SIGTERM from outside
// jobtop"; "" for any other end.
func (i Info) KilledFromOutsideText() string {
	if !i.KilledFromOutside {
		return ""
	}
	text := "killed by " + i.Signal.String() + " from outside jobtop"
	if i.Signal == Signal(sigKill) {
		text += " (out of memory?)"
	}
	return text
}

// ExitText says how a run ended, as jobtop ls's EXIT column, jobtop
// status and MCP's answers say it: its exit code ("2"), the signal that
// ended it ("SIGTERM"), the code a job exited with by itself once a
// signal asked it to stop ("3 after SIGTERM"); "" before it ended.
func (i Info) ExitText() string {
	switch {
	case i.ExitCode != nil && i.Signal == 0:
		return strconv.Itoa(*i.ExitCode)
	case i.ExitCode != nil && *i.ExitCode == 128+int(i.Signal):
		// Stopped with a signal it caught, then exited as that signal
		// would have ended it (bash's trap 'exit 143' TERM): the signal,
		// as a shell shows it.
		return i.Signal.String()
	case i.ExitCode != nil:
		// Stopped with a signal it caught, then exited by itself (a
		// Python job's KeyboardInterrupt handler): not "SIGINT" alone,
		// which hid the clean exit (rev55).
		return strconv.Itoa(*i.ExitCode) + " after " + i.Signal.String()
	case i.Signal != 0:
		return i.Signal.String()
	}
	return ""
}
