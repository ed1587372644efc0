//go:build unix

package psutil_test

import (
	"os"
	"os/exec"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"jobtop/jobs/proc"
	"jobtop/jobs/proc/psutil"
)

// The gopsutil reader is what FreeBSD uses (and macOS, for CPU and
// memory). Here it is held against jobs/proc's reader of this system, on
// real processes: the same parents, groups, sessions and states.

func TestPsutilAgreesWithTheSystemsReader(t *testing.T) {
	// A child in a session of its own.
	leader := exec.Command("sleep", "30")
	leader.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	require.NoError(t, leader.Start())
	t.Cleanup(func() { leader.Process.Kill(); leader.Wait() })
	// A stopped child.
	stopped := exec.Command("sleep", "30")
	require.NoError(t, stopped.Start())
	t.Cleanup(func() { stopped.Process.Kill(); stopped.Wait() })
	require.NoError(t, stopped.Process.Signal(syscall.SIGSTOP))
	// A zombie: exited, not reaped.
	zombie := exec.Command("true")
	require.NoError(t, zombie.Start())
	t.Cleanup(func() { zombie.Wait() })

	waitFor(t, func() bool { p, err := proc.Get(stopped.Process.Pid); return err == nil && p.Stopped })
	waitFor(t, func() bool { p, err := proc.Get(zombie.Process.Pid); return err == nil && p.Zombie })

	for _, pid := range []int{os.Getpid(), leader.Process.Pid, stopped.Process.Pid, zombie.Process.Pid} {
		want, err := proc.Get(pid)
		require.NoError(t, err)
		got, err := psutil.Get(pid)
		require.NoError(t, err)
		require.Equal(t, want.PID, got.PID)
		require.Equal(t, want.PPID, got.PPID, "pid %d", pid)
		require.Equal(t, want.PGID, got.PGID, "pid %d", pid)
		require.Equal(t, want.SID, got.SID, "pid %d", pid)
		require.Equal(t, want.Zombie, got.Zombie, "pid %d", pid)
		require.Equal(t, want.Stopped, got.Stopped, "pid %d", pid)
		require.NotZero(t, got.Start)
	}
	me, err := psutil.Get(os.Getpid())
	require.NoError(t, err)
	require.Positive(t, me.RSS)
	lead, err := psutil.Get(leader.Process.Pid)
	require.NoError(t, err)
	require.Equal(t, leader.Process.Pid, lead.SID, "setsid: its own session")
	require.GreaterOrEqual(t, lead.Start, me.Start, "started after this process")

	list, err := psutil.List()
	require.NoError(t, err)
	procs := make([]proc.Proc, len(list))
	for i, p := range list {
		procs[i] = proc.Proc{PID: p.PID, PPID: p.PPID}
	}
	kids := proc.Children(procs)
	var below []int
	for _, i := range proc.Descendants(procs, kids, os.Getpid()) {
		below = append(below, procs[i].PID)
	}
	require.Subset(t, below, []int{leader.Process.Pid, stopped.Process.Pid, zombie.Process.Pid})
}

func TestPsutilCountsCPUTime(t *testing.T) {
	spin := exec.Command("sh", "-c", "while :; do :; done")
	require.NoError(t, spin.Start())
	t.Cleanup(func() { spin.Process.Kill(); spin.Wait() })
	// A busy loop earns at least 20 ticks (0.2 s of CPU) soon, even on a
	// loaded machine; both readers must see it.
	waitFor(t, func() bool { p, err := proc.Get(spin.Process.Pid); return err == nil && p.CPU >= 20 })
	p, err := psutil.Get(spin.Process.Pid)
	require.NoError(t, err)
	require.GreaterOrEqual(t, p.CPU, uint64(20))
}

func TestPsutilGetOfAGoneProcess(t *testing.T) {
	cmd := exec.Command("true")
	require.NoError(t, cmd.Run())
	_, err := psutil.Get(cmd.Process.Pid)
	require.ErrorIs(t, err, psutil.ErrGone)
}

func TestPsutilCountsInProcsTicks(t *testing.T) {
	require.Equal(t, proc.TicksPerSecond, psutil.TicksPerSecond)
}

func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("condition not met within 10s")
		}
		time.Sleep(10 * time.Millisecond)
	}
}
