package jobs

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"sync"
	"time"

	"golang.org/x/sys/unix"
)

// logLockName is the file in a log directory that its live instance holds
// locked: the mark that the directory is in use.
const logLockName = ".jobtop.lock"

// jobLogName matches the names of job log files: 3.log, 3.log.1.
var jobLogName = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^[0-9]+\.log(\.1)?$`)
})

// LogDirInUseError says another live instance writes its logs to a
// directory.
type LogDirInUseError struct{ Dir string }

func (e *LogDirInUseError) Error() string {
	return fmt.Sprintf("log directory %s is in use by another running jobtop; give this instance a log.dir of its own (or none: a new directory per session)", e.Dir)
}

// openLogDir makes the manager's log directory and locks it for the
// manager's lifetime: a new session directory under StateDir/logs (then
// old sessions are pruned), or Options.LogDir as is. A fixed directory
// starts fresh: the job logs an earlier session left there are removed.
func openLogDir(opts Options) (dir string, lock *os.File, err error) {
	if opts.LogDir != "" {
		dir = opts.LogDir
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return "", nil, fmt.Errorf("log directory: %w", err)
		}
		if lock, err = lockLogDir(dir); err != nil {
			return "", nil, err
		}
		if err := clearJobLogs(dir); err != nil {
			lock.Close()
			return "", nil, err
		}
		return dir, lock, nil
	}
	stateDir := opts.StateDir
	if stateDir == "" {
		stateDir = DefaultStateDir()
	}
	name := time.Now().Format("20060102-150405") + "-" + strconv.Itoa(os.Getpid())
	dir = filepath.Join(stateDir, "logs", name)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", nil, fmt.Errorf("log directory: %w", err)
	}
	if lock, err = lockSessionDir(dir); err != nil {
		return "", nil, err
	}
	// Pruning is housekeeping: a failure leaves old logs, and no session
	// fails to start over it.
	PruneSessions(filepath.Join(stateDir, "logs"), opts.retention()) //nolint:errcheck // see above
	return dir, lock, nil
}

// lockLogDir takes dir's lock, held while the returned file is open, or
// says that another instance holds it.
func lockLogDir(dir string) (*os.File, error) {
	f, err := os.OpenFile(filepath.Join(dir, logLockName), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("log directory: %w", err)
	}
	if err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, unix.EWOULDBLOCK) {
			return nil, &LogDirInUseError{Dir: dir}
		}
		return nil, fmt.Errorf("log directory %s: cannot lock it: %w", dir, err)
	}
	return f, nil
}

// lockSessionDir takes the lock of a session directory this instance has
// just made (named for its start time and PID, so no other live instance
// uses it). It waits up to sessionLockWait while the lock is held: the
// holder can be another instance's prune checking the directory
// (dirInUse), for a moment, and that is no reason to refuse the session.
func lockSessionDir(dir string) (*os.File, error) {
	deadline := time.Now().Add(sessionLockWait)
	for {
		f, err := lockLogDir(dir)
		var inUse *LogDirInUseError
		if !errors.As(err, &inUse) || time.Now().After(deadline) {
			return f, err
		}
		sessionLockPause()
	}
}

// sessionLockWait bounds lockSessionDir's wait (a directory of the same
// name really in use, as from another PID namespace, is still refused);
// sessionLockPause is its pause between tries.
var (
	sessionLockWait  = 2 * time.Second
	sessionLockPause = func() { time.Sleep(time.Millisecond) }
)

// dirInUse reports whether a live instance holds dir's lock.
func dirInUse(dir string) bool {
	f, err := os.Open(filepath.Join(dir, logLockName))
	if err != nil {
		return false
	}
	defer f.Close()
	if err := unix.Flock(int(f.Fd()), unix.LOCK_SH|unix.LOCK_NB); err != nil {
		return errors.Is(err, unix.EWOULDBLOCK)
	}
	unix.Flock(int(f.Fd()), unix.LOCK_UN) //nolint:errcheck // closing unlocks too
	return false
}

// clearJobLogs removes the job log files in dir (and nothing else).
func clearJobLogs(dir string) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("log directory: %w", err)
	}
	for _, e := range entries {
		if e.Type().IsRegular() && jobLogName().MatchString(e.Name()) {
			if err := os.Remove(filepath.Join(dir, e.Name())); err != nil && !os.IsNotExist(err) {
				return fmt.Errorf("log directory: cannot start fresh: %w", err)
			}
		}
	}
	return nil
}
