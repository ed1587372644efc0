package jobs

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"sync"

	"jobtop/jobs/proc"
)

// Session retention defaults: what stays under the state directory's logs/.
const (
	DefaultKeepSessions = 20
	DefaultMaxLogTotal  = 2 << 30
)

// Retention bounds the session log directories kept under a state
// directory. Zero fields take the defaults; a negative one means no limit.
type Retention struct {
	// Sessions is how many of the newest sessions are kept.
	Sessions int
	// MaxTotal bounds the bytes of every session's logs together: past
	// it, the oldest sessions go.
	MaxTotal int64
}

// withDefaults fills the zero fields.
func (r Retention) withDefaults() Retention {
	if r.Sessions == 0 {
		r.Sessions = DefaultKeepSessions
	}
	if r.MaxTotal == 0 {
		r.MaxTotal = DefaultMaxLogTotal
	}
	return r
}

// sessionName matches the directory names newSessionLogDir makes:
// start time and PID.
var sessionName = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^[0-9]{8}-[0-9]{6}-([0-9]+)$`)
})

// PruneSessions removes the oldest session directories under logsDir past
// the retention's bounds: the newest r.Sessions are kept, as long as they
// add up to at most r.MaxTotal bytes. A directory a live instance uses is
// never removed (it still counts toward both bounds), nor is anything
// that is not a session directory. It returns the directories removed.
func PruneSessions(logsDir string, r Retention) ([]string, error) {
	r = r.withDefaults()
	entries, err := os.ReadDir(logsDir)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil
		}
		return nil, err
	}
	var names []string
	for _, e := range entries {
		if e.IsDir() && sessionName().MatchString(e.Name()) {
			names = append(names, e.Name())
		}
	}
	// Newest first: names start with the time they were made.
	sort.Sort(sort.Reverse(sort.StringSlice(names)))
	var removed []string
	var errs []error
	kept, total, full := 0, int64(0), false
	for _, name := range names {
		dir := filepath.Join(logsDir, name)
		size := dirSize(dir)
		if !sessionLive(dir, name) {
			full = full || (r.Sessions > 0 && kept >= r.Sessions) || (r.MaxTotal > 0 && total+size > r.MaxTotal)
			if full {
				if err := os.RemoveAll(dir); err != nil {
					errs = append(errs, err)
					continue
				}
				removed = append(removed, dir)
				continue
			}
		}
		kept++
		total += size
	}
	return removed, errors.Join(errs...)
}

// sessionLive reports whether an instance still uses a session directory:
// it holds the directory's lock, or (a directory from a jobtop that did
// not lock) the process named in the directory's name is alive.
func sessionLive(dir, name string) bool {
	if _, err := os.Stat(filepath.Join(dir, logLockName)); err == nil {
		return dirInUse(dir)
	}
	pid, err := strconv.Atoi(sessionName().FindStringSubmatch(name)[1])
	if err != nil || pid <= 0 {
		return false
	}
	p, err := proc.Get(pid)
	return err == nil && !p.Zombie
}

// dirSize adds up the sizes of the files under dir.
func dirSize(dir string) int64 {
	var n int64
	filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error { //nolint:errcheck // a partial count is fine
		if err == nil && d.Type().IsRegular() {
			if info, err := d.Info(); err == nil {
				n += info.Size()
			}
		}
		return nil
	})
	return n
}
