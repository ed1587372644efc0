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
// ways, untouched, until either side ends. version is what the instance
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
	done := make(chan error, 2)
	go func() {
		_, err := io.Copy(conn, in)
		// The client is done sending; the server finishes what it
		// writes and closes its side.
		if uc, ok := conn.(*net.UnixConn); ok {
			uc.CloseWrite() //nolint:errcheck // the copy below ends either way
		}
		done <- err
	}()
	go func() {
		_, err := io.Copy(out, conn)
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil {
			return fmt.Errorf("dial-stdio: %w", err)
		}
		return nil
	case <-ctx.Done():
		return nil
	}
}
