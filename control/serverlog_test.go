package control

import (
	"bytes"
	"log"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

func TestServerLogSaysWhatNoClientHears(t *testing.T) {
	var out bytes.Buffer
	l := &serverLog{w: &out}
	logger := log.New(l, "", 0)
	logger.Printf("http: TLS handshake error from x: EOF")
	logger.Printf("http2: server: error reading preface from client: read: connection reset by peer")
	assert.Empty(t, out.String(), "what clients met is theirs")

	for range 5 {
		logger.Printf("http: Accept error: accept unix /s.sock: accept4: too many open files; retrying in 1s")
	}
	assert.Equal(t, "jobtop: the API: http: Accept error: accept unix /s.sock: accept4: too many open files; retrying in 1s\n", out.String(),
		"one line for an error that repeats")

	out.Reset()
	logger.Printf("http: panic serving @: boom\ngoroutine 7 [running]:\nmain.f()")
	assert.Equal(t, "jobtop: the API: http: panic serving @: boom\ngoroutine 7 [running]:\nmain.f()\n", out.String(),
		"a panic is said at once, stack and all")

	out.Reset()
	l.last = l.last.Add(-serverLogEvery) // the next accept error may be said
	logger.Printf("http: Accept error: accept unix /s.sock: accept4: too many open files; retrying in 1s")
	assert.Equal(t, "jobtop: the API: 4 more like the next left out since the last\n"+
		"jobtop: the API: http: Accept error: accept unix /s.sock: accept4: too many open files; retrying in 1s\n", out.String())
	assert.WithinDuration(t, time.Now(), l.last, time.Minute)
}
