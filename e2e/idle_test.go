package e2e

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// contextSwitches is how many times the threads of pid have been switched
// out, voluntarily or not.
func contextSwitches(t testing.TB, pid int) int {
	t.Helper()
	tasks, err := filepath.Glob(filepath.Join("/proc", strconv.Itoa(pid), "task", "*", "status"))
	require.NoError(t, err)
	n := 0
	for _, task := range tasks {
		b, err := os.ReadFile(task)
		if err != nil {
			continue // a thread that ended
		}
		for _, line := range strings.Split(string(b), "\n") {
			if k, v, ok := strings.Cut(line, ":"); ok && strings.HasSuffix(k, "ctxt_switches") {
				c, err := strconv.Atoi(strings.TrimSpace(v))
				require.NoError(t, err)
				n += c
			}
		}
	}
	return n
}

// TestIdleTUISleeps: a TUI whose job writes nothing draws nothing, and
// should not wake. It woke about 600 times a second, its renderer's
// 120 fps ticker checking for a frame each time (3% of a core here, all
// day, on a laptop's battery too); it draws only when the view changes
// now.
func TestIdleTUISleeps(t *testing.T) {
	s := newSession(t, 160, 40, nil, binary(t), "--name", "idle", "sleep 300")
	s.waitText("idle", "running")
	pid := s.jobtopPID()
	time.Sleep(time.Second) // its first second's samples and frames
	const window = 3 * time.Second
	before := contextSwitches(t, pid)
	time.Sleep(window) // a measurement window, not a wait for a condition
	perSecond := float64(contextSwitches(t, pid)-before) / window.Seconds()
	t.Logf("an idle TUI: %.0f context switches a second", perSecond)
	require.Less(t, perSecond, 150.0, "an idle TUI wakes only for its once-a-second samples")
}
