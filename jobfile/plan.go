package jobfile

import "jobtop/jobs"

// Format is the kind of file a plan was read from.
type Format string

// The job file formats.
const (
	FormatYAML           Format = "yaml"
	FormatProcfile       Format = "procfile"
	FormatProcessCompose Format = "process-compose"
	FormatMprocs         Format = "mprocs"
)

// Plan is a validated job file: what to run, in which order, with which
// options. Nothing in it has been started.
type Plan struct {
	// Path is the file as it was given.
	Path   string
	Format Format
	// Files are the files read, in the order they were merged: for a
	// process-compose file, the files its extends: names, then the
	// override file or the other -f files (Options.More) and theirs; else
	// only Path.
	Files []string
	// Dir is the file's directory, absolute: the base of relative paths
	// and every job's default working directory.
	Dir string
	// MaxParallel caps running jobs (jobs.Options.MaxRunning); 0: no limit.
	MaxParallel int
	// Env is the top-level env. It is already part of every job's
	// Spec.Env; it is kept here to show it.
	Env map[string]string
	// EnvFiles are the env files read for every job (the default .env,
	// -e files, a top-level env_file), as people read their paths.
	EnvFiles []string
	// EnvCommands are process-compose's env_cmds: variables whose values
	// are the output of a command, run when the jobs start (see
	// workspace), never when the file is only checked. They are not part
	// of the jobs' specs.
	EnvCommands map[string]string
	// Warnings are parts of the file jobtop does not carry out (fields of
	// another tool's format it has no counterpart for), each once, with
	// its position. The rest of the file runs.
	Warnings ErrorList
	// Unguarded are the warnings, among Warnings, that a file found and
	// run without asking (the job file, its .env) is another user's or
	// writable by others, as their messages: the TUI shows them first.
	Unguarded []string
	// Options are the command-line options the file was read with; a
	// reload reads it with the same.
	Options LoadOptions
	// Log holds the log settings; zero fields mean the engine's defaults.
	Log LogOptions
	// Jobs are the jobs in file order.
	Jobs []Job
	// Order is the start order: every job after the jobs it depends on,
	// otherwise in file order. It names every job, autostart or not.
	Order []string
}

// Job is one named job of a plan.
type Job struct {
	// Name is the job's name; Spec.Name is the same.
	Name string
	Spec jobs.Spec
	// Autostart says whether the job starts when the file is loaded
	// (default true); one that does not waits for someone to start it.
	Autostart bool
	// Line and Col say where the job is defined in the file.
	Line, Col int
	// ExitOnFailure says jobtop stops every job and exits with this
	// job's exit code when it fails (process-compose's restart:
	// exit_on_failure); see workspace.
	ExitOnFailure bool
	// ExitOnEnd says jobtop stops every job and exits when this job
	// ends, however, with no restart coming (process-compose's
	// availability.exit_on_end): with 0 when it succeeded, else as for
	// ExitOnFailure.
	ExitOnEnd bool
	// ExitOnSkipped says jobtop stops every job and exits with 1 when
	// this job cannot start, because what it depends on failed
	// (process-compose's availability.exit_on_skipped).
	ExitOnSkipped bool
}

// LogOptions are the file's log settings.
type LogOptions struct {
	// Dir holds the jobs' log files (absolute); "" means a new session
	// directory under the state directory.
	Dir string
	// MaxSize caps each job's log file in bytes; 0: the engine's default.
	MaxSize int64
	// MemoryLines caps the lines each job keeps in memory; 0: the
	// engine's default.
	MemoryLines int
	// KeepSessions and MaxTotal bound the session log directories kept
	// (jobs.Retention); 0: the engine's defaults, -1: no limit.
	KeepSessions int
	MaxTotal     int64
}

// Job returns the job with that name.
func (p *Plan) Job(name string) (Job, bool) {
	for _, j := range p.Jobs {
		if j.Name == name {
			return j, true
		}
	}
	return Job{}, false
}

// StartOrder returns the jobs in start order (see Order).
func (p *Plan) StartOrder() []Job {
	out := make([]Job, 0, len(p.Order))
	for _, name := range p.Order {
		if j, ok := p.Job(name); ok {
			out = append(out, j)
		}
	}
	return out
}

// ManagerOptions maps the plan's top-level options onto a jobs.Manager's.
// The top-level env is not among them: it is already in each job's spec.
func (p *Plan) ManagerOptions() jobs.Options {
	return jobs.Options{
		MaxRunning: p.MaxParallel,
		LogDir:     p.Log.Dir,
		LogCap:     p.Log.MaxSize,
		Store:      jobs.StoreOptions{MaxLines: p.Log.MemoryLines},
		Sessions:   jobs.Retention{Sessions: p.Log.KeepSessions, MaxTotal: p.Log.MaxTotal},
	}
}
