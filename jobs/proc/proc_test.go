package proc

import (
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestListFindsThisProcessAndItsChild(t *testing.T) {
	cmd := exec.Command("sleep", "30")
	cmd.Env = append(os.Environ(), "PROC_TEST_MARK=yes")
	require.NoError(t, cmd.Start())
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })

	procs, err := List()
	require.NoError(t, err)
	var me, child *Proc
	for i := range procs {
		switch procs[i].PID {
		case os.Getpid():
			me = &procs[i]
		case cmd.Process.Pid:
			child = &procs[i]
		}
	}
	require.NotNil(t, me)
	require.NotNil(t, child)
	require.Equal(t, os.Getpid(), child.PPID)
	require.Equal(t, os.Getppid(), me.PPID)
	require.NotZero(t, child.Start)
	require.GreaterOrEqual(t, child.Start, me.Start)
	require.Positive(t, me.RSS)

	kids := Children(procs)
	found := false
	for _, i := range Descendants(procs, kids, os.Getpid()) {
		found = found || procs[i].PID == cmd.Process.Pid
	}
	require.True(t, found, "the child is a descendant")

	var (
		v  string
		ok bool
	)
	require.Eventually(t, func() bool { // (shown once its exec is done)
		v, ok = Env(cmd.Process.Pid, "PROC_TEST_MARK")
		return ok
	}, 5*time.Second, time.Millisecond)
	require.Equal(t, "yes", v)
	_, ok = Env(cmd.Process.Pid, "PROC_TEST_MAR")
	require.False(t, ok, "a prefix of a name is not the name")
}

// A process started with no environment reads as having none (as one
// half way through an exec does), which is not the same answer as a
// variable it does not have.
func TestLookupEnvTellsNoEnvironmentFromAMissingVariable(t *testing.T) {
	bare := exec.Command("sleep", "30")
	bare.Env = []string{}
	require.NoError(t, bare.Start())
	t.Cleanup(func() { bare.Process.Kill(); bare.Wait() })
	_, found, err := LookupEnv(bare.Process.Pid, "PATH")
	require.ErrorIs(t, err, ErrNoEnv)
	require.False(t, found)

	some := exec.Command("sleep", "30")
	some.Env = []string{"PROC_TEST_OTHER=1"}
	require.NoError(t, some.Start())
	t.Cleanup(func() { some.Process.Kill(); some.Wait() })
	// (Start returns once the exec has begun; the new environment is
	// shown a moment later.)
	require.Eventually(t, func() bool {
		_, found, err = LookupEnv(some.Process.Pid, "PATH")
		return err == nil
	}, 5*time.Second, time.Millisecond)
	require.False(t, found)

	_, _, err = LookupEnv(bare.Process.Pid+1<<22, "PATH")
	require.Error(t, err, "no such process")
	require.NotErrorIs(t, err, ErrNoEnv)
}

func TestGetOfAGoneProcess(t *testing.T) {
	cmd := exec.Command("true")
	require.NoError(t, cmd.Run())
	_, err := Get(cmd.Process.Pid)
	require.ErrorIs(t, err, ErrGone)
}
