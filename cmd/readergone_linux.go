package cmd

import (
	"io"

	"golang.org/x/sys/unix"
)

// watchReader calls gone once the far end of out, a pipe or a socket on
// stdout, has closed (poll reports POLLERR or POLLHUP on it, as GNU tail
// checks); stop ends the watch. For anything else (a terminal, a file)
// it does nothing.
func watchReader(out io.Writer, gone func()) (stop func()) {
	f, ok := fileOf(out)
	if !ok {
		return func() {}
	}
	var st unix.Stat_t
	if unix.Fstat(int(f.Fd()), &st) != nil || (st.Mode&unix.S_IFMT != unix.S_IFIFO && st.Mode&unix.S_IFMT != unix.S_IFSOCK) {
		return func() {}
	}
	// A pipe of our own wakes the poll when the watch stops.
	var wake [2]int
	if unix.Pipe2(wake[:], unix.O_CLOEXEC) != nil {
		return func() {}
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer unix.Close(wake[0])
		fds := []unix.PollFd{{Fd: int32(f.Fd())}, {Fd: int32(wake[0]), Events: unix.POLLIN}}
		for {
			_, err := unix.Poll(fds, -1)
			switch {
			case err == unix.EINTR:
				continue
			case err != nil || fds[1].Revents != 0:
				return
			case fds[0].Revents&(unix.POLLERR|unix.POLLHUP) != 0:
				gone()
				return
			case fds[0].Revents != 0: // POLLNVAL: nothing to watch
				return
			}
		}
	}()
	return func() {
		unix.Write(wake[1], []byte{0}) //nolint:errcheck // the poll may have ended already
		<-done
		unix.Close(wake[1])
	}
}
