package cmd

import (
	"net"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"
)

// logs --follow and --stderr ask about the job before reading it: an
// instance that does not answer the first question is the error at
// once, not a second wait as long on a second connection. The instance
// here is the test's own socket, which takes connections and never
// answers, and counts them.
func TestLogsGiveUpAfterOneWait(t *testing.T) {
	c := newCLI(t)
	l, err := net.Listen("unix", c.socket)
	require.NoError(t, err)
	accepted := make(chan *net.UnixConn) // open, never answered
	go func() {
		for {
			conn, err := l.Accept()
			if err != nil {
				close(accepted)
				return
			}
			accepted <- conn.(*net.UnixConn)
		}
	}()
	var held []net.Conn
	t.Cleanup(func() {
		l.Close()
		for conn := range accepted {
			held = append(held, conn)
		}
		for _, conn := range held {
			conn.Close()
		}
	})
	// connections counts what was accepted until the test's own last
	// connection: the kernel queues them in order.
	connections := func() int {
		mine, err := net.Dial("unix", c.socket)
		require.NoError(t, err)
		held = append(held, mine)
		n := 0
		for conn := range accepted {
			held = append(held, conn)
			raw, err := conn.SyscallConn()
			require.NoError(t, err)
			var cred *unix.Ucred
			require.NoError(t, raw.Control(func(fd uintptr) {
				cred, err = unix.GetsockoptUcred(int(fd), unix.SOL_SOCKET, unix.SO_PEERCRED)
			}))
			require.NoError(t, err)
			if int(cred.Pid) == os.Getpid() {
				return n
			}
			n++
		}
		t.Fatal("the listener closed")
		return n
	}
	for _, flag := range []string{"--follow", "--stderr"} {
		r := c.run("logs", "1", flag, "--answer-timeout", "1s")
		assert.NotEqual(t, 0, r.code, flag)
		assert.Contains(t, r.stderr, "did not answer within 1s", flag)
		assert.Equal(t, 1, connections(), "%s: connections made", flag)
	}
}
