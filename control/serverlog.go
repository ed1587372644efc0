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
// panic, with its stack. Everything else net/http logs (clients that went
// away, bad handshakes) is theirs, and dropped. A failed accept is
// written at most once per serverLogEvery (net/http tries again every
// second at most), with how many were left out between; a panic always.
type serverLog struct {
	mu      sync.Mutex
	w       io.Writer
	last    time.Time // of the last accept error written
	skipped int       // accept errors left out since
}

// serverLogEvery spaces out the lines of an accept that fails again and
// again while no descriptor is free.
const serverLogEvery = 10 * time.Second

func (l *serverLog) Write(p []byte) (int, error) {
	accept, panicked := bytes.Contains(p, []byte("http: Accept error")), bytes.Contains(p, []byte("panic serving"))
	if !accept && !panicked {
		return len(p), nil
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	now := time.Now()
	if accept && now.Sub(l.last) < serverLogEvery {
		l.skipped++
		return len(p), nil
	}
	if accept {
		if l.skipped > 0 {
			fmt.Fprintf(l.w, "jobtop: the API: %d more like the next left out since the last\n", l.skipped)
		}
		l.last, l.skipped = now, 0
	}
	fmt.Fprintf(l.w, "jobtop: the API: %s\n", bytes.TrimSpace(p))
	return len(p), nil
}
