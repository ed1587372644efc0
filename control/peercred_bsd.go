//go:build darwin || freebsd

package control

import (
	"errors"
	"net"

	"golang.org/x/sys/unix"
)

// peerUID reads the uid of the process at the other end of a unix socket
// (LOCAL_PEERCRED: the credentials it had when it connected, or when the
// listener was created for a client's view of the server).
func peerUID(conn net.Conn) (int, error) {
	uc, ok := conn.(*net.UnixConn)
	if !ok {
		return -1, errors.New("not a unix socket connection")
	}
	raw, err := uc.SyscallConn()
	if err != nil {
		return -1, err
	}
	var cred *unix.Xucred
	var credErr error
	err = raw.Control(func(fd uintptr) {
		cred, credErr = unix.GetsockoptXucred(int(fd), unix.SOL_LOCAL, unix.LOCAL_PEERCRED)
	})
	if err != nil {
		return -1, err
	}
	if credErr != nil {
		return -1, credErr
	}
	return int(cred.Uid), nil
}

// peerPID is 0: LOCAL_PEERCRED does not say the peer's PID.
func peerPID(net.Conn) int { return 0 }
