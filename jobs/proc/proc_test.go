package proc

import (
	"os"
	"os/exec"
	"testing"

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

	v, ok := Env(cmd.Process.Pid, "PROC_TEST_MARK")
	require.True(t, ok)
	require.Equal(t, "yes", v)
	_, ok = Env(cmd.Process.Pid, "PROC_TEST_MAR")
	require.False(t, ok, "a prefix of a name is not the name")
}

func TestGetOfAGoneProcess(t *testing.T) {
	cmd := exec.Command("true")
	require.NoError(t, cmd.Run())
	_, err := Get(cmd.Process.Pid)
	require.ErrorIs(t, err, ErrGone)
}
