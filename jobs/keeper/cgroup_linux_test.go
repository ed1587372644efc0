package keeper

import (
	"testing"

	"github.com/stretchr/testify/assert"
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

// TestCgroupRefusal: a start whose fork into its cgroup fails is tried
// without the cgroup only for errors the cgroup can cause; the program's
// own (not there, being written) end the start as they would without.
func TestCgroupRefusal(t *testing.T) {
	for _, err := range []error{unix.ENOSYS, unix.EOPNOTSUPP, unix.EBUSY, unix.EACCES, unix.EPERM} {
		assert.True(t, cgroupRefusal(err), "%v", err)
	}
	for _, err := range []error{unix.ETXTBSY, unix.ENOENT, unix.ENOEXEC, unix.ENOTDIR, unix.ELOOP, unix.ENOMEM, unix.EAGAIN} {
		assert.False(t, cgroupRefusal(err), "%v", err)
	}
}
