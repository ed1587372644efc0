package jobs

import (
	"strconv"
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
