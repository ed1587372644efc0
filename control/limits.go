package control

import (
	"fmt"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"
)

// Connection bounds of a server.
const (
	// ReadHeaderTimeout closes a connection that does not send its
	// request head in time.
	ReadHeaderTimeout = 10 * time.Second
	// IdleTimeout closes a kept-alive connection left unused this long.
	IdleTimeout = 2 * time.Minute
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
