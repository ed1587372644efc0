package jobs

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// An exit code listed in SuccessExitCodes (process-compose's
// success_exit_codes) is a success: the job succeeded, on-failure does
// not restart it, and a job waiting for it to succeed starts. Another
// code is still a failure.
func TestSuccessExitCodes(t *testing.T) {
	m := newManager(t, Options{})
	pol := RestartPolicy{Mode: RestartOnFailure, Backoff: 10 * time.Millisecond, Max: 1}
	ok := start(t, m, Spec{Name: "ok130", Command: "exit 130", SuccessExitCodes: []int{130}, Restart: pol})
	next := start(t, m, Spec{Command: "echo next", DependsOn: map[string]Condition{"ok130": CondSucceeded}})
	info := wait(t, m, ok.ID)
	assert.Equal(t, StateSucceeded, info.State)
	require.NotNil(t, info.ExitCode)
	assert.Equal(t, 130, *info.ExitCode)
	assert.Equal(t, 1, info.Runs, "on-failure leaves a success alone")
	assert.Equal(t, StateSucceeded, wait(t, m, next.ID).State)

	other := wait(t, m, start(t, m, Spec{Command: "exit 3", SuccessExitCodes: []int{130}, Restart: pol}).ID)
	assert.Equal(t, StateFailed, other.State)
	assert.Equal(t, 2, other.Runs)
}
