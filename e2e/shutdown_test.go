package e2e

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// shortSocket is a socket path in a new short temporary directory (unix
// socket paths are limited to about 100 bytes).
func shortSocket(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "jt")
	require.NoError(t, err)
	t.Cleanup(func() { os.RemoveAll(dir) })
	return filepath.Join(dir, "s.sock")
}

// runCLI runs jobtop with args against socket and returns stdout, stderr
// and the exit code.
func runCLI(t *testing.T, bin, socket string, args ...string) (string, string, int) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), "JOBTOP_SOCKET="+socket)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	if exit, ok := err.(*exec.ExitError); ok {
		code = exit.ExitCode()
	} else {
		require.NoError(t, err)
	}
	return stdout.String(), stderr.String(), code
}

// jobtop shutdown from another terminal ends a TUI instance: its jobs are
// stopped with their grace rules, the TUI quits, nothing is left running.
func TestShutdownEndsATUIInstance(t *testing.T) {
	bin := binary(t)
	socket := shortSocket(t)
	token := strconv.Itoa(os.Getpid()) + ".4545"
	s := newSession(t, 140, 30, []string{"JOBTOP_SOCKET=" + socket}, bin, "--name", "graceful,sleeper",
		"trap 'echo cleanup done; exit 0' TERM; echo up; while :; do sleep 0.05; done #"+token, "exec sleep 6"+token)
	s.waitFor("both running", func(scr []string) bool {
		return strings.Contains(row(scr, "graceful"), "● running") && strings.Contains(row(scr, "sleeper"), "● running")
	})
	require.NotEmpty(t, processesWith(token))

	stdout, stderr, code := runCLI(t, bin, socket, "shutdown")
	require.Equal(t, 0, code, stderr)
	require.Regexp(t, `^jobtop tui \(pid \d+\) shut down; 2 jobs stopped\n$`, stdout)
	require.Equal(t, "0", s.waitExit(), "the TUI exits cleanly")
	require.Empty(t, processesWith(token), "no job process survives")

	_, stderr, code = runCLI(t, bin, socket, "ls")
	require.Equal(t, 1, code)
	require.Contains(t, stderr, "no jobtop is listening")
}

// jobtop shutdown while the TUI's o pager has the terminal does not wait
// for someone to quit the pager: the pager is ended, the jobs stopped
// with their grace rules, and shutdown returns when they have ended.
func TestShutdownWhileThePagerIsOpen(t *testing.T) {
	bin := binary(t)
	socket := shortSocket(t)
	token := strconv.Itoa(os.Getpid()) + ".4646"
	done := filepath.Join(t.TempDir(), "cleaned")
	s := newSession(t, 140, 30, []string{"JOBTOP_SOCKET=" + socket, "PAGER=less -R"}, bin, "--name", "graceful", gracefulJob(done, token))
	s.waitText("up")
	s.openPager()

	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "shutdown")
	cmd.Env = append(os.Environ(), "JOBTOP_SOCKET="+socket)
	out, err := cmd.CombinedOutput()
	require.NoError(t, ctx.Err(), "jobtop shutdown returns with the pager open")
	require.NoError(t, err, "%s", out)
	require.Regexp(t, `^jobtop tui \(pid \d+\) shut down; 1 job stopped\n$`, string(out))
	require.Equal(t, "0", s.waitExit(), "the TUI exits cleanly")
	require.Empty(t, processesWith(token), "no job process survives")
	b, err := os.ReadFile(done)
	require.NoError(t, err, "the job got its stop signal and ran its trap")
	require.Equal(t, "cleaned\n", string(b))
}

// jobtop demo --socket S serves the demo there, for the CLI to try.
func TestDemoServesTheSocketItIsGiven(t *testing.T) {
	bin := binary(t)
	socket := shortSocket(t)
	s := newSession(t, 160, 40, nil, bin, "demo", "--socket", socket)
	s.waitText("build", "server")
	stdout, stderr, code := runCLI(t, bin, socket, "ls")
	require.Equal(t, 0, code, stderr)
	for _, name := range []string{"build", "test", "server", "lint", "hello"} {
		require.Contains(t, stdout, " "+name+" ")
	}
	stdout, stderr, code = runCLI(t, bin, socket, "shutdown")
	require.Equal(t, 0, code, stderr)
	require.Contains(t, stdout, "jobtop demo (pid ")
	require.Equal(t, "0", s.waitExit())
}
