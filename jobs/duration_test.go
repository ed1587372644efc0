package jobs

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

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
