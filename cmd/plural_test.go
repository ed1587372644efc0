package cmd

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Messages about one thing say it in the singular.
func TestMessagesAboutOneThing(t *testing.T) {
	c := newCLI(t)
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "jobtop.yaml"),
		[]byte("log: {memory_lines: 1}\njobs:\n  two: {cmd: 'echo one; echo two'}\n  one: {cmd: echo alone}\n"), 0o600))
	c.serveIn(dir)
	c.ok("wait", "two")
	r := c.run("logs", "two")
	require.Equal(t, 0, r.code, r.stderr)
	assert.Equal(t, "two\n", r.stdout)
	assert.Contains(t, r.stderr, "jobtop: 1 line is no longer held in memory here")

	r = c.run("logs", "--all", "two")
	assert.Equal(t, 2, r.code)
	assert.Equal(t, "jobtop: logs --all takes no job ID, got 1 argument\n", r.stderr)

	c.ok("wait", "one")
	status := c.ok("status", "one")
	assert.Contains(t, status, "output:   1 line, 6 B")
	assert.Regexp(t, `pid:\s+\d+ \(ended\)\n`, status, "the pid of a run that ended, not a live process's")
}
