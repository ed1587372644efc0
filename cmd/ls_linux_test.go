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

	out := c.onTerminal(80, "ls")
	rows := strings.Split(strings.TrimRight(out, "\n"), "\n")
	require.Len(t, rows, 3, "a header and one row a job:\n%s", out)
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

// onTerminal runs jobtop with args on a terminal cols columns wide and
// returns what it printed there, its line ends as "\n".
func (c *cli) onTerminal(cols uint16, args ...string) string {
	t := c.t
	t.Helper()
	ptmx, err := os.OpenFile("/dev/ptmx", os.O_RDWR, 0)
	require.NoError(t, err)
	defer ptmx.Close()
	require.NoError(t, unix.IoctlSetPointerInt(int(ptmx.Fd()), unix.TIOCSPTLCK, 0))
	require.NoError(t, unix.IoctlSetWinsize(int(ptmx.Fd()), unix.TIOCSWINSZ, &unix.Winsize{Col: cols, Row: 24}))
	n, err := unix.IoctlGetUint32(int(ptmx.Fd()), unix.TIOCGPTN)
	require.NoError(t, err)
	tty, err := os.OpenFile("/dev/pts/"+strconv.Itoa(int(n)), os.O_RDWR|unix.O_NOCTTY, 0)
	require.NoError(t, err)
	cmd := exec.Command(binary, args...)
	cmd.Env = c.env
	cmd.Stdout = tty
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	require.NoError(t, cmd.Run(), stderr.String())
	require.NoError(t, tty.Close())
	var out bytes.Buffer
	io.Copy(&out, ptmx) //nolint:errcheck // EIO once the far end is closed and read
	return strings.ReplaceAll(out.String(), "\r\n", "\n")
}

// An argv job's arguments with a newline or an escape in them are shown
// in bash's ANSI-C quotes, by ls and status alike, on a terminal and on a
// pipe: one line, no escape reaching the terminal, and bash given it runs
// the job's very words (a newline shown as a space or "⏎", and ESC
// dropped on a terminal, ran something else).
func TestArgvWithControlsIsShownAsBashReadsIt(t *testing.T) {
	c := newCLI(t)
	c.serve()
	argv := []string{"printf", "%s|", "line\nbreak", "\x1b[31mred"}
	id := strings.TrimSpace(c.ok(append([]string{"run", "--"}, argv...)...))
	c.ok("wait", id)
	const want = `printf '%s|' $'line\nbreak' $'\e[31mred'`
	out, err := exec.Command("bash", "-c", want).Output()
	require.NoError(t, err)
	require.Equal(t, "line\nbreak|\x1b[31mred|", string(out), "the line shown runs the job's words")

	commandIn := func(how string, ls, status string) {
		t.Helper()
		rows := strings.Split(strings.TrimRight(ls, "\n"), "\n")
		require.Len(t, rows, 2, "%s: ls prints a header and one row:\n%s", how, ls)
		assert.True(t, strings.HasSuffix(rows[1], "  "+want), "%s: ls %q", how, rows[1])
		assert.Contains(t, status, "\ncommand:  "+want+"\n", "%s: status", how)
		assert.NotContains(t, ls+status, "\x1b", how)
	}
	commandIn("pipe", c.ok("ls"), c.ok("status", id))
	commandIn("terminal", c.onTerminal(200, "ls"), c.onTerminal(200, "status", id))
	info := c.status(id)
	assert.Equal(t, argv, info.Argv, "the JSON argv is the words as given")
	assert.Equal(t, want, info.Command)
}
