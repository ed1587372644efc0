package control

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"sync"
	"time"
)

// peerCheckListener refuses connections from a uid other than uid: they get
// a 403 answer and are closed, and Accept moves on to the next one. It also
// holds the socket's lock file until closed.
type peerCheckListener struct {
	net.Listener
	uid  int
	lock *os.File

	closeOnce sync.Once
	closeErr  error
}

// Accept returns the next connection from an allowed peer.
func (l *peerCheckListener) Accept() (net.Conn, error) {
	for {
		conn, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		uid, err := peerUID(conn)
		if err == nil && uid == l.uid {
			return conn, nil
		}
		msg := "this jobtop only answers its own user"
		if err != nil {
			msg = "cannot tell who is connecting: " + err.Error()
		} else {
			msg = fmt.Sprintf("%s (uid %d); uid %d is refused", msg, l.uid, uid)
		}
		go refuse(conn, msg)
	}
}

// Close stops listening, removes the socket and releases the lock.
func (l *peerCheckListener) Close() error {
	l.closeOnce.Do(func() {
		l.closeErr = l.Listener.Close()
		l.lock.Close()
	})
	return l.closeErr
}

// refuse reads a connection's request head, answers 403 and closes it.
// (Answering before the request is read would race the client's write.)
func refuse(conn net.Conn, msg string) {
	defer conn.Close()
	body := errorBody(msg)
	conn.SetDeadline(time.Now().Add(5 * time.Second)) //nolint:errcheck // best effort
	if _, err := http.ReadRequest(bufio.NewReader(io.LimitReader(conn, 64<<10))); err != nil {
		return
	}
	fmt.Fprintf(conn, "HTTP/1.1 403 Forbidden\r\nContent-Type: application/json\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s", len(body), body)
}
