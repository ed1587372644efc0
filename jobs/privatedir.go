package jobs

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/user"
	"path/filepath"
	"strconv"
	"syscall"
)

// NotPrivateDir says why a directory jobtop keeps files in (a log
// directory, a socket's) is not a directory of this user's that no one
// else may write to, "" when it is: st is the directory's own Lstat, so
// a symlink to a directory does not pass. 0700 and 0755 both pass; group
// or other write does not. Another user who may write there could plant
// files (a symlink to this user's own files) that jobtop would write
// into, or replace the ones jobtop made.
func NotPrivateDir(dir string, st fs.FileInfo) string {
	sys, ok := st.Sys().(*syscall.Stat_t)
	switch {
	case !st.IsDir():
		return dir + " is not a directory (a symlink?)"
	case ok && int(sys.Uid) != os.Getuid():
		return fmt.Sprintf("%s belongs to %s, not to you (uid %d)", dir, UIDName(int(sys.Uid)), os.Getuid())
	case OthersMayWrite(st):
		return fmt.Sprintf("%s has mode %04o: other users may write to it", dir, st.Mode().Perm())
	}
	return ""
}

// UIDName names a user for people: "uid 1001 (mallory)", or "uid 1001"
// when the name cannot be looked up.
func UIDName(uid int) string {
	s := "uid " + strconv.Itoa(uid)
	if u, err := user.LookupId(strconv.Itoa(uid)); err == nil && u.Username != "" {
		s += " (" + u.Username + ")"
	}
	return s
}

// checkLogDir requires a log directory to be private (NotPrivateDir):
// else the error names the owner or mode, and the way out.
func checkLogDir(dir string) error {
	st, err := os.Lstat(dir)
	if err != nil {
		return fmt.Errorf("log directory: %w", err)
	}
	if st.Mode()&fs.ModeSymlink != 0 {
		return checkLogDirLink(dir, st)
	}
	why := NotPrivateDir(dir, st)
	if why == "" {
		return nil
	}
	fix := "use a log.dir of your own (or none: a new directory per session under your state directory)"
	if sys, ok := st.Sys().(*syscall.Stat_t); st.IsDir() && (!ok || int(sys.Uid) == os.Getuid()) {
		fix = fmt.Sprintf("chmod go-w %s, or %s", ShellJoin([]string{dir}), fix)
	}
	return fmt.Errorf("refusing the log directory: %s; another user could put files there that jobs' output would be written into; %s", why, fix)
}

// checkLogDirBeforeMaking is checkLogDir for a log directory that is
// there already (a directory, or a symlink, dangling or not), before
// anything is made in it or where it leads; one that is not there yet
// is made, then checked.
func checkLogDirBeforeMaking(dir string) error {
	if _, err := os.Lstat(dir); errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return checkLogDir(dir)
}

// OthersMayWrite says whether users other than its owner may write a file
// or directory: its others' write bit, or its group's unless the group
// is the owner's own, a user private group (as Debian and Ubuntu give
// every user, whose umask 002 makes every file group-writable: else
// each job file made there was warned of, each log.dir made by hand
// refused).
func OthersMayWrite(st fs.FileInfo) bool {
	perm := st.Mode().Perm()
	switch {
	case perm&0o002 != 0:
		return true
	case perm&0o020 == 0:
		return false
	}
	sys, ok := st.Sys().(*syscall.Stat_t)
	return !ok || !privateGroup(int(sys.Uid), int(sys.Gid))
}

// privateGroup says whether gid is uid's user private group: the user's
// primary group, named as the user.
func privateGroup(uid, gid int) bool {
	u, err := user.LookupId(strconv.Itoa(uid))
	if err != nil || u.Gid != strconv.Itoa(gid) {
		return false
	}
	g, err := user.LookupGroupId(strconv.Itoa(gid))
	return err == nil && g.Name == u.Username
}

// checkLogDirLink requires a log directory that is a symlink (the logs
// moved to a larger disk) to be one only this user could have made or
// could change, to a private directory: the link this user's, in a
// directory others may not write to, pointing straight at the directory
// (a link to a link is refused: rev56 had a second link, another user's
// in /tmp, pass), which is private (NotPrivateDir) in a directory others
// may not write to either. rev55: such a link was refused as "not a
// directory".
func checkLogDirLink(dir string, link fs.FileInfo) error {
	refuse := func(why string) error {
		return fmt.Errorf("refusing the log directory: %s; another user could put files there that jobs' output would be written into; use a log.dir of your own, or a symlink of yours straight to it", why)
	}
	if sys, ok := link.Sys().(*syscall.Stat_t); ok && int(sys.Uid) != os.Getuid() {
		return refuse(fmt.Sprintf("%s is a symlink of %s, not yours", dir, UIDName(int(sys.Uid))))
	}
	if why := othersMayWriteIn(filepath.Dir(dir)); why != "" {
		return refuse(dir + " is a symlink in " + why)
	}
	to, err := os.Readlink(dir)
	if err != nil {
		return fmt.Errorf("log directory: %w", err)
	}
	if !filepath.IsAbs(to) {
		to = filepath.Join(filepath.Dir(dir), to)
	}
	target, err := os.Lstat(to)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		// A disk not mounted, a directory moved: MkdirAll said "file
		// exists" of the link.
		return fmt.Errorf("log directory %s is a symlink to %s, which does not exist: make that directory (mkdir -m 700 -p %s), or remove the link (rm %s)",
			dir, to, ShellJoin([]string{to}), ShellJoin([]string{dir}))
	case err != nil:
		return fmt.Errorf("log directory %s is a symlink to %s: %w", dir, to, err)
	case target.Mode()&fs.ModeSymlink != 0:
		return refuse(fmt.Sprintf("%s is a symlink to another symlink, %s", dir, to))
	}
	if why := NotPrivateDir(to+" (where "+dir+" leads)", target); why != "" {
		if sys, ok := target.Sys().(*syscall.Stat_t); ok && target.IsDir() && int(sys.Uid) == os.Getuid() {
			// The link is fine: the directory is the user's to mend.
			return fmt.Errorf("refusing the log directory: %s; another user could put files there that jobs' output would be written into; chmod go-w %s, or use a log.dir of your own", why, ShellJoin([]string{to}))
		}
		return refuse(why)
	}
	if why := othersMayWriteIn(filepath.Dir(to)); why != "" {
		return refuse(fmt.Sprintf("%s leads to %s, in %s", dir, to, why))
	}
	return nil
}

// othersMayWriteIn says "DIR, which other users may write to" when they
// may (or it cannot be looked at), "" otherwise.
func othersMayWriteIn(dir string) string {
	if st, err := os.Stat(dir); err == nil && !OthersMayWrite(st) {
		return ""
	}
	return dir + ", which other users may write to"
}

// mkdirAll is os.MkdirAll (mode 0700) whose error names a dangling
// symlink on the way (a disk not mounted, a directory moved) and the way
// out, where MkdirAll says "file exists" of it (rev57).
func mkdirAll(dir string) error {
	err := os.MkdirAll(dir, 0o700)
	var pe *fs.PathError
	if err == nil || !errors.Is(err, fs.ErrExist) || !errors.As(err, &pe) {
		return err
	}
	st, lerr := os.Lstat(pe.Path)
	if lerr != nil || st.Mode()&fs.ModeSymlink == 0 {
		return err
	}
	if _, serr := os.Stat(pe.Path); !errors.Is(serr, fs.ErrNotExist) {
		return err
	}
	to, rerr := os.Readlink(pe.Path)
	if rerr != nil {
		return err
	}
	if !filepath.IsAbs(to) {
		to = filepath.Join(filepath.Dir(pe.Path), to)
	}
	return fmt.Errorf("%s is a symlink to %s, which does not exist: make that directory (mkdir -m 700 -p %s), or remove the link (rm %s)",
		pe.Path, to, ShellJoin([]string{to}), ShellJoin([]string{pe.Path}))
}
