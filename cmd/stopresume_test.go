package cmd

import (
	"fmt"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"jobtop/jobs"
	"jobtop/jobs/keeper"
)

// stopped reports whether process pid is stopped (state T in /proc).
func stopped(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	s := string(b)
	fields := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	return len(fields) > 0 && fields[0] == "T"
}

// TestJobsOutliveAStopOfServeOrItsKeeper: serve stopped (SIGSTOP, ^Z of
// the TUI, a paused VM) for longer than its keeper may stay silent, then
// resumed, keeps its keeper and its jobs: the keeper said its heartbeats
// all along, serve only could not hear them. So does a keeper stopped
// for a moment, and both stopped at once (as a suspended machine).
func TestJobsOutliveAStopOfServeOrItsKeeper(t *testing.T) {
	for _, tc := range []struct {
		name         string
		serve, keeps bool
		hold         time.Duration
	}{
		{"serve", true, false, keeper.MaxSilence + 3*time.Second},
		{"serve and its keeper", true, true, keeper.MaxSilence + 3*time.Second},
		{"the keeper for a moment", false, true, keeper.MaxSilence / 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c := newCLI(t)
			serve := c.serve()
			id := c.startJob("exec sleep 600")
			require.Eventually(t, func() bool { return c.status(id).State == jobs.StateRunning }, testTimeout, 10*time.Millisecond)
			kp := keeperOf(t, serve.Process.Pid)
			var pids []int
			if tc.keeps {
				pids = append(pids, kp)
			}
			if tc.serve {
				pids = append(pids, serve.Process.Pid)
			}
			t.Cleanup(func() { // a failed test leaves nothing stopped
				for _, pid := range pids {
					syscall.Kill(pid, syscall.SIGCONT) //nolint:errcheck // may be gone
				}
			})
			for _, pid := range pids {
				require.NoError(t, syscall.Kill(pid, syscall.SIGSTOP))
				require.Eventually(t, func() bool { return stopped(pid) }, testTimeout, 10*time.Millisecond)
			}
			time.Sleep(tc.hold) // how long they stay stopped, not an assertion
			for _, pid := range pids {
				require.NoError(t, syscall.Kill(pid, syscall.SIGCONT))
			}
			// Serve's watchdog judges the keeper at its next tick (one a
			// second): give it several.
			for deadline := time.Now().Add(3 * time.Second); time.Now().Before(deadline); {
				info := c.status(id)
				require.Equal(t, jobs.StateRunning, info.State, "the job ended: %s", info.Error)
				require.NoError(t, syscall.Kill(kp, 0), "the keeper is gone")
				time.Sleep(100 * time.Millisecond)
			}
			assert.Equal(t, kp, keeperOf(t, serve.Process.Pid), "the same keeper")
		})
	}
}
