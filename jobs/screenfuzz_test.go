package jobs

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"
)

// FuzzTerminalOutput hands a terminal job's reader path (storeTerminal,
// then the emulator's flush, as the reader does once it has read all
// there is) random output in random pieces, as a PTY hands it out: it
// never panics (a panic there takes jobtop and every job with it), the
// screen can always be read, and the store counts every byte. One job
// takes every input of a fuzz worker, so each starts in the state the
// last one left: screen mode or not, a home pending, a sequence cut
// short.
func FuzzTerminalOutput(f *testing.F) {
	f.Add([]byte("x\x1b[?1049hALT\x1b[?1049l"), []byte{4})
	f.Add([]byte("a\r\nb\r\nc\r\n\x1b[H\r\n\x1b(\x1b[6nX\x1b]0;t\x1b\x1b[2;1HY\x1bc"), []byte{9, 1, 3, 7, 2})
	f.Add([]byte("\x1b[2J\x1b[3J\x1b[H\x1b[32mok\x1b[m\r\n\x1b[1A\x1b[2Kframe\r\n\x1bPtmux;\x1b\x1b[?1049h\x1b\\"), []byte{5, 9, 2})
	m, err := NewManager(Options{LogDir: f.TempDir(), SampleInterval: -1, Emulator: testEmulator})
	require.NoError(f, err)
	f.Cleanup(func() { m.Shutdown(context.Background()) }) //nolint:errcheck // the test is over
	// A job that writes nothing, on a terminal that does not echo: the
	// answers to queries written to it must not come back as output on
	// the job's own reader, beside the fuzz's.
	info, err := m.Start(Spec{TTY: true, Command: "exec sleep 600"})
	require.NoError(f, err)
	m.mu.Lock()
	j := m.jobs[info.ID]
	p := j.proc
	m.mu.Unlock()
	rc, err := p.input.SyscallConn()
	require.NoError(f, err)
	var terr error
	require.NoError(f, rc.Control(func(fd uintptr) {
		var tio *unix.Termios
		if tio, terr = unix.IoctlGetTermios(int(fd), ioctlReadTermios); terr == nil {
			tio.Lflag &^= unix.ECHO
			terr = unix.IoctlSetTermios(int(fd), ioctlWriteTermios, tio)
		}
	}))
	require.NoError(f, terr)
	f.Fuzz(func(t *testing.T, data, cuts []byte) {
		before := j.store.Stats().Bytes
		for i, rest := 0, data; len(rest) > 0; i++ {
			n := len(rest)
			if i < len(cuts) {
				n = min(int(cuts[i])%32+1, n)
			}
			m.storeTerminal(j, p, rest[:n])
			rest = rest[n:]
		}
		p.term.mu.Lock()
		feed := p.term.feed
		p.term.mu.Unlock()
		if feed != nil {
			feed.flush() // as readAll does (its log part is the job's reader's)
		}
		_, err := m.Screen(info.ID)
		require.NoError(t, err)
		assert.Equal(t, before+int64(len(data)), j.store.Stats().Bytes, "every byte counted")
	})
}
