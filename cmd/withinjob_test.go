package cmd

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"jobtop/jobs"
)

// A jobtop TUI run as a terminal job of an instance (`a`, then jobtop
// with other XDG dirs) inherits the job's JOBTOP_SOCKET and attaches to
// that very instance: it says so, naming `env -u JOBTOP_SOCKET`, and
// never sizes the job it runs in. Showing its own job, it gave that
// job's terminal (the one it draws on) its pane's size, and shrank.
func TestATUIInItsInstancesJobSaysSoAndKeepsItsSize(t *testing.T) {
	c := newCLI(t)
	c.serve()
	id := c.startJob("exec "+binary+" attach", "--tty", "--name", "inner")
	var screen string
	for end := time.Now().Add(testTimeout); ; {
		screen = strings.Join(strings.Fields(c.run("screen", id).stdout), " ")
		if strings.Contains(screen, "job "+id+" inner") && strings.Contains(screen, "env -u JOBTOP_SOCKET") {
			break
		}
		if time.Now().After(end) {
			t.Fatalf("the inner TUI did not show its job and say where it is attached:\n%s", c.run("screen", id).stdout)
		}
		time.Sleep(50 * time.Millisecond)
	}
	require.Contains(t, screen, "this TUI runs in job "+id)
	info := c.status(id)
	require.Equal(t, [2]int{jobs.DefaultCols, jobs.DefaultRows}, [2]int{info.Cols, info.Rows}, "the job it runs in keeps its size")
}
