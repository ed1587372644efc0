package cmd

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
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

	// (Its job is counted as it last recorded it, shortly after the
	// start: maybe not yet.)
	assert.Regexp(t, "^"+regexp.QuoteMeta(fmt.Sprintf("jobtop: the last instance on %s (pid %d) ended without shutting down (killed, or crashed?); its keeper died too, so this one stopped the 2 processes its ", c.socket, first.Process.Pid))+"jobs? left running\n$", c.serveNext(t))
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

// cgroup2Mount is where cgroup v2 is mounted here; the test is skipped
// where it is not.
func cgroup2Mount(t *testing.T) string {
	t.Helper()
	mounts, err := os.ReadFile("/proc/self/mountinfo")
	require.NoError(t, err)
	for _, l := range strings.Split(string(mounts), "\n") {
		if f := strings.Fields(l); len(f) > 4 && strings.Contains(l, " - cgroup2 ") && f[3] == "/" {
			return f[4]
		}
	}
	t.Skip("no cgroup2 mounted here")
	return ""
}

// TestServeBelowTheRootCgroupStillGivesRunsTheirs: serve in a cgroup
// below the hierarchy's root (as in a systemd scope, or a job of another
// jobtop) makes its runs' cgroups below its own, and a daemon that left
// everything else is stopped with its job.
func TestServeBelowTheRootCgroupStillGivesRunsTheirs(t *testing.T) {
	mount := cgroup2Mount(t)
	parent := filepath.Join(mount, "jtest-"+strconv.Itoa(os.Getpid())+"-"+strconv.FormatInt(time.Now().UnixNano()%1e6, 10))
	if err := os.Mkdir(parent, 0o755); err != nil {
		t.Skipf("no cgroup can be made here to start serve in: %v", err)
	}
	t.Cleanup(func() {
		require.Eventually(t, func() bool { err := syscall.Rmdir(parent); return err == nil || os.IsNotExist(err) },
			testTimeout, 10*time.Millisecond, "serve's cgroup %s is left with something in it", parent)
	})
	c := newCLI(t)
	serve := exec.Command("sh", "-c", `echo $$ > "$1/cgroup.procs" && exec "$2" serve --no-file`, "sh", parent, binary)
	go io.Copy(io.Discard, c.startServe(serve)) //nolint:errcheck // of no interest
	c.waitAnswering()

	id := c.startJob("cat /proc/self/cgroup")
	c.ok("wait", id)
	rel := strings.TrimPrefix(parent, mount)
	assert.Regexp(t, "(?m)^0::"+regexp.QuoteMeta(rel)+"/jobtop-[0-9a-f]+/run-[0-9]+$", strings.Join(c.logLines(id), "\n"))

	arg := "600" + strconv.FormatInt(time.Now().UnixNano()%1e6, 10)
	t.Cleanup(func() {
		for _, pid := range withArgument(arg) {
			syscall.Kill(pid, syscall.SIGKILL) //nolint:errcheck // may be gone
		}
	})
	id = c.startJob("(setsid env -i sleep " + arg + " >/dev/null 2>&1 &); sleep 0.3; echo started")
	c.ok("wait", id)
	assert.Equal(t, []string{"started", "stopped 1 process left running"}, c.logLines(id))
	require.Eventually(t, func() bool { return len(withArgument(arg)) == 0 }, testTimeout, 10*time.Millisecond)
}
