package jobs

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
	"syscall"
	"time"
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
)

// NoRestartLimit as RestartPolicy.Max restarts without end.
const NoRestartLimit = -1

// Spec says what to run and how to treat it. Exactly one of Command and Argv
// is set.
type Spec struct {
	// Name is what people see; empty means the command line.
	Name string
	// Command is a shell command line, run by /bin/sh -c.
	Command string
	// Argv is a program and its arguments, run directly (no shell).
	Argv []string
	// Dir is the working directory; empty means the manager's.
	Dir string
	// Env holds variables added on top of the inherited environment.
	Env map[string]string
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
	// Ready says when a running job counts as ready.
	Ready ReadyCheck
	// Description is free text for people.
	Description string
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
}

// Condition is what a dependency must reach before a dependant starts.
type Condition string

// The dependency conditions.
const (
	CondStarted   Condition = "started"
	CondReady     Condition = "ready"
	CondSucceeded Condition = "succeeded"
)

// ReadyCheck says when a running job is ready: when an output line matches
// LogPattern (a regular expression), or After has passed since it started.
// With neither set, a job is ready once it is running.
type ReadyCheck struct {
	LogPattern string
	After      time.Duration
}

// String describes the check as a job file would write it ("log:
// listening on", "after: 2s"), or "" for none.
func (r ReadyCheck) String() string {
	switch {
	case r.LogPattern != "":
		return "log: " + r.LogPattern
	case r.After > 0:
		return "after: " + r.After.String()
	}
	return ""
}

// ErrEmptyCommand is returned for a Spec with nothing to run.
var ErrEmptyCommand = errors.New("empty command: give a shell command or an argv")

// DisplayCommand is the command line as people read it.
func (s Spec) DisplayCommand() string {
	if len(s.Argv) > 0 {
		return strings.Join(s.Argv, " ")
	}
	return s.Command
}

// DisplayName is the job's name, or its command when it has none.
func (s Spec) DisplayName() string {
	if s.Name != "" {
		return s.Name
	}
	return s.DisplayCommand()
}

// Validate checks the spec without touching the file system.
func (s Spec) Validate() error {
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
	if strings.ContainsRune(s.Command, 0) {
		return errors.New("command contains a NUL byte")
	}
	for _, a := range s.Argv {
		if strings.ContainsRune(a, 0) {
			return errors.New("argv contains a NUL byte")
		}
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
	for k, v := range s.Env {
		if k == "" || strings.ContainsAny(k, "=\x00") {
			return fmt.Errorf("environment variable name %q is not valid", k)
		}
		if strings.ContainsRune(v, 0) {
			return fmt.Errorf("environment variable %s contains a NUL byte", k)
		}
	}
	if err := s.Restart.validate(); err != nil {
		return err
	}
	for name, c := range s.DependsOn {
		switch c {
		case CondStarted, CondReady, CondSucceeded:
		default:
			return fmt.Errorf("dependency %q: condition %q is not one of started, ready, succeeded", name, c)
		}
	}
	if s.Ready.LogPattern != "" {
		if _, err := regexp.Compile(s.Ready.LogPattern); err != nil {
			return fmt.Errorf("ready pattern: %v", err)
		}
	}
	if s.Ready.After < 0 {
		return fmt.Errorf("ready delay %v is negative", s.Ready.After)
	}
	return nil
}

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
	return s
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
