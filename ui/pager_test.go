package ui

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestPagerCommand(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(dir, "it's a log.log")
	require.NoError(t, os.WriteFile(log, []byte("every line\n"), 0o600))
	out := filepath.Join(dir, "out")

	// $PAGER is a command line; the file, however it is named, is its
	// last argument.
	c := pagerCommand(`sh -c 'cat "$0" > "`+out+`"'`, log)
	require.NoError(t, c.Run())
	b, err := os.ReadFile(out)
	require.NoError(t, err)
	require.Equal(t, "every line\n", string(b))

	c = pagerCommand("", log)
	require.Equal(t, []string{"/bin/sh", "-c", `less -R "$1"`, "jobtop-pager", log}, c.Args, "less -R by default")

	// A rotated log's two files reach the pager as one text, oldest first.
	older := filepath.Join(dir, "it's a log.log.1")
	require.NoError(t, os.WriteFile(older, []byte("older line\n"), 0o600))
	c = pagerCommand(`cat > "`+out+`"`, older, log)
	require.NoError(t, c.Run())
	b, err = os.ReadFile(out)
	require.NoError(t, err)
	require.Equal(t, "older line\nevery line\n", string(b))
}

// A TUI that starts removes the all view's pager files of jobtops that
// died with their pager open (they hold jobs' output), and no other's
// (rev53: only a later all-view o did).
func TestOrphanedPagerFilesGoWhenATUIStarts(t *testing.T) {
	state := t.TempDir()
	t.Setenv("XDG_STATE_HOME", state)
	dir := filepath.Join(state, "jobtop", allPagerDir)
	require.NoError(t, os.MkdirAll(dir, 0o700))
	dead := exec.Command("true")
	require.NoError(t, dead.Run())
	write := func(pid int) string {
		path := filepath.Join(dir, fmt.Sprintf("%s%d-1.txt", allPagerPrefix, pid))
		require.NoError(t, os.WriteFile(path, []byte("secret output\n"), 0o600))
		return path
	}
	orphan, ours, live := write(dead.Process.Pid), write(os.Getpid()), write(1)
	RemoveOrphanedPagerFiles()
	assert.NoFileExists(t, orphan)
	assert.FileExists(t, ours)
	assert.FileExists(t, live)
}
