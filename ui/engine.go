package ui

import (
	"io"
	"time"

	"jobtop/jobs"
	"jobtop/keymap"
	"jobtop/styles"
)

// Engine is what the UI needs of a job engine. *jobs.Manager implements it;
// so can a client of another jobtop's local API (attach mode). The UI
// never assumes which one it has.
//
// List, Output and the OutputReader it returns are used on the Update
// goroutine and must answer quickly; Subscribe is called once, by New. The
// actions (Start, Stop, Kill, Restart, Remove, and Get after a refused
// action) run in commands, off the Update goroutine.
type Engine interface {
	List() []jobs.Info
	Get(id jobs.ID) (jobs.Info, error)
	Output(id jobs.ID) (jobs.OutputReader, error)
	Start(spec jobs.Spec) (jobs.Info, error)
	Stop(id jobs.ID) error
	Kill(id jobs.ID) error
	Restart(id jobs.ID) (jobs.Info, error)
	Remove(id jobs.ID) error
	Subscribe() jobs.EventStream
}

// WarningLister is an engine whose job file has warnings (the parts of it
// jobtop does not carry out, env_cmds that failed), each as jobtop check
// prints it: the help (?) lists them before the keys. It is asked on the
// Update goroutine and must answer at once.
type WarningLister interface {
	Warnings() []string
}

// OwnStarter is an engine that starts jobs of its own behind the first
// frame (a job file's, in a local instance). Its jobs show as they start;
// they are not news "from outside this TUI", and the status bar says how
// far the start is.
type OwnStarter interface {
	// OwnStarts says how many of its own jobs the engine has started, of
	// how many, and whether it is done. It is asked on the Update
	// goroutine and must answer at once.
	OwnStarts() (started, total int, done bool)
	// CancelStarts ends the start, when a quit stops every job. It may
	// block while one start finishes; the UI calls it in a command.
	CancelStarts()
}

// RunLimiter is an engine that says how many jobs it runs at once
// (jobs.Manager.MaxRunning, 0 for no limit): the status bar shows the
// limit beside the counts. It is asked on the Update goroutine and must
// answer at once. (An attached client says it too: the instance's events
// stream carries it, and its changes.)
type RunLimiter interface {
	MaxRunning() int
	// MaxRunningChanged is closed when the limit next changes.
	MaxRunningChanged() <-chan struct{}
}

// JobsEnder is an engine that stops or kills several jobs as one action
// (jobs.Manager.StopJobs; a client of an instance, with one request on
// each host): what the end of one of them would start is not started
// when it is among them. errs[i] is ids[i]'s.
type JobsEnder interface {
	StopJobs(ids []jobs.ID) (errs []error)
	KillJobs(ids []jobs.ID) (errs []error)
}

// QueuedEditor is an engine that can edit a job that waits to start and
// never ran (jobs.Manager.ReplaceQueued): e then replaces the job, in its
// place in the queue, instead of adding its edit as a new job. It runs in
// a command, off the Update goroutine.
type QueuedEditor interface {
	ReplaceQueued(id jobs.ID, spec jobs.Spec) (jobs.Info, error)
}

// OutputHolder is an engine that can hold its jobs' output back for a
// moment, so the frame answering a key or a click is drawn first (see
// jobs.Manager.HoldOutput). Keys typed into a job need no call: the
// engine holds the others' output when it takes input.
type OutputHolder interface {
	HoldOutput()
}

// Config tunes a Model. The zero value is a local session with the
// default keys and styles.
type Config struct {
	// Attached says the jobs belong to another jobtop instance: quitting
	// leaves them running, and the quit prompt says so.
	Attached bool
	// Instance names the instance attached to, for the quit prompt.
	Instance string
	// JobFile is the instance's job file, "" for none. With one, and an
	// engine that is a Reloader, R reloads it.
	JobFile string
	// JobFiles are the files JobFile is merged from, in merge order, when
	// it is several (process-compose's -f given more than once, an
	// override file, extends:); messages name them all.
	JobFiles []string
	// Keys are the key bindings; zero means keymap.DefaultKeyMap().
	Keys *keymap.KeyMap
	// Styles are the styles; zero means styles.Default().
	Styles *styles.Styles
	// Now is the clock used for run times; nil means time.Now.
	Now func() time.Time
	// Bell starts with the bell on: a job that fails rings it.
	Bell bool
	// Notify sends a terminal notification (OSC 9) when a job fails or
	// goes quiet, and NotifyOSC777 an OSC 777 one as well (for terminals
	// that announce they take it).
	Notify, NotifyOSC777 bool
	// Terminal is where the bell is rung (BEL is written to it); nil
	// means nowhere.
	Terminal io.Writer
	// OnQuit, when set, is called as the TUI begins to stop every job to
	// quit (a local instance then takes no new jobs from its socket).
	OnQuit func()
	// Notice is the status bar's first notice (e.g. that the job file
	// has warnings); "" for none.
	Notice string
	// Select is the job selected at the start (the job jobtop 'cmd' just
	// started); 0 means the first.
	Select jobs.ID
	// Began is when this TUI began, for the ends that are news to it: a
	// job it first sees already ended (in the list New takes, or in its
	// first event) is told like any other end, with its notice, mark
	// and bell, when it ended after; one that ended before is old news.
	// Set it before starting the command line's jobs (they may end
	// before New lists them); zero means when New is called.
	Began time.Time
	// Within is the job this TUI itself runs in, when it is attached to
	// that job's instance (0: none): its terminal is the one the TUI
	// draws on, so the TUI never sizes it.
	Within jobs.ID
}
