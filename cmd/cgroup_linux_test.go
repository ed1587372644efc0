package cmd

import (
	"os"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"jobtop/jobs/proc"
)

// withArgument lists live processes with arg among their arguments.
func withArgument(arg string) []int {
	procs, _ := proc.List()
	var out []int
	for _, p := range procs {
		b, err := os.ReadFile("/proc/" + strconv.Itoa(p.PID) + "/cmdline")
		if err == nil && !p.Zombie && strings.Contains(string(b), "\x00"+arg+"\x00") {
			out = append(out, p.PID)
		}
	}
	return out
}

// TestNextInstanceStopsWhatOnlyACgroupHolds: a daemon that left its job's
// session, cleared its environment, sent its output to /dev/null and
// whose parent exited; serve and its keeper are then killed. Where runs
// have cgroups, the next instance on the socket finds it there, stops it
// and removes the dead keeper's cgroup.
func TestNextInstanceStopsWhatOnlyACgroupHolds(t *testing.T) {
	c := newCLI(t)
	first := c.serve()
	arg := "600" + strconv.FormatInt(time.Now().UnixNano()%1e6, 10)
	t.Cleanup(func() {
		for _, pid := range withArgument(arg) {
			syscall.Kill(pid, syscall.SIGKILL) //nolint:errcheck // may be gone
		}
	})
	c.startJob("(setsid env -i sleep " + arg + " >/dev/null 2>&1 &); exec sleep " + arg)
	var daemon []int
	require.Eventually(t, func() bool { daemon = withArgument(arg); return len(daemon) == 2 }, testTimeout, 10*time.Millisecond)
	cg, err := os.ReadFile("/proc/" + strconv.Itoa(daemon[0]) + "/cgroup")
	require.NoError(t, err)
	if !strings.Contains(string(cg), "/jobtop-") {
		t.Skip("this system gives jobtop no cgroup of its own: such a daemon escapes, as the README says")
	}
	keeper := keeperOf(t, first.Process.Pid)
	stopWhole(t, keeper) // so it cannot clean up first
	require.NoError(t, first.Process.Signal(syscall.SIGKILL))
	first.Wait() //nolint:errcheck // killed on purpose
	require.NoError(t, syscall.Kill(keeper, syscall.SIGKILL))

	assert.Equal(t, "jobtop: stopped 2 processes left running by a previous instance on "+c.socket+" that died\n", c.serveNext(t))
	require.Eventually(t, func() bool { return len(withArgument(arg)) == 0 }, testTimeout, 10*time.Millisecond,
		"left running: %v", withArgument(arg))
	dir := keeperCgroupDir(t, string(cg))
	_, err = os.Stat(dir)
	assert.True(t, os.IsNotExist(err), "the dead keeper's cgroup %s is removed", dir)
}

// keeperCgroupDir is the directory of the keeper's cgroup that
// /proc/PID/cgroup (cg) shows a process of it in.
func keeperCgroupDir(t *testing.T, cg string) string {
	t.Helper()
	m := regexp.MustCompile(`(?m)^0::(.*/jobtop-[0-9a-f]+)/`).FindStringSubmatch(cg)
	require.NotNil(t, m, cg)
	mounts, err := os.ReadFile("/proc/self/mountinfo")
	require.NoError(t, err)
	for _, l := range strings.Split(string(mounts), "\n") {
		if f := strings.Fields(l); len(f) > 4 && strings.Contains(l, " - cgroup2 ") {
			return f[4] + m[1]
		}
	}
	t.Fatal("no cgroup2 mounted")
	return ""
}
