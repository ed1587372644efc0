package jobs

import (
	"os"
	"strings"
	"sync"
	"time"
)

// pathCacheFor is how long a program found in PATH is taken to be there
// without looking through PATH again.
const pathCacheFor = time.Second

// pathCacheMax bounds how many programs the cache holds; past it, it
// starts again empty.
const pathCacheMax = 256

// pathCache remembers where lookPathIn found a program by name in a PATH,
// so that many jobs of one program (a thousand `sleep` a second, an
// agent's burst of test runs) do not each look through PATH: with a long
// PATH (language toolchains, version managers) that was a dozen stat
// calls a start, the most system calls of a start. An entry holds for
// pathCacheFor, and only while the file it found is still that file (one
// stat: same inode, mode, size and modification time, a regular file
// still executable); else PATH is looked through again. So a program removed,
// replaced or made not executable is seen at once, and one put in an
// earlier PATH entry at most pathCacheFor later (bash's own hash table
// never sees that one without `hash -r`). What was not found, or found
// not executable, is never cached: the shell runs those and says why.
// Safe for concurrent use; the zero value is ready.
type pathCache struct {
	mu      sync.Mutex
	entries map[pathKey]pathEntry
	now     func() time.Time // time.Now; tests set it
}

type pathKey struct{ prog, path string }

type pathEntry struct {
	file  string
	st    os.FileInfo
	found time.Time
}

// lookPath is lookPathIn(prog, path, dir), from the cache when it can be.
func (c *pathCache) lookPath(prog, path, dir string) (string, bool) {
	if strings.Contains(prog, "/") {
		return lookPathIn(prog, path, dir) // one stat: nothing to save
	}
	now := time.Now
	if c.now != nil {
		now = c.now
	}
	key := pathKey{prog, path}
	c.mu.Lock()
	e, ok := c.entries[key]
	c.mu.Unlock()
	if ok && now().Sub(e.found) < pathCacheFor {
		if st, err := os.Stat(e.file); err == nil && sameExecutable(st, e.st) {
			return e.file, true
		}
	}
	found := now()
	file, st := findInPath(prog, path)
	if st == nil || !sameExecutable(st, st) {
		return file, false
	}
	c.mu.Lock()
	if c.entries == nil || len(c.entries) >= pathCacheMax {
		c.entries = make(map[pathKey]pathEntry)
	}
	c.entries[key] = pathEntry{file: file, st: st, found: found}
	c.mu.Unlock()
	return file, true
}

// sameExecutable reports whether st is was, still a regular file with an
// execute bit: same file, mode, size and modification time.
func sameExecutable(st, was os.FileInfo) bool {
	return st.Mode().IsRegular() && st.Mode()&0o111 != 0 && os.SameFile(st, was) &&
		st.Mode() == was.Mode() && st.Size() == was.Size() && st.ModTime().Equal(was.ModTime())
}
