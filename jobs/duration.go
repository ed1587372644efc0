package jobs

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// MaxDurationText is the longest duration jobtop takes (a timeout, a
// grace period, a wait), time.Duration's limit, as messages say it.
const MaxDurationText = "2562047h (about 292 years)"

// durationUnits are time.ParseDuration's units, in nanoseconds.
var durationUnits = map[string]float64{
	"ns": 1, "us": 1e3, "µs": 1e3, "μs": 1e3, "ms": 1e6, "s": 1e9, "m": 60e9, "h": 3600e9,
}

// DurationTooLarge says whether s, which time.ParseDuration refused, is
// a duration written as it takes one ("99999999h", "1h30m") but longer
// than MaxDurationText: it says "invalid duration" for both, and a
// person who wrote one needs to hear which.
func DurationTooLarge(s string) bool {
	s = strings.TrimLeft(strings.TrimSpace(s), "+-")
	if s == "" {
		return false
	}
	total := 0.0
	for s != "" {
		i := strings.IndexFunc(s, func(r rune) bool { return r != '.' && (r < '0' || r > '9') })
		if i <= 0 {
			return false // no number, or no unit after it
		}
		n, err := strconv.ParseFloat(s[:i], 64)
		if err != nil {
			return false
		}
		s = s[i:]
		j := strings.IndexFunc(s, func(r rune) bool { return r == '.' || r >= '0' && r <= '9' })
		if j < 0 {
			j = len(s)
		}
		unit, ok := durationUnits[s[:j]]
		if !ok {
			return false
		}
		total += n * unit
		s = s[j:]
	}
	return total >= math.MaxInt64
}

// ParseDuration reads a duration as jobtop takes one, on the command line
// and in the API: with a unit ("30s", "1h30m") or a bare number of
// seconds ("30", "0.5"), as timeout(1), sleep(1) and MCP's tools take
// it. A duration longer than MaxDurationText is ErrDurationTooLarge
// (wrapped); other errors start "time: ". A negative one is returned as
// it is: each caller says whether it takes one.
func ParseDuration(s string) (time.Duration, error) {
	s = strings.TrimSpace(s)
	if n, err := strconv.ParseFloat(s, 64); err == nil && !strings.ContainsAny(s, "xXpPiInN_") {
		ns := n * float64(time.Second)
		switch {
		case math.Abs(ns) >= math.MaxInt64: // 2^63: past any Duration
			return 0, fmt.Errorf("%w: %q seconds", ErrDurationTooLarge, s)
		case n != 0 && math.Abs(ns) < 1:
			return 0, errors.New("time: " + strconv.Quote(s) + " seconds is shorter than a nanosecond")
		}
		return time.Duration(ns), nil
	}
	d, err := time.ParseDuration(s)
	if err != nil && DurationTooLarge(s) {
		return 0, fmt.Errorf("%w: %q", ErrDurationTooLarge, s)
	}
	return d, err
}

// ErrDurationTooLarge is ParseDuration's refusal of a duration longer
// than any it can hold.
var ErrDurationTooLarge = errors.New("too large")
