package cmd

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"jobtop/jobs"
)

// jobtop 'sleep 30' 'sleep 31' --name a,a started two live jobs named a
// without a word; jobtop run says when a name it gives is another live
// job's. The TUI's command-line jobs now say it as run does, in the
// status bar and on stderr (under the screen), whether jobtop is the
// instance or attaches to one; names apart say nothing.
func TestTheTUIsCommandLineJobsOfOneNameAreSaid(t *testing.T) {
	for _, attach := range []bool{false, true} {
		c := newCLI(t)
		if attach {
			c.serve()
		}
		screen, stderr, exited := tuiOnPTY(t, c, "sleep 30", "sleep 31", "--name", "a,a")
		require.Eventually(t, func() bool { return c.run("ls").code == 0 }, testTimeout, 20*time.Millisecond, "%s %s", stderr(), plainScreen(screen.String()))
		c.eventually("both jobs a running", func(j map[string]jobs.Info) bool { return j["a"].State == jobs.StateRunning && len(j) == 1 })
		said := "job 1, also named a, has not ended: a names job 2 now (the newest); jobtop kill 1 ends it"
		require.Eventually(t, func() bool {
			return regexp.MustCompile(`also named a, has not ended`).MatchString(plainScreen(screen.String()))
		},
			testTimeout, 20*time.Millisecond, "attach %v: the status bar says it: %q", attach, plainScreen(screen.String()))
		c.ok("shutdown")
		exitCode(t, exited, "jobtop did not end")
		assert.Contains(t, stderr(), "jobtop: "+said+"\n", "attach %v", attach)
	}
	c := newCLI(t)
	screen, stderr, exited := tuiOnPTY(t, c, "sleep 30", "sleep 31", "--name", "a,b")
	require.Eventually(t, func() bool { return c.run("ls").code == 0 }, testTimeout, 20*time.Millisecond, "%s %s", stderr(), plainScreen(screen.String()))
	c.eventually("a and b running", func(j map[string]jobs.Info) bool {
		return j["a"].State == jobs.StateRunning && j["b"].State == jobs.StateRunning
	})
	require.Eventually(t, func() bool { return regexp.MustCompile(`2 running`).MatchString(plainScreen(screen.String())) }, testTimeout, 20*time.Millisecond)
	c.ok("shutdown")
	exitCode(t, exited, "jobtop did not end")
	assert.NotContains(t, stderr(), "also named")
	assert.NotContains(t, plainScreen(screen.String()), "also named")
}

// tuiOnPTY runs jobtop ARGS in a terminal of its own (a pty, 200 columns
// wide), and returns what it draws, its stderr (read apart) and its end.
func tuiOnPTY(t *testing.T, c *cli, args ...string) (screen *lockedBuffer, stderr func() string, exited chan error) {
	t.Helper()
	proc := exec.Command(binary, args...)
	proc.Env = append(c.env[:len(c.env):len(c.env)], "TERM=xterm-256color")
	proc.Dir = t.TempDir()
	master, stderr := startOnPTY(t, proc, 200)
	screen = &lockedBuffer{}
	go func() {
		buf := make([]byte, 4096)
		for {
			n, err := master.Read(buf)
			screen.Write(buf[:n]) //nolint:errcheck // a buffer
			if err != nil {
				return
			}
		}
	}()
	exited, done := make(chan error, 1), make(chan struct{})
	go func() {
		exited <- proc.Wait()
		close(done)
	}()
	t.Cleanup(func() {
		proc.Process.Kill() //nolint:errcheck // may have exited
		<-done
	})
	return screen, stderr, exited
}

// startOnPTY starts proc in a terminal of its own, cols wide and 30 rows
// high, its stderr read apart: the terminal's master, and what proc has
// written to stderr so far.
func startOnPTY(t *testing.T, proc *exec.Cmd, cols uint16) (master *os.File, stderr func() string) {
	t.Helper()
	errPath := filepath.Join(t.TempDir(), "stderr")
	errFile, err := os.Create(errPath)
	require.NoError(t, err)
	defer errFile.Close()
	proc.Stderr = errFile
	master, err = pty.StartWithAttrs(proc, &pty.Winsize{Cols: cols, Rows: 30}, &syscall.SysProcAttr{Setsid: true, Setctty: true})
	require.NoError(t, err)
	t.Cleanup(func() { master.Close() })
	return master, func() string { said, _ := os.ReadFile(errPath); return string(said) }
}

// plainScreen is what a terminal was sent, its escape sequences taken out.
func plainScreen(s string) string {
	return regexp.MustCompile(`\x1b(\[[0-9;?<>=]*[ -/]*[@-~]|\][^\x07\x1b]*(\x07|\x1b\\)|[()][0-9A-Za-z]|[=>78])`).ReplaceAllString(s, "")
}
