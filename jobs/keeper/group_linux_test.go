package keeper

import (
	"bufio"
	"os"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// stopPatience is how long a stop whose signal reaches every process may
// take on a loaded machine: far less than the runs' grace, so a process
// the stop signal missed (it would live until SIGKILL ends the grace)
// shows.
const stopPatience = 10 * time.Second

// TestStopReachesChildrenForkedDuringTheStop: a run stopped while it
// forks has each of its children end by the stop signal, the ones forked
// after the keeper's last look at the process table included (and the
// ones whose fork was under way). The main process forks as fast as it
// can when the stop comes, so every stop lands in the middle of forks;
// fifty of them leave no room for luck.
func TestStopReachesChildrenForkedDuringTheStop(t *testing.T) {
	stopWhileForking(t, `echo go; `+forkLoop, false)
}

// TestStopReachesChildrenForkedAfterTheMainProcessExited: the same for a
// run whose main process exited and left a process that forks (the
// keeper reaped the main process: its group is signalled all the same).
func TestStopReachesChildrenForkedAfterTheMainProcessExited(t *testing.T) {
	stopWhileForking(t, `(echo go; `+forkLoop+`) & exit 0`, true)
}

// TestStopReachesChildrenForkedByAProcessThatLeftTheSession: the same
// for a process that left the run's session (setsid) and forks there:
// the group it leads is signalled as one too.
func TestStopReachesChildrenForkedByAProcessThatLeftTheSession(t *testing.T) {
	stopWhileForking(t, `setsid sh -c 'echo go; `+forkLoop+`' & wait`, false)
}

const forkLoop = `i=0; while [ $i -lt 2000 ]; do sleep 300 & i=$((i+1)); done; wait`

// stopWhileForking starts script 50 times, each a run with a long grace;
// once the run says "go" (and, with exited, its main process has exited)
// it stops it and waits for the run to have no process left.
func stopWhileForking(t *testing.T, script string, exited bool) {
	c, rec := startKeeper(t)
	t.Cleanup(func() { c.Close() })
	null, err := os.Open(os.DevNull)
	require.NoError(t, err)
	defer null.Close()
	mark := "forking-" + t.Name()
	killMarked(t, mark)
	for i := range 50 {
		run := RunID(i + 1)
		r, w, err := os.Pipe()
		require.NoError(t, err)
		_, err = c.Spawn(Spawn{Run: run, Path: "/bin/sh", Argv: []string{"sh", "-c", script},
			Env:   []string{"PATH=" + os.Getenv("PATH"), "TEST_MARK=" + mark},
			Stdin: null, Stdout: w, Stderr: null, StopSignal: syscall.SIGTERM, Grace: time.Minute})
		w.Close()
		require.NoError(t, err)
		_, err = bufio.NewReader(r).ReadString('\n')
		r.Close()
		require.NoError(t, err, "the run starts forking")
		if exited {
			ev := rec.next(t)
			require.Equal(t, Event{Run: run, Kind: Exited, Status: ev.Status, Left: ev.Left, At: ev.At}, ev)
			require.NotZero(t, ev.Left, "the forking process is left")
		}

		c.Signal(run, syscall.SIGTERM)
		deadline := time.After(stopPatience)
	wait:
		for {
			select {
			case ev := <-rec.events:
				require.Equal(t, run, ev.Run)
				if ev.Kind == Empty {
					break wait
				}
			case <-deadline:
				c.Signal(run, syscall.SIGKILL)
				t.Fatalf("stop %d: a child of the run missed the stop signal", i+1)
			}
		}
	}
}
