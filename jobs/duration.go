package jobs

import (
	"math"
	"strconv"
	"strings"
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
