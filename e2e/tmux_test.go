// Package e2e drives the built jobtop binary in tmux, for what only a real
// terminal shows: keys, resizes, colours, and that quitting leaves no job
// process alive. It imports nothing of jobtop; it runs the binary.
package e2e

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// deadline bounds every wait on the terminal: generous, for a loaded
// machine.
const deadline = 30 * time.Second

var (
	buildOnce sync.Once
	binPath   string
	buildErr  error
	buildDir  string
)

func TestMain(m *testing.M) {
	code := m.Run()
	if buildDir != "" {
		os.RemoveAll(buildDir)
	}
	if helperDir != "" {
		os.RemoveAll(helperDir)
	}
	os.Exit(code)
}

// binary builds jobtop once per test run and returns its path;
// JOBTOP_BIN names a binary to use instead (to measure another build).
func binary(t testing.TB) string {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Fatal("tmux is needed for the end-to-end tests (.ci/run installs it): ", err)
	}
	if bin := os.Getenv("JOBTOP_BIN"); bin != "" {
		return bin
	}
	buildOnce.Do(func() {
		buildDir, buildErr = os.MkdirTemp("", "jobtop-e2e-bin-")
		if buildErr != nil {
			return
		}
		binPath = filepath.Join(buildDir, "jobtop")
		out, err := exec.Command("go", "build", "-o", binPath, "jobtop").CombinedOutput()
		if err != nil {
			buildErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	require.NoError(t, buildErr)
	return binPath
}

// session is a tmux server of its own (a private socket) running one
// command in a detached session.
type session struct {
	t      testing.TB
	socket string
	name   string
	status string // file the command's exit status is written to
}

// statusScript runs the command and writes its exit status to a file:
// tmux marks a pane dead when its terminal closes but can be late to reap
// the process and tell its status, so the tests do not ask tmux.
const statusScript = `"$@"; echo $? > "$JOBTOP_E2E_STATUS"`

// newSession starts argv in a new tmux session of the given size. The
// environment adds env (KEY=VALUE) to the test's own; jobtop's state (log
// files) goes to a temporary directory, and its socket too unless env
// sets JOBTOP_SOCKET.
func newSession(t testing.TB, width, height int, env []string, argv ...string) *session {
	t.Helper()
	dir := t.TempDir()
	require.NoError(t, os.Chmod(dir, 0o700)) // the socket's directory must be private
	s := &session{
		t:      t,
		socket: filepath.Join(dir, "tmux.sock"), // removed with dir: kill-server leaves it
		name:   "e2e",
		status: filepath.Join(dir, "status"),
	}
	t.Cleanup(func() {
		_ = s.tmuxErr("kill-server")
		waitForProcessesOf(t, dir)
	})
	base := []string{"XDG_STATE_HOME=" + dir, "TERM=xterm-256color", "JOBTOP_E2E_STATUS=" + s.status}
	if !slices.ContainsFunc(env, func(e string) bool { return strings.HasPrefix(e, "JOBTOP_SOCKET=") }) {
		// An instance of its own: never the user's, never another test's.
		base = append(base, "JOBTOP_SOCKET="+filepath.Join(dir, "s.sock"))
	}
	env = append(base, env...)
	args := []string{"new-session", "-d", "-s", s.name, "-x", fmt.Sprint(width), "-y", fmt.Sprint(height)}
	for _, e := range env {
		args = append(args, "-e", e)
	}
	args = append(args, append([]string{"sh", "-c", statusScript, "sh"}, argv...)...)
	s.tmux(args...)
	return s
}

// waitForProcessesOf waits, with a deadline, until no process has dir as
// its XDG_STATE_HOME: a jobtop whose terminal is gone still stops its jobs
// and writes their logs there, and the directory's removal would fail
// under it ("directory not empty").
func waitForProcessesOf(t testing.TB, dir string) {
	want := []byte("\x00XDG_STATE_HOME=" + dir + "\x00")
	end := time.Now().Add(deadline)
	for time.Now().Before(end) {
		entries, _ := os.ReadDir("/proc")
		left := false
		for _, e := range entries {
			if env, err := os.ReadFile("/proc/" + e.Name() + "/environ"); err == nil && bytes.Contains(append([]byte{0}, env...), want) {
				left = true
				break
			}
		}
		if !left {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Errorf("processes of %s still run %v after their tmux server was killed", dir, deadline)
}

func (s *session) tmuxErr(args ...string) error {
	_, err := s.tmuxOut(args...)
	return err
}

// tmuxEnv is the environment the tmux server and so jobtop start with:
// the test's, without CI, which makes termenv assume no terminal (and so
// no colours) even inside tmux.
func tmuxEnv() []string {
	var env []string
	for _, e := range os.Environ() {
		if !strings.HasPrefix(e, "CI=") {
			env = append(env, e)
		}
	}
	return env
}

func (s *session) tmuxOut(args ...string) (string, error) {
	cmd := exec.Command("tmux", append([]string{"-S", s.socket}, args...)...)
	cmd.Env = tmuxEnv()
	out, err := cmd.CombinedOutput()
	if err != nil {
		return string(out), fmt.Errorf("tmux %s: %v: %s", strings.Join(args, " "), err, out)
	}
	return string(out), nil
}

func (s *session) tmux(args ...string) string {
	s.t.Helper()
	out, err := s.tmuxOut(args...)
	require.NoError(s.t, err)
	return out
}

// keys sends tmux key names ("x", "Enter", "Escape", "C-c").
func (s *session) keys(keys ...string) {
	s.t.Helper()
	s.tmux(append([]string{"send-keys", "-t", s.name}, keys...)...)
}

// screen is the pane's text, one string per row.
func (s *session) screen() []string {
	s.t.Helper()
	out := s.tmux("capture-pane", "-p", "-t", s.name)
	return strings.Split(strings.TrimSuffix(out, "\n"), "\n")
}

// screenWithColours is the pane with its SGR sequences.
func (s *session) screenWithColours() string {
	s.t.Helper()
	return s.tmux("capture-pane", "-p", "-e", "-t", s.name)
}

// waitFor polls the screen until cond holds, failing after the deadline.
func (s *session) waitFor(what string, cond func(screen []string) bool) []string {
	s.t.Helper()
	return s.waitForWithin(deadline, what, cond)
}

// waitForWithin is waitFor with a deadline of its own, for what is slow
// by nature (a thousand jobs starting on a busy machine).
func (s *session) waitForWithin(d time.Duration, what string, cond func(screen []string) bool) []string {
	s.t.Helper()
	end := time.Now().Add(d)
	for {
		scr := s.screen()
		if cond(scr) {
			return scr
		}
		if time.Now().After(end) {
			s.t.Fatalf("timed out waiting for %s; screen:\n%s", what, strings.Join(scr, "\n"))
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// waitText waits until every text is on screen.
func (s *session) waitText(texts ...string) []string {
	s.t.Helper()
	return s.waitFor(strings.Join(texts, ", "), func(scr []string) bool {
		all := strings.Join(scr, "\n")
		for _, t := range texts {
			if !strings.Contains(all, t) {
				return false
			}
		}
		return true
	})
}

// row is the screen row that contains text, or "".
func row(scr []string, text string) string {
	for _, r := range scr {
		if strings.Contains(r, text) {
			return r
		}
	}
	return ""
}

// waitExit waits for the command to end and returns its exit status.
func (s *session) waitExit() string {
	s.t.Helper()
	end := time.Now().Add(deadline)
	for {
		if b, err := os.ReadFile(s.status); err == nil && strings.HasSuffix(string(b), "\n") {
			return strings.TrimSpace(string(b))
		}
		if time.Now().After(end) {
			s.t.Fatalf("jobtop did not exit; screen:\n%s", strings.Join(s.screen(), "\n"))
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// quit presses q, waits for the question that asks whether to quit
// (prompt, some of its text), answers y and requires a clean exit.
func (s *session) quit(prompt string) {
	s.t.Helper()
	s.keys("q")
	s.waitText(prompt)
	s.keys("y")
	require.Equal(s.t, "0", s.waitExit(), "jobtop exits cleanly")
}

// processesWith lists live processes whose command line contains token,
// other than tmux, jobtop and the status script around it.
func processesWith(token string) []string {
	var found []string
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err != nil {
			continue
		}
		argv0, _, _ := strings.Cut(string(b), "\x00")
		cmd := strings.ReplaceAll(string(b), "\x00", " ")
		switch filepath.Base(argv0) {
		case "tmux", "env", "jobtop":
			continue
		}
		if strings.Contains(cmd, token) && !strings.Contains(cmd, "JOBTOP_E2E_STATUS") && !isZombie(e.Name()) {
			found = append(found, e.Name()+": "+cmd)
		}
	}
	return found
}

func isZombie(pid string) bool {
	b, err := os.ReadFile(filepath.Join("/proc", pid, "stat"))
	if err != nil {
		return true
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	return i < 0 || strings.HasPrefix(s[i+1:], " Z")
}
