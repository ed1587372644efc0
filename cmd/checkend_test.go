package cmd

import (
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// jobtop check's RESTART column says what else follows a job's end: the
// exit codes that count as success (success_exit_codes) and jobtop's own
// exit (exit_on_failure), which its restart policy alone ("no") hides.
func TestCheckSaysSuccessCodesAndExitOnFailure(t *testing.T) {
	t.Chdir(t.TempDir())
	require.NoError(t, os.WriteFile("process-compose.yaml", []byte(`processes:
  graceful:
    command: "exit 130"
    success_exit_codes: [130, 143]
  gate:
    command: "exit 42"
    availability: {restart: exit_on_failure}
`), 0o644))
	stdout, stderr, err := runCheck(t)
	require.NoError(t, err)
	assert.Empty(t, stderr)
	assert.Regexp(t, `\n\d+\s+graceful\s.*\sno; exit 130, 143 counts as success\s`, stdout)
	assert.Regexp(t, `\n\d+\s+gate\s.*\sno; if it fails, jobtop exits \(exit_on_failure\)\s`, stdout)
}
