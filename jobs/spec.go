package jobs

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
	"syscall"
	"time"
	"unicode"
	"unicode/utf8"
)

// Defaults applied to a Spec's zero fields. They live here only: the API,
// the CLI and job files leave a field zero to get its default.
const (
	DefaultStopSignal = Signal(syscall.SIGTERM)
	DefaultGrace      = 5 * time.Second
	// DefaultRestartBackoff is the first wait before a policy restart; it
	// doubles with each restart in a row, up to DefaultRestartMaxBackoff.
	DefaultRestartBackoff    = time.Second
	DefaultRestartMaxBackoff = time.Minute
	// DefaultRestartMax is how many restarts in a row a policy makes
	// before it leaves the job ended.
	DefaultRestartMax = 5
	// DefaultCols and DefaultRows are a TTY job's terminal size until
	// someone resizes it (Manager.Resize): a wide terminal, so lines are
	// not wrapped early.
	DefaultCols = 200
	DefaultRows = 50
)

// StdinMode says what a job reads on stdin when it runs on pipes.
type StdinMode string

// ParseStdin reads a stdin mode as job files, the API and the CLI write
// it: "null" (or "") or "pipe".
func ParseStdin(s string) (StdinMode, error) {
	switch s {
	case "", "null":
		return StdinNull, nil
	case string(StdinPipe):
		return StdinPipe, nil
	}
	return "", fmt.Errorf("stdin %q is not one of null, pipe", s)
}

// The stdin modes.
const (
	// StdinNull ("" or "null"): /dev/null, so a job that reads stdin sees
	// EOF at once instead of hanging.
	StdinNull StdinMode = ""
	// StdinPipe: a pipe that Manager.Input writes to and that is never
	// closed before the run ends.
	StdinPipe StdinMode = "pipe"
)

// NoRestartLimit as RestartPolicy.Max restarts without end.
const NoRestartLimit = -1

// Spec says what to run and how to treat it. Exactly one of Command and Argv
// is set.
type Spec struct {
	// Name is what people see; empty means one made up from the program's
	// name when the job is added (see Manager.Start).
	Name string
	// Command is a shell command line, run by Shell; with the default
	// shell, one with no shell syntax runs its program directly, as the
	// shell would run it (direct.go).
	Command string
	// Argv is a program and its arguments, run directly (no shell).
	Argv []string
	// Dir is the working directory; empty means the manager's.
	Dir string
	// Env holds variables added on top of the inherited environment.
	Env map[string]string
	// Environ, when not nil, is the environment the job starts from
	// instead of jobtop's own ("NAME=value" entries): the caller's, as
	// jobtop run sends it, so a job gets the PATH, virtualenv and
	// variables of the shell that started it. Env goes on top.
	Environ []string
	// Timeout stops the job (with the grace rules) after this long; 0 means
	// never.
	Timeout time.Duration
	// StopSignal is sent to the process group on stop (default SIGTERM).
	StopSignal Signal
	// Grace is how long a stop waits before SIGKILL (default 5s).
	Grace time.Duration
	// Restart says what to do when the job ends on its own.
	Restart RestartPolicy
	// DependsOn names jobs (by name) that must reach a condition before this
	// one starts.
	DependsOn map[string]Condition
	// After lists jobs, by ID, that must succeed before this one starts,
	// as pueue's --after: the jobs a client named when it submitted this
	// one, so a later job given the same name is not the one waited for.
	// One that ends otherwise (or is removed before it succeeded) fails
	// this one. Every ID must name a job when this one is added.
	After []ID
	// Ready says when a running job counts as ready.
	Ready ReadyCheck
	// Health is checked while the job runs, once it is ready (see
	// ProbeCheck); none when its Probe is nil.
	Health ProbeCheck
	// StopCommand, when set, is run to stop the job instead of sending
	// StopSignal: by Shell, in the job's directory and environment. What
	// is left of the job after Grace is SIGKILLed as always.
	StopCommand string
	// StopCommandFailKills SIGKILLs the job at once when its stop command
	// fails (exits non-zero, or a signal ends it), as process-compose
	// does with shutdown.command; without it the grace is waited out (a
	// stop command may well fail as the job goes down: curl's "empty
	// reply" from a server that closes its connections to stop).
	StopCommandFailKills bool
	// StopInput, when set, is typed into the job's terminal (written to
	// its stdin pipe, on pipes) to stop it, instead of sending
	// StopSignal: keys a program quits on ("q", ctrl+c), as mprocs'
	// stop: {send-keys: [...]}. What is left of the job after Grace is
	// SIGKILLed as always. It needs a job that reads input (TTY, or
	// stdin: pipe), and no StopCommand.
	StopInput string
	// Shell runs Command: a program and the flag that takes a command
	// line, e.g. [bash -c]; empty means [/bin/sh -c].
	Shell []string
	// Description is free text for people, at most MaxDescription bytes.
	Description string
	// Origin says what started the job when it matters to a person, e.g.
	// "mcp" for a coding agent; empty for a person's own jobs.
	Origin string
	// Client names the program behind Origin (an MCP client's name,
	// "claude-code"); empty when unknown.
	Client string
	// TTY runs the job on a pseudo-terminal: stdin, stdout and stderr are
	// its slave, which is its controlling terminal, so it sees isatty
	// true, keeps its colours and can be typed into (Manager.Input). Its
	// output is one stream (Stdout). Size: DefaultCols x DefaultRows
	// until Manager.Resize.
	TTY bool
	// Stdin is what a pipe job reads; a TTY job reads its terminal.
	Stdin StdinMode
	// Notify says when a person watching is to be told about the job.
	Notify NotifyPolicy
	// SuccessExitCodes are exit codes, besides 0, with which the job
	// succeeded (process-compose's success_exit_codes, systemd's
	// SuccessExitStatus): e.g. 130 from a program that exits so on
	// SIGINT. Its state is then succeeded, for its restart policy and
	// its dependants alike.
	SuccessExitCodes []int
}

// NotifyPolicy says when a person watching the job is told about it (the
// TUI raises a notice, a mark and, with --notify, a terminal
// notification).
type NotifyPolicy struct {
	// Quiet: the job ran this long without writing anything (an agent
	// waiting for an answer, a stuck build); 0 means never. The TUI says
	// so again when it writes after being quiet.
	Quiet time.Duration
}

// RestartMode names when a job that ended on its own is started again.
type RestartMode string

// The restart modes.
const (
	RestartNever     RestartMode = "no"
	RestartOnFailure RestartMode = "on-failure"
	RestartAlways    RestartMode = "always"
)

// RestartPolicy restarts a job that ended on its own (never one that was
// stopped or killed by request). Backoff starts at Backoff and doubles on each
// consecutive restart up to MaxBackoff. After Max restarts in a row the job
// is left ended (NoRestartLimit: never). Zero fields take the defaults
// (DefaultRestartBackoff, DefaultRestartMaxBackoff, DefaultRestartMax).
type RestartPolicy struct {
	Mode       RestartMode
	Backoff    time.Duration
	MaxBackoff time.Duration
	Max        int
	// MaxOverLife counts every policy restart of the job towards Max, as
	// process-compose's max_restarts does, where by default a run of 10s
	// or more starts the count (and the backoff) again. A restart asked
	// for by hand starts it again either way.
	MaxOverLife bool
}

// Condition is what a dependency must reach before a dependant starts.
type Condition string

// The dependency conditions. A dependency that can no longer reach its
// condition (it ended and no restart is coming) fails the dependant.
const (
	// CondStarted: its process was started.
	CondStarted Condition = "started"
	// CondReady: it runs and its ready check passed, or it succeeded.
	CondReady Condition = "ready"
	// CondHealthy: CondReady, and its health check (if it has one)
	// passed last: a job not checked yet, or found unhealthy, is not
	// healthy until a check passes.
	CondHealthy Condition = "healthy"
	// CondSucceeded: it succeeded (exit 0, or one of its SuccessExitCodes).
	CondSucceeded Condition = "succeeded"
	// CondCompleted: it ended, however (succeeded, failed, killed, timed
	// out), with no restart coming; a job that could not start fails it.
	CondCompleted Condition = "completed"
	// CondReadyPassed: as CondReady, but only a ready check that passed
	// meets it: a job that succeeds before its check passed fails it.
	// process-compose's process_log_ready.
	CondReadyPassed Condition = "ready_passed"
	// CondHealthyPassed: as CondHealthy, but only a ready check that
	// passed meets it, as CondReadyPassed. process-compose's
	// process_healthy.
	CondHealthyPassed Condition = "healthy_passed"
)

// Conditions lists every condition, for messages.
const Conditions = "started, ready, healthy, succeeded, completed"

// ReadyCheck says when a running job is ready: when an output line matches
// LogPattern (a regular expression), After has passed since it started, or
// Probe passes. With none set, a job is ready once it is running. At most
// one is set.
type ReadyCheck struct {
	LogPattern string
	After      time.Duration
	// Probe is checked until it first passes (see ProbeCheck).
	Probe ProbeCheck
}

// String describes the check as a job file would write it ("log:
// listening on", "after: 2s", "http: http://127.0.0.1:8080/"), or "" for
// none.
func (r ReadyCheck) String() string {
	switch {
	case r.LogPattern != "":
		return "log: " + r.LogPattern
	case r.After > 0:
		return "after: " + r.After.String()
	case r.Probe.Probe != nil:
		return r.Probe.Probe.String()
	}
	return ""
}

// ErrEmptyCommand is returned for a Spec with nothing to run.
var ErrEmptyCommand = errors.New("empty command: give a shell command or an argv")

// DisplayCommand is the command line as people read it (an argv as the
// shell would be given it: its leading NAME=value words set variables
// for the program, there as here).
func (s Spec) DisplayCommand() string {
	if len(s.Argv) > 0 {
		var b strings.Builder
		vars, rest := ArgvAssignments(s.Argv)
		for _, kv := range vars {
			name, value, _ := strings.Cut(kv, "=")
			b.WriteString(name + "=")
			if value != "" {
				writeShellWord(&b, value, writeANSIC)
			}
			b.WriteByte(' ')
		}
		return b.String() + ShellJoin(rest)
	}
	return s.Command
}

// errorCommandBytes bounds the command an error message repeats.
const errorCommandBytes = 200

// ShortCommand is DisplayCommand cut for an error message: at most
// errorCommandBytes of it, then an ellipsis and the command's size, so a
// 200 KB script does not become a 200 KB error.
func (s Spec) ShortCommand() string {
	c := s.DisplayCommand()
	if len(c) <= errorCommandBytes {
		return c
	}
	keep := errorCommandBytes
	for keep > 0 && !utf8.RuneStart(c[keep]) {
		keep--
	}
	return fmt.Sprintf("%s… (%d bytes)", c[:keep], len(c))
}

// MaxArgBytes is the longest single argument (argv word, or a shell
// job's command) or environment variable (NAME=VALUE) a job may have:
// Linux refuses to exec a string of more than 128 KiB including its NUL
// (MAX_ARG_STRLEN).
const MaxArgBytes = 128<<10 - 1

// DisplayName is the job's name, or its command when it has none.
func (s Spec) DisplayName() string {
	if s.Name != "" {
		return s.Name
	}
	return s.DisplayCommand()
}

// MaxDescription bounds a job's description: it is in the job object,
// which every event of the job carries to every client.
const MaxDescription = 4 << 10

// Validate checks the spec without touching the file system.
func (s Spec) Validate() error {
	if len(s.Description) > MaxDescription {
		return fmt.Errorf("description is %d bytes; at most %d (it goes with every change of the job to every client)", len(s.Description), MaxDescription)
	}
	hasCmd := strings.TrimSpace(s.Command) != ""
	hasArgv := len(s.Argv) > 0
	switch {
	case hasCmd && hasArgv:
		return errors.New("give either a shell command or an argv, not both")
	case !hasCmd && !hasArgv:
		return ErrEmptyCommand
	case hasArgv && strings.TrimSpace(s.Argv[0]) == "":
		return errors.New("argv[0] is empty: name the program to run")
	}
	if vars, rest := ArgvAssignments(s.Argv); hasArgv && len(rest) == 0 {
		return fmt.Errorf("argv sets variables (%s) and runs no program: give the program after them", strings.Join(vars, " "))
	}
	if s.Name != "" {
		if err := CheckName(s.Name); err != nil {
			return err
		}
	}
	if strings.ContainsRune(s.Command, 0) {
		return errors.New("command contains a NUL byte")
	}
	for i, a := range s.Argv {
		if strings.ContainsRune(a, 0) {
			return errors.New("argv contains a NUL byte")
		}
		if len(a) > MaxArgBytes {
			return fmt.Errorf("argv[%d] is %d bytes; one argument can be at most %d: write long scripts to a file and run that", i, len(a), MaxArgBytes)
		}
	}
	if len(s.Command) > MaxArgBytes {
		return fmt.Errorf("the command is %d bytes; at most %d: write long scripts to a file and run that", len(s.Command), MaxArgBytes)
	}
	if s.Notify.Quiet < 0 {
		return fmt.Errorf("notify quiet %v is negative", s.Notify.Quiet)
	}
	if s.Timeout < 0 {
		return fmt.Errorf("timeout %v is negative", s.Timeout)
	}
	if s.Grace < 0 {
		return fmt.Errorf("grace period %v is negative", s.Grace)
	}
	if s.StopSignal < 0 || s.StopSignal > 64 {
		return fmt.Errorf("stop signal %d is out of range", int(s.StopSignal))
	}
	if err := s.StopSignal.KeepsError("jobtop signal " + strings.TrimPrefix(s.StopSignal.String(), "SIG") + " ID"); err != nil { // (an API client's)
		return fmt.Errorf("stop signal: %w", err)
	}
	for k, v := range s.Env {
		if k == "" || strings.ContainsAny(k, "=\x00") {
			return fmt.Errorf("environment variable name %q is not valid", k)
		}
		if strings.ContainsRune(v, 0) {
			return fmt.Errorf("environment variable %s contains a NUL byte", k)
		}
		if n := len(k) + 1 + len(v); n > MaxArgBytes { // exec's limit holds for NAME=VALUE too
			return fmt.Errorf("environment variable %s is %d bytes with its name; at most %d: put long values in a file", k, n, MaxArgBytes)
		}
	}
	for _, kv := range s.Environ {
		if k, _, ok := strings.Cut(kv, "="); !ok || k == "" || strings.ContainsRune(kv, 0) {
			return fmt.Errorf("environment entry %q is not NAME=value", kv)
		}
	}
	switch s.Stdin {
	case StdinNull, StdinPipe:
	default:
		return fmt.Errorf("stdin %q is not one of null, pipe", string(s.Stdin))
	}
	if s.TTY && s.Stdin == StdinPipe {
		return errors.New("stdin: pipe is for jobs on pipes; a tty job reads its terminal")
	}
	if err := s.Restart.validate(); err != nil {
		return err
	}
	for name, c := range s.DependsOn {
		if err := CheckName(name); err != nil {
			return fmt.Errorf("depends_on: %w: no job can have it", err)
		}
		if !c.valid() {
			return fmt.Errorf("dependency %q: condition %q is not one of %s", name, c, Conditions)
		}
	}
	for _, id := range s.After {
		if id <= 0 {
			return fmt.Errorf("after: %d is not a job ID (IDs start at 1)", id)
		}
	}
	return s.validateChecks()
}

// CheckSelfDependency refuses a spec whose depends_on names the job's
// own name: it would wait for itself for ever, and failed later as "no
// job has that name" (dependenciesLocked does not count the job itself).
// Not part of Validate: a job file says so first, as a cycle. Manager's
// Start and Add refuse it; the API says so first, as a bad request.
func (s Spec) CheckSelfDependency() error {
	if _, self := s.DependsOn[s.Name]; self && s.Name != "" {
		return fmt.Errorf("depends_on: %q is this job's own name: a job cannot depend on itself", s.Name)
	}
	return nil
}

func (c Condition) valid() bool {
	switch c {
	case CondStarted, CondReady, CondHealthy, CondSucceeded, CondCompleted, CondReadyPassed, CondHealthyPassed:
		return true
	}
	return false
}

// validateChecks checks the ready and health checks and the stop command.
func (s Spec) validateChecks() error {
	r := s.Ready
	if r.LogPattern != "" {
		if _, err := regexp.Compile(r.LogPattern); err != nil {
			return fmt.Errorf("ready pattern: %v", err)
		}
	}
	if r.After < 0 {
		return fmt.Errorf("ready delay %v is negative", r.After)
	}
	given := 0
	for _, set := range []bool{r.LogPattern != "", r.After > 0, r.Probe.Probe != nil} {
		if set {
			given++
		}
	}
	if given > 1 {
		return errors.New("give one ready check: a log pattern, a delay or a probe")
	}
	if err := r.Probe.validate("ready"); err != nil {
		return err
	}
	if err := s.Health.validate("health"); err != nil {
		return err
	}
	if strings.ContainsRune(s.StopCommand, 0) {
		return errors.New("stop command contains a NUL byte")
	}
	switch {
	case s.StopInput == "":
	case s.StopCommand != "":
		return errors.New("give a stop command or stop input, not both")
	case !s.TTY && s.Stdin != StdinPipe:
		return errors.New("stop input is typed into the job: run it on a terminal (tty) or with stdin: pipe")
	case len(s.StopInput) > MaxArgBytes:
		return fmt.Errorf("stop input is %d bytes; at most %d", len(s.StopInput), MaxArgBytes)
	}
	if len(s.Shell) > 0 && strings.TrimSpace(s.Shell[0]) == "" {
		return errors.New("the shell's program name is empty")
	}
	if err := checkLabel("origin", s.Origin); err != nil {
		return err
	}
	return checkLabel("client", s.Client)
}

// checkLabel refuses an origin or client name a table could not show.
func checkLabel(field, s string) error {
	if len(s) > maxLabelBytes {
		return fmt.Errorf("%s is %d bytes long; at most %d", field, len(s), maxLabelBytes)
	}
	if strings.IndexFunc(s, unicode.IsControl) >= 0 {
		return fmt.Errorf("%s %q holds a control character", field, s)
	}
	return nil
}

// maxLabelBytes bounds Spec.Origin and Spec.Client.
const maxLabelBytes = 64

func (p RestartPolicy) validate() error {
	switch p.Mode {
	case "", RestartNever, RestartOnFailure, RestartAlways:
	default:
		return fmt.Errorf("restart policy %q is not one of no, on-failure, always", p.Mode)
	}
	if p.Backoff < 0 || p.MaxBackoff < 0 {
		return errors.New("restart backoff is negative")
	}
	if p.Max < NoRestartLimit {
		return fmt.Errorf("restart max %d is negative (%d means no limit)", p.Max, NoRestartLimit)
	}
	return nil
}

// withDefaults fills the zero fields that have defaults.
func (s Spec) withDefaults() Spec {
	if s.StopSignal == 0 {
		s.StopSignal = DefaultStopSignal
	}
	if s.Grace == 0 {
		s.Grace = DefaultGrace
	}
	s.Restart = s.Restart.WithDefaults()
	s.Ready.Probe = s.Ready.Probe.withDefaults()
	s.Health = s.Health.withDefaults()
	return s
}

// shell is the program and flag that run a command line.
func (s Spec) shell() []string {
	if len(s.Shell) == 0 {
		return []string{"/bin/sh", "-c"}
	}
	return s.Shell
}

// shellArgv is the program and arguments that run a shell command line.
func (s Spec) shellArgv(command string) []string {
	return append(append([]string(nil), s.shell()...), command)
}

// WithDefaults is the policy with its zero fields filled: how a job
// really restarts. A manager applies it to every spec it is given.
func (p RestartPolicy) WithDefaults() RestartPolicy {
	if p.Mode == "" {
		p.Mode = RestartNever
	}
	if p.Mode == RestartNever {
		return p
	}
	if p.Backoff == 0 {
		p.Backoff = DefaultRestartBackoff
	}
	if p.MaxBackoff == 0 {
		p.MaxBackoff = max(DefaultRestartMaxBackoff, p.Backoff)
	}
	if p.Max == 0 {
		p.Max = DefaultRestartMax
	}
	return p
}
