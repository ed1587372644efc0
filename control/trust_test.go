package control

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The client refuses a socket in a directory others could write to or
// own, before it connects, saying what is wrong and how to fix it; an
// instance does not start serving there either.
func TestClientRefusesASocketInAnUntrustedDirectory(t *testing.T) {
	in := startInstance(t)
	dir := filepath.Dir(in.socket)
	for _, mode := range []os.FileMode{0o775, 0o757, 0o1777} {
		require.NoError(t, os.Chmod(dir, mode))
		_, err := NewClient(in.socket).Jobs(ctxT(t))
		var untrusted *UntrustedSocketError
		require.ErrorAs(t, err, &untrusted)
		perm := mode.Perm()
		if mode&os.ModeSticky != 0 {
			perm = 0o777 // os.Chmod takes the sticky bit; Perm() leaves it out
		}
		assert.Equal(t, fmt.Sprintf("refusing to use the socket %s: its directory %s has mode %04o, so other users could replace the socket; chmod go-w %s, or use --socket in a directory of your own that only you may write to", in.socket, dir, perm, dir), err.Error())
		_, err = Listen(filepath.Join(dir, "second.sock"))
		require.Error(t, err)
		assert.Contains(t, err.Error(), fmt.Sprintf("cannot serve in %s: its directory %s has mode %04o", dir, dir, perm))
	}
	// Others may read it, as a project's directory (overmind's
	// .overmind.sock): they cannot replace the socket, nor connect to it
	// (0600, and the server's check of each peer).
	for _, mode := range []os.FileMode{0o755, 0o700} {
		require.NoError(t, os.Chmod(dir, mode))
		_, err := NewClient(in.socket).Jobs(ctxT(t))
		require.NoError(t, err, "mode %04o of our own: trusted", mode)
	}
	var untrusted *UntrustedSocketError
	var err error

	link := filepath.Join(shortTempDir(t), "link")
	require.NoError(t, os.Symlink(dir, link))
	_, err = NewClient(filepath.Join(link, "s.sock")).Jobs(ctxT(t))
	require.ErrorAs(t, err, &untrusted)
	assert.Contains(t, err.Error(), "is not a directory (a symlink?)")

	if os.Getuid() != 0 {
		t.Skip("giving a directory to another uid needs root")
	}
	require.NoError(t, os.Chown(dir, 65534, 65534))
	_, err = NewClient(in.socket).Jobs(ctxT(t))
	require.ErrorAs(t, err, &untrusted)
	assert.Contains(t, err.Error(), "its directory "+dir+" belongs to uid 65534, not to you (uid 0); remove "+dir)
}

// The client refuses a socket served by another user (SO_PEERCRED), even
// in a directory of its own: no request reaches that process.
func TestClientRefusesAServerOfAnotherUser(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("running a server as another uid needs root")
	}
	// The helper, as uid 65534, listens in a directory of its own; the
	// socket is then moved into one of ours.
	theirs := shortTempDir(t)
	require.NoError(t, os.Chown(theirs, 65534, 65534))
	bin := filepath.Join(shortTempDir(t), "helper")
	copyExecutable(t, os.Args[0], bin)
	require.NoError(t, os.Chmod(filepath.Dir(bin), 0o755))
	cmd := exec.Command(bin)
	cmd.Env = append(os.Environ(), helperEnv+"=hold:"+filepath.Join(theirs, "s.sock"), "GORACE=atexit_sleep_ms=0")
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	t.Cleanup(func() {
		cmd.Process.Kill() //nolint:errcheck // may be gone
		cmd.Wait()         //nolint:errcheck // killed on purpose
	})
	line, err := bufio.NewReader(stdout).ReadString('\n')
	require.NoError(t, err)
	require.Equal(t, "ready\n", line)
	ours := filepath.Join(shortTempDir(t), "s.sock")
	require.NoError(t, os.Rename(filepath.Join(theirs, "s.sock"), ours))

	_, err = NewClient(ours).StartJob(ctxT(t), StartRequest{Command: "true", Env: map[string]string{"TOKEN": "secret"}})
	var untrusted *UntrustedSocketError
	require.ErrorAs(t, err, &untrusted)
	assert.Equal(t, "refusing to use the socket "+ours+": it is served by uid 65534, not by you (uid 0); stop that process or remove the socket, or use --socket with a socket of your own jobtop", err.Error())
}
