package control

import (
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"
)

// Connection bounds of a server.
const (
	// ReadHeaderTimeout closes a connection that does not send its
	// request head in time, without an answer (net/http writes none for
	// a read that timed out).
	ReadHeaderTimeout = 10 * time.Second
	// IdleTimeout closes a kept-alive connection left unused this long.
	IdleTimeout = 2 * time.Minute
	// BodyReadTimeout bounds the wait for a request's body, from the
	// end of its head: one not whole by then is answered 408 and its
	// connection closed (readBody). Not http.Server's ReadTimeout, which
	// would also cancel the long requests (wait, follow, events,
	// attach) once it passed.
	BodyReadTimeout = 30 * time.Second
	// MaxStreams caps the requests that stay open (follow=true,
	// wait=true, the event stream) at once per instance; past it they are
	// answered 503.
	MaxStreams = 256
	// StreamWriteTimeout ends a stream whose client has not taken what
	// was written for this long (it stopped reading), freeing its slot.
	StreamWriteTimeout = 30 * time.Second
)

// streamWriteTimeout is StreamWriteTimeout, in nanoseconds (a variable
// for the tests, which change it while streams of other tests' servers
// may still be writing).
var streamWriteTimeout atomic.Int64

func init() { streamWriteTimeout.Store(int64(StreamWriteTimeout)) }

// streamWriteDeadline gives the next write to a stream StreamWriteTimeout
// to reach the client; streamWriteDone lifts it once written.
func streamWriteDeadline(w http.ResponseWriter) {
	http.NewResponseController(w).SetWriteDeadline(time.Now().Add(time.Duration(streamWriteTimeout.Load()))) //nolint:errcheck // not every writer has deadlines
}

// streamWriteDone lifts a stream's write deadline once its write is done:
// over HTTP/2 (a --host connection) a deadline that passes resets the
// stream even while nothing is being written, so a quiet follow or
// events stream broke off after StreamWriteTimeout.
func streamWriteDone(w http.ResponseWriter) {
	http.NewResponseController(w).SetWriteDeadline(time.Time{}) //nolint:errcheck // not every writer has deadlines
}

// openStream takes one of the server's stream slots, or says why not.
// Call the returned function when the stream ends.
func (s *Server) openStream() (func(), error) {
	select {
	case s.streams <- struct{}{}:
		return func() { <-s.streams }, nil
	default:
		return nil, &RequestError{Status: http.StatusServiceUnavailable, Msg: fmt.Sprintf(
			"this jobtop already serves %d streams (follow, wait and event requests) at once; end one (or use a read without follow/wait) and try again", cap(s.streams))}
	}
}

// connCounter counts a server's open connections and when the last one
// closed.
type connCounter struct {
	mu     sync.Mutex
	open   map[net.Conn]bool
	lastAt time.Time // when the count last fell to 0
}

func (c *connCounter) track(conn net.Conn, state http.ConnState) {
	c.mu.Lock()
	defer c.mu.Unlock()
	switch state {
	case http.StateNew:
		if c.open == nil {
			c.open = make(map[net.Conn]bool)
		}
		c.open[conn] = true
	case http.StateClosed, http.StateHijacked:
		if c.open[conn] {
			delete(c.open, conn)
			if len(c.open) == 0 {
				c.lastAt = time.Now()
			}
		}
	}
}

// Clients reports how many connections are open, and since when none has
// been (the zero time while some are, or when none ever was).
func (s *Server) Clients() (open int, noneSince time.Time) {
	s.conns.mu.Lock()
	defer s.conns.mu.Unlock()
	if len(s.conns.open) > 0 {
		return len(s.conns.open), time.Time{}
	}
	return 0, s.conns.lastAt
}

// readBody reads the request's body before its handler runs, within
// s.bodyReadTimeout of now, and gives the handler what it read; then
// the connection's read deadline is lifted, so a long request (a wait, a
// stream) runs unbounded. A body not whole in time (a client that sent
// its head and part of its body, and holds the connection) is answered
// 408 and its connection closed: it held a goroutine and the connection
// for ever, whether its handler read the body or not (net/http reads
// what is left of it before answering), and kept a serve from its
// --idle-exit. A body over MaxBodyBytes, which every handler refuses,
// is left to the handler with the deadline still on, for what net/http
// reads of it after. Where the connection has no read deadline, the
// body is left as it came.
func (s *Server) readBody(w http.ResponseWriter, r *http.Request) bool {
	if r.ContentLength == 0 || r.Body == nil || r.Body == http.NoBody {
		return true
	}
	rc := http.NewResponseController(w)
	if rc.SetReadDeadline(time.Now().Add(s.bodyReadTimeout)) != nil {
		return true
	}
	read, err := io.ReadAll(io.LimitReader(r.Body, MaxBodyBytes+1))
	if err != nil {
		w.Header().Set("Connection", "close")
		writeError(w, &RequestError{Status: http.StatusRequestTimeout, Msg: fmt.Sprintf(
			"the request body did not come whole within %v of its head: send the body with the head", s.bodyReadTimeout)})
		return false
	}
	if len(read) <= MaxBodyBytes {
		rc.SetReadDeadline(time.Time{}) //nolint:errcheck // it took one above
	}
	r.Body = readBodyOf{Reader: io.MultiReader(bytes.NewReader(read), r.Body), Closer: r.Body}
	return true
}

// readBodyOf is a request body read ahead (readBody): what was read,
// then the rest of the original, which it closes.
type readBodyOf struct {
	io.Reader
	io.Closer
}
