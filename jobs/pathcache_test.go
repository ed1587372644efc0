package jobs

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// writeProgram makes an executable script at path.
func writeProgram(t *testing.T, path, says string) {
	t.Helper()
	require.NoError(t, os.WriteFile(path, []byte("#!/bin/sh\necho "+says+"\n"), 0o755))
}

// TestPathCache: a program found by name is found again without a look
// through PATH while it is the same file and for pathCacheFor at most;
// a change to the file itself is seen at once.
func TestPathCache(t *testing.T) {
	early, late := t.TempDir(), t.TempDir()
	path := early + ":" + late
	prog := filepath.Join(late, "prog")
	writeProgram(t, prog, "late")
	clock := time.Unix(1000, 0)
	c := &pathCache{now: func() time.Time { return clock }}
	look := func() string {
		file, ok := c.lookPath("prog", path, "")
		require.True(t, ok)
		return file
	}
	require.Equal(t, prog, look())

	// One put earlier in PATH is not looked for within pathCacheFor...
	writeProgram(t, filepath.Join(early, "prog"), "early")
	clock = clock.Add(pathCacheFor / 2)
	assert.Equal(t, prog, look(), "cached")
	// ...and is once it has passed.
	clock = clock.Add(pathCacheFor)
	assert.Equal(t, filepath.Join(early, "prog"), look())

	// The file found changing is seen at once: made not executable,
	// replaced, removed.
	require.NoError(t, os.Remove(filepath.Join(early, "prog")))
	clock = clock.Add(2 * pathCacheFor)
	require.Equal(t, prog, look())
	require.NoError(t, os.Chmod(prog, 0o644))
	_, ok := c.lookPath("prog", path, "")
	assert.False(t, ok, "not executable")
	require.NoError(t, os.Chmod(prog, 0o755))
	require.Equal(t, prog, look())
	writeProgram(t, filepath.Join(early, "prog"), "early")
	require.NoError(t, os.Rename(filepath.Join(early, "prog"), prog)) // another file, same name
	assert.Equal(t, prog, look())
	require.NoError(t, os.Remove(prog))
	_, ok = c.lookPath("prog", path, "")
	assert.False(t, ok, "removed")

	// Another PATH is another look.
	writeProgram(t, filepath.Join(early, "prog"), "early")
	file, ok := c.lookPath("prog", late+":"+early, "")
	assert.True(t, ok)
	assert.Equal(t, filepath.Join(early, "prog"), file)
}

// TestDirectRunsUseThePathCache: jobs that run their program directly
// find it through the manager's path cache, so a burst of them looks
// through PATH once (seen here by a program put earlier in PATH between
// two starts, which the second does not find yet).
func TestDirectRunsUseThePathCache(t *testing.T) {
	early, late := t.TempDir(), t.TempDir()
	writeProgram(t, filepath.Join(late, "prog"), "late")
	m := newManager(t, Options{})
	frozen := time.Now()
	m.paths.now = func() time.Time { return frozen } // however slow the machine
	env := map[string]string{"PATH": early + ":" + late + ":" + os.Getenv("PATH")}
	first := start(t, m, Spec{Command: "exec prog", Env: env})
	writeProgram(t, filepath.Join(early, "prog"), "early")
	second := start(t, m, Spec{Command: "exec prog", Env: env})
	wait(t, m, first.ID)
	wait(t, m, second.ID)
	assert.Equal(t, []string{"late"}, outputText(t, m, first.ID))
	assert.Equal(t, []string{"late"}, outputText(t, m, second.ID), "found in the cache")
}
