package jobs

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// environWithout is jobtop's environment without the variable name.
func environWithout(name string) []string {
	var env []string
	for _, kv := range os.Environ() {
		if k, _, _ := strings.Cut(kv, "="); k != name {
			env = append(env, kv)
		}
	}
	return env
}

// Python block-buffers stdout on a pipe and does not flush on SIGTERM:
// a pipe job gets PYTHONUNBUFFERED=1, so what it printed before a stop
// is in its output. An environment that sets PYTHONUNBUFFERED, even
// empty (Python's "off"), keeps its own.
func TestPythonOnAPipeIsUnbufferedUnlessItsEnvironmentSaysSo(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 is not installed")
	}
	m := newManager(t, Options{})
	script := `
import os, sys, time
for i in range(3):
    print("line", i)
open(sys.argv[1], "w").close()
time.sleep(60)
`
	run := func(env map[string]string) []string {
		mark := filepath.Join(t.TempDir(), "printed")
		info := start(t, m, Spec{Argv: []string{"python3", "-c", script, mark}, Environ: environWithout("PYTHONUNBUFFERED"), Env: env})
		eventually(t, "the script to print", func() bool { _, err := os.Stat(mark); return err == nil })
		require.NoError(t, m.Stop(info.ID))
		wait(t, m, info.ID)
		return outputText(t, m, info.ID)
	}
	assert.Equal(t, []string{"line 0", "line 1", "line 2"}, run(nil))
	assert.Empty(t, run(map[string]string{"PYTHONUNBUFFERED": ""}), "an empty PYTHONUNBUFFERED opts out")

	// A terminal job is line-buffered: it is given nothing.
	info := start(t, m, Spec{TTY: true, Command: `echo "[${PYTHONUNBUFFERED-unset}]"`, Environ: environWithout("PYTHONUNBUFFERED")})
	wait(t, m, info.ID)
	assert.Equal(t, []string{"[unset]"}, outputText(t, m, info.ID))
}
