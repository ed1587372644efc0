package cmd

import (
	"bytes"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"

	"jobtop/jobs"
)

// TestPrintOutcome: what an action says of each job it acted on.
func TestPrintOutcome(t *testing.T) {
	zero, two := 0, 2
	for _, c := range []struct {
		info jobs.Info
		want string
	}{
		{jobs.Info{ID: 3, Name: "web", State: jobs.StateKilled, Signal: jobs.Signal(syscall.SIGTERM)}, "job 3 (web): killed (SIGTERM)\n"},
		{jobs.Info{ID: 3, Name: "web", State: jobs.StateKilled, ExitCode: &zero}, "job 3 (web): killed (exit 0)\n"},
		{jobs.Info{ID: 4, Name: "test", State: jobs.StateFailed, ExitCode: &two}, "job 4 (test): failed (2)\n"},
	} {
		var b bytes.Buffer
		printOutcome(&b, "stop", c.info)
		assert.Equal(t, c.want, b.String())
	}
}
