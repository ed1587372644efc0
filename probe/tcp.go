package probe

import (
	"context"
	"fmt"
	"net"

	"jobtop/jobs"
)

// TCP passes when a TCP connection to Addr (host:port) opens; it is closed
// at once.
type TCP struct {
	Addr string
}

// NewTCP checks the address: host:port, with a port.
func NewTCP(addr string) (*TCP, error) {
	host, port, err := net.SplitHostPort(addr)
	switch {
	case err != nil:
		return nil, fmt.Errorf("%q is not host:port (e.g. 127.0.0.1:5432)", addr)
	case port == "":
		return nil, fmt.Errorf("%q has no port", addr)
	case host == "":
		return nil, fmt.Errorf("%q has no host: write e.g. 127.0.0.1%s", addr, addr)
	}
	return &TCP{Addr: addr}, nil
}

// Check opens and closes one connection.
func (t *TCP) Check(ctx context.Context, _ jobs.ProbeTarget) error {
	var d net.Dialer
	conn, err := d.DialContext(ctx, "tcp", t.Addr)
	if err != nil {
		if op, ok := err.(*net.OpError); ok {
			err = op.Err
		}
		return fmt.Errorf("connect to %s: %v", t.Addr, err)
	}
	return conn.Close()
}

// String is "tcp: ADDR".
func (t *TCP) String() string { return "tcp: " + t.Addr }
