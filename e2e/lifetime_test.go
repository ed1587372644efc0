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

// jobtopPID is the PID of the jobtop running in the session's pane (a
// child of the status script).
func (s *session) jobtopPID() int {
	s.t.Helper()
	pane, err := strconv.Atoi(strings.TrimSpace(s.tmux("display-message", "-p", "-t", s.name, "#{pane_pid}")))
	require.NoError(s.t, err)
	pid := 0
	eachProcStat(func(p int, comm string, fields []string) bool {
		if len(fields) > 1 && fields[1] == strconv.Itoa(pane) && comm == "jobtop" {
			pid = p
			return false
		}
		return true
	})
	if pid == 0 {
		s.t.Fatalf("no jobtop under pane %d", pane)
	}
	return pid
}

// eachProcStat calls f with each process's PID, command name and the
// fields of its /proc/PID/stat after the name (state, ppid, pgrp,
// session...), until f returns false.
func eachProcStat(f func(pid int, comm string, fields []string) bool) {
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		st := string(b)
		open, end := strings.IndexByte(st, '('), strings.LastIndexByte(st, ')')
		if open < 0 || end < open {
			continue
		}
		if !f(pid, st[open+1:end], strings.Fields(st[end+1:])) {
			return
		}
	}
}

// treeJobs is a shell job whose four processes carry token in their
// command lines: the shell, a child in its group, a setsid daemon and an
// orphan of a subshell.
func treeJobs(token string) string {
	return fmt.Sprintf("sleep 7%[1]s & setsid sleep 8%[1]s & (sleep 9%[1]s &); wait", token)
}

func waitNoneLeft(t *testing.T, token string, within time.Duration) {
	t.Helper()
	end := time.Now().Add(within)
	for len(processesWith(token)) > 0 {
		if time.Now().After(end) {
			t.Fatalf("still running after %v: %v", within, processesWith(token))
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestTerminalClosedStopsJobsGracefully: SIGHUP (the terminal window
// closed) stops every job with its stop signal, so a job's trap runs, and
// nothing it started is left.
func TestTerminalClosedStopsJobsGracefully(t *testing.T) {
	bin := binary(t)
	token := fmt.Sprintf("%d.%d", os.Getpid(), 5151)
	done := filepath.Join(t.TempDir(), "cleaned")
	s := newSession(t, 120, 30, nil, bin, treeJobs(token),
		"trap 'echo cleaned > "+done+"; exit 0' TERM; echo up; while :; do sleep 0.1; done")
	s.waitText("up")
	require.Eventually(t, func() bool { return len(processesWith(token)) == 4 }, deadline, 20*time.Millisecond)
	require.NoError(t, syscall.Kill(s.jobtopPID(), syscall.SIGHUP))
	s.waitExit()
	waitNoneLeft(t, token, deadline)
	b, err := os.ReadFile(done)
	require.NoError(t, err, "the job got its stop signal and ran its trap")
	require.Equal(t, "cleaned\n", string(b))
}

// TestKilledTUILeavesNothing: SIGKILL gives jobtop no chance at all; its
// keeper stops everything within the jobs' grace.
func TestKilledTUILeavesNothing(t *testing.T) {
	bin := binary(t)
	token := fmt.Sprintf("%d.%d", os.Getpid(), 5252)
	s := newSession(t, 120, 30, nil, bin, treeJobs(token), treeJobs(token))
	require.Eventually(t, func() bool { return len(processesWith(token)) == 8 }, deadline, 20*time.Millisecond)
	require.NoError(t, syscall.Kill(s.jobtopPID(), syscall.SIGKILL))
	waitNoneLeft(t, token, 5*time.Second)
}

// TestJobOpeningTheTerminalFails: jobs on pipes have no controlling
// terminal, so a job that opens /dev/tty (a password prompt) fails at
// once with the system's error in its output, and never draws on
// jobtop's screen. (A job on a terminal opens its own: see pty_test.go.)
func TestJobOpeningTheTerminalFails(t *testing.T) {
	bin := binary(t)
	s := newSession(t, 120, 30, nil, bin, "--pipes", "--name", "prompt",
		"w=SCRIB; echo ${w}BLE > /dev/tty; read answer < /dev/tty; echo answered $?")
	scr := s.waitFor("the job to end", func(scr []string) bool {
		return strings.Contains(strings.Join(scr, "\n"), "answered 2") && strings.Contains(row(scr, "prompt"), "succeeded")
	})
	all := strings.Join(scr, "\n")
	require.Contains(t, all, "No such device or address")
	require.NotContains(t, all, "SCRIBBLE", "nothing reached the terminal")
	require.True(t, strings.HasPrefix(scr[0], "    ID NAME"), "the screen is intact: %q", scr[0])
	s.keys("q")
	require.Equal(t, "0", s.waitExit())
}

// TestKilledServeStopsJobsWithTheirGrace: SIGKILL takes jobtop's ends of
// its jobs' output with it. A job that logs as it shuts down (most
// servers) must still get its stop signal and its grace, on pipes and
// on a terminal: its writes neither fail nor hang it up, and they reach
// its log file.
func TestKilledServeStopsJobsWithTheirGrace(t *testing.T) {
	bin := binary(t)
	socket := shortSocket(t)
	state := t.TempDir()
	serve := exec.Command(bin, "serve", "--no-file", "--socket", socket)
	serve.Env = append(os.Environ(), "XDG_STATE_HOME="+state)
	require.NoError(t, serve.Start())
	t.Cleanup(func() { serve.Process.Kill(); serve.Wait() }) //nolint:errcheck // killed on purpose
	// Not jobtop run until it answers: run would start a serve of its
	// own, which this test would not kill.
	require.Eventually(t, func() bool {
		_, _, code := runCLI(t, bin, socket, "ls")
		return code == 0
	}, deadline, 20*time.Millisecond)
	dir := t.TempDir()
	token := fmt.Sprintf("%d.%d", os.Getpid(), 5353)
	for _, name := range []string{"pipes", "tty"} {
		script := "trap 'echo draining " + name + "; sleep 0.3; echo drained > " + filepath.Join(dir, name) +
			"; exit 0' TERM; echo up; while :; do sleep 0.05; done #" + token
		args := []string{"run", "--name", name, "--socket", socket}
		if name == "tty" {
			args = append(args, "--tty")
		}
		_, stderr, code := runCLI(t, bin, socket, append(args, script)...)
		require.Equal(t, 0, code, stderr)
	}
	require.Eventually(t, func() bool {
		out, _, _ := runCLI(t, bin, socket, "logs", "tty")
		out2, _, _ := runCLI(t, bin, socket, "logs", "pipes")
		return strings.Contains(out, "up") && strings.Contains(out2, "up")
	}, deadline, 50*time.Millisecond)

	require.NoError(t, serve.Process.Signal(syscall.SIGKILL))
	serve.Wait() //nolint:errcheck // killed
	waitNoneLeft(t, token, deadline)
	for _, name := range []string{"pipes", "tty"} {
		b, err := os.ReadFile(filepath.Join(dir, name))
		require.NoError(t, err, "%s: the job's trap ran to its end", name)
		require.Equal(t, "drained\n", string(b))
		logs, _ := filepath.Glob(filepath.Join(state, "jobtop", "logs", "*", "*.log"))
		var all string
		for _, l := range logs {
			b, _ := os.ReadFile(l)
			all += string(b)
		}
		require.Contains(t, all, "draining "+name, "what it wrote as it stopped is in its log")
	}
}
