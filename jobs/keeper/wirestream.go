//go:build unix

package keeper

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"

	"golang.org/x/sys/unix"
)

// Where unix sockets have no SOCK_SEQPACKET (macOS), the connection is a
// stream and each message is framed: a 4-byte big-endian length, then the
// message (wirecodec.go). File descriptors ride on the message's first byte, and the reader
// never reads past the message it is reading, so files always arrive with
// their own message. This file builds everywhere; on Linux its tests run
// it over a stream socket pair.

// sendStream writes one message, with fds.
func sendStream(c *net.UnixConn, v any, fds ...int) error {
	body, err := marshal(v)
	if err != nil {
		return err
	}
	if len(body) > maxMessage {
		return fmt.Errorf("message larger than %d bytes", maxMessage)
	}
	msg := make([]byte, 4+len(body))
	binary.BigEndian.PutUint32(msg, uint32(len(body)))
	copy(msg[4:], body)
	var oob []byte
	if len(fds) > 0 {
		oob = unix.UnixRights(fds...)
	}
	n, _, err := c.WriteMsgUnix(msg, oob, nil)
	if err == nil && n < len(msg) {
		_, err = c.Write(msg[n:]) // a stream may take part of it at once
	}
	return err
}

// receiveStream reads the next message into v and returns the fds that
// came with it (close-on-exec, owned by the caller).
func (r *receiver) receiveStream(v any) ([]int, error) {
	var files []int
	fail := func(err error) ([]int, error) {
		closeFDs(files)
		return nil, err
	}
	var head [4]byte
	if err := r.readFull(head[:], &files); err != nil {
		return fail(err)
	}
	n := binary.BigEndian.Uint32(head[:])
	if n > maxMessage {
		return fail(fmt.Errorf("message larger than %d bytes", maxMessage))
	}
	body := make([]byte, n)
	if err := r.readFull(body, &files); err != nil {
		return fail(err)
	}
	if err := unmarshal(body, v); err != nil {
		return fail(fmt.Errorf("bad message: %w", err))
	}
	return files, nil
}

// readFull fills p from the stream, collecting the fds that arrive.
func (r *receiver) readFull(p []byte, files *[]int) error {
	for len(p) > 0 {
		n, oobn, _, _, err := r.c.ReadMsgUnix(p, r.oob)
		if oobn > 0 {
			got, perr := parseRights(r.oob[:oobn])
			*files = append(*files, got...)
			if perr != nil {
				return perr
			}
		}
		if errors.Is(err, io.EOF) || (err == nil && n == 0) {
			return errClosed
		}
		if err != nil {
			return err
		}
		p = p[n:]
	}
	return nil
}
