package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
)

var (
	programsMu sync.Mutex
	programs   = map[string]string{} // built: name -> path
	helperDir  string                // where they are, removed by TestMain
)

// testProgram builds the tests' program testdata/NAME once per run and
// returns its path.
func testProgram(t testing.TB, name string) string {
	t.Helper()
	programsMu.Lock()
	defer programsMu.Unlock()
	if path, ok := programs[name]; ok {
		return path
	}
	if helperDir == "" {
		dir, err := os.MkdirTemp("", "jobtop-e2e-helpers-")
		require.NoError(t, err)
		helperDir = dir
	}
	path := filepath.Join(helperDir, name)
	out, err := exec.Command("go", "build", "-o", path, "./testdata/"+name).CombinedOutput()
	require.NoError(t, err, "go build %s:\n%s", name, out)
	programs[name] = path
	return path
}

// fullscreen is the full-screen program of the PTY tests
// (testdata/fullscreen).
func fullscreen(t testing.TB) string { return testProgram(t, "fullscreen") }

// ttyecho is the tests' terminal probe (testdata/ttyecho).
func ttyecho(t testing.TB) string { return testProgram(t, "ttyecho") }

// ptydrain runs a command on a terminal of its own and reads it as fast
// as it can, drawing nothing (testdata/ptydrain): the floor for any
// program that shows a terminal's output.
func ptydrain(t testing.TB) string { return testProgram(t, "ptydrain") }
