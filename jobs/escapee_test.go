package jobs

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestADaemonWithoutItsJobsMarksIsFoundByItsOutput: a daemon that left
// the job's session, dropped its environment (setsid env -i) and whose
// parent exited before the keeper looked carries nothing that names its
// job but the job's stdout, which it still writes to. It is the job's:
// stopped when the job's main process exits, and said so.
func TestADaemonWithoutItsJobsMarksIsFoundByItsOutput(t *testing.T) {
	for _, tty := range []bool{false, true} {
		t.Run("tty="+strconv.FormatBool(tty), func(t *testing.T) {
			m := newManager(t, Options{})
			arg := "600" + strconv.FormatInt(time.Now().UnixNano()%1e6, 10)
			// The subshell exits at once: the daemon is the keeper's
			// child, with no environment, well before the main process
			// exits and the keeper looks.
			cmd := "(setsid env -i sleep " + arg + " &); sleep 0.3; echo started"
			info := start(t, m, Spec{Command: cmd, TTY: tty, Grace: time.Minute})
			t.Cleanup(func() { killAll(withArg(arg)) })
			info = wait(t, m, info.ID)
			assert.Equal(t, StateSucceeded, info.State)
			out := outputText(t, m, info.ID)
			require.NotEmpty(t, out)
			assert.Equal(t, "stopped 1 process left running", out[len(out)-1])
			eventually(t, "the daemon to go", func() bool { return len(withArg(arg)) == 0 })
		})
	}
}

func killAll(pids []int) {
	for _, pid := range pids {
		syscall.Kill(pid, syscall.SIGKILL) //nolint:errcheck // cleanup
	}
}

// hideFully is a daemon that leaves nothing of its job on it but its
// cgroup: its own session, no environment, its output on /dev/null, and
// its parent gone at once.
func hideFully(arg string) string {
	return "(setsid env -i sleep " + arg + " >/dev/null 2>&1 &)"
}

// requireCgroups skips a test where m's keeper (started) has no cgroups.
func requireCgroups(t *testing.T, m *Manager) {
	t.Helper()
	m.keeperMu.Lock()
	id := m.keeperID
	m.keeperMu.Unlock()
	if id.Cgroup == "" {
		t.Skip("this system gives jobtop no cgroup of its own (no cgroup2, or not writable here): such a daemon escapes, as the README says")
	}
}

// TestACgroupHoldsWhatLeavesEverythingElse: where runs have cgroups, a
// daemon that changed everything else about itself is still its job's.
func TestACgroupHoldsWhatLeavesEverythingElse(t *testing.T) {
	m := newManager(t, Options{})
	arg := "600" + strconv.FormatInt(time.Now().UnixNano()%1e6, 10)
	info := start(t, m, Spec{Command: hideFully(arg) + "; sleep 0.3; echo started", Grace: time.Minute})
	t.Cleanup(func() { killAll(withArg(arg)) })
	requireCgroups(t, m)
	info = wait(t, m, info.ID)
	assert.Equal(t, StateSucceeded, info.State)
	assert.Equal(t, []string{"started", "stopped 1 process left running"}, outputText(t, m, info.ID))
	eventually(t, "the daemon to go", func() bool { return len(withArg(arg)) == 0 })
	eventually(t, "the run's cgroup to go", func() bool {
		entries, err := os.ReadDir(m.keeperID.Cgroup)
		if err != nil {
			return false
		}
		for _, e := range entries {
			if e.IsDir() {
				return false
			}
		}
		return true
	})
}

// TestKeeperDeathReachesWhatOnlyItsCgroupHolds: the keeper killed, jobtop
// kills what its runs left, found by their cgroup, and removes it.
func TestKeeperDeathReachesWhatOnlyItsCgroupHolds(t *testing.T) {
	m := newManager(t, Options{})
	arg := "600" + strconv.FormatInt(time.Now().UnixNano()%1e6, 10)
	info := start(t, m, Spec{Command: hideFully(arg+"1") + "; exec sleep " + arg + "2"})
	t.Cleanup(func() { killAll(withArg(arg)) })
	requireCgroups(t, m)
	eventually(t, "the sleeps", func() bool { return len(withArg(arg)) == 2 })
	require.NoError(t, syscall.Kill(m.keeperID.PID, syscall.SIGKILL))
	wait(t, m, info.ID)
	eventually(t, "every sleep to go", func() bool { return len(withArg(arg)) == 0 })
	_, err := os.Stat(m.keeperID.Cgroup)
	assert.True(t, os.IsNotExist(err), "the keeper's cgroup is removed")
}

// TestARunWithoutItsCgroupSaysSo: a run whose cgroup cannot be made (the
// keeper's cgroup takes no more) starts without one, and its output says
// so; the next run, once one can be made, has its own again.
func TestARunWithoutItsCgroupSaysSo(t *testing.T) {
	m := newManager(t, Options{})
	first := start(t, m, Spec{Command: "cat /proc/self/cgroup"})
	wait(t, m, first.ID)
	requireCgroups(t, m)
	own := func(id ID) bool {
		for _, line := range outputText(t, m, id) {
			if strings.HasPrefix(line, "0::") && strings.Contains(line, "/jobtop-") {
				return true
			}
		}
		return false
	}
	require.True(t, own(first.ID), "%q", outputText(t, m, first.ID))

	limit := filepath.Join(m.keeperID.Cgroup, "cgroup.max.descendants")
	require.NoError(t, os.WriteFile(limit, []byte("0"), 0))
	t.Cleanup(func() { os.WriteFile(limit, []byte("max"), 0) }) //nolint:errcheck // the keeper's goes with it
	second := start(t, m, Spec{Command: "cat /proc/self/cgroup"})
	wait(t, m, second.ID)
	out := outputText(t, m, second.ID)
	assert.False(t, own(second.ID), "%q", out)
	require.NotEmpty(t, out)
	assert.Regexp(t, `^this run has no cgroup of its own: it could not be made \(.+\)\. A process it starts that leaves its session, closes its output and rewrites its environment can outlive it$`, out[0])

	require.NoError(t, os.WriteFile(limit, []byte("max"), 0))
	third := start(t, m, Spec{Command: "cat /proc/self/cgroup"})
	wait(t, m, third.ID)
	assert.True(t, own(third.ID), "%q", outputText(t, m, third.ID))
}
