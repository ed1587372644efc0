package keeper

import (
	"errors"
	"fmt"
	"net"
	"os"

	"golang.org/x/sys/unix"
)

// RunID names one run of a job for the keeper; jobtop picks them, unique
// per keeper.
type RunID uint64

// request is what jobtop asks of the keeper.
type request struct {
	Op string // opSpawn or opSignal

	// opSpawn: start a run. Its stdin, stdout and stderr come with the
	// message as three file descriptors.
	Run  RunID
	Path string
	Argv []string
	Env  []string
	Dir  string
	// TTY makes stdin the run's controlling terminal.
	TTY bool
	// StopSignal and GraceMS are how the keeper stops the run on its own
	// when jobtop goes away.
	StopSignal int
	GraceMS    int64
	// Hold is how many files after those three the keeper keeps while
	// the run lives, and drains into Log once jobtop is gone.
	Hold int
	Log  string

	// opSignal: send Signal to every process of each run in Runs; with
	// Stop, it is a stop: SIGCONT follows it (Client.Stop).
	Runs   []RunID
	Signal int
	Stop   bool
}

const (
	opSpawn  = "spawn"
	opSignal = "signal"
)

// event is what the keeper tells jobtop.
type event struct {
	Ev  string
	Run RunID
	// evHello: the keeper's own identity and its token.
	// evSpawned: the run's main process, or Err.
	PID   int
	Start uint64
	Err   string
	Token string
	// evHello: the cgroup the keeper puts its runs in, if any.
	Cgroup string
	// evSpawned: what jobtop is to tell of the run (it has no cgroup).
	// evHello: why the keeper makes no cgroups, where that is news.
	Note string
	// evExit: the main process's wait status, and how many processes of
	// the run were still alive when it exited.
	Status int
	Left   int
	// evExit and evEmpty: when the keeper reaped the main process
	// (evExit), or found the run's last process gone (evEmpty), in Unix
	// nanoseconds of the wall clock (a monotonic reading means nothing in
	// another process). A keeper older than the field sends none (0), and
	// jobtop then takes the time it read the message. Optional, so it
	// needed no new protocol (reexec.go): either side ignores a field it
	// does not know (wirecodec.go).
	At int64
}

const (
	evAlive   = "alive" // sent every heartbeat: the keeper is not stuck
	evHello   = "hello"
	evSpawned = "spawned"
	evExit    = "exit" // the main process exited (and was reaped)
	evEmpty   = "empty"
)

// The connection is a SOCK_SEQPACKET socket pair where the system has it
// (else see wirestream.go), so messages keep their bounds. A message larger than one datagram (a big environment) is sent
// as chunks: the first byte of each says whether more follow. File
// descriptors ride on the last chunk.
const (
	chunkSize = 32 << 10
	maxFDs    = 5 // stdin, stdout, stderr and two held
	// maxMessage bounds what a reader accepts, well above exec's own
	// limit on argv and environment.
	maxMessage = 16 << 20
)

// send writes one message, with fds on its last chunk.
func send(c *net.UnixConn, v any, fds ...int) error {
	if socketType == unix.SOCK_STREAM {
		return sendStream(c, v, fds...)
	}
	body, err := marshal(v)
	if err != nil {
		return err
	}
	for {
		n := min(len(body), chunkSize)
		more := n < len(body)
		dgram := make([]byte, 1+n)
		copy(dgram[1:], body[:n])
		var oob []byte
		if more {
			dgram[0] = 1
		} else if len(fds) > 0 {
			oob = unix.UnixRights(fds...)
		}
		if _, _, err := c.WriteMsgUnix(dgram, oob, nil); err != nil {
			return err
		}
		body = body[n:]
		if !more {
			return nil
		}
	}
}

// sendNow sends v, a message of one datagram, if the socket takes it
// without waiting, and reports whether it is done with it: sent, or
// failed for good (jobtop gone: the lifeline says so). It is not done
// where the socket is full, or a stream (a message may go in part).
func sendNow(c *net.UnixConn, v any) bool {
	if socketType == unix.SOCK_STREAM {
		return false
	}
	body, err := marshal(v)
	if err != nil || len(body) > chunkSize {
		return false
	}
	dgram := make([]byte, 1+len(body))
	copy(dgram[1:], body)
	rc, err := c.SyscallConn()
	if err != nil {
		return false
	}
	done := false
	rc.Write(func(fd uintptr) bool { //nolint:errcheck // fails only on a closed socket: not done
		err := unix.Sendmsg(int(fd), dgram, nil, nil, unix.MSG_DONTWAIT)
		done = err != unix.EAGAIN && err != unix.EINTR
		return true // one try: the caller must not wait
	})
	return done
}

// receiver reads whole messages from a connection.
type receiver struct {
	c   *net.UnixConn
	buf []byte
	oob []byte
}

func newReceiver(c *net.UnixConn) *receiver {
	return &receiver{c: c, buf: make([]byte, 1+chunkSize), oob: make([]byte, unix.CmsgSpace(4*maxFDs))}
}

// errClosed is the peer hanging up.
var errClosed = errors.New("connection closed")

// receive reads the next message into v and returns the fds that came
// with it (close-on-exec, owned by the caller). They are not wrapped in
// os.File: the keeper hands most of them on at once, and a wrapped
// non-blocking fd would cost a poller registration and its removal.
func (r *receiver) receive(v any) ([]int, error) {
	if socketType == unix.SOCK_STREAM {
		return r.receiveStream(v)
	}
	var body []byte
	for {
		n, oobn, _, _, err := r.c.ReadMsgUnix(r.buf, r.oob)
		if err != nil {
			return nil, err
		}
		if n == 0 {
			return nil, errClosed
		}
		fds, err := parseRights(r.oob[:oobn])
		if err != nil {
			return nil, err
		}
		body = append(body, r.buf[1:n]...)
		if len(body) > maxMessage {
			closeFDs(fds)
			return nil, fmt.Errorf("message larger than %d bytes", maxMessage)
		}
		if r.buf[0] == 1 {
			closeFDs(fds) // only the last chunk carries files
			continue
		}
		if err := unmarshal(body, v); err != nil {
			closeFDs(fds)
			return nil, fmt.Errorf("bad message: %w", err)
		}
		return fds, nil
	}
}

func parseRights(oob []byte) ([]int, error) {
	if len(oob) == 0 {
		return nil, nil
	}
	msgs, err := unix.ParseSocketControlMessage(oob)
	if err != nil {
		return nil, err
	}
	var out []int
	for _, m := range msgs {
		fds, err := unix.ParseUnixRights(&m)
		if err != nil {
			continue
		}
		// Close-on-exec already: the net package receives them so
		// (MSG_CMSG_CLOEXEC, or setting it itself where there is none).
		out = append(out, fds...)
	}
	return out, nil
}

func closeAll(files []*os.File) {
	for _, f := range files {
		f.Close()
	}
}

// socketPair makes the connected pair jobtop and its keeper talk over.
func socketPair() (mine *net.UnixConn, theirs *os.File, err error) {
	fds, err := socketpair()
	if err != nil {
		return nil, nil, fmt.Errorf("socketpair: %w", err)
	}
	f := os.NewFile(uintptr(fds[0]), "keeper-conn")
	defer f.Close()
	c, err := net.FileConn(f)
	if err != nil {
		unix.Close(fds[1])
		return nil, nil, err
	}
	return c.(*net.UnixConn), os.NewFile(uintptr(fds[1]), "keeper-lifeline"), nil
}
