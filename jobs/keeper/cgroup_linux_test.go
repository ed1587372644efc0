package keeper

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"
)

func TestParseCgroup2Mount(t *testing.T) {
	for _, tc := range []struct {
		name, info, mount, root string
		ok                      bool
	}{
		{"pure v2", "30 23 0:26 / /sys/fs/cgroup rw,nosuid shared:4 - cgroup2 cgroup2 rw,nsdelegate\n", "/sys/fs/cgroup", "/", true},
		{"hybrid, after v1's", "36 31 0:31 / /sys/fs/cgroup/cpu rw - cgroup cgroup rw,cpu\n" +
			"41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw\n", "/sys/fs/cgroup/unified", "/", true},
		{"a container's, with a root and a space", "812 811 0:26 /user.slice/a\\040b /sys/fs/cgroup ro,nosuid master:4 - cgroup2 cgroup2 rw\n",
			"/sys/fs/cgroup", "/user.slice/a b", true},
		{"none", "22 1 0:21 / /proc rw - proc proc rw\n", "", "", false},
		{"cgroup v1 only", "36 31 0:31 / /sys/fs/cgroup/cpu rw - cgroup cgroup rw,cpu\n", "", "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			mount, root, ok := parseCgroup2Mount([]byte(tc.info))
			assert.Equal(t, tc.ok, ok)
			assert.Equal(t, tc.mount, mount)
			assert.Equal(t, tc.root, root)
		})
	}
}

func TestKeeperDirs(t *testing.T) {
	for _, tc := range []struct {
		mount, root, own string
		dir, rel         string
		ok               bool
	}{
		{"/sys/fs/cgroup", "/", "/", "/sys/fs/cgroup/jobtop-t", "/jobtop-t", true},
		{"/sys/fs/cgroup", "/", "/user.slice/user-1000.slice/user@1000.service/app.slice/a.scope",
			"/sys/fs/cgroup/user.slice/user-1000.slice/user@1000.service/app.slice/a.scope/jobtop-t",
			"/user.slice/user-1000.slice/user@1000.service/app.slice/a.scope/jobtop-t", true},
		{"/sys/fs/cgroup", "/", "/jobtop-o/run-3", "/sys/fs/cgroup/jobtop-o/run-3/jobtop-t", "/jobtop-o/run-3/jobtop-t", true}, // nested
		{"/c", "/x", "/x", "/c/jobtop-t", "/x/jobtop-t", true},
		{"/c", "/x", "/x/y", "/c/y/jobtop-t", "/x/y/jobtop-t", true},
		{"/c", "/x", "/xy", "", "", false},
		{"/c", "/x", "/", "", "", false},
	} {
		dir, rel, ok := keeperDirs(tc.mount, tc.root, tc.own, "t")
		assert.Equal(t, tc.ok, ok, tc.own)
		assert.Equal(t, tc.dir, dir, tc.own)
		assert.Equal(t, tc.rel, rel, tc.own)
	}
}

// TestCgroupError: a start whose fork into its cgroup fails is tried
// without the cgroup only for errors the cgroup can cause (permission
// ones once a probe says the cgroup refuses); the program's own (not
// there, being written, too many arguments) end the start as they would
// without.
func TestCgroupError(t *testing.T) {
	for _, err := range []error{unix.ENOSYS, unix.EOPNOTSUPP, unix.EBUSY} {
		sure, _ := cgroupError(err)
		assert.True(t, sure, "%v", err)
	}
	for _, err := range []error{unix.EACCES, unix.EPERM} {
		sure, maybe := cgroupError(err)
		assert.True(t, !sure && maybe, "%v", err)
	}
	for _, err := range []error{unix.ETXTBSY, unix.ENOENT, unix.ENOEXEC, unix.ENOTDIR, unix.ELOOP, unix.ENOMEM, unix.EAGAIN, unix.E2BIG} {
		sure, maybe := cgroupError(err)
		assert.False(t, sure || maybe, "%v", err)
	}
}

// testCgroup makes a cgroup of its own for a test, below the test's, and
// returns it as mounted and as /proc/PID/cgroup names it; the test is
// skipped where it cannot.
func testCgroup(t *testing.T) (mount, root, dir, rel string) {
	t.Helper()
	mount, root, ok := cgroup2Mount()
	own, ok2 := ownCgroup()
	if !ok || !ok2 {
		t.Skip("no cgroup2 here")
	}
	parent, _, ok := keeperDirs(mount, root, own, "x")
	require.True(t, ok)
	rel = strings.TrimSuffix(own, "/") + "/keepertest-" + newToken()
	dir = filepath.Join(filepath.Dir(parent), filepath.Base(rel))
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Skipf("no cgroup can be made here: %v", err)
	}
	t.Cleanup(func() { removeTestCgroup(t, dir) })
	return mount, root, dir, rel
}

// removeTestCgroup removes a test's cgroup and what is below it.
func removeTestCgroup(t *testing.T, dir string) {
	t.Helper()
	killCgroup(dir)
	require.Eventually(t, func() bool { err := removeTree(dir); return err == nil || os.IsNotExist(err) },
		5*time.Second, 10*time.Millisecond, "%s stays", dir)
}

// TestMakeCgroupsSaysWhyItCannot: a keeper whose directory cannot be
// made for a reason the system does not mean (its cgroup takes no more
// cgroups) says so; one that may not is silent, as where there are none.
func TestMakeCgroupsSaysWhyItCannot(t *testing.T) {
	mount, root, dir, rel := testCgroup(t)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "cgroup.max.descendants"), []byte("0"), 0))
	c, warning := makeCgroups(mount, root, rel, newToken())
	assert.Nil(t, c)
	assert.Regexp(t, `^cannot make a cgroup for its jobs \(mkdir .*/keepertest-[0-9a-f]+/jobtop-[0-9a-f]+: .+\): a process a job starts`, warning)

	require.NoError(t, os.WriteFile(filepath.Join(dir, "cgroup.max.descendants"), []byte("max"), 0))
	c, warning = makeCgroups(mount, root, rel, newToken())
	require.NotNil(t, c)
	assert.Empty(t, warning)
	c.close()
}

// TestCgroupRefusesTriesAFork: the probe that tells a cgroup's refusal
// from a program's own permission error: a cgroup that takes the fork
// does not refuse, whatever the file modes of any program, and is left as
// it was; one that cannot be made does. (A fork the kernel refuses, as
// for a user whose cgroup.procs is not theirs, cannot be made as root.)
func TestCgroupRefusesTriesAFork(t *testing.T) {
	mount, root, _, rel := testCgroup(t)
	cg, _ := makeCgroups(mount, root, rel, newToken())
	require.NotNil(t, cg)
	defer cg.close()
	k := &keeper{cg: cg}
	// Not even when this program's file (the keeper's) cannot be run.
	self, err := os.Executable()
	require.NoError(t, err)
	st, err := os.Stat(self)
	require.NoError(t, err)
	require.NoError(t, os.Chmod(self, 0o644))
	defer os.Chmod(self, st.Mode()) //nolint:errcheck // as it was
	assert.False(t, k.cgroupRefuses(7))
	require.NoError(t, os.Chmod(self, st.Mode()))
	_, err = os.Stat(cg.runDir(7))
	assert.True(t, os.IsNotExist(err), "the probe's cgroup is removed")

	require.NoError(t, os.WriteFile(filepath.Join(cg.dir, "cgroup.max.descendants"), []byte("0"), 0))
	assert.True(t, k.cgroupRefuses(8))
}
