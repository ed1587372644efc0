package jobs

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"

	"jobtop/jobs/keeper"
)

// TestRecordWritesReuseTheirFiles: the record, written again and again
// while jobs start, is whole after each write and, where two names can be
// swapped, lives in the same two files: a write makes no file (the files
// are told apart by inode and birth time: a freed inode's number comes
// back at once).
func TestRecordWritesReuseTheirFiles(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.sock.keeper")
	type file struct {
		ino  uint64
		born unix.StatxTimestamp
	}
	files := map[file]bool{}
	for i := range 6 {
		rec := record{Keeper: keeper.Identity{PID: 100 + i, Start: 7, Token: "t"}}
		require.NoError(t, writeFileAtomic(path, rec))
		b, err := os.ReadFile(path)
		require.NoError(t, err)
		var got record
		require.NoError(t, json.Unmarshal(b, &got))
		assert.Equal(t, rec, got, "write %d", i)
		var st unix.Statx_t
		require.NoError(t, unix.Statx(unix.AT_FDCWD, path, 0, unix.STATX_INO|unix.STATX_BTIME, &st))
		if st.Mask&unix.STATX_BTIME == 0 {
			t.Skip("the file system keeps no birth time")
		}
		files[file{st.Ino, st.Btime}] = true
	}
	assert.Len(t, files, 2, "six records in two files")

	_, err := StopLeftovers(path) // a dead keeper's: nothing of it is left
	require.NoError(t, err)
	entries, err := os.ReadDir(filepath.Dir(path))
	require.NoError(t, err)
	assert.Empty(t, entries, "the record and its next file are gone")
}
