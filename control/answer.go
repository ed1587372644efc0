package control

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"sync"
	"syscall"
	"time"

	"jobtop/jobs/proc"
)

// A local client's bound on a stopped or hung instance, as a host
// client's AnswerTimeout is over ssh: the kernel takes a connection to
// the socket for an instance stopped with SIGSTOP, and the request on it
// would wait for ever. With an answer timeout (SetAnswerTimeout), each
// new connection asks the instance who it is (GET /v1/instance, as
// dial-stdio does before its banner) and is an error when no answer came
// within it; once it answered, what the connection carries (a long wait,
// a stream) is not bounded.

// NoAnswerError says the instance on a socket took the connection but did
// not answer within the client's answer timeout.
type NoAnswerError struct {
	Path  string
	Limit time.Duration
	// PID is the process serving the socket (its peer credentials); 0
	// where the system does not tell.
	PID int
	// Stopped: that process is stopped (SIGSTOP, SIGTSTP), as the
	// process table says.
	Stopped bool
	// HostTimeout, set by dial-stdio, is the limit as the person at
	// the other end of ssh gave it (--host-timeout, about; Limit is
	// the part of it the far side got): the words are then for them.
	HostTimeout time.Duration
}

func (e *NoAnswerError) Error() string {
	limit, within, there := "; --answer-timeout DUR sets the limit (0: wait as long as it takes)", e.Limit.String(), ""
	if e.HostTimeout > 0 {
		limit = "; --host-timeout DUR sets the limit where you ran jobtop (0: wait as long as it takes)"
		within, there = "about "+e.HostTimeout.String(), " there"
	}
	switch {
	case e.Stopped:
		return fmt.Sprintf("the jobtop instance on %s (pid %d) did not answer within %s: it is stopped (SIGSTOP, or ^Z where it runs); `kill -CONT %d`%s resumes it%s",
			e.Path, e.PID, within, e.PID, there, limit)
	case e.PID != 0:
		return fmt.Sprintf("the jobtop instance on %s (pid %d) took the connection but did not answer within %s: it is busy or hung (`ps -o stat= -p %d`%s shows T for a stopped one: `kill -CONT %d` resumes it)%s",
			e.Path, e.PID, within, e.PID, there, e.PID, limit)
	}
	return fmt.Sprintf("the jobtop instance on %s took the connection but did not answer within %s: is it stopped (SIGSTOP: kill -CONT it%s) or hung (kill it)?%s",
		e.Path, within, there, limit)
}

// SetAnswerTimeout bounds the wait for the instance's first answer on
// each new connection of a client of this machine's socket (0, the
// default: no bound). Set it before the first call.
func (c *Client) SetAnswerTimeout(d time.Duration) { c.answerTimeout.Store(int64(d)) }

// AnswerTimeout is what SetAnswerTimeout set (0: no bound).
func (c *Client) AnswerTimeout() time.Duration { return time.Duration(c.answerTimeout.Load()) }

// SetLoadingNote makes note called, once, when the instance answers
// that it is still loading its job file (Instance.Loading): the
// request then waits until its jobs are in place, and note can say so.
// The instance is asked on each new connection when an answer timeout
// is set (SetAnswerTimeout). Set it before the first call.
func (c *Client) SetLoadingNote(note func(Instance)) {
	var once sync.Once
	c.loadingNote = func(inst Instance) { once.Do(func() { note(inst) }) }
}

// dialAnswered is dialTrusted, then, with an answer timeout d > 0, the
// instance's answer to GET /v1/instance on the new connection within d;
// loading (if not nil) gets that answer when it says the instance is
// still loading its job file.
func dialAnswered(ctx context.Context, socket string, d time.Duration, loading func(Instance)) (net.Conn, error) {
	conn, err := dialTrusted(ctx, socket)
	if err != nil || d <= 0 {
		return conn, err
	}
	deadline := time.Now().Add(d)
	if outer, ok := ctx.Deadline(); ok && outer.Before(deadline) {
		deadline = outer
	}
	conn.SetDeadline(deadline)                                              //nolint:errcheck // a unix socket has deadlines
	stop := context.AfterFunc(ctx, func() { conn.SetDeadline(time.Now()) }) //nolint:errcheck // as above
	again, inst, err := askInstance(conn)
	stop()
	conn.SetDeadline(time.Time{}) //nolint:errcheck // as above
	switch {
	case err != nil && ctx.Err() != nil:
		conn.Close()
		return nil, ctx.Err()
	case err != nil && !errors.Is(err, os.ErrDeadlineExceeded):
		// It hung up (it is ending, or it crashed): the request would
		// have found so; it says so as it does.
		conn.Close()
		return nil, &LostError{Err: fmt.Errorf("talking to %s: %w", socket, err)}
	case err != nil:
		pid := peerPID(conn)
		conn.Close()
		e := &NoAnswerError{Path: socket, Limit: d, PID: pid}
		if pid != 0 {
			p, perr := proc.Get(pid)
			e.Stopped = perr == nil && p.Stopped
		}
		return nil, e
	}
	if inst.Loading != "" && loading != nil {
		loading(inst)
	}
	if again {
		// It answered, and closed the connection after: take another.
		conn.Close()
		conn, err = dialTrusted(ctx, socket)
		if err != nil {
			return nil, err
		}
	}
	if inst.Loading != "" {
		conn = &loadingConn{Conn: conn, ended: &EndedLoadingError{Path: socket, PID: inst.PID}}
	}
	return conn, nil
}

// EndedLoadingError is a connection to an instance that said it was
// loading its job file cut off before any answer: it ended (SIGKILL, a
// crash) before it served.
type EndedLoadingError struct {
	Path string
	PID  int
}

func (e *EndedLoadingError) Error() string {
	return fmt.Sprintf("the jobtop instance on %s (pid %d) ended before it served", e.Path, e.PID)
}

// loadingConn is a connection to an instance loading its job file: its
// end before any byte of an answer reads as EndedLoadingError.
type loadingConn struct {
	net.Conn
	ended    *EndedLoadingError
	answered bool
}

func (c *loadingConn) Read(b []byte) (int, error) {
	n, err := c.Conn.Read(b)
	if n > 0 {
		c.answered = true
	}
	if err != nil && !c.answered && (errors.Is(err, io.EOF) || errors.Is(err, syscall.ECONNRESET)) {
		return n, c.ended
	}
	return n, err
}

// askInstance sends GET /v1/instance on conn and reads the answer whole,
// whatever it is: it says the instance answers. again: the connection
// cannot carry the next request (the server closed it, or sent more than
// the answer, which the buffer took).
// inst is the answer when it is one.
func askInstance(conn net.Conn) (again bool, inst Instance, err error) {
	if _, err := io.WriteString(conn, "GET /v1/instance HTTP/1.1\r\nHost: jobtop\r\n\r\n"); err != nil {
		return false, inst, err
	}
	br := bufio.NewReader(conn)
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		return false, inst, err
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	resp.Body.Close()
	if err != nil {
		return false, inst, err
	}
	if resp.StatusCode == http.StatusOK {
		json.Unmarshal(body, &inst) //nolint:errcheck // an answer all the same
	}
	return resp.Close || br.Buffered() > 0, inst, nil
}
