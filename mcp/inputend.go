package mcp

import (
	"context"
	"sync"
	"time"

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
		}
	}
}
