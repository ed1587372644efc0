package jobs

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
)

// DefaultStateDir makes the state directory and returns it:
// $XDG_STATE_HOME/jobtop, else ~/.local/state/jobtop, else jobtop-UID/state
// in the temp directory. The last serves when HOME is not set, does not
// exist (a system user's /nonexistent) or will not take the directory
// (read-only): HOME itself is never made.
func DefaultStateDir() (string, error) {
	if d := os.Getenv("XDG_STATE_HOME"); d != "" && filepath.IsAbs(d) {
		dir := filepath.Join(d, "jobtop")
		if err := os.MkdirAll(dir, 0o700); err != nil {
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
	dir := filepath.Join(os.TempDir(), "jobtop-"+strconv.Itoa(os.Getuid()), "state")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", fmt.Errorf("no state directory: %s, and none in the temp directory (%v): set XDG_STATE_HOME to a directory you can write", why, err)
	}
	return dir, nil
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
