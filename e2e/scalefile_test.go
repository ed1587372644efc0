package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// manyJobsFile writes a job file of n sleeping jobs and returns its path.
func manyJobsFile(t *testing.T, n int) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("jobs:\n")
	for i := range n {
		fmt.Fprintf(&b, "  job%04d: {cmd: \"exec sleep 600\"}\n", i)
	}
	file := filepath.Join(t.TempDir(), "jobtop.yaml")
	require.NoError(t, os.WriteFile(file, []byte(b.String()), 0o600))
	return file
}

var runningRE = regexp.MustCompile(`● (\d+) running`)

// runningCount is the status bar's count of running jobs, -1 when the
// screen shows none (it is not drawn yet).
func runningCount(scr []string) int {
	m := runningRE.FindStringSubmatch(strings.Join(scr, "\n"))
	if m == nil {
		return -1
	}
	n, _ := strconv.Atoi(m[1])
	return n
}

// TestScaleFileDrawsWhileItStarts: a job file of many jobs takes seconds
// to start (tens of seconds with some of them writing flat out), and the
// screen must not stay blank meanwhile: the TUI draws the jobs as they
// start, and its status bar counts them all in the end. Without the jobs
// starting behind the first frame, the first frame there is shows every
// job running, and this fails.
func TestScaleFileDrawsWhileItStarts(t *testing.T) {
	const n = 500
	s := newSession(t, 200, 50, nil, binary(t), "-f", manyJobsFile(t, n))
	s.waitFor("a frame while the file's jobs start", func(scr []string) bool {
		c := runningCount(scr)
		require.NotEqual(t, n, c, "the first frame came once every job had started")
		return c >= 0
	})
	s.waitFor(fmt.Sprintf("● %d running", n), func(scr []string) bool { return runningCount(scr) == n })
	s.keys("q")
	s.waitText("stop them and quit?")
	s.keys("y")
	s.waitExit()
}

// TestScaleQuitWhileFileStarts: quitting while the file's jobs still start
// stops the start and every job that did, and jobtop ends.
func TestScaleQuitWhileFileStarts(t *testing.T) {
	const n = 1000
	s := newSession(t, 200, 50, nil, binary(t), "-f", manyJobsFile(t, n))
	scr := s.waitFor("a frame while the file's jobs start", func(scr []string) bool { return runningCount(scr) > 0 })
	require.Less(t, runningCount(scr), n)
	s.quit("stop them and quit?")
}
