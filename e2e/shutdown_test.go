package e2e

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

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

// A wait and a follow of a job when the TUI quits: the TUI stops its jobs
// as it quits, and wait said "job 1 was killed by SIGTERM" (143) and
// logs -f ended 0, as if someone had killed the job. The instance ended
// it: wait exits 255 and logs -f 1, naming the cause.
func TestWaitWhenTheTUIQuits(t *testing.T) {
	bin := binary(t)
	socket := shortSocket(t)
	token := strconv.Itoa(os.Getpid()) + ".4646"
	s := newSession(t, 140, 30, []string{"JOBTOP_SOCKET=" + socket}, bin, "--name", "sleeper", "echo up; exec sleep 60 #"+token)
	s.waitFor("running", func(scr []string) bool { return strings.Contains(row(scr, "sleeper"), "● running") })
	_, stderr, code := runCLI(t, bin, socket, "wait", "1", "--until", "^up$", "--timeout", "20s")
	require.Equal(t, 0, code, stderr)

	type started struct {
		cmd            *exec.Cmd
		stdout, stderr *syncBuffer
	}
	var runs []started
	for _, args := range [][]string{{"wait", "1"}, {"logs", "-f", "1"}} {
		cmd := exec.Command(bin, args...)
		cmd.Env = append(os.Environ(), "JOBTOP_SOCKET="+socket)
		r := started{cmd, &syncBuffer{}, &syncBuffer{}}
		cmd.Stdout, cmd.Stderr = r.stdout, r.stderr
		require.NoError(t, cmd.Start())
		runs = append(runs, r)
	}
	// Both are at it: each holds a socket, and the follow printed the
	// job's line.
	require.Eventually(t, func() bool {
		return holdsSocket(runs[0].cmd.Process.Pid) && holdsSocket(runs[1].cmd.Process.Pid) && strings.Contains(runs[1].stdout.String(), "up")
	}, deadline, 20*time.Millisecond)
	ended := make(chan [2]string, 2)
	for _, r := range runs {
		go func() {
			err := r.cmd.Wait()
			code := 0
			if exit, ok := err.(*exec.ExitError); ok {
				code = exit.ExitCode()
			}
			ended <- [2]string{r.cmd.Args[1] + " " + strconv.Itoa(code), r.stderr.String()}
		}()
	}
	s.quit("stop it and quit? y/n")
	got := map[string]string{}
	for range 2 {
		select {
		case e := <-ended:
			got[e[0]] = e[1]
		case <-time.After(deadline):
			t.Fatal("a wait or follow did not end")
		}
	}
	cause := "ended while %s: it stopped job 1 as it shut down (jobtop shutdown, its TUI quit, or a signal)"
	require.Contains(t, got, "wait 255", got)
	require.Contains(t, got["wait 255"], fmt.Sprintf(cause, "waiting for job 1"))
	require.Contains(t, got, "logs 1", got)
	require.Contains(t, got["logs 1"], fmt.Sprintf(cause, "following job 1's output"))
}

// holdsSocket reports whether process pid has a socket open.
func holdsSocket(pid int) bool {
	fds, _ := os.ReadDir(filepath.Join("/proc", strconv.Itoa(pid), "fd"))
	for _, fd := range fds {
		if link, err := os.Readlink(filepath.Join("/proc", strconv.Itoa(pid), "fd", fd.Name())); err == nil && strings.HasPrefix(link, "socket:") {
			return true
		}
	}
	return false
}
