package cmd

import (
	"os"
	"os/exec"
	"path/filepath"
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

// exit_on_end ends serve when the job ends: with 0 for a success (130 in
// success_exit_codes, as process-compose's fixture success-exit-on-end.yaml
// has it), saying why.
func TestServeEndsWithAnExitOnEndJob(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("bash is not installed")
	}
	c := newCLI(t)
	dir := filepath.Join(c.dir, "app")
	require.NoError(t, os.Mkdir(dir, 0o700))
	data, err := os.ReadFile("../testdata/process-compose/upstream/success-exit-on-end.yaml")
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "process-compose.yaml"), data, 0o600))
	r := c.runIn(dir, "serve", "--socket", c.socket)
	assert.Equal(t, 0, r.code, r.stderr)
	assert.Contains(t, r.stderr, "jobtop: job signal_exit succeeded and its availability has exit_on_end: stopping jobs")
}
