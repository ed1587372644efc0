package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// gracefulJob is a job whose stop signal's trap writes "cleaned" to done;
// it prints "up" first, and its command line carries token.
func gracefulJob(done, token string) string {
	return "trap 'echo cleaned > " + done + "; exit 0' TERM; echo up; while :; do sleep 0.1; done # " + token
}

// openPager presses o and waits for less on the selected job's log.
func (s *session) openPager() {
	s.t.Helper()
	s.keys("o")
	s.waitFor("less on the log file", func(scr []string) bool {
		return strings.HasPrefix(scr[0], "[jobtop] ── run 1 · started")
	})
}

// TestSIGTERMWhileThePagerIsOpen: SIGTERM (systemd, timeout, a logout
// script) while the o key's pager has the terminal ends the pager, then
// jobtop as it would without it: every job gets its stop signal.
func TestSIGTERMWhileThePagerIsOpen(t *testing.T) {
	bin := binary(t)
	token := fmt.Sprintf("%d.%d", os.Getpid(), 5353)
	done := filepath.Join(t.TempDir(), "cleaned")
	s := newSession(t, 120, 30, []string{"PAGER=less -R"}, bin, "--name", "graceful", gracefulJob(done, token))
	s.waitText("up")
	s.openPager()
	require.NoError(t, syscall.Kill(s.jobtopPID(), syscall.SIGTERM))
	require.Equal(t, "0", s.waitExit(), "jobtop ends, the pager with it")
	waitNoneLeft(t, token, deadline)
	b, err := os.ReadFile(done)
	require.NoError(t, err, "the job got its stop signal and ran its trap")
	require.Equal(t, "cleaned\n", string(b))
}

// shellSession is an interactive bash in tmux, with job control, for
// what only a shell's jobs show (stop, fg).
func shellSession(t *testing.T, width, height int) *session {
	t.Helper()
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("bash is needed to stop and continue jobtop as a shell's job")
	}
	return newSession(t, width, height, []string{"PS1=shell$ "}, "bash", "--norc", "--noprofile", "-i")
}

// shellJobPID is the PID of the jobtop the shell of a shellSession runs
// (a grandchild of the pane's process: the status script, bash, jobtop).
func (s *session) shellJobPID() int {
	s.t.Helper()
	pane := strings.TrimSpace(s.tmux("display-message", "-p", "-t", s.name, "#{pane_pid}"))
	parents, names := map[string]string{}, map[string]string{}
	eachProcStat(func(pid int, comm string, fields []string) bool {
		if len(fields) > 1 {
			parents[strconv.Itoa(pid)], names[strconv.Itoa(pid)] = fields[1], comm
		}
		return true
	})
	for pid, name := range names {
		if name == "jobtop" && parents[parents[pid]] == pane {
			n, _ := strconv.Atoi(pid)
			return n
		}
	}
	s.t.Fatalf("no jobtop run by the shell in pane %s", pane)
	return 0
}

// terminalModes is what tmux says of the pane's terminal: alternate
// screen, mouse reporting (button, SGR) and cursor shown, as "1 11 0".
func (s *session) terminalModes() string {
	s.t.Helper()
	return strings.TrimSpace(s.tmux("display-message", "-p", "-t", s.name, "#{alternate_on} #{mouse_button_flag}#{mouse_sgr_flag} #{cursor_flag}"))
}

// waitModes waits until the pane's terminal is in modes (terminalModes).
func (s *session) waitModes(modes string) {
	s.t.Helper()
	end := time.Now().Add(deadline)
	for s.terminalModes() != modes {
		if time.Now().After(end) {
			s.t.Fatalf("the terminal is in modes %q, not %q; screen:\n%s", s.terminalModes(), modes, strings.Join(s.screen(), "\n"))
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// processState is the state letter of /proc/PID/stat ("T": stopped).
func processState(pid int) string {
	b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	s := string(b)
	if i := strings.LastIndexByte(s, ')'); i >= 0 && len(s) > i+2 {
		return s[i+2 : i+3]
	}
	return ""
}

// TestStopAndContinueGiveTheTerminalBack: a SIGTSTP from outside (a
// shell's job control, kill -TSTP) gives the terminal back as it was,
// as vim and less do (main screen, mouse off, cursor shown), then stops
// jobtop; fg takes it again: the TUI drawn whole, keys read as typed (no
// Enter), the mouse on. After a SIGSTOP, which leaves jobtop no say,
// fg does the same.
func TestStopAndContinueGiveTheTerminalBack(t *testing.T) {
	bin := binary(t)
	token := fmt.Sprintf("%d.%d", os.Getpid(), 5454)
	s := shellSession(t, 120, 30)
	s.waitText("shell$")
	s.keys("-l", bin+" --name ticker 'while :; do echo tick; sleep 0.2; done # "+token+"'")
	s.keys("Enter")
	s.waitText("● 1 running")
	s.waitModes("1 11 0")
	pid := s.shellJobPID()

	back := func() {
		t.Helper()
		s.keys("-l", "fg")
		s.keys("Enter")
		s.waitModes("1 11 0")
		s.waitFor("the TUI drawn whole", func(scr []string) bool {
			all := strings.Join(scr, "\n")
			return strings.HasPrefix(scr[0], "    ID NAME") && strings.Contains(all, "● 1 running") && !strings.Contains(all, "shell$")
		})
		s.keys("?") // no Enter: the terminal is raw again
		s.waitText("keys — esc, q or ? closes")
		s.keys("Escape")
		s.waitFor("help closed", func(scr []string) bool { return !strings.Contains(strings.Join(scr, "\n"), "keys — esc") })
	}

	require.NoError(t, syscall.Kill(pid, syscall.SIGTSTP))
	s.waitModes("0 00 1")
	s.waitText("Stopped", "shell$")
	require.Equal(t, "T", processState(pid))
	back()

	require.NoError(t, syscall.Kill(pid, syscall.SIGSTOP))
	s.waitText("Stopped")
	require.Equal(t, "T", processState(pid))
	back()

	s.keys("q")
	s.waitText("stop it and quit? y/n")
	s.keys("y")
	s.waitModes("0 00 1")
	s.waitText("shell$")
	require.Empty(t, processesWith(token), "no job process survives quitting")
	s.keys("-l", "exit 0")
	s.keys("Enter")
	require.Equal(t, "0", s.waitExit())
}

// shellLine types line into a shellSession's bash and runs it.
func (s *session) shellLine(line string) {
	s.t.Helper()
	s.keys("-l", line)
	s.keys("Enter")
}

// TestAPagerThatDiesRawLeavesTheTerminalCooked: a pager that makes the
// terminal raw and dies without putting it back (kill -9) does not leave
// the shell a raw terminal once jobtop has quit.
func TestAPagerThatDiesRawLeavesTheTerminalCooked(t *testing.T) {
	bin := binary(t)
	token := fmt.Sprintf("%d.%d", os.Getpid(), 5656)
	s := shellSession(t, 120, 30)
	s.waitText("shell$")
	s.shellLine("PAGER='stty raw -echo; kill -9 $$; :' " + bin + " --name up 'echo up; sleep 1000 # " + token + "'")
	s.waitText("● 1 running")
	s.keys("o")
	s.waitModes("1 11 0") // the pager died and the TUI has the terminal again
	s.waitText("● 1 running")
	s.keys("q")
	s.confirmQuit(t, token)
	s.shellLine("echo is-$(stty -a | grep -q ' icanon ' && echo cooked || echo raw)")
	scr := s.waitFor("the terminal's modes", func(scr []string) bool {
		all := strings.Join(scr, "\n")
		return strings.Contains(all, "is-cooked") || strings.Contains(all, "is-raw")
	})
	require.Contains(t, strings.Join(scr, "\n"), "is-cooked", "the terminal is as jobtop found it")
}

// TestTerminalClosedWithAStubbornPager: the terminal closed (SIGHUP)
// while a pager that ignores SIGHUP and SIGTERM is open leaves nothing
// running: the pager is killed with jobtop's jobs.
func TestTerminalClosedWithAStubbornPager(t *testing.T) {
	bin := binary(t)
	token := fmt.Sprintf("%d.%d", os.Getpid(), 5757)
	pager := filepath.Join(t.TempDir(), "pager")
	require.NoError(t, os.WriteFile(pager, []byte("trap '' TERM INT HUP; echo stubborn; exec sleep 1000\n"), 0o600))
	s := newSession(t, 120, 30, []string{"PAGER=STUBBORN=" + token + " sh " + pager}, bin, "--name", "up", "echo up; while :; do sleep 0.1; done # "+token)
	s.waitText("up")
	s.keys("o")
	s.waitText("stubborn")
	s.tmux("kill-pane", "-t", s.name)
	waitNoneLeft(t, token, deadline)
	end := time.Now().Add(deadline)
	for len(processesWithEnv("STUBBORN", token)) > 0 {
		if time.Now().After(end) {
			t.Fatalf("the pager still runs: %v", processesWithEnv("STUBBORN", token))
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// A pager killed under what it started (kill -9 of a pager script) leaves
// nothing running: its run ends with what it left.
func TestAPagerKilledLeavesNothing(t *testing.T) {
	bin := binary(t)
	token := fmt.Sprintf("%d.%d", os.Getpid(), 6262)
	pager := filepath.Join(t.TempDir(), "pager")
	require.NoError(t, os.WriteFile(pager, []byte("trap '' TERM INT HUP; echo stubborn $$; sleep 1000; :\n"), 0o600))
	s := newSession(t, 120, 30, []string{"PAGER=STUBBORN=" + token + " sh " + pager}, bin, "--name", "up", "echo up; while :; do sleep 0.1; done # "+token)
	s.waitText("up")
	s.keys("o")
	scr := s.waitText("stubborn ")
	var script int
	for _, r := range scr {
		if f := strings.Fields(r); len(f) == 2 && f[0] == "stubborn" {
			script, _ = strconv.Atoi(f[1])
		}
	}
	require.NotZero(t, script, "the pager script's PID")
	require.NoError(t, syscall.Kill(script, syscall.SIGKILL))
	end := time.Now().Add(deadline)
	for len(processesWithEnv("STUBBORN", token)) > 0 {
		if time.Now().After(end) {
			t.Fatalf("what the pager started still runs: %v", processesWithEnv("STUBBORN", token))
		}
		time.Sleep(20 * time.Millisecond)
	}
	s.waitText("● 1 running")
	s.keys("q")
	s.waitText("stop it and quit? y/n")
	s.keys("y")
	waitNoneLeft(t, token, deadline)
}

// TestTwoStopsInARowNeedOneFg: a second SIGTSTP sent while the first
// still stops jobtop is the same stop: one fg brings the TUI back.
func TestTwoStopsInARowNeedOneFg(t *testing.T) {
	bin := binary(t)
	token := fmt.Sprintf("%d.%d", os.Getpid(), 5858)
	s := shellSession(t, 120, 30)
	s.waitText("shell$")
	s.shellLine(bin + " --name ticker 'while :; do sleep 0.2; done # " + token + "'")
	s.waitText("● 1 running")
	s.waitModes("1 11 0")
	pid := s.shellJobPID()

	require.NoError(t, syscall.Kill(pid, syscall.SIGTSTP))
	require.NoError(t, syscall.Kill(pid, syscall.SIGTSTP))
	s.waitModes("0 00 1")
	s.waitText("Stopped", "shell$")
	s.shellLine("fg")
	s.waitModes("1 11 0")
	s.keys("q") // no Enter: the TUI has the terminal, raw
	s.confirmQuit(t, token)
}

// TestStopFromOutsideWithThePagerOpen: a SIGTSTP sent to jobtop from
// another terminal while the o pager is open stops the pager too, as ^Z
// typed in it would: less gives the terminal back before the shell
// prompts, and fg brings less back with the terminal as less wants it
// (one key, no Enter, quits it).
func TestStopFromOutsideWithThePagerOpen(t *testing.T) {
	bin := binary(t)
	token := fmt.Sprintf("%d.%d", os.Getpid(), 5959)
	s := shellSession(t, 120, 30)
	pid := s.runInShell("PAGER='less -R' " + bin + " --name ticker 'echo up; while :; do sleep 0.2; done # " + token + "'")
	s.keys("o")
	s.waitFor("less on the log file", lessOnTheLog)

	require.NoError(t, syscall.Kill(pid, syscall.SIGTSTP))
	s.waitText("Stopped", "shell$")
	s.waitModes("0 00 1") // less left the alternate screen before the shell prompted
	s.shellLine("fg")
	s.waitFor("less on the log file again", lessOnTheLog)
	s.keys("q") // no Enter: less has the terminal as it wants it
	s.waitModes("1 11 0")
	s.waitText("● 1 running")
	s.keys("q")
	s.confirmQuit(t, token)
}

// A pager that ends on the stop (less at its "binary file?" prompt exits
// on SIGTSTP) leaves the terminal to the TUI, which gives it back before
// jobtop stops, as without a pager; fg takes it again (rev52: jobtop
// stopped holding the terminal, and neither fg nor kill %1 got it back).
func TestStopFromOutsideWhenThePagerEndsOnIt(t *testing.T) {
	bin := binary(t)
	token := fmt.Sprintf("%d.%d", os.Getpid(), 6161)
	s := shellSession(t, 120, 30)
	pid := s.runInShell("LC_ALL=C LANG= LESSCHARSET= PAGER=less " + bin + " --name cr 'printf \"a\\rb\\n\"; while :; do sleep 0.2; done # " + token + "'")
	s.keys("o")
	s.waitText("See it anyway?")

	require.NoError(t, syscall.Kill(pid, syscall.SIGTSTP))
	s.waitText("Stopped", "shell$")
	s.waitModes("0 00 1") // the TUI gave the terminal back
	s.shellLine("fg")
	s.waitModes("1 11 0")
	s.waitText("● 1 running")
	s.keys("q")
	s.confirmQuit(t, token)
}

// lessOnTheLog says whether less shows the log of a job's first run.
func lessOnTheLog(scr []string) bool {
	return slices.ContainsFunc(scr, func(r string) bool { return strings.HasPrefix(r, "[jobtop] ── run 1 · started") }) &&
		strings.Contains(strings.Join(scr, "\n"), "(END)")
}

// waitGone waits until pid has exited (gone, or a zombie).
func waitGone(t *testing.T, pid int) {
	t.Helper()
	end := time.Now().Add(deadline)
	for !isZombie(strconv.Itoa(pid)) {
		if time.Now().After(end) {
			t.Fatalf("jobtop %d still there, state %s", pid, processState(pid))
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestKillOfAStoppedTUIEndsIt: kill %1 on a TUI stopped by the shell's
// job control (bash sends SIGTERM, then SIGCONT, with jobtop in the
// background) ends it as SIGTERM does in the foreground: every job
// stopped with its grace, the terminal left to the shell as it is.
func TestKillOfAStoppedTUIEndsIt(t *testing.T) {
	bin := binary(t)
	token := fmt.Sprintf("%d.%d", os.Getpid(), 6060)
	done := filepath.Join(t.TempDir(), "cleaned")
	s := shellSession(t, 120, 30)
	pid := s.runInShell(bin + " --name graceful \"" + gracefulJob(done, token) + "\"")
	require.NoError(t, syscall.Kill(pid, syscall.SIGTSTP))
	s.waitText("Stopped", "shell$")
	s.shellLine("kill %1")
	waitGone(t, pid)
	waitNoneLeft(t, token, deadline)
	b, err := os.ReadFile(done)
	require.NoError(t, err, "the job got its stop signal and ran its trap")
	require.Equal(t, "cleaned\n", string(b))
	require.Equal(t, "0 00 1", s.terminalModes(), "the terminal is the shell's, as jobtop left it")
}

// TestContinuedInTheBackground: a TUI stopped by the shell and continued
// in the background (kill -CONT) does not take the terminal (it would be
// stopped for it, SIGTTOU): a SIGTERM ends it there, and fg, before,
// brings it back whole.
func TestContinuedInTheBackground(t *testing.T) {
	bin := binary(t)
	token := fmt.Sprintf("%d.%d", os.Getpid(), 6161)
	s := shellSession(t, 120, 30)
	pid := s.runInShell(bin + " --name ticker 'while :; do sleep 0.2; done # " + token + "'")
	require.NoError(t, syscall.Kill(pid, syscall.SIGTSTP))
	s.waitText("Stopped", "shell$")
	require.NoError(t, syscall.Kill(pid, syscall.SIGCONT))
	s.shellLine("fg")
	s.waitModes("1 11 0")
	s.waitText("● 1 running")

	require.NoError(t, syscall.Kill(pid, syscall.SIGTSTP))
	s.waitModes("0 00 1")
	require.Eventually(t, func() bool { return processState(pid) == "T" }, deadline, 20*time.Millisecond, "stopped")
	require.NoError(t, syscall.Kill(pid, syscall.SIGCONT))
	require.NoError(t, syscall.Kill(pid, syscall.SIGTERM))
	waitGone(t, pid)
	waitNoneLeft(t, token, deadline)
}

// TestKillOfAStoppedTUIWithThePagerOpen: kill %1 on a TUI stopped with
// the o pager open ends the pager and jobtop, every job stopped with its
// grace, in the background.
func TestKillOfAStoppedTUIWithThePagerOpen(t *testing.T) {
	bin := binary(t)
	token := fmt.Sprintf("%d.%d", os.Getpid(), 6262)
	done := filepath.Join(t.TempDir(), "cleaned")
	s := shellSession(t, 120, 30)
	pid := s.runInShell("PAGER='less -R' " + bin + " --name graceful \"" + gracefulJob(done, token) + "\"")
	s.keys("o")
	s.waitFor("less on the log file", lessOnTheLog)
	require.NoError(t, syscall.Kill(pid, syscall.SIGTSTP))
	s.waitText("Stopped", "shell$")
	s.shellLine("kill %1")
	waitGone(t, pid)
	waitNoneLeft(t, token, deadline)
	b, err := os.ReadFile(done)
	require.NoError(t, err, "the job got its stop signal and ran its trap")
	require.Equal(t, "cleaned\n", string(b))
}

// runInShell runs a jobtop command line at the shell's prompt and returns
// jobtop's PID once its one job runs.
func (s *session) runInShell(line string) int {
	s.t.Helper()
	s.waitText("shell$")
	s.shellLine(line)
	s.waitText("● 1 running")
	return s.shellJobPID()
}

// confirmQuit answers the TUI's quit question with y and waits until it
// has given the terminal back and nothing of its jobs (marked token) is
// left.
func (s *session) confirmQuit(t *testing.T, token string) {
	t.Helper()
	s.waitText("stop it and quit? y/n")
	s.keys("y")
	s.waitModes("0 00 1")
	waitNoneLeft(t, token, deadline)
}
