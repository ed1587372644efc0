package cmd

import (
	"errors"
	"time"

	"jobtop/jobs"
)

// durationFlag is a time.Duration flag read by jobs.ParseDuration; with
// nonNegative, a negative one is refused.
type durationFlag struct {
	d           *time.Duration
	nonNegative bool
}

// errNegative is a durationFlag's refusal of a negative value
// (flagParsers words it).
var errNegative = errors.New("negative")

// String is the value; "0" for none, which help leaves out as a default.
func (f durationFlag) String() string {
	if *f.d == 0 {
		return "0"
	}
	return f.d.String()
}

// Set reads a duration or a number of seconds.
func (f durationFlag) Set(s string) error {
	d, err := jobs.ParseDuration(s)
	switch {
	case err != nil:
		return err
	case d < 0 && f.nonNegative:
		return errNegative
	}
	*f.d = d
	return nil
}

// Type names the value in help: DUR.
func (f durationFlag) Type() string { return "duration" }
