package control

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"jobtop/jobs"
)

// SocketEnv names the environment variable that points clients at an
// instance's socket. Every job an instance runs has it set.
const SocketEnv = "JOBTOP_SOCKET"

// DefaultSocketPath is $XDG_RUNTIME_DIR/jobtop/default.sock, or, without
// XDG_RUNTIME_DIR, default.sock in a per-user directory under the temp dir.
func DefaultSocketPath() string {
	return filepath.Join(defaultSocketDir(), "default.sock")
}

func defaultSocketDir() string {
	if dir := os.Getenv("XDG_RUNTIME_DIR"); dir != "" && filepath.IsAbs(dir) {
		return filepath.Join(dir, "jobtop")
	}
	return filepath.Join(os.TempDir(), "jobtop-"+strconv.Itoa(os.Getuid()))
}

// ResolveSocketPath picks the socket: the flag's value when set, else
// $JOBTOP_SOCKET, else DefaultSocketPath. The result is absolute, so it
// means the same thing to every job that inherits it.
func ResolveSocketPath(flag string) string {
	path := flag
	if path == "" {
		path = os.Getenv(SocketEnv)
	}
	if path == "" {
		path = DefaultSocketPath()
	}
	if abs, err := filepath.Abs(path); err == nil {
		path = abs
	}
	return path
}

// InUseError says a live instance already serves the socket.
type InUseError struct {
	Path string
	// Instance describes the live instance; zero if it did not answer.
	Instance Instance
	// Silent is why it did not answer, when it took the connection and
	// said nothing (stopped with SIGSTOP, or hung); nil otherwise.
	Silent *NoAnswerError
}

func (e *InUseError) Error() string {
	// The commands named reach this socket as typed here: with
	// --socket when a plain command would reach another.
	flag := ""
	if e.Path != ResolveSocketPath("") {
		flag = " --socket " + jobs.ShellJoin([]string{e.Path})
	}
	if n := e.Silent; n != nil && n.PID != 0 {
		state := "it is busy or hung (`ps -o stat= -p %[1]d` shows T for a stopped one: `kill -CONT %[1]d` resumes it)"
		if n.Stopped {
			state = "it is stopped (SIGSTOP, or ^Z where it runs); `kill -CONT %[1]d` resumes it"
		}
		return fmt.Sprintf("another jobtop (pid %d) is listening on %s but did not answer within %v: %s; then use it (jobtop attach%s, jobtop ls%s), stop it (jobtop shutdown%s), or pick another --socket",
			n.PID, e.Path, n.Limit, fmt.Sprintf(state, n.PID), flag, flag, flag)
	}
	who := "another jobtop"
	if e.Instance.PID != 0 {
		who = fmt.Sprintf("another jobtop (%s, pid %d, running since %s)",
			e.Instance.Kind, e.Instance.PID, e.Instance.Started.Format("2006-01-02 15:04:05"))
		if e.Instance.Loading != "" {
			// It answers in full once its jobs are in place.
			return fmt.Sprintf("%s is already listening on %s, still loading its job file %s; use it once loaded (jobtop attach%s waits for it, as jobtop ls%s does), stop it (jobtop shutdown%s), or pick another --socket",
				who, e.Path, e.Instance.Loading, flag, flag, flag)
		}
	}
	return fmt.Sprintf("%s is already listening on %s; use it (jobtop attach%s, jobtop ls%s), stop it (jobtop shutdown%s), or pick another --socket",
		who, e.Path, flag, flag, flag)
}

// Listen creates the socket at path for a new instance. It makes the
// default socket directory (0700) when missing (another must exist:
// SocketDirMissing), enforces 0700 on the default
// directory, refuses a socket a live instance holds (InUseError), replaces
// one left by a dead instance, and makes the new socket 0600. The returned
// listener answers connections from other uids with 403 and holds the
// socket's lock until closed.
func Listen(path string) (net.Listener, error) { return ListenWithin(path, time.Second) }

// ListenWithin is Listen giving a live instance already on the socket
// up to look to say who it is, for the InUseError (0: as long as it
// takes); one found stopped (SIGSTOP) is said at once, after a second.
func ListenWithin(path string, look time.Duration) (net.Listener, error) {
	if err := SocketDirMissing(path); err != nil {
		return nil, err
	}
	dir := filepath.Dir(path)
	if err := prepareSocketDir(dir, dir == defaultSocketDir()); err != nil {
		return nil, err
	}
	lock, err := lockSocket(path, look)
	if err != nil {
		return nil, err
	}
	if err := removeStaleSocket(path, look); err != nil {
		lock.Close()
		return nil, err
	}
	l, err := net.Listen("unix", path)
	if err != nil {
		lock.Close()
		return nil, fmt.Errorf("cannot listen on %s: %w", path, err)
	}
	if err := os.Chmod(path, 0o600); err != nil {
		l.Close()
		lock.Close()
		return nil, fmt.Errorf("cannot make %s private: %w", path, err)
	}
	return &peerCheckListener{Listener: l, uid: os.Getuid(), lock: lock}, nil
}

// SocketDirMissing says why an instance cannot serve on path when the
// directory path names does not exist: a --socket (or $JOBTOP_SOCKET) in
// a directory that is not there is most likely mistyped, and making it
// would start an instance no client finds. The default directory is
// jobtop's own, made when missing: nil for it, as for any that exists.
func SocketDirMissing(path string) error {
	if !socketDirMissing(path) {
		return nil
	}
	return fmt.Errorf("cannot serve on %s: %s", path, missingDirHint(path))
}

// socketDirMissing says whether path's directory is missing and is not
// the default one (which jobtop makes).
func socketDirMissing(path string) bool {
	dir := filepath.Dir(path)
	if dir == defaultSocketDir() {
		return false
	}
	_, err := os.Stat(dir)
	return errors.Is(err, os.ErrNotExist) // else there, or a problem Listen words
}

// missingDirHint says that path's directory does not exist, where the
// path came from, and the mkdir that makes it.
func missingDirHint(path string) string {
	dir := filepath.Dir(path)
	mkdir := "mkdir -m 700 "
	if _, err := os.Stat(filepath.Dir(dir)); err != nil {
		mkdir = "mkdir -p -m 700 " // its parent is missing too
	}
	return fmt.Sprintf("the directory %s does not exist; check the socket's path (%s), or make the directory first (%s%s)",
		dir, socketSource(path), mkdir, jobs.ShellJoin([]string{dir}))
}

// socketSource names where a socket path came from: $JOBTOP_SOCKET when
// it gives that path, else --socket.
func socketSource(path string) string {
	if env := os.Getenv(SocketEnv); env != "" {
		if abs, err := filepath.Abs(env); err == nil && abs == path {
			return "$" + SocketEnv
		}
	}
	return "--socket"
}

// prepareSocketDir makes dir 0700 if it is missing (Listen has checked
// that only the default one may be). An existing dir must be a real
// directory owned by us that no one else may write to, as clients require (see
// checkSocketDir); the default directory (ours by convention) is made
// 0700, any other is left to its owner to fix.
func prepareSocketDir(dir string, isDefault bool) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("cannot create socket directory: %w", err)
	}
	if !isDefault {
		if err := checkSocketDir(filepath.Join(dir, "x")); err != nil {
			var untrusted *UntrustedSocketError
			if errors.As(err, &untrusted) {
				return fmt.Errorf("cannot serve in %s: %s (clients would refuse it); %s", dir, untrusted.Reason, untrusted.Fix)
			}
			return err
		}
		return nil
	}
	st, err := os.Lstat(dir)
	if err != nil {
		return fmt.Errorf("socket directory: %w", err)
	}
	sys, ok := st.Sys().(*syscall.Stat_t)
	switch {
	case !st.IsDir():
		return fmt.Errorf("socket directory %s is not a directory (a symlink?); %s", dir, socketDirFix(dir, st))
	case ok && int(sys.Uid) != os.Getuid():
		return fmt.Errorf("socket directory %s belongs to %s, not to you; %s", dir, jobs.UIDName(int(sys.Uid)), socketDirFix(dir, st))
	case st.Mode().Perm() != 0o700:
		if err := os.Chmod(dir, 0o700); err != nil {
			return fmt.Errorf("cannot make socket directory %s private: %w", dir, err)
		}
	}
	return nil
}

// lockSocket takes the socket's lock file, held by the live instance. If
// another process holds it, that instance is alive: InUseError.
func lockSocket(path string, look time.Duration) (*os.File, error) {
	f, err := os.OpenFile(path+".lock", os.O_RDWR|os.O_CREATE|syscall.O_NOFOLLOW, 0o600)
	if err != nil {
		return nil, fmt.Errorf("cannot open the socket's lock file: %w", err)
	}
	if err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, unix.EWOULDBLOCK) {
			return nil, inUse(path, look)
		}
		return nil, fmt.Errorf("cannot lock %s.lock: %w", path, err)
	}
	return f, nil
}

// removeStaleSocket deletes a socket left at path by a dead instance. A
// socket that still answers is refused even though its lock was free (an
// instance of a jobtop that did not lock).
func removeStaleSocket(path string, look time.Duration) error {
	st, err := os.Lstat(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if st.Mode()&os.ModeSocket == 0 {
		return fmt.Errorf("%s exists and is not a socket; remove it or pick another --socket", path)
	}
	conn, err := net.DialTimeout("unix", path, time.Second)
	if err == nil {
		conn.Close()
		return inUse(path, look)
	}
	if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("cannot remove stale socket %s: %w", path, err)
	}
	return nil
}

// inUse is the InUseError of a live instance on path: it asks the
// instance who it is, for up to look (0: as long as it takes), a second
// at a time, and says so when it did not answer: at once when it is
// stopped (waiting would not resume it).
func inUse(path string, look time.Duration) *InUseError {
	step := time.Second
	if look > 0 && look < step {
		step = look
	}
	began := time.Now()
	for {
		c := NewClient(path)
		c.SetAnswerTimeout(step)
		ctx, cancel := context.WithTimeout(context.Background(), 2*step)
		inst, err := c.Instance(ctx)
		cancel()
		c.Close()
		e := &InUseError{Path: path, Instance: inst}
		if err == nil {
			return e
		}
		e.Instance = Instance{}
		if !errors.As(err, &e.Silent) {
			return e
		}
		waited := time.Since(began)
		switch {
		case e.Silent.Stopped:
			e.Silent.Limit = max(step, waited.Round(time.Second))
			return e
		case look > 0 && waited >= look:
			e.Silent.Limit = look
			return e
		}
	}
}

// HandOver gives the socket of l (a listener from Listen) to another
// process: its listening socket and its lock, as files to pass on
// (os/exec's ExtraFiles), which the other process makes a listener of
// again with ListenOn. l is closed, without removing the socket; the
// caller closes the files once the other process has them (the lock
// stays held as long as one process holds its file).
func HandOver(l net.Listener) (sock, lock *os.File, err error) {
	pl, ok := l.(*peerCheckListener)
	if !ok {
		return nil, nil, fmt.Errorf("not a listener of Listen's")
	}
	ul, ok := pl.Listener.(*net.UnixListener)
	if !ok {
		return nil, nil, fmt.Errorf("not a unix socket's listener")
	}
	sock, err = ul.File()
	if err != nil {
		return nil, nil, err
	}
	fd, err := unix.FcntlInt(pl.lock.Fd(), unix.F_DUPFD_CLOEXEC, 0)
	if err != nil {
		sock.Close()
		return nil, nil, err
	}
	lock = os.NewFile(uintptr(fd), pl.lock.Name())
	ul.SetUnlinkOnClose(false) // the socket is the other process's now
	l.Close()
	return sock, lock, nil
}

// ListenOn is the listener of a socket HandOver gave this process, as
// Listen made it: it answers only this user, and holds the lock until
// closed, which also removes the socket.
func ListenOn(sock, lock *os.File) (net.Listener, error) {
	fl, err := net.FileListener(sock)
	sock.Close()
	if err != nil {
		lock.Close()
		return nil, fmt.Errorf("the socket handed over: %w", err)
	}
	ul, ok := fl.(*net.UnixListener)
	if !ok {
		fl.Close()
		lock.Close()
		return nil, fmt.Errorf("the socket handed over is no unix socket")
	}
	ul.SetUnlinkOnClose(true)
	relisten(ul)
	return &peerCheckListener{Listener: ul, uid: os.Getuid(), lock: lock}, nil
}

// relisten calls listen() again on a socket handed over, so that its
// peer credentials name this process: a client reads them (SO_PEERCRED)
// to say which process did not answer (NoAnswerError), and they are set
// by listen(), to the process that called it, which for a handed-over
// socket (serve -D) has exited. Linux sets them on every listen() call
// (unix_listen); so do FreeBSD and macOS for LOCAL_PEERCRED (unp_listen),
// whose peerPID is 0 all the same. The backlog asked is capped by the
// kernel at somaxconn, as Go's own listen asks. Should it fail, the
// socket still serves; only the PID named would be stale.
func relisten(ul *net.UnixListener) {
	raw, err := ul.SyscallConn()
	if err != nil {
		return
	}
	raw.Control(func(fd uintptr) { unix.Listen(int(fd), math.MaxInt32) }) //nolint:errcheck // as said
}
