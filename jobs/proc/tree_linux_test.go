package proc

import (
	"os"
	"os/exec"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// Tree finds what List finds below a process: its children and theirs.
func TestTreeFindsWhatListFindsBelowAProcess(t *testing.T) {
	cmd := exec.Command("sh", "-c", "sleep 30 & sleep 30 & wait")
	require.NoError(t, cmd.Start())
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })

	var want []int
	require.Eventually(t, func() bool {
		procs, err := List()
		require.NoError(t, err)
		want = want[:0]
		for _, i := range Descendants(procs, Children(procs), cmd.Process.Pid) {
			want = append(want, procs[i].PID)
		}
		return len(want) == 2
	}, 10*time.Second, 10*time.Millisecond, "the shell's two sleeps")

	procs, ok, err := Tree(os.Getpid())
	require.NoError(t, err)
	require.True(t, ok, "this kernel keeps lists of children")
	var got []int
	for _, p := range procs {
		got = append(got, p.PID)
	}
	require.Equal(t, os.Getpid(), got[0], "the root first")
	require.Contains(t, got, cmd.Process.Pid)
	for _, pid := range want {
		require.Contains(t, got, pid)
	}
	for _, p := range procs[1:] {
		require.True(t, slices.ContainsFunc(procs, func(q Proc) bool { return q.PID == p.PPID }), "each one's parent is in the tree")
	}

	_, _, err = Tree(cmd.Process.Pid + 1<<22)
	require.ErrorIs(t, err, ErrGone)
}

func TestAppendPIDs(t *testing.T) {
	require.Equal(t, []int{12, 3, 456}, appendPIDs(nil, []byte("12 3 456 ")))
	require.Empty(t, appendPIDs(nil, []byte("")))
}
