package jobs

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A duration is taken with a unit or as a bare number of seconds, as
// timeout(1) and the MCP tools take it.
func TestParseDurationTakesSeconds(t *testing.T) {
	for in, want := range map[string]time.Duration{"5": 5 * time.Second, "0.25": 250 * time.Millisecond, " 2 ": 2 * time.Second,
		"1m30s": 90 * time.Second, "0": 0, "-1": -time.Second, "1e3": 1000 * time.Second} {
		got, err := ParseDuration(in)
		require.NoError(t, err, in)
		assert.Equal(t, want, got, in)
	}
	for _, in := range []string{"", "x", "0x10", "Inf", "NaN", "1e400", "1e-10"} {
		_, err := ParseDuration(in)
		assert.ErrorContains(t, err, "time: ", in)
	}
	for _, in := range []string{"1e12", "9223372036.854775807", "-9223372036.854775808", "99999999h"} {
		_, err := ParseDuration(in)
		assert.ErrorIs(t, err, ErrDurationTooLarge, in)
	}
}

func TestDurationTooLarge(t *testing.T) {
	for s, want := range map[string]bool{
		"99999999h":         true,
		"2562048h":          true,
		"-99999999h":        true,
		"9999999999999999s": true,
		"1h99999999999m":    true,
		"2562047h":          false, // it fits
		"soon":              false,
		"5 minutes":         false,
		"99999999":          false, // no unit
		"99999999x":         false,
		"":                  false,
	} {
		assert.Equal(t, want, DurationTooLarge(s), s)
	}
}
