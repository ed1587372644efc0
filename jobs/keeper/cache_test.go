package keeper

import (
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"jobtop/jobs/proc"
)

// reusePID starts `sleep 600` as a child with the PID pid had (the kernel
// hands out the PID after /proc/sys/kernel/ns_last_pid), retrying while
// other processes take it first. It skips the test where it cannot.
func reusePID(t *testing.T, pid int) *exec.Cmd {
	t.Helper()
	const knob = "/proc/sys/kernel/ns_last_pid"
	for range 200 {
		if err := os.WriteFile(knob, []byte(strconv.Itoa(pid-1)), 0); err != nil {
			t.Skip("cannot choose the next PID: ", err)
		}
		cmd := exec.Command("sleep", "600")
		require.NoError(t, cmd.Start())
		if cmd.Process.Pid == pid {
			t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
			return cmd
		}
		cmd.Process.Kill()
		cmd.Wait()
	}
	t.Skip("the PID was always taken first")
	return nil
}

// A PID reused at once is a new process in the keeper's table, not the
// old one's entry: else a daemon that got a PID freed a moment before
// hides behind it, and is left running when its job ends.
func TestTheProcessTableSeesAReusedPID(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("generations are Linux's")
	}
	old := exec.Command("sleep", "600")
	require.NoError(t, old.Start())
	pid := old.Process.Pid
	c := newProcCache()
	before := find(t, c.read(), pid)
	time.Sleep(30 * time.Millisecond) // start times count in 10 ms ticks
	old.Process.Kill()
	old.Wait()

	reusePID(t, pid)
	now := find(t, c.read(), pid)
	require.NotEqual(t, before.Start, now.Start, "the new process's entry, not the old one's")
	fresh, err := proc.Get(pid)
	require.NoError(t, err)
	require.Equal(t, fresh.Start, now.Start)
}

func find(t *testing.T, procs []proc.Proc, pid int) proc.Proc {
	t.Helper()
	for _, p := range procs {
		if p.PID == pid {
			return p
		}
	}
	t.Fatalf("no process %d in the table", pid)
	return proc.Proc{}
}
