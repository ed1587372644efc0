package control

import (
	"bytes"
	"fmt"
	"io"
	"sync"
	"time"
)

// serverLog is what an instance tells its operator of the errors net/http
// meets and answers no client for: a connection it could not accept (out
// of file descriptors: clients then wait unanswered) and a handler's
// panic. Everything else net/http logs (clients that went away, bad
// handshakes) is theirs, and dropped. Errors are written at most one per
// serverLogEvery, with how many were left out between.
type serverLog struct {
	mu      sync.Mutex
	w       io.Writer
	last    time.Time
	skipped int
}

// serverLogEvery spaces out the lines of an error that repeats (an
// accept fails again every second while no descriptor is free).
const serverLogEvery = 10 * time.Second

func (l *serverLog) Write(p []byte) (int, error) {
	if !bytes.Contains(p, []byte("http: Accept error")) && !bytes.Contains(p, []byte("panic serving")) {
		return len(p), nil
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if now := time.Now(); now.Sub(l.last) >= serverLogEvery {
		if l.skipped > 0 {
			fmt.Fprintf(l.w, "jobtop: the API: %d more errors left out since the last\n", l.skipped)
		}
		fmt.Fprintf(l.w, "jobtop: the API: %s\n", bytes.TrimSpace(p))
		l.last, l.skipped = now, 0
	} else {
		l.skipped++
	}
	return len(p), nil
}
