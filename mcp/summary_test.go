package mcp

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"jobtop/jobs"
)

// A job's error and command can hold a 200 KB script; a summary or a
// detail repeats only their start, saying how much was cut.
func TestSummaryCutsAHugeErrorAndCommand(t *testing.T) {
	script := "true # " + strings.Repeat("c", 200_000)
	info := jobs.Info{ID: 1, Name: "big", State: jobs.StateError, Command: script,
		Error: `cannot start "` + script + `": argument list too long`}
	s := summarize(info, time.Now())
	assert.LessOrEqual(t, len(s.Error), errorBytes+40)
	assert.True(t, strings.HasPrefix(s.Error, `cannot start "true # ccc`), s.Error[:40])
	assert.Contains(t, s.Error, "bytes cut]")
	d := detail(info, time.Now())
	assert.LessOrEqual(t, len(d.Command), commandBytes+40)
	assert.Contains(t, d.Command, "bytes cut]")
	assert.LessOrEqual(t, len(d.text()), errorBytes+commandBytes+1000)
}

// A cut of one byte says so in the singular.
func TestCutTextOfOneByte(t *testing.T) {
	assert.Equal(t, "ab… [1 byte cut]", cutText("abc", 2))
}
