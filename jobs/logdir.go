package jobs

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// logLockName is the file in a log directory that its live instance holds
// locked: the mark that the directory is in use.
const logLockName = ".jobtop.lock"

// keeperLockName is the file in a log directory whose lock the instance
// takes and its keeper holds too (it inherits the open file), until it
// exits: when the instance dies, its keeper goes on writing the output
// of the runs it stops to their logs there, and no new instance is to
// start fresh there meanwhile.
const keeperLockName = ".jobtop.keeper.lock"

// keeperLockWait bounds how long a new instance waits for the keeper of
// one that died to let go of the log directory (as long as an instance
// on the same socket waits for it: leftoverKeeperWait); keeperLockPause
// is its pause between tries, and keeperLockNotice how long it waits
// before it says so (a prune's check holds the lock for a moment).
var (
	keeperLockWait   = leftoverKeeperWait
	keeperLockPause  = func() { time.Sleep(20 * time.Millisecond) }
	keeperLockNotice = 100 * time.Millisecond
)

// logDirLocks are the locks a manager holds on its log directory.
type logDirLocks struct {
	instance *os.File // logLockName's: the manager's alone
	keeper   *os.File // keeperLockName's: its keepers hold it too
}

func (l logDirLocks) Close() {
	l.instance.Close()
	l.keeper.Close()
}

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

// LogDirDrainingError says the keeper of an instance that died still
// writes to a log directory: the last output of the jobs it stops.
type LogDirDrainingError struct {
	Dir  string
	Wait time.Duration
}

func (e *LogDirDrainingError) Error() string {
	return fmt.Sprintf("log directory %s is still written to by the keeper of a jobtop that died (jobtop-keeper in ps), which stops that instance's jobs and keeps what they write meanwhile; it has not exited after %s. Try again once it has, or give this instance a log.dir of its own", e.Dir, e.Wait)
}

// openLogDir makes the manager's log directory and locks it for the
// manager's lifetime: a new session directory under StateDir/logs (then
// old sessions are pruned), or Options.LogDir as is. A fixed directory
// starts fresh: the job logs an earlier session left there are removed,
// once the keeper of an instance that died there has exited (it may
// still write to them: lockKeeperFile).
func openLogDir(opts Options) (dir string, locks logDirLocks, err error) {
	if opts.LogDir != "" {
		dir = opts.LogDir
		if err := checkLogDirBeforeMaking(dir); err != nil {
			return "", locks, err
		}
		if err := mkdirAll(dir); err != nil {
			return "", locks, fmt.Errorf("log directory: %w", err)
		}
		if err := checkLogDir(dir); err != nil {
			return "", locks, err
		}
		if locks.instance, err = lockLogDir(dir); err != nil {
			return "", locks, err
		}
		if locks.keeper, err = lockKeeperFile(dir); err != nil {
			locks.instance.Close()
			return "", locks, err
		}
		if err := clearJobLogs(dir); err != nil {
			locks.Close()
			return "", locks, err
		}
		return dir, locks, nil
	}
	stateDir := opts.StateDir
	if stateDir == "" {
		if stateDir, err = DefaultStateDir(); err != nil {
			return "", locks, err
		}
	}
	name := time.Now().Format("20060102-150405") + "-" + strconv.Itoa(os.Getpid())
	dir = filepath.Join(stateDir, "logs", name)
	// A logs symlink (the logs moved to a larger disk) is checked before
	// the session directory is made where it leads.
	if err := checkLogDirBeforeMaking(filepath.Dir(dir)); err != nil {
		return "", locks, err
	}
	if err := mkdirAll(dir); err != nil {
		return "", locks, fmt.Errorf("log directory: %w", err)
	}
	for _, d := range []string{filepath.Dir(dir), dir} {
		if err := checkLogDir(d); err != nil {
			return "", locks, err
		}
	}
	if locks.instance, err = lockSessionDir(dir); err != nil {
		return "", locks, err
	}
	if locks.keeper, err = lockKeeperFile(dir); err != nil {
		locks.instance.Close()
		return "", locks, err
	}
	// Pruning is housekeeping: a failure leaves old logs, and no session
	// fails to start over it.
	PruneSessions(filepath.Join(stateDir, "logs"), opts.retention()) //nolint:errcheck // see above
	return dir, locks, nil
}

// lockKeeperFile takes dir's keeper lock, which the keeper of an
// instance that died holds until it has stopped that instance's runs and
// written the last of their output to their logs. It waits for that up
// to keeperLockWait, saying so on stderr, as an instance on the same
// socket waits for such a keeper (StopLeftovers), then refuses.
func lockKeeperFile(dir string) (*os.File, error) {
	f, err := os.OpenFile(filepath.Join(dir, keeperLockName), os.O_RDWR|os.O_CREATE|syscall.O_NOFOLLOW, 0o600)
	if err != nil {
		return nil, fmt.Errorf("log directory: %w", err)
	}
	start := time.Now()
	said := false
	for {
		err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB)
		if err == nil {
			return f, nil
		}
		if !errors.Is(err, unix.EWOULDBLOCK) {
			f.Close()
			return nil, fmt.Errorf("log directory %s: cannot lock it: %w", dir, err)
		}
		waited := time.Since(start)
		if waited > keeperLockWait {
			f.Close()
			return nil, &LogDirDrainingError{Dir: dir, Wait: keeperLockWait}
		}
		if !said && waited > keeperLockNotice {
			said = true
			fmt.Fprintf(os.Stderr, "jobtop: log directory %s: waiting for the keeper of a jobtop that died, which stops its jobs and writes their last output there (up to %s)\n", dir, keeperLockWait)
		}
		keeperLockPause()
	}
}

// lockLogDir takes dir's lock, held while the returned file is open, or
// says that another instance holds it.
func lockLogDir(dir string) (*os.File, error) {
	f, err := os.OpenFile(filepath.Join(dir, logLockName), os.O_RDWR|os.O_CREATE|syscall.O_NOFOLLOW, 0o600)
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

// dirInUse reports whether a live instance holds dir's lock, or the
// keeper of one that died still writes there.
func dirInUse(dir string) bool {
	return lockHeld(filepath.Join(dir, logLockName)) || lockHeld(filepath.Join(dir, keeperLockName))
}

// lockHeld reports whether someone holds the lock of the file at path.
func lockHeld(path string) bool {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW, 0)
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

// clearJobLogs removes the job log files in dir (and nothing else): a
// symlink or other file of that name too, never what it points at.
func clearJobLogs(dir string) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("log directory: %w", err)
	}
	for _, e := range entries {
		if !e.IsDir() && jobLogName().MatchString(e.Name()) {
			if err := os.Remove(filepath.Join(dir, e.Name())); err != nil && !os.IsNotExist(err) {
				return fmt.Errorf("log directory: cannot start fresh: %w", err)
			}
		}
	}
	return nil
}
