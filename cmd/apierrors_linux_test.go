package cmd

import (
	"bufio"
	"net"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"
)

// TestServeSaysWhenItCannotAcceptClients: serve out of file descriptors
// cannot accept a client, who waits unanswered; serve says so on its
// stderr, and answers again once descriptors
// are free.
func TestServeSaysWhenItCannotAcceptClients(t *testing.T) {
	c := newCLI(t)
	serve := exec.Command(binary, "serve", "--no-file")
	stderr := c.startServe(serve)
	var mu sync.Mutex
	var lines []string
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			mu.Lock()
			lines = append(lines, sc.Text())
			mu.Unlock()
		}
	}()
	c.waitAnswering()
	limit := unix.Rlimit{Cur: 64, Max: 64}
	require.NoError(t, unix.Prlimit(serve.Process.Pid, unix.RLIMIT_NOFILE, &limit, nil))

	// Clients that connect and say nothing hold a descriptor each (until
	// the header timeout), more than serve has.
	var conns []net.Conn
	t.Cleanup(func() {
		for _, conn := range conns {
			conn.Close()
		}
	})
	for range 80 {
		conn, err := net.Dial("unix", c.socket)
		require.NoError(t, err)
		conns = append(conns, conn)
	}
	acceptError := func() string {
		mu.Lock()
		defer mu.Unlock()
		for _, l := range lines {
			if strings.Contains(l, "Accept error") {
				return l
			}
		}
		return ""
	}
	require.Eventually(t, func() bool { return acceptError() != "" }, testTimeout, 10*time.Millisecond, "serve said nothing")
	first := acceptError()
	assert.Contains(t, first, "jobtop: the API: http: Accept error:")
	assert.Contains(t, first, "too many open files")

	for _, conn := range conns {
		conn.Close()
	}
	conns = nil
	c.waitAnswering()
}
