package cmd

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"jobtop/jobs"
)

// TestAJobFileStartsWithinTheFileLimit: a job file's jobs all start at
// once, and each launch holds a few descriptors until its process is
// spawned: under a limit of 256 open files, 19 of 60 jobs failed to
// start ("too many open files") though all 60 fit once running (rev34,
// 464 of 1,200 under 4,096). Launches take turns now, and one out of
// descriptors waits for the others' to be let go of: some 80 such jobs
// fit under 256 (14 of 80 failed with turns alone; rev36).
func TestAJobFileStartsWithinTheFileLimit(t *testing.T) {
	c := newCLI(t)
	dir := t.TempDir()
	var text strings.Builder
	text.WriteString("jobs:\n")
	const n = 70
	for i := range n {
		fmt.Fprintf(&text, "  j%02d: {cmd: exec sleep 600}\n", i)
	}
	require.NoError(t, os.WriteFile(filepath.Join(dir, "jobtop.yaml"), []byte(text.String()), 0o600))
	serve := exec.Command("sh", "-c", `ulimit -n 256 && exec "$0" serve`, binary)
	serve.Env, serve.Dir = c.env, dir
	require.NoError(t, serve.Start())
	t.Cleanup(func() {
		serve.Process.Signal(syscall.SIGTERM) //nolint:errcheck // may have exited
		serve.Wait()                          //nolint:errcheck // stopped on purpose
	})
	c.waitAnswering()
	var states map[jobs.State]int
	require.Eventually(t, func() bool {
		states = map[jobs.State]int{}
		for _, j := range c.jobsByName() {
			states[j.State]++
		}
		return states[jobs.StateRunning]+states[jobs.StateError] == n
	}, testTimeout, 50*time.Millisecond, "every job started or failed to")
	assert.Equal(t, map[jobs.State]int{jobs.StateRunning: n}, states)
}
