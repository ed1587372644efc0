package keeper

import (
	"bufio"
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"jobtop/jobs/proc"
)

// cgroups puts each run in a cgroup (v2) of its own, where the system
// lets the keeper make them: a process cannot leave its cgroup (nor can
// what it forks), whatever it does to its session, environment, output or
// title, so the keeper can always tell a run's processes. It makes
// runPrefix+ID directories in a directory of its own (dir) below its own
// cgroup, puts each main process in its run's as it is forked
// (CLONE_INTO_CGROUP), and removes them as runs end. Where a cgroup cannot
// be made (no cgroup2 mounted, not the user's to write, read-only in a
// container), the keeper goes by sessions, outputs and JOBTOP_RUN alone.
type cgroups struct {
	dir string // the keeper's directory, as mounted
	rel string // the same, as /proc/PID/cgroup names it
	// stale are the directories of runs that ended with something still
	// in them (found after the keeper's last look): killed, and removed
	// once empty.
	stale map[RunID]bool
}

// cgroupPrefix begins the name of a keeper's directory; runPrefix a run's.
const (
	cgroupPrefix = "jobtop-"
	runPrefix    = "run-"
)

// newCgroups makes the keeper's directory, named for token, below the
// keeper's own cgroup; nil where it cannot. That is no news where the
// system has no cgroup2 or the keeper may not move processes out of its
// own cgroup (it cannot write its cgroup.procs); any other failure is
// (warning).
func newCgroups(token string) (c *cgroups, warning string) {
	mount, root, ok := cgroup2Mount()
	if !ok {
		return nil, ""
	}
	own, ok := ownCgroup()
	if !ok {
		return nil, ""
	}
	return makeCgroups(mount, root, own, token)
}

// makeCgroups is newCgroups for a keeper in cgroup own of the hierarchy
// mounted at mount (whose root there is root).
func makeCgroups(mount, root, own, token string) (c *cgroups, warning string) {
	dir, rel, ok := keeperDirs(mount, root, own, token)
	if !ok || unix.Access(filepath.Join(filepath.Dir(dir), "cgroup.procs"), unix.W_OK) != nil {
		return nil, ""
	}
	switch err := unix.Mkdir(dir, 0o755); err {
	case nil:
		return &cgroups{dir: dir, rel: rel, stale: make(map[RunID]bool)}, ""
	case unix.EACCES, unix.EPERM, unix.EROFS:
		return nil, ""
	default:
		return nil, "cannot make a cgroup for its jobs (mkdir " + dir + ": " + err.Error() + "): a process a job starts that leaves its session, closes its output and rewrites its environment can outlive the job"
	}
}

// keeperDirs is where the keeper's directory is made, as mounted (dir)
// and as /proc/PID/cgroup names it (rel), for a keeper in cgroup own of
// a cgroup2 hierarchy mounted at mount, whose root there is root; ok is
// false when own is not below what is mounted.
func keeperDirs(mount, root, own, token string) (dir, rel string, ok bool) {
	var sub string
	switch {
	case root == "/":
		sub = own
	case own == root:
		sub = "/"
	case strings.HasPrefix(own, root+"/"):
		sub = own[len(root):]
	default:
		return "", "", false
	}
	name := cgroupPrefix + token
	return filepath.Join(mount, sub, name), strings.TrimSuffix(own, "/") + "/" + name, true
}

// cgroup2Mount is where the cgroup2 hierarchy is mounted, and which of
// its cgroups is the mount's root.
func cgroup2Mount() (mount, root string, ok bool) {
	b, err := os.ReadFile("/proc/self/mountinfo")
	if err != nil {
		return "", "", false
	}
	return parseCgroup2Mount(b)
}

// parseCgroup2Mount finds the first cgroup2 mount in a mountinfo file.
func parseCgroup2Mount(b []byte) (mount, root string, ok bool) {
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		// ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTIONS [TAGS...] - TYPE SOURCE SUPER
		before, after, found := strings.Cut(sc.Text(), " - ")
		f := strings.Fields(before)
		if !found || len(f) < 5 || !strings.HasPrefix(after, "cgroup2 ") {
			continue
		}
		return unescapeMount(f[4]), unescapeMount(f[3]), true
	}
	return "", "", false
}

// unescapeMount undoes mountinfo's octal escapes (\040 for a space).
func unescapeMount(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+4 <= len(s) {
			if n, err := strconv.ParseUint(s[i+1:i+4], 8, 8); err == nil {
				b.WriteByte(byte(n))
				i += 3
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// ownCgroup is the keeper's cgroup in the cgroup2 hierarchy.
func ownCgroup() (string, bool) {
	return cgroupOf("self")
}

// cgroupOf is the cgroup2 path /proc/WHO/cgroup gives ("0::PATH").
func cgroupOf(who string) (string, bool) {
	b, err := os.ReadFile("/proc/" + who + "/cgroup")
	if err != nil {
		return "", false
	}
	for _, line := range strings.Split(string(b), "\n") {
		if p, ok := strings.CutPrefix(line, "0::"); ok {
			return p, true
		}
	}
	return "", false
}

// open makes run id's directory and opens it, for the fork to put the
// main process in.
func (c *cgroups) open(id RunID) (int, error) {
	path := c.runDir(id)
	if err := unix.Mkdir(path, 0o755); err != nil && err != unix.EEXIST {
		return -1, err
	}
	fd, err := unix.Open(path, unix.O_DIRECTORY|unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		unix.Rmdir(path) //nolint:errcheck // nothing in it yet
	}
	return fd, err
}

func (c *cgroups) runDir(id RunID) string {
	return filepath.Join(c.dir, runPrefix+strconv.FormatUint(uint64(id), 10))
}

// runOf is the run whose cgroup the process pid is in (or was forked
// into by something in it: a job's own cgroups below its run's count).
func (c *cgroups) runOf(pid int) (RunID, bool) {
	path, ok := cgroupOf(strconv.Itoa(pid))
	if !ok {
		return 0, false
	}
	rest, ok := strings.CutPrefix(path, c.rel+"/"+runPrefix)
	if !ok {
		return 0, false
	}
	rest, _, _ = strings.Cut(rest, "/")
	n, err := strconv.ParseUint(rest, 10, 64)
	return RunID(n), err == nil
}

// ended removes run id's directory: its processes are gone. One that is
// not empty (something the last look missed) has what is in it killed,
// and is removed by a later sweep.
func (c *cgroups) ended(id RunID) {
	if err := removeTree(c.runDir(id)); err != nil && !errors.Is(err, unix.ENOENT) {
		killCgroup(c.runDir(id))
		c.stale[id] = true
	}
}

// sweep removes the directories of stale runs that are empty now.
func (c *cgroups) sweep() {
	for id := range c.stale {
		if err := removeTree(c.runDir(id)); err == nil || errors.Is(err, unix.ENOENT) {
			delete(c.stale, id)
		} else {
			killCgroup(c.runDir(id))
		}
	}
}

// close removes the keeper's directory at its exit, when no process of
// its is left that it can see: what is still in it (nothing can be)
// is killed first.
func (c *cgroups) close() { RemoveCgroup(c.dir) }

// killCgroup SIGKILLs every process in the cgroup dir and below it
// (cgroup.kill, Linux 5.14).
func killCgroup(dir string) {
	os.WriteFile(filepath.Join(dir, "cgroup.kill"), []byte("1"), 0) //nolint:errcheck // nothing may be left
}

// removeTree removes the cgroup dir and the cgroups below it (a nested
// jobtop's), deepest first: a cgroup directory goes once it holds no
// process and no cgroup (its files go with it), else rmdir says EBUSY.
func removeTree(dir string) error {
	if err := unix.Rmdir(dir); err != unix.EBUSY {
		return err
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if e.IsDir() {
			if err := removeTree(filepath.Join(dir, e.Name())); err != nil {
				return err
			}
		}
	}
	return unix.Rmdir(dir)
}

// InCgroup is every live process in the cgroup dir (a keeper's, as its
// Identity names it) and below it: what that keeper's runs left, even
// those that changed everything else about themselves.
func InCgroup(dir string) []proc.Proc {
	if !keeperCgroup(dir) {
		return nil
	}
	var out []proc.Proc
	filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error { //nolint:errcheck // what cannot be read holds nothing to find
		if err != nil || !d.IsDir() {
			return nil
		}
		b, _ := os.ReadFile(filepath.Join(path, "cgroup.procs"))
		for _, f := range strings.Fields(string(b)) {
			pid, _ := strconv.Atoi(f)
			if p, err := proc.Get(pid); err == nil && !p.Zombie {
				out = append(out, p)
			}
		}
		return nil
	})
	return out
}

// RemoveCgroup kills whatever is left in a keeper's cgroup dir and
// removes it, waiting up to a second for the kernel to empty it.
func RemoveCgroup(dir string) {
	if !keeperCgroup(dir) {
		return
	}
	deadline := time.Now().Add(time.Second)
	for {
		err := removeTree(dir)
		if err == nil || errors.Is(err, unix.ENOENT) || time.Now().After(deadline) {
			return
		}
		killCgroup(dir)
		time.Sleep(10 * time.Millisecond)
	}
}

// keeperCgroup reports whether dir can be a keeper's cgroup: a record
// naming another directory is not acted on.
func keeperCgroup(dir string) bool {
	return dir != "" && filepath.IsAbs(dir) && strings.HasPrefix(filepath.Base(dir), cgroupPrefix)
}

// forkInto has a fork with sys put the new process in the cgroup fd is
// open on (CLONE_INTO_CGROUP); in its parent's with fd -1.
func forkInto(sys *syscall.SysProcAttr, fd int) {
	sys.UseCgroupFD, sys.CgroupFD = fd >= 0, fd
}

// cgroupError says whether a fork into a cgroup that failed with err may
// have failed for the cgroup's sake: sure, for errors only clone3 gives
// (CLONE_INTO_CGROUP unknown, a cgroup that takes no processes); maybe,
// for those the program's exec gives too (permission).
func cgroupError(err error) (sure, maybe bool) {
	switch err {
	case unix.ENOSYS, unix.EOPNOTSUPP, unix.EBUSY, unix.EBADF, unix.EINVAL:
		return true, false
	case unix.EACCES, unix.EPERM:
		return false, true
	}
	return false, false
}
