package jobs

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
)

// Defaults of a ProbeCheck's zero fields.
const (
	DefaultProbeInterval = time.Second
	DefaultProbeTimeout  = time.Second
	DefaultProbeFailures = 3
)

// Probe checks a running job from outside: an HTTP request, a TCP
// connection, a command. The implementations live outside this package
// (jobtop/probe), so that it needs no network code of its own.
//
// Implementations must be comparable (a pointer, or a struct of
// comparable fields): specs holding them are compared.
type Probe interface {
	// Check runs one check and returns nil when it passed, or what went
	// wrong ("GET http://127.0.0.1:8080/healthz: status 503"). It must
	// return soon after ctx is done, leaving no process behind.
	Check(ctx context.Context, target ProbeTarget) error
	// String describes the probe as a job file writes it ("http:
	// http://127.0.0.1:8080/healthz", "tcp: 127.0.0.1:5432", "exec:
	// pg_isready -q").
	String() string
}

// ProbeTarget is what a check may need to know of the run it checks.
type ProbeTarget struct {
	// Dir is the job's working directory ("" for the manager's).
	Dir string
	// Env is the job's whole environment, as its process got it.
	Env []string
	// Shell runs a command line: a program and the flag that takes one.
	Shell []string
	// PID is the job's main process.
	PID int
	// Run runs a command beside the job, with its environment, in dir,
	// the way jobtop runs jobs (nothing it starts outlives it or jobtop),
	// and returns how it ended once nothing of it is left; ctx's end
	// kills it. An error means it could not start. Nil in a target made
	// by hand: probes that run commands then cannot check.
	Run func(ctx context.Context, argv []string, dir string) (CommandResult, error)
}

// ProbeCheck is a probe and when to run it. A ready check runs it every
// Interval, from InitialDelay after the run starts, until it first
// passes; Failures checks failing in a row make the job's ready error
// show (its process is left alone: it may just be slow to start). A
// health check runs it every Interval from InitialDelay after the run is
// ready, for as long as it runs; Failures checks failing in a row make the
// job unhealthy, and restart it when its restart policy restarts jobs
// that fail. When the health check's Probe is the ready check's, the
// check that made the job ready counts as the first health check. Each
// check may take up to Timeout. Checks of one job never overlap, and they
// stop when the job is being stopped.
type ProbeCheck struct {
	// Probe is the check; nil means none.
	Probe Probe
	// Interval is the time between checks (default 1s).
	Interval time.Duration
	// Timeout bounds one check (default 1s).
	Timeout time.Duration
	// InitialDelay comes before the first check (default 0).
	InitialDelay time.Duration
	// Failures in a row count as failing (default 3).
	Failures int
}

func (c ProbeCheck) validate(what string) error {
	switch {
	case c.Probe == nil && c != (ProbeCheck{}):
		return fmt.Errorf("%s check: probe settings without a probe", what)
	case c.Interval < 0, c.Timeout < 0, c.InitialDelay < 0:
		return fmt.Errorf("%s check: a negative interval, timeout or initial delay", what)
	case c.Failures < 0:
		return fmt.Errorf("%s check: failures %d is negative", what, c.Failures)
	}
	return nil
}

func (c ProbeCheck) withDefaults() ProbeCheck {
	if c.Probe == nil {
		return c
	}
	if c.Interval == 0 {
		c.Interval = DefaultProbeInterval
	}
	if c.Timeout == 0 {
		c.Timeout = DefaultProbeTimeout
	}
	if c.Failures == 0 {
		c.Failures = DefaultProbeFailures
	}
	return c
}

// String describes the check: the probe, and its timing where it is not
// the default ("http: http://127.0.0.1/, every 2s, 5 failures").
func (c ProbeCheck) String() string {
	if c.Probe == nil {
		return ""
	}
	s := c.Probe.String()
	var extra []string
	if c.Interval != 0 && c.Interval != DefaultProbeInterval {
		extra = append(extra, "every "+c.Interval.String())
	}
	if c.Timeout != 0 && c.Timeout != DefaultProbeTimeout {
		extra = append(extra, "timeout "+c.Timeout.String())
	}
	if c.InitialDelay > 0 {
		extra = append(extra, "after "+c.InitialDelay.String())
	}
	if c.Failures != 0 && c.Failures != DefaultProbeFailures {
		extra = append(extra, fmt.Sprintf("%d failures", c.Failures))
	}
	return strings.Join(append([]string{s}, extra...), ", ")
}

// check runs the probe once, bounded by the timeout.
func (c ProbeCheck) check(ctx context.Context, target ProbeTarget) error {
	cctx, cancel := context.WithTimeout(ctx, c.Timeout)
	defer cancel()
	err := c.Probe.Check(cctx, target)
	if err != nil && ctx.Err() == nil && errors.Is(cctx.Err(), context.DeadlineExceeded) {
		return fmt.Errorf("no answer within %v", c.Timeout)
	}
	return err
}

// Health is what a job's health check last found. The names are part of
// the API.
type Health string

// The health states of a running job with a health check.
const (
	// HealthStarting: not checked yet (the job is not ready, or the
	// initial delay has not passed).
	HealthStarting Health = "starting"
	// HealthHealthy: the last check passed.
	HealthHealthy Health = "healthy"
	// HealthUnhealthy: Failures checks in a row failed, and none has
	// passed since.
	HealthUnhealthy Health = "unhealthy"
)
