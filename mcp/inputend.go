package mcp

import (
	"context"
	"os"
	"sync"
	"time"

	"golang.org/x/sys/unix"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// inputEndGrace bounds how long the end of stdin is held back for the
// answers in flight: the longest a tool waits (wait_job, run_job's
// wait_for) and a minute for it to answer. A client that closes stdin
// during a wait_job of 10 minutes is held that long, not for ever (MCP's
// stdio shutdown has it send SIGTERM when it tires of waiting).
const inputEndGrace = maxWait + time.Minute

// answeringTransport is a transport whose connection holds the end of its
// input back until every request read is answered (answeringConn).
type answeringTransport struct {
	io    sdk.Transport
	grace time.Duration
	// out, when the answers go to a file (stdout), is watched while the
	// end is held back: once nothing can read it (the client is gone),
	// no answer can reach anyone.
	out *os.File
}

func (t answeringTransport) Connect(ctx context.Context) (sdk.Connection, error) {
	c, err := t.io.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &answeringConn{
		Connection: c,
		grace:      t.grace,
		open:       map[jsonrpc.ID]struct{}{},
		answered:   make(chan struct{}, 1),
		closed:     make(chan struct{}),
		out:        t.out,
	}, nil
}

// answeringConn passes the end of its input (or a read error) on to the
// SDK only once every request it read has been answered, grace after the
// end at the latest, or at once when it is closed. At the end of input
// the SDK cancels the calls in flight and writes no more answers:
// printf '<initialize>' '<run_job>' | jobtop mcp answered neither and
// started no job.
//
// Wrapping the SDK's connection hides its hook for the session's state,
// which only refuses batches from MCP 2025-06-18 on: passMessages refuses
// every batch before it gets here.
type answeringConn struct {
	sdk.Connection
	grace time.Duration

	mu       sync.Mutex
	open     map[jsonrpc.ID]struct{} // requests read and not answered yet
	answered chan struct{}           // capacity 1: an answer was written

	closeOnce sync.Once
	closed    chan struct{}
	out       *os.File // see answeringTransport
}

func (c *answeringConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	msg, err := c.Connection.Read(ctx)
	if err != nil {
		c.awaitAnswers(ctx)
		return nil, err
	}
	if req, ok := msg.(*jsonrpc.Request); ok && req.IsCall() {
		c.mu.Lock()
		c.open[req.ID] = struct{}{}
		c.mu.Unlock()
	}
	return msg, nil
}

// Write writes msg; an answer counts as given even when writing it failed
// (stdout closed): nobody is left to wait for.
func (c *answeringConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	err := c.Connection.Write(ctx, msg)
	if resp, ok := msg.(*jsonrpc.Response); ok {
		c.mu.Lock()
		delete(c.open, resp.ID)
		c.mu.Unlock()
		select {
		case c.answered <- struct{}{}:
		default:
		}
	}
	return err
}

func (c *answeringConn) Close() error {
	c.closeOnce.Do(func() { close(c.closed) })
	return c.Connection.Close()
}

// awaitAnswers returns when no request read is left unanswered, grace
// has passed, ctx is done or the connection is closed.
func (c *answeringConn) awaitAnswers(ctx context.Context) {
	limit := time.NewTimer(c.grace)
	defer limit.Stop()
	stop := make(chan struct{})
	defer close(stop)
	gone := readerGone(c.out, stop)
	for {
		c.mu.Lock()
		left := len(c.open)
		c.mu.Unlock()
		if left == 0 {
			return
		}
		select {
		case <-c.answered:
		case <-limit.C:
			return
		case <-ctx.Done():
			return
		case <-c.closed:
			return
		case <-gone:
			// The client quit in a wait_job: jobtop mcp stayed for
			// the rest of its wait (rev47), answering no one.
			return
		}
	}
}

// readerGone is closed once nothing can read f (a pipe whose reader
// closed it, a socket whose peer did), looked at every readerCheck until
// stop; never for a nil f, or one the system cannot say that of.
func readerGone(f *os.File, stop <-chan struct{}) <-chan struct{} {
	gone := make(chan struct{})
	if f == nil {
		return gone
	}
	rc, err := f.SyscallConn()
	if err != nil {
		return gone
	}
	go func() {
		for {
			var hungUp bool
			rc.Control(func(fd uintptr) { //nolint:errcheck // a file that cannot say is never gone
				fds := []unix.PollFd{{Fd: int32(fd)}}
				if n, err := unix.Poll(fds, 0); err == nil && n > 0 {
					hungUp = fds[0].Revents&(unix.POLLERR|unix.POLLHUP) != 0
				}
			})
			if hungUp {
				close(gone)
				return
			}
			select {
			case <-stop:
				return
			case <-time.After(readerCheck):
			}
		}
	}()
	return gone
}

// readerCheck is how often readerGone looks.
const readerCheck = 200 * time.Millisecond
