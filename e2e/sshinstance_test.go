package e2e

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"jobtop/control"
)

// Over ssh as here, the commands that read or act on existing jobs start
// no far instance: they say none runs there, and the next one still finds
// none. run starts one.
func TestSSHReadCommandsStartNoFarInstance(t *testing.T) {
	bin := binary(t)
	h := startSSHD(t)
	h.installJobtop(t, bin)
	sock := filepath.Join(h.farDir, "r.sock")
	r := newRemote(t, bin, h, "--remote-socket", sock)
	none := "no jobtop is listening on host 127.0.0.1:" + strconv.Itoa(h.port) + ", " + sock

	for _, args := range [][]string{{"ls"}, {"status", "1"}, {"logs", "1"}, {"wait", "1"}, {"kill", "1"}, {"rm", "1"}, {"shutdown"}, {"ls"}} {
		_, stderr, code := r.run(args...)
		want := 1
		if args[0] == "wait" {
			want = 255 // wait's own code for no instance: no outcome of the job's
		}
		assert.Equal(t, want, code, "jobtop --host %v", args)
		assert.Contains(t, stderr, none, "jobtop --host %v", args)
		// How to start one there: not `jobtop serve`, which --host
		// refuses, or a plain `jobtop run`, which starts one here.
		assert.Contains(t, stderr, "(start one with `ssh "+h.url+" jobtop serve --socket "+sock+"`; `jobtop --host "+h.url+" --remote-socket "+sock+" run` starts one for you)", "jobtop --host %v", args)
	}

	r.shutdownOnCleanup()
	assert.Equal(t, "1\n", r.ok("run", "--name", "web", "--", "exec sleep 300"), "run starts the far instance")
	assert.Contains(t, r.ok("ls"), "web")
	_, stderr, code := r.run("run", "--cwd", "/no/such/dir", "--", "true")
	assert.Equal(t, 1, code)
	assert.Equal(t, "jobtop: cwd \"/no/such/dir\" does not exist on host 127.0.0.1:"+strconv.Itoa(h.port)+"\n", stderr, "the directory missing there, not here")
}

// A TUI attached to several hosts whose reconnection to one finds another
// far instance (the old one was killed; the reconnection started a fresh
// one) says so, instead of showing "no jobs" without a word. (Attached to
// one host only, the TUI ends instead, as a plain attach does.)
func TestSSHAttachSaysTheFarInstanceWasReplaced(t *testing.T) {
	bin := binary(t)
	here := startServe(t, bin)
	h := startSSHD(t)
	h.installJobtop(t, bin)
	sock := filepath.Join(h.farDir, "r.sock")
	r := newRemote(t, bin, h, "--remote-socket", sock)
	name := "127.0.0.1:" + strconv.Itoa(h.port)
	r.shutdownOnCleanup()
	r.ok("run", "--name", "web", "--", "exec sleep 300")
	c := control.NewClient(sock)
	defer c.Close()
	first, err := c.Instance(context.Background())
	require.NoError(t, err)

	s := newSession(t, 200, 30, here.sessionEnv(),
		append(append([]string{"env"}, h.env...), bin, "attach", "--host", h.url, "--remote-socket", sock, "--local")...)
	s.waitText("web", "● 1 running")

	require.NoError(t, syscall.Kill(first.PID, syscall.SIGKILL))
	scr := s.waitText("the jobtop instance on " + name + " was replaced by serve (pid ")
	assert.Contains(t, strings.Join(scr, "\n"), "): its jobs ended with it")
	second, err := c.Instance(context.Background())
	require.NoError(t, err)
	assert.NotEqual(t, first.PID, second.PID, "the reconnection started a new far instance")
	assert.Contains(t, strings.Join(scr, "\n"), "pid "+strconv.Itoa(second.PID))

	r.ok("run", "--name", "api", "--", "exec sleep 300")
	s.waitText("api")
	s.quit("running in jobtop on " + name + ", local. quit? y/n")
}

// A TUI attached to a host whose instance is shut down there (jobtop
// --host H shutdown), beside another host, starts no new instance on it:
// what it still asks (the stopped job's last output) runs dial-stdio
// --no-start, the host reads "shut down", no ssh of the TUI's stays, and
// nothing answers on the far socket afterwards.
func TestSSHAttachStartsNoFarInstanceAfterAShutdown(t *testing.T) {
	// Its last words come after the stop: the TUI fetches them once the
	// instance is going.
	here := startServe(t, binary(t))
	h, r, s, name := attachedToAHost(t, 200, "trap 'echo bye; exit 0' TERM; while :; do sleep 0.1; done", here.sessionEnv(), "--local")
	pid := s.jobtopPID()

	_, stderr, code := r.run("shutdown")
	require.Equal(t, 0, code, "shutdown: %s", stderr)
	s.waitText(name + ": shut down")
	require.Eventually(t, func() bool { return len(h.sshProcesses(pid)) == 0 }, deadline, 20*time.Millisecond,
		"the TUI keeps an ssh to the host (a new instance there?)")
	_, stderr, code = r.run("ls")
	assert.Equal(t, 1, code, "no instance runs on the host: %s", stderr)
	assert.Contains(t, stderr, "no jobtop is listening on host "+name)
	assert.Contains(t, strings.Join(s.screen(), "\n"), name+": shut down")
}

// A TUI attached to one host only ends when the instance there is shut
// down, as a plain attach does when its instance shuts down: the same
// words, exit status 0; it did not stay open on a table of nothing with
// "shut down" in its status bar. It starts no new instance there.
func TestSSHAttachToOneHostEndsWhenItShutsDown(t *testing.T) {
	h, r, s, name := attachedToAHost(t, 200, "exec sleep 300", nil)

	_, stderr, code := r.run("shutdown")
	require.Equal(t, 0, code, "shutdown: %s", stderr)
	require.Equal(t, "0", s.waitExit())
	tuiErr, err := os.ReadFile(filepath.Join(filepath.Dir(s.status), "stderr"))
	require.NoError(t, err)
	assert.Equal(t, "the jobtop instance on host "+name+" shut down (its jobs were stopped)\n", string(tuiErr))
	require.Eventually(t, func() bool { return len(h.sshProcesses(0)) == 0 }, deadline, 20*time.Millisecond,
		"the TUI's ssh has exited")
	_, stderr, code = r.run("ls")
	assert.Equal(t, 1, code, "no instance runs on the host: %s", stderr)
	assert.Contains(t, stderr, "no jobtop is listening on host "+name)
}

// A TUI attached to one host whose instance there is killed ends as a
// plain attach does when its instance is killed: the same words, naming
// the host, exit status 1. It stayed open, saying the instance "was
// replaced": its reconnection's dial-stdio had started a new instance
// there, left running after it. A broken link to the instance, still
// there, is connected again, as before.
func TestSSHAttachToOneHostEndsWhenItsInstanceIsKilled(t *testing.T) {
	h, r, s, name := attachedToAHost(t, 200, "exec sleep 300", nil)
	c := control.NewClient(filepath.Join(h.farDir, "r.sock"))
	defer c.Close()
	first, err := c.Instance(context.Background())
	require.NoError(t, err)

	ssh := h.sshProcesses(s.jobtopPID())
	require.Len(t, ssh, 1)
	require.NoError(t, syscall.Kill(ssh[0], syscall.SIGKILL))
	s.waitText(name + ": disconnected, ")
	s.waitFor("the host back", func(scr []string) bool {
		return !strings.Contains(strings.Join(scr, "\n"), "disconnected")
	})

	require.NoError(t, syscall.Kill(first.PID, syscall.SIGKILL))
	require.Equal(t, "1", s.waitExit())
	tuiErr, err := os.ReadFile(filepath.Join(filepath.Dir(s.status), "stderr"))
	require.NoError(t, err)
	assert.Equal(t, "jobtop: lost the jobtop instance on host "+name+": it went away without shutting down (killed, or crashed?)\n", string(tuiErr))
	require.Eventually(t, func() bool { return len(h.sshProcesses(0)) == 0 }, deadline, 20*time.Millisecond,
		"the TUI's ssh has exited")
	_, stderr, code := r.run("ls")
	assert.Equal(t, 1, code, "no instance was started on the host: %s", stderr)
	assert.Contains(t, stderr, "no jobtop is listening on host "+name)
}

// A TUI whose reconnections to a host keep failing says why, in ssh's
// words, beside the countdown: here its key is no longer accepted.
func TestSSHAttachSaysWhyReconnectionsFail(t *testing.T) {
	h, _, s, name := attachedToAHost(t, 240, "exec sleep 300", nil)
	pid := s.jobtopPID()
	ssh := h.sshProcesses(pid)
	require.Len(t, ssh, 1)

	h.useKey("wrongid")
	t.Cleanup(func() { h.useKey("id") }) // before the far instance's shutdown
	require.NoError(t, syscall.Kill(ssh[0], syscall.SIGKILL))
	s.waitText(name+": disconnected, ", "; ssh said: ", "Permission denied (publickey)")

	h.useKey("id")
	s.waitFor("the host back, without the reason", func(scr []string) bool {
		all := strings.Join(scr, "\n")
		return !strings.Contains(all, "disconnected") && !strings.Contains(all, "Permission denied")
	})
}

// attachedToAHost starts an instance on an sshd of the test's own with a
// job web running command, and a TUI attached to it (with env and the
// attach flags given), cols wide: the host, the CLI on it, the TUI and
// the host's name as the TUI shows it. The TUI's stderr goes to the file
// stderr beside the session's status file.
func attachedToAHost(t *testing.T, cols int, command string, env []string, flags ...string) (*sshHost, *remote, *session, string) {
	t.Helper()
	bin := binary(t)
	h := startSSHD(t)
	h.installJobtop(t, bin)
	sock := filepath.Join(h.farDir, "r.sock")
	r := newRemote(t, bin, h, "--remote-socket", sock)
	r.shutdownOnCleanup()
	r.ok("run", "--name", "web", "--", command)
	argv := append(append([]string{"env"}, h.env...), "sh", "-c", `exec "$@" 2>"$(dirname "$JOBTOP_E2E_STATUS")/stderr"`, "sh",
		bin, "attach", "--host", h.url, "--remote-socket", sock)
	s := newSession(t, cols, 30, env, append(argv, flags...)...)
	s.waitText("web", "● 1 running")
	return h, r, s, "127.0.0.1:" + strconv.Itoa(h.port)
}
