package cmd

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRunMarkerIsNotOutput: a restart's "── run 2 ──" stays in the
// output, but is not the job's: it is not its last line. lines, the
// newest line's number (a cursor), still counts it.
func TestRunMarkerIsNotOutput(t *testing.T) {
	c := newCLI(t)
	c.serve()
	silent := c.startJob("exec sleep 100")
	c.ok("restart", silent)
	require.Eventually(t, func() bool { return len(c.logLines(silent)) == 1 }, testTimeout, 10*time.Millisecond)
	assert.Equal(t, []string{"── run 2 ──"}, c.logLines(silent), "the marker stays in the output")
	info := c.status(silent)
	assert.Equal(t, "", info.LastLine, "a silent job has no last line")
	assert.EqualValues(t, 1, info.Lines, "lines is the cursor: it covers the marker")
	assert.Empty(t, c.logLines(silent, "--cursor", "1"), "a cursor at the marker is no error")
	assert.Equal(t, 1, c.run("logs", silent, "--cursor", "2").code, "a cursor past it is")

	// A job that wrote in its first run only: its newest own line stays.
	// The flag is made before the line is written: the restart comes as
	// soon as the line is seen, and must not find the first run yet to
	// make it (the second would write the line again).
	flag := filepath.Join(c.dir, "flag")
	once := c.startJob("test -e " + flag + " || { touch " + flag + "; echo first; }; exec sleep 100")
	c.ok("wait", once, "--until", "^first$", "--timeout", "20s")
	c.ok("restart", once)
	require.Eventually(t, func() bool { return len(c.logLines(once)) == 2 }, testTimeout, 10*time.Millisecond)
	assert.Equal(t, []string{"first", "── run 2 ──"}, c.logLines(once))
	info = c.status(once)
	assert.Equal(t, "first", info.LastLine)
	assert.EqualValues(t, 2, info.Lines)
	c.ok("kill", silent, once)
}
