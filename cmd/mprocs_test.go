package cmd

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"jobtop/jobs"
)

// An mprocs user runs jobtop in the directory of their mprocs.yaml, and
// nothing else: check shows its procs, and an instance runs them, each on
// a terminal, the one with autostart: false left to start by hand.
func TestMprocsFileRunsWithNoOtherJobFile(t *testing.T) {
	c := newCLI(t)
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "mprocs.yaml"), []byte(`procs:
  greet:
    shell: "echo hello from $WHO; exec sleep 600"
    env: {WHO: mprocs}
  tty check: ["sh", "-c", "test -t 1 && echo on a terminal; exec sleep 600"]
  later: {shell: "echo later", autostart: false, stop: {send-keys: ["<C-c>"]}}
  hidden: null
hide_keymap_window: true
`), 0o600))

	r := c.runIn(dir, "check")
	require.Equal(t, 0, r.code, r.stderr)
	assert.Contains(t, r.stdout, "mprocs.yaml: 3 jobs, no limit on jobs running at once; start order:")
	for _, want := range []string{"1  greet ", "2  tty-check ", "3  later      by hand", `echo later  (stops with input: "\x03")`} {
		assert.Contains(t, r.stdout, want)
	}
	assert.Contains(t, r.stderr, `mprocs.yaml:5:3: warning: procs.tty check: jobtop names it tty-check`)
	assert.Contains(t, r.stderr, "mprocs.yaml:8:1: warning: hide_keymap_window: has no effect in jobtop")

	c.serveIn(dir)
	byName := func() map[string]jobs.Info {
		var list []jobs.Info
		require.NoError(t, json.Unmarshal([]byte(c.ok("ls", "--json")), &list))
		out := map[string]jobs.Info{}
		for _, j := range list {
			out[j.Name] = j
		}
		return out
	}
	var got map[string]jobs.Info
	require.Eventually(t, func() bool {
		got = byName()
		return got["greet"].State == jobs.StateRunning && got["tty-check"].State == jobs.StateRunning &&
			slices.Contains(trimmed(c.logLines("greet")), "hello from mprocs") &&
			slices.Contains(trimmed(c.logLines("tty-check")), "on a terminal")
	}, testTimeout, 50*time.Millisecond, "the procs did not run as mprocs runs them: %v", got)
	assert.Len(t, got, 3, "the null proc is not listed")
	assert.Equal(t, jobs.StateCreated, got["later"].State, "autostart: false")
	assert.True(t, got["greet"].TTY, "on a terminal, as in mprocs")
}

// trimmed is lines without the carriage returns a terminal ends them with.
func trimmed(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = strings.TrimRight(l, "\r")
	}
	return out
}
