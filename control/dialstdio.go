package control

import (
	"context"
	"fmt"
	"io"
	"net"
)

// BridgeStdio is the far side of a client over ssh (jobtop dial-stdio):
// it connects to the instance on socket, trusting it as a local client
// does (a private directory of this user's, served by this user), writes
// the banner with the instance's API version, then copies bytes both
// ways, untouched, until the instance ends it, or the client's input ends
// and the instance has answered what came before. version is what the instance
// reported in GET /v1/instance.
func BridgeStdio(ctx context.Context, socket string, version int, in io.Reader, out io.Writer) error {
	conn, err := dialTrusted(ctx, socket)
	if err != nil {
		if _, ok := err.(*UntrustedSocketError); ok {
			return err
		}
		return &NotRunningError{Path: socket, Err: err}
	}
	defer conn.Close()
	if _, err := io.WriteString(out, banner(version)); err != nil {
		return err
	}
	sent, answered := make(chan error, 1), make(chan error, 1)
	go func() {
		_, err := io.Copy(conn, plainReader{in})
		// The client is done sending; the server finishes what it
		// writes and closes its side.
		if uc, ok := conn.(*net.UnixConn); ok {
			uc.CloseWrite() //nolint:errcheck // the copy below ends either way
		}
		sent <- err
	}()
	go func() {
		_, err := io.Copy(plainWriter{out}, conn)
		answered <- err
	}()
	select {
	case err = <-sent:
		if err == nil {
			// The answers to what was sent still come: the instance
			// closes once it has written them (it read the end).
			select {
			case err = <-answered:
			case <-ctx.Done():
			}
		}
	case err = <-answered:
	case <-ctx.Done():
	}
	if err != nil {
		return fmt.Errorf("dial-stdio: %w", err)
	}
	return nil
}

// plainWriter and plainReader hide an *os.File's ReadFrom and WriteTo
// from io.Copy, which would splice between the socket and stdin or
// stdout. ssh's pipes are blocking, out of Go's poller, so a splice with
// SPLICE_F_NONBLOCK that finds stdout full (ssh not reading: a stalled
// link) returned EAGAIN and was retried at once: the far dial-stdio spun
// a core (golang/go#75304). Plain reads and writes block instead.
type (
	plainWriter struct{ io.Writer }
	plainReader struct{ io.Reader }
)
