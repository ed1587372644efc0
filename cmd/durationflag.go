package cmd

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"jobtop/jobs"
)

// parseDurationArg reads a duration as a flag gives it: with a unit
// ("30s", "1h30m") or a bare number of seconds ("30", "0.5"), as
// timeout(1), sleep(1) and MCP's tools take it. Errors from the duration
// parser start "time: ", or errTooLarge (flagParsers words them).
func parseDurationArg(s string) (time.Duration, error) {
	s = strings.TrimSpace(s)
	if n, err := strconv.ParseFloat(s, 64); err == nil && !strings.ContainsAny(s, "xXpPiInN_") {
		ns := n * float64(time.Second)
		switch {
		case math.Abs(ns) >= math.MaxInt64: // 2^63: past any Duration
			return 0, fmt.Errorf("%w: %q seconds", errTooLarge, s)
		case n != 0 && math.Abs(ns) < 1:
			return 0, errors.New("time: " + strconv.Quote(s) + " seconds is shorter than a nanosecond")
		}
		return time.Duration(ns), nil
	}
	d, err := time.ParseDuration(s)
	if err != nil && jobs.DurationTooLarge(s) {
		return 0, fmt.Errorf("%w: %q", errTooLarge, s)
	}
	return d, err
}

// errTooLarge is parseDurationArg's refusal of a duration longer than
// any it can hold (flagParsers words it).
var errTooLarge = errors.New("too large")

// durationFlag is a time.Duration flag read by parseDurationArg; with
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
	d, err := parseDurationArg(s)
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
