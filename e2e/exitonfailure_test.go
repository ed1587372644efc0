package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// A job with exit_on_failure that fails ends the TUI: the screen goes, and
// what is left says why, once, with the job's last lines (its error was on
// the screen that went).
func TestTUIExitOnFailureShowsTheJobsLastLines(t *testing.T) {
	bin := binary(t)
	dir := t.TempDir()
	file := filepath.Join(dir, "process-compose.yaml")
	require.NoError(t, os.WriteFile(file, []byte(`processes:
  crasher:
    command: "sleep 1; echo crashing >&2; exit 4"
    availability: {restart: exit_on_failure}
`), 0o600))
	errFile := filepath.Join(dir, "stderr")
	s := newSession(t, 100, 20, nil, "sh", "-c", `exec "$0" -f "$1" 2>"$2"`, bin, file, errFile)
	require.Equal(t, "4", s.waitExit())
	stderr, err := os.ReadFile(errFile)
	require.NoError(t, err)
	require.Equal(t, "jobtop: job crasher failed (exit 4) and its restart policy is exit_on_failure\ncrasher | crashing\n", string(stderr))
	require.Equal(t, 1, strings.Count(string(stderr), "exit_on_failure"))
}
