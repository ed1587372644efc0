package cmd

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestServeEndsWithAnExitOnFailureJob: process-compose's restart:
// exit_on_failure stops every job and ends jobtop with the failed job's
// exit code.
func TestServeEndsWithAnExitOnFailureJob(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("bash is not installed")
	}
	c := newCLI(t)
	dir := filepath.Join(c.dir, "app")
	require.NoError(t, os.Mkdir(dir, 0o700))
	marker := "1000.4242" // a sleep only this test runs
	require.NoError(t, os.WriteFile(filepath.Join(dir, "process-compose.yaml"), []byte(`processes:
  sanitycheck:
    command: "sleep 0.5; echo no go; exit 7"
    availability:
      restart: exit_on_failure
  server:
    command: "sleep `+marker+`"
  ok:
    command: "true"
    availability: {restart: exit_on_failure}
`), 0o600))
	r := c.runIn(dir, "serve", "--socket", c.socket)
	assert.Equal(t, 7, r.code)
	assert.Contains(t, r.stderr, "jobtop: job sanitycheck failed (exit 7) and its restart policy is exit_on_failure: stopping jobs")
	out, _ := exec.Command("pgrep", "-f", "sleep "+marker).Output()
	assert.Empty(t, strings.TrimSpace(string(out)), "the other jobs were stopped")
}
