package control

import (
	"context"
	"errors"
	"net"
	"net/http"
	"strings"
	"sync/atomic"
	"time"
)

// Health checks of a channel over ssh: a ping goes out after
// hostPingAfter without a frame from the far end, and the channel is
// dropped when its answer takes longer than hostPingTimeout (a host
// that vanished without closing the connection).
const (
	hostPingAfter   = 15 * time.Second
	hostPingTimeout = 15 * time.Second
)

// NewHostClient makes a client for the jobtop instance on a host reached
// over ssh (see Host). Nothing runs until a call needs it. One ssh
// connection then carries every request of the client, streams included,
// at once: HTTP/2 without TLS inside the channel, which ssh encrypts, as
// the instance's socket also speaks it. A connection that breaks is
// replaced by a new one on the next call.
//
// The client's transport is the only thing that differs from NewClient's:
// where the net.Conn comes from.
func NewHostClient(h Host) *Client {
	d := &hostDialer{host: h}
	d.interactive.Store(h.Interactive)
	protocols := new(http.Protocols)
	protocols.SetUnencryptedHTTP2(true)
	transport := &http.Transport{
		DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) { return d.dial(ctx) },
		Protocols:   protocols,
		HTTP2: &http.HTTP2Config{
			SendPingTimeout: hostPingAfter,
			PingTimeout:     hostPingTimeout,
		},
	}
	return &Client{socket: h.Socket, host: &h, http: &http.Client{Transport: transport}, dialer: d}
}

// hostDialer makes a host client's connections.
type hostDialer struct {
	host        Host
	interactive atomic.Bool // the next connection may ask a person
	oldFar      atomic.Bool // the far dial-stdio takes no --answer-timeout
	// mirrorStarts: only the attached mirror's own connections (its
	// first, its reconnections unless SetReconnectSame) may start a far
	// instance (see startsFarInstance).
	mirrorStarts atomic.Bool
}

// startsFarKey marks a request context whose connection may start a far
// instance (startsFarInstance).
type startsFarKey struct{}

// startsFarInstance marks ctx as the attached mirror's own: a connection
// dialled for its requests may start a far instance when none runs
// (unless the Host says NoStart). Every other request of an attached
// client (the output a last event announced, an action, a backfill)
// runs dial-stdio --no-start: once the far instance has shut down, such
// a request would start a new one, which the TUI, no longer attached to
// it, would keep alive and never show.
func startsFarInstance(ctx context.Context) context.Context {
	return context.WithValue(ctx, startsFarKey{}, true)
}

func (d *hostDialer) dial(ctx context.Context) (net.Conn, error) {
	// Only the first connection may ask a person anything: later ones
	// are made while a TUI owns the terminal.
	batch := !d.interactive.Swap(false)
	h := d.host
	h.oldFar = d.oldFar.Load()
	if d.mirrorStarts.Load() && ctx.Value(startsFarKey{}) == nil {
		h.NoStart = true
	}
	conn, err := dialSSH(ctx, h, batch)
	if errors.Is(err, errFarTakesNoAnswerTimeout) {
		// A far jobtop from before --answer-timeout: it keeps its own
		// limit, and --host-timeout bounds the wait here.
		d.oldFar.Store(true)
		h.oldFar = true
		conn, err = dialSSH(ctx, h, batch)
	}
	return conn, err
}

// SetReconnect makes an attached mirror outlive a broken events stream:
// it says so (Connection) and connects again every ReconnectDelay,
// keeping its jobs and output, until Close. Without it, the mirror ends
// (Done) when it loses the instance. Call it before Attach.
func (c *Client) SetReconnect(on bool) { c.reconnect = on }

// SetReconnectSame keeps SetReconnect's attempts to the instance the
// mirror attached to, for a client whose instance is all a TUI shows
// (attach --host H, no other host): over ssh they start none (dial-stdio
// --no-start), and once the host answers that none runs there, or
// another one does, the mirror ends (Done) with an *InstanceLostError,
// as a local attach's does. A host it cannot reach is tried again: the
// instance may still run there. Call it before Attach.
func (c *Client) SetReconnectSame(on bool) { c.sameOnly = on }

// dialFailure is the error a failed dial carried, when it already says
// what went wrong in a person's words: an untrusted socket, a host that
// could not be reached, a far jobtop too old, no instance on a host.
func dialFailure(err error) error {
	var untrusted *UntrustedSocketError
	var hostErr *HostError
	var version *VersionError
	var notRunning *NotRunningError
	var noAnswer *NoAnswerError
	var lost *LostError
	// NotRunningError first: it wraps what the far side said.
	switch {
	case errors.As(err, &notRunning):
		return notRunning
	case errors.As(err, &noAnswer):
		return noAnswer
	case errors.As(err, &lost): // hung up on the first answer (answer.go)
		return lost
	case errors.As(err, &untrusted):
		return untrusted
	case errors.As(err, &version):
		return version
	case errors.As(err, &hostErr):
		return hostErr
	}
	return nil
}

// HostSilence is how long a channel over ssh went without a frame from
// the far end before the client dropped it (see IsSilent).
const HostSilence = hostPingAfter + hostPingTimeout

// IsSilent reports whether err is a channel over ssh dropped because the
// far end answered no ping (HostSilence without a frame): the far
// instance is stopped (SIGSTOP) or hung, or the link to its host is
// down. Unlike a channel that closed, it says nothing of the instance
// having ended: its jobs may run on.
func IsSilent(err error) bool {
	// The HTTP/2 transport's own words for a ping left unanswered; it
	// has no error value to match.
	return IsLost(err) && strings.Contains(err.Error(), "http2: client connection lost")
}

// CheckCommand is the command that asks the instance on the host
// whether it answers, as a person types it here.
func (h Host) CheckCommand() string {
	ls := shellWord(h.bin()) + " ls"
	if h.Socket != "" {
		ls += " --socket " + shellWord(h.Socket)
	}
	return "ssh " + h.URL + " " + ls
}

// Unreachable says in one line why a host could not be reached, for a
// status bar that shows a host whose reconnections fail: ssh's own last
// line when ssh failed ("ssh said: me@b: Permission denied
// (publickey)."), else the last line of what a failed dial said (no
// jobtop there, a far end that did not answer...). It is "" for an error
// that says nothing of the kind: a connection that merely broke.
func Unreachable(err error) string {
	var hostErr *HostError
	if errors.As(err, &hostErr) && hostErr.SSH != "" {
		return "ssh said: " + hostErr.SSH
	}
	if known := dialFailure(err); known != nil {
		return lastLine(known.Error())
	}
	return ""
}
