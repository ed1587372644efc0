package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// holders lists the processes other than this test that have the pipe
// with inode ino open, and the descriptors they have it on.
func holders(ino uint64) []string {
	want := fmt.Sprintf("pipe:[%d]", ino)
	var out []string
	procs, _ := os.ReadDir("/proc")
	for _, p := range procs {
		pid, err := strconv.Atoi(p.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		fds, _ := os.ReadDir(filepath.Join("/proc", p.Name(), "fd"))
		for _, fd := range fds {
			if link, _ := os.Readlink(filepath.Join("/proc", p.Name(), "fd", fd.Name())); link == want {
				comm, _ := os.ReadFile(filepath.Join("/proc", p.Name(), "comm"))
				out = append(out, fmt.Sprintf("%d (%s) fd %s", pid, strings.TrimSpace(string(comm)), fd.Name()))
			}
		}
	}
	return out
}

// inheritedPipe is a pipe for a jobtop to inherit without close-on-exec,
// as a script's or an agent's pipe comes, and its inode. extra has its
// write end on descriptors 3 to 7 (the keeper's connection takes 3).
func inheritedPipe(t *testing.T) (extra []*os.File, ino uint64) {
	t.Helper()
	r, w, err := os.Pipe()
	require.NoError(t, err)
	t.Cleanup(func() { r.Close(); w.Close() })
	var st syscall.Stat_t
	require.NoError(t, syscall.Fstat(int(w.Fd()), &st))
	return []*os.File{w, w, w, w, w}, st.Ino
}

// runBoth starts a job on pipes and one on a terminal, each a sleep
// carrying token, by `jobtop run` with env and extra descriptors, and
// waits until both run.
func runBoth(t *testing.T, bin, socket, token string, env []string, extra []*os.File) {
	t.Helper()
	for _, args := range [][]string{{"--name", "pipes"}, {"--name", "tty", "--tty"}} {
		run := exec.Command(bin, append(append([]string{"run", "--socket", socket}, args...), "sleep 300 #"+token)...)
		run.Env, run.ExtraFiles = env, extra
		out, err := run.CombinedOutput()
		require.NoError(t, err, "%s", out)
	}
	require.Eventually(t, func() bool {
		out, _, _ := runCLI(t, bin, socket, "ls")
		return strings.Count(out, " running ") == 2
	}, deadline, 20*time.Millisecond)
}

// TestInheritedFilesReachNoJob: a descriptor jobtop inherited (an
// agent's pipe on fd 3, read to its end) is no job's, nor the keeper's,
// nor that of the serve `jobtop run` starts in the background: whoever
// reads that pipe is not kept waiting by jobs that run for hours.
func TestInheritedFilesReachNoJob(t *testing.T) {
	if _, err := os.Stat("/proc/self/fd"); err != nil {
		t.Skip("finds who holds the pipe in /proc")
	}
	bin := binary(t)
	token := fmt.Sprintf("%d.%d", os.Getpid(), 7171)

	t.Run("run starting a serve", func(t *testing.T) {
		socket := shortSocket(t)
		extra, ino := inheritedPipe(t)
		t.Cleanup(func() { runCLI(t, bin, socket, "shutdown") })
		runBoth(t, bin, socket, token, append(os.Environ(), "XDG_STATE_HOME="+t.TempDir()), extra)
		require.Empty(t, holders(ino), "the serve, its keeper and its jobs hold the caller's pipe")
	})

	t.Run("serve", func(t *testing.T) {
		socket := shortSocket(t)
		extra, ino := inheritedPipe(t)
		serve := exec.Command(bin, "serve", "--no-file", "--socket", socket)
		serve.Env = append(os.Environ(), "XDG_STATE_HOME="+t.TempDir())
		serve.ExtraFiles = extra
		require.NoError(t, serve.Start())
		t.Cleanup(func() { serve.Process.Signal(syscall.SIGTERM); serve.Wait() }) //nolint:errcheck // stopped on purpose
		require.Eventually(t, func() bool {
			_, _, code := runCLI(t, bin, socket, "ls")
			return code == 0
		}, deadline, 20*time.Millisecond)
		runBoth(t, bin, socket, token, os.Environ(), nil)
		for _, h := range holders(ino) {
			require.True(t, strings.HasPrefix(h, fmt.Sprintf("%d ", serve.Process.Pid)), "only the serve given it holds it: %s", h)
		}
	})
	waitNoneLeft(t, token, deadline)
}
