package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A socket's files in the state directory have names a file system
// takes, however long the socket's path (rev59: the escaped path of a
// 103-byte socket passed 255 bytes, and no instance would start), and
// one of their own for each socket.
func TestSocketStateNamesFitAnyPath(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	long := "/run/" + strings.Repeat("作業", 40) + "/jobtop " + strings.Repeat("x", 200) + ".sock"
	var names []string
	for _, socket := range []string{long, long + "2", "/run/user/0/jobtop/default.sock"} {
		path, err := socketStatePath(socket, "ids")
		require.NoError(t, err)
		assert.LessOrEqual(t, len(filepath.Base(path)), 255, socket)
		require.NoError(t, os.WriteFile(path, []byte("{}\n"), 0o600), "a name the file system takes")
		names = append(names, path)
	}
	assert.NotEqual(t, names[0], names[1])
	assert.True(t, strings.HasPrefix(filepath.Base(names[2]), "default.sock-"), names[2])
}

// The files of sockets no instance used for socketStateAge are pruned as
// an instance starts, not its own, not newer ones.
func TestOldSocketStatesArePruned(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	paths := map[string]string{}
	for _, socket := range []string{"/a/old.sock", "/a/new.sock", "/a/own.sock"} {
		path, err := socketStatePath(socket, "ids")
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(path, []byte("{}\n"), 0o600))
		paths[socket] = path
	}
	old := time.Now().Add(-socketStateAge - time.Hour)
	require.NoError(t, os.Chtimes(paths["/a/old.sock"], old, old))
	require.NoError(t, os.Chtimes(paths["/a/own.sock"], old, old))
	pruneSocketStates("/a/own.sock", time.Now())
	assert.NoFileExists(t, paths["/a/old.sock"])
	assert.FileExists(t, paths["/a/new.sock"])
	assert.FileExists(t, paths["/a/own.sock"], "the starting instance's own")
}
