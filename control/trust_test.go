package control

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
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
	assert.Contains(t, err.Error(), "its directory "+dir+" belongs to uid 65534")
	assert.Contains(t, err.Error(), "not to you (uid 0); use --socket in a directory of your own", "not the default directory: no advice to remove it")
}

// The client refuses a socket served by another user (SO_PEERCRED), even
// in a directory of its own: no request reaches that process.
func TestClientRefusesAServerOfAnotherUser(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("running a server as another uid needs root")
	}
	// The helper, as uid 65534, listens in a directory of its own; the
	// socket is then moved into one of ours.
	reach, bin := otherUsersDir(t)
	theirs := dirIn(t, reach)
	require.NoError(t, os.Chown(theirs, 65534, 65534))
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
	ours := filepath.Join(dirIn(t, reach), "s.sock") // (a rename: on the same file system)
	require.NoError(t, os.Rename(filepath.Join(theirs, "s.sock"), ours))

	_, err = NewClient(ours).StartJob(ctxT(t), StartRequest{Command: "true", Env: map[string]string{"TOKEN": "secret"}})
	var untrusted *UntrustedSocketError
	require.ErrorAs(t, err, &untrusted)
	assert.Equal(t, "refusing to use the socket "+ours+": it is served by uid 65534, not by you (uid 0); stop that process or remove the socket, or use --socket with a socket of your own jobtop", err.Error())
}

// A socket directory of another user: the refusal names the owner, and
// tells a user who cannot remove it (sticky /tmp) that only the owner or
// root can, and a lasting way out; "remove" is advice only for the
// default directory, and only for a user who can remove it.
func TestRefusalAdviceFitsWhoCanRemoveTheDirectory(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("directories of other users, and a client of another uid, need root")
	}
	reach, bin := otherUsersDir(t)
	// client runs a client of socket as uid 65534 (the user), whose
	// runtime directory is runtime, and returns the error it printed.
	client := func(runtime, socket string) string {
		cmd := exec.Command(bin)
		cmd.Env = append(os.Environ(), helperEnv+"=client:"+socket, "XDG_RUNTIME_DIR="+runtime, "GORACE=atexit_sleep_ms=0")
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, string(out))
		return strings.TrimSpace(string(out))
	}
	runtime := dirIn(t, reach)
	require.NoError(t, os.Chmod(runtime, 0o755))
	dir := filepath.Join(runtime, "jobtop") // the user's default directory, made by uid 4242 first
	require.NoError(t, os.Mkdir(dir, 0o700))
	require.NoError(t, os.Chown(dir, 4242, 4242))
	out := client(runtime, filepath.Join(dir, "jobtop.sock"))
	assert.Contains(t, out, "its directory "+dir+" belongs to uid 4242, not to you (uid 65534)")
	assert.Contains(t, out, "only uid 4242 or root can remove it")
	assert.Contains(t, out, "export JOBTOP_SOCKET=~/.jobtop.sock")
	assert.NotContains(t, out, "remove "+dir)

	other := filepath.Join(dirIn(t, reach), "shared") // not the default: JOBTOP_SOCKET in another user's directory
	require.NoError(t, os.Chmod(filepath.Dir(other), 0o755))
	require.NoError(t, os.Mkdir(other, 0o755))
	require.NoError(t, os.Chown(other, 4242, 4242))
	out = client(runtime, filepath.Join(other, "s.sock"))
	assert.Contains(t, out, "its directory "+other+" belongs to uid 4242, not to you (uid 65534)")
	assert.NotContains(t, out, "remove "+other)
	assert.NotContains(t, out, "a new instance makes it again")
	assert.Contains(t, out, "export JOBTOP_SOCKET=~/.jobtop.sock")

	// The user's own default directory, a symlink: removing it is theirs
	// to do, and a new instance makes it again.
	require.NoError(t, os.Remove(dir))
	require.NoError(t, os.Symlink(shortTempDir(t), dir))
	require.NoError(t, os.Lchown(dir, 65534, 65534))
	out = client(runtime, filepath.Join(dir, "jobtop.sock"))
	assert.Contains(t, out, "is not a directory (a symlink?)")
	assert.Contains(t, out, "remove "+dir+" (a new instance makes it again)")
}
