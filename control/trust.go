package control

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"syscall"

	"jobtop/jobs"
)

// UntrustedSocketError says why the client will not talk to a socket:
// whoever serves it may not be this user's jobtop, and a request (with
// --env values) must not reach them.
type UntrustedSocketError struct {
	Path   string
	Reason string
	Fix    string
}

func (e *UntrustedSocketError) Error() string {
	return fmt.Sprintf("refusing to use the socket %s: %s; %s", e.Path, e.Reason, e.Fix)
}

// checkSocketDir requires the socket's directory to be a directory of
// this user's that no one else may write to (0700, or 0755 as a
// project's directory is): else another user could have put a socket of
// theirs there (or could replace this user's). Who may connect is the
// socket's mode's (0600) and the server's check of each peer. A missing
// directory is left to the dial to report.
func checkSocketDir(socket string) error {
	dir := filepath.Dir(socket)
	st, err := os.Lstat(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return &UntrustedSocketError{Path: socket, Reason: "cannot look at its directory: " + err.Error(), Fix: "use --socket in a directory of your own"}
	}
	fix := socketDirFix(dir, st)
	sys, ok := st.Sys().(*syscall.Stat_t)
	switch {
	case !st.IsDir():
		return &UntrustedSocketError{Path: socket, Reason: dir + " is not a directory (a symlink?)", Fix: fix}
	case ok && int(sys.Uid) != os.Getuid():
		return &UntrustedSocketError{Path: socket, Reason: fmt.Sprintf("its directory %s belongs to %s, not to you (uid %d)", dir, jobs.UIDName(int(sys.Uid)), os.Getuid()), Fix: fix}
	case st.Mode().Perm()&0o022 != 0:
		return &UntrustedSocketError{Path: socket, Reason: fmt.Sprintf("its directory %s has mode %04o, so other users could replace the socket", dir, st.Mode().Perm()),
			Fix: fmt.Sprintf("chmod go-w %s, or use --socket in a directory of your own that only you may write to", dir)}
	}
	return nil
}

// ownSocketHint is the lasting way out of a socket directory that is
// not the user's to fix: a socket of their own elsewhere.
const ownSocketHint = "use --socket in a directory of your own that only you may write to: export " + SocketEnv + "=~/.jobtop.sock (or set XDG_RUNTIME_DIR to a directory of your own)"

// socketDirFix says what to do about a socket directory (st, its Lstat)
// that is not to be trusted. Removing it is advice only for the default
// directory (a new instance makes it again) and only for a user who can
// remove it: its owner, or root. In a sticky /tmp no one else can, so a
// user facing another user's directory is told who can, and a way out
// that lasts.
func socketDirFix(dir string, st fs.FileInfo) string {
	owner := os.Getuid()
	if sys, ok := st.Sys().(*syscall.Stat_t); ok {
		owner = int(sys.Uid)
	}
	mine := owner == os.Getuid() || os.Getuid() == 0
	switch {
	case mine && dir == defaultSocketDir():
		return fmt.Sprintf("remove %s (a new instance makes it again), or %s", dir, ownSocketHint)
	case mine:
		return ownSocketHint
	case owner == 0:
		return "only root can remove it; " + ownSocketHint
	}
	return fmt.Sprintf("only %s or root can remove it; %s", jobs.UIDName(owner), ownSocketHint)
}

// checkPeer requires the process serving conn to run as this user
// (SO_PEERCRED, the credentials it listened with).
func checkPeer(socket string, conn net.Conn) error {
	uid, err := peerUID(conn)
	switch {
	case err != nil:
		return &UntrustedSocketError{Path: socket, Reason: "cannot tell who serves it: " + err.Error(), Fix: "use --socket with a socket of your own jobtop"}
	case uid != os.Getuid():
		return &UntrustedSocketError{Path: socket, Reason: fmt.Sprintf("it is served by uid %d, not by you (uid %d)", uid, os.Getuid()),
			Fix: "stop that process or remove the socket, or use --socket with a socket of your own jobtop"}
	}
	return nil
}

// dialTrusted connects to socket once its directory, and then its
// server, pass the checks above.
func dialTrusted(ctx context.Context, socket string) (net.Conn, error) {
	if err := checkSocketDir(socket); err != nil {
		return nil, err
	}
	var d net.Dialer
	conn, err := d.DialContext(ctx, "unix", socket)
	if err != nil {
		return nil, err
	}
	if err := checkPeer(socket, conn); err != nil {
		conn.Close()
		return nil, err
	}
	return conn, nil
}
