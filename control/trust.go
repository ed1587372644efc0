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
	fix := fmt.Sprintf("remove %s (a new instance makes it again), or use --socket in a directory of your own that only you may write to", dir)
	sys, ok := st.Sys().(*syscall.Stat_t)
	switch {
	case !st.IsDir():
		return &UntrustedSocketError{Path: socket, Reason: dir + " is not a directory (a symlink?)", Fix: fix}
	case ok && int(sys.Uid) != os.Getuid():
		return &UntrustedSocketError{Path: socket, Reason: fmt.Sprintf("its directory %s belongs to uid %d, not to you (uid %d)", dir, sys.Uid, os.Getuid()), Fix: fix}
	case st.Mode().Perm()&0o022 != 0:
		return &UntrustedSocketError{Path: socket, Reason: fmt.Sprintf("its directory %s has mode %04o, so other users could replace the socket", dir, st.Mode().Perm()),
			Fix: fmt.Sprintf("chmod go-w %s, or use --socket in a directory of your own that only you may write to", dir)}
	}
	return nil
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
