package keeper

import (
	"testing"

	"github.com/stretchr/testify/assert"
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
