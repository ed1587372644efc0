package cmd

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// check's summary names the file the problems are in when the files are
// merged, not the first one (the problems are all in dev.yaml here).
func TestCheckSummaryNamesTheFileOfItsProblems(t *testing.T) {
	t.Chdir(t.TempDir())
	require.NoError(t, os.WriteFile("base.yaml", []byte("processes:\n  a: {command: \"true\"}\n"), 0o644))
	require.NoError(t, os.WriteFile("dev.yaml", []byte("processes:\n  a: {availability: {restart: sometimes}}\n  b: {}\n"), 0o644))
	_, stderr, err := runCheck(t, "-f", "base.yaml", "-f", "dev.yaml")
	require.Error(t, err)
	assert.Equal(t, "dev.yaml: 2 problems", err.Error())
	assert.Contains(t, stderr, "dev.yaml:2:")

	_, _, err = runCheck(t, "-f", "dev.yaml")
	require.Error(t, err)
	assert.Equal(t, "dev.yaml: 3 problems", err.Error(), "one file: the file as given (a has no command there)")
}

// Running merged files whose problems are in the second says so in its
// summary; a socket in use names every file that was not run.
func TestMergedFilesNamedWhenTheyCannotRun(t *testing.T) {
	c := newCLI(t)
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "base.yaml"), []byte("processes:\n  a: {command: \"exec sleep 600\"}\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "bad.yaml"), []byte("processes:\n  b: {}\n"), 0o644))
	r := c.runIn(dir, "serve", "-f", "base.yaml", "-f", "bad.yaml")
	assert.Equal(t, 1, r.code)
	assert.Contains(t, r.stderr, "jobtop: bad.yaml has 1 problem; nothing was started:\n")

	require.NoError(t, os.WriteFile(filepath.Join(dir, "dev.yaml"), []byte("processes:\n  b: {command: \"exec sleep 600\"}\n"), 0o644))
	c.serve()
	r = c.runIn(dir, "-f", "base.yaml", "-f", "dev.yaml")
	assert.Equal(t, 1, r.code)
	assert.Contains(t, r.stderr, "jobtop: cannot run base.yaml + dev.yaml: another jobtop (serve, pid ")
}
