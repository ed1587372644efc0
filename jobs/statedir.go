package jobs

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
)

// DefaultStateDir makes the state directory and returns it:
// $XDG_STATE_HOME/jobtop, else ~/.local/state/jobtop, else jobtop-UID/state
// in the temp directory. The last serves when HOME is not set, does not
// exist (a system user's /nonexistent) or will not take the directory
// (read-only): HOME itself is never made.
func DefaultStateDir() (string, error) {
	if d := os.Getenv("XDG_STATE_HOME"); d != "" && filepath.IsAbs(d) {
		dir := filepath.Join(d, "jobtop")
		if err := mkdirAll(dir); err != nil {
			return "", fmt.Errorf("state directory (XDG_STATE_HOME): %w", err)
		}
		return dir, nil
	}
	why := "HOME is not set"
	if home, err := os.UserHomeDir(); err == nil {
		dir, err := mkdirUnder(home, ".local", "state", "jobtop")
		if err == nil {
			return dir, nil
		}
		why = fmt.Sprintf("none under HOME (%v)", err)
	}
	own := filepath.Join(os.TempDir(), "jobtop-"+strconv.Itoa(os.Getuid()))
	dir := filepath.Join(own, "state")
	// Checked before anything is made in it: not even "state" goes in
	// another user's directory.
	err := os.Mkdir(own, 0o700)
	if err == nil || errors.Is(err, fs.ErrExist) {
		err = ownPrivateDir(own)
	}
	if err == nil {
		err = os.Mkdir(dir, 0o700)
		if errors.Is(err, fs.ErrExist) {
			err = nil
		}
	}
	if err != nil {
		return "", fmt.Errorf("no state directory: %s, and none in the temp directory (%v): set XDG_STATE_HOME to a directory you can write", why, err)
	}
	return dir, nil
}

// ownPrivateDir requires dir, made in a temp directory every user may
// write to, to be a directory of this user's that no one else may write
// to, and makes it 0700: another user could have made it first, to read
// the jobs' output kept under it or to put files of theirs there.
func ownPrivateDir(dir string) error {
	st, err := os.Lstat(dir)
	if err != nil {
		return err
	}
	sys, ok := st.Sys().(*syscall.Stat_t)
	remove := "remove it"
	if ok && int(sys.Uid) != os.Getuid() && os.Getuid() != 0 { // in a sticky temp directory, theirs alone to remove
		remove = "only " + UIDName(int(sys.Uid)) + " or root can remove it"
	}
	switch {
	case !st.IsDir():
		return fmt.Errorf("%s is not a directory (a symlink?); %s", dir, remove)
	case ok && int(sys.Uid) != os.Getuid():
		return fmt.Errorf("%s belongs to %s, not to you; %s", dir, UIDName(int(sys.Uid)), remove)
	case st.Mode().Perm() != 0o700:
		return os.Chmod(dir, 0o700)
	}
	return nil
}

// mkdirUnder makes base/names..., each name in the one before, and
// returns it; base must exist: it is not made.
func mkdirUnder(base string, names ...string) (string, error) {
	dir := base
	for _, name := range names {
		dir = filepath.Join(dir, name)
		if err := os.Mkdir(dir, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
			return "", err
		}
	}
	st, err := os.Stat(dir)
	switch {
	case err != nil:
		return "", err
	case !st.IsDir():
		return "", fmt.Errorf("%s is not a directory", dir)
	}
	return dir, nil
}
