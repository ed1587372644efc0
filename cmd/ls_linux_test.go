package cmd

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"

	"jobtop/termtext"
)

// TestLsFitsTheTerminal: on an 80-column terminal each job is one row of
// it, its command cut where the terminal ends (a cut at 60 made every
// row of a long command wrap onto two lines); a pipe gets the 60.
func TestLsFitsTheTerminal(t *testing.T) {
	c := newCLI(t)
	c.serve()
	long := "echo " + strings.Repeat("a-long-argument ", 8)
	c.ok("wait", c.startJob(long, "--name", "long"))
	// Wide characters take two columns each: counted as one, the row
	// wrapped.
	c.ok("wait", c.startJob("echo "+strings.Repeat("日本語のテキスト🚀 ", 8), "--name", "wide"))

	ptmx, err := os.OpenFile("/dev/ptmx", os.O_RDWR, 0)
	require.NoError(t, err)
	defer ptmx.Close()
	require.NoError(t, unix.IoctlSetPointerInt(int(ptmx.Fd()), unix.TIOCSPTLCK, 0))
	require.NoError(t, unix.IoctlSetWinsize(int(ptmx.Fd()), unix.TIOCSWINSZ, &unix.Winsize{Col: 80, Row: 24}))
	n, err := unix.IoctlGetUint32(int(ptmx.Fd()), unix.TIOCGPTN)
	require.NoError(t, err)
	tty, err := os.OpenFile("/dev/pts/"+strconv.Itoa(int(n)), os.O_RDWR|unix.O_NOCTTY, 0)
	require.NoError(t, err)
	ls := exec.Command(binary, "ls")
	ls.Env = c.env
	ls.Stdout = tty
	var stderr bytes.Buffer
	ls.Stderr = &stderr
	require.NoError(t, ls.Run(), stderr.String())
	require.NoError(t, tty.Close())
	var out bytes.Buffer
	io.Copy(&out, ptmx) //nolint:errcheck // EIO once the far end is closed and read
	rows := strings.Split(strings.TrimRight(strings.ReplaceAll(out.String(), "\r\n", "\n"), "\n"), "\n")
	require.Len(t, rows, 3, "a header and one row a job:\n%s", out.String())
	for _, row := range rows {
		assert.LessOrEqual(t, termtext.Width(row), 80, "%q", row)
	}
	for _, row := range rows[1:] {
		assert.True(t, strings.HasSuffix(row, "…"), row)
		at := strings.Index(row, "echo ")
		assert.Equal(t, termtext.Width(rows[0][:strings.Index(rows[0], "COMMAND")]), termtext.Width(row[:at]),
			"COMMAND starts in the same column: %q", row)
	}
	assert.Contains(t, rows[1], "echo a-long-argument")

	piped := strings.Split(c.ok("ls"), "\n")[1]
	assert.Greater(t, utf8.RuneCountInString(piped), 80, "a pipe is no terminal: %q", piped)
}
