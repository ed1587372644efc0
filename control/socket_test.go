package control

import (
	"bufio"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func writeFile(path string) error { return os.WriteFile(path, []byte("x"), 0o600) }

func TestResolveSocketPath(t *testing.T) {
	t.Setenv(SocketEnv, "/tmp/from-env.sock")
	assert.Equal(t, "/tmp/flag.sock", ResolveSocketPath("/tmp/flag.sock"), "the flag wins")
	assert.Equal(t, "/tmp/from-env.sock", ResolveSocketPath(""), "then the variable")
	t.Setenv(SocketEnv, "")
	t.Setenv("XDG_RUNTIME_DIR", "/run/user/1234")
	assert.Equal(t, "/run/user/1234/jobtop/default.sock", ResolveSocketPath(""))
	t.Setenv("XDG_RUNTIME_DIR", "")
	assert.Equal(t, filepath.Join(os.TempDir(), "jobtop-"+strconv.Itoa(os.Getuid()), "default.sock"), ResolveSocketPath(""))
	wd, _ := os.Getwd()
	assert.Equal(t, filepath.Join(wd, "rel.sock"), ResolveSocketPath("rel.sock"), "made absolute for the jobs")
}

func TestSocketAndDirectoryArePrivate(t *testing.T) {
	runtime := shortTempDir(t)
	require.NoError(t, os.Chmod(runtime, 0o755))
	t.Setenv("XDG_RUNTIME_DIR", runtime)
	dir := filepath.Join(runtime, "jobtop")
	// A pre-existing default dir with loose permissions is tightened.
	require.NoError(t, os.Mkdir(dir, 0o777))
	require.NoError(t, os.Chmod(dir, 0o777))

	socket := DefaultSocketPath()
	l, err := Listen(socket)
	require.NoError(t, err)
	defer l.Close()
	st, err := os.Stat(dir)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o700), st.Mode().Perm())
	st, err = os.Stat(socket)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), st.Mode().Perm())
	assert.NotZero(t, st.Mode()&os.ModeSocket)

	// A --socket path in a directory that does not exist is refused
	// (mistyped, most likely: a server there would be found by no
	// client), and nothing is made; in one that exists, it serves.
	custom := filepath.Join(runtime, "a", "b", "x.sock")
	_, err = Listen(custom)
	require.Error(t, err)
	assert.Equal(t, "cannot serve on "+custom+": the directory "+filepath.Dir(custom)+" does not exist; check the socket's path (--socket), or make the directory first (mkdir -p -m 700 "+filepath.Dir(custom)+")", err.Error())
	assert.NoDirExists(t, filepath.Join(runtime, "a"))
	require.NoError(t, os.Mkdir(filepath.Join(runtime, "a"), 0o700))
	_, err = Listen(custom)
	assert.ErrorContains(t, err, "(mkdir -m 700 "+filepath.Dir(custom)+")", "its parent is there: no -p")
	require.NoError(t, os.MkdirAll(filepath.Dir(custom), 0o700))
	l2, err := Listen(custom)
	require.NoError(t, err)
	defer l2.Close()

	// The default directory is jobtop's own: made when missing, 0700.
	require.NoError(t, l.Close())
	require.NoError(t, os.RemoveAll(dir))
	l3, err := Listen(socket)
	require.NoError(t, err)
	defer l3.Close()
	st, err = os.Stat(dir)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o700), st.Mode().Perm())
}

func TestDefaultDirMustNotBeASymlink(t *testing.T) {
	runtime := shortTempDir(t)
	t.Setenv("XDG_RUNTIME_DIR", runtime)
	require.NoError(t, os.Symlink(t.TempDir(), filepath.Join(runtime, "jobtop")))
	_, err := Listen(DefaultSocketPath())
	require.Error(t, err)
	assert.Contains(t, err.Error(), "is not a directory (a symlink?)")
}

func TestLiveSocketIsNeverStolen(t *testing.T) {
	in := startInstance(t)
	_, err := Listen(in.socket)
	require.Error(t, err)
	var inUse *InUseError
	require.ErrorAs(t, err, &inUse)
	assert.Equal(t, os.Getpid(), inUse.Instance.PID)
	assert.Contains(t, err.Error(), "another jobtop (serve, pid "+strconv.Itoa(os.Getpid()))
	assert.Contains(t, err.Error(), "is already listening on "+in.socket)
	// Not the socket a plain command reaches: the commands say --socket.
	flag := " --socket " + in.socket
	assert.Contains(t, err.Error(), "; use it (jobtop attach"+flag+", jobtop ls"+flag+"), stop it (jobtop shutdown"+flag+"), or pick another --socket")
	t.Setenv(SocketEnv, in.socket)
	_, err = Listen(in.socket)
	assert.Contains(t, err.Error(), "; use it (jobtop attach, jobtop ls), stop it (jobtop shutdown), or pick another --socket",
		"the socket a plain command reaches ($JOBTOP_SOCKET)")
	// The live instance still answers.
	_, err = in.client.Jobs(ctxT(t))
	require.NoError(t, err)
}

// TestStaleSocketIsReplaced leaves a socket behind a process that was
// SIGKILLed (so it could not clean up) and starts a new instance on it.
func TestStaleSocketIsReplaced(t *testing.T) {
	socket := filepath.Join(shortTempDir(t), "s.sock")
	// A child process listens on the socket and holds its lock, then dies
	// without cleaning up.
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), helperEnv+"=hold:"+socket)
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	line, err := bufio.NewReader(stdout).ReadString('\n')
	require.NoError(t, err)
	require.Equal(t, "ready\n", line)

	// While it lives, its socket is not taken (its lock is held).
	_, err = Listen(socket)
	var inUse *InUseError
	require.ErrorAs(t, err, &inUse)
	assert.Zero(t, inUse.Instance.PID, "a non-jobtop listener cannot name itself")

	require.NoError(t, cmd.Process.Signal(syscall.SIGKILL))
	cmd.Wait() //nolint:errcheck // killed on purpose
	_, err = os.Stat(socket)
	require.NoError(t, err, "the dead process left its socket behind")

	m := newManager(t, socket)
	srv, err := ListenAndServe(m, socket, Instance{Kind: "serve"})
	require.NoError(t, err)
	defer srv.Close()
	inst, err := NewClient(socket).Instance(ctxT(t))
	require.NoError(t, err)
	assert.Equal(t, os.Getpid(), inst.PID)
}

// TestSocketAnsweringWithoutLockIsRefused: a socket that answers is live
// even if nobody holds its lock file.
func TestSocketAnsweringWithoutLockIsRefused(t *testing.T) {
	socket := filepath.Join(shortTempDir(t), "s.sock")
	l, err := net.Listen("unix", socket)
	require.NoError(t, err)
	defer l.Close()
	_, err = Listen(socket)
	var inUse *InUseError
	require.ErrorAs(t, err, &inUse)
}

func TestNonSocketFileIsNotReplaced(t *testing.T) {
	socket := filepath.Join(shortTempDir(t), "s.sock")
	require.NoError(t, writeFile(socket))
	_, err := Listen(socket)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "exists and is not a socket")
}

// TestPeerOfAnotherUIDIsRefused runs the real SO_PEERCRED check with a
// listener that only admits a uid we are not.
func TestPeerOfAnotherUIDIsRefused(t *testing.T) {
	in := startInstance(t)
	l, err := net.Listen("unix", filepath.Join(filepath.Dir(in.socket), "other.sock"))
	require.NoError(t, err)
	guarded := &peerCheckListener{Listener: l, uid: os.Getuid() + 1, lock: mustTemp(t)}
	srv := NewServer(in.mgr, Instance{Kind: "serve"})
	go srv.Serve(guarded) //nolint:errcheck // ends with Close
	defer srv.Close()

	client := NewClient(l.Addr().String())
	_, err = client.Jobs(ctxT(t))
	require.Error(t, err)
	var apiErr *APIError
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, http.StatusForbidden, apiErr.Status)
	assert.Contains(t, apiErr.Message, "this jobtop only answers its own user")
	assert.Contains(t, apiErr.Message, "uid "+strconv.Itoa(os.Getuid())+" is refused")
}

// TestOtherUserCannotConnect connects as another user to the real
// instance: the 0600 socket keeps them out, and with the socket opened up
// the peer check still refuses them. Needs root to switch users.
func TestOtherUserCannotConnect(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("switching to another uid needs root")
	}
	// The test binary, copied where uid 65534 can run it, connects.
	reach, bin := otherUsersDir(t)
	in := startInstanceAt(t, filepath.Join(dirIn(t, reach), "s.sock"))
	dir := filepath.Dir(in.socket)
	require.NoError(t, os.Chmod(dir, 0o755)) // let uid 65534 reach the socket file
	connect := func() (string, error) {
		cmd := exec.Command(bin)
		// GORACE: a race-enabled helper would otherwise sleep 1s at exit.
		cmd.Env = append(os.Environ(), helperEnv+"=connect:"+in.socket, "GORACE=atexit_sleep_ms=0")
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
		out, err := cmd.CombinedOutput()
		return strings.TrimSpace(string(out)), err
	}
	out, err := connect()
	require.NoError(t, err, out)
	assert.Equal(t, "connect: permission denied", out, "the socket is 0600")

	require.NoError(t, os.Chmod(in.socket, 0o666))
	out, err = connect()
	require.NoError(t, err, out)
	assert.Equal(t, "HTTP/1.1 403 Forbidden", out, "the peer check refuses another uid")
}

func copyExecutable(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(to, b, 0o755))
}

func mustTemp(t *testing.T) *os.File {
	f, err := os.CreateTemp(t.TempDir(), "lock")
	require.NoError(t, err)
	return f
}
