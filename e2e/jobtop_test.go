package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// jobs appear with the right states, x stops a sleep job, r brings it
// back, a resize redraws cleanly, and q then y quits leaving no job
// process alive.
func TestJobsStopRestartQuit(t *testing.T) {
	bin := binary(t)
	// Unique arguments find the jobs' processes later.
	token := fmt.Sprintf("%d.%d", os.Getpid(), 4242)
	s := newSession(t, 160, 45, nil, bin,
		"--name", "sleeper,hello,broken",
		"sleep 1"+token, "echo hello from e2e", "echo bad >&2; exit 4",
		"--", "sleep", "2"+token)

	scr := s.waitText("✓ succeeded", "✗ failed (4)")
	s.waitFor("both sleepers running", func(scr []string) bool {
		return strings.Contains(row(scr, "sleeper"), "● running") && strings.Contains(row(scr, " 4 sleep "), "● running")
	})
	require.True(t, strings.HasPrefix(scr[0], "    ID NAME"), "the table header is the first row: %q", scr[0])
	require.Contains(t, row(scr, "hello "), "hello from e2e")
	require.Contains(t, row(scr, "broken"), "bad")
	// The unnamed job is named after its program, not its whole command.
	require.NotContains(t, row(scr, " 4 sleep "), token)
	require.Len(t, processesWith("2"+token), 1, "the argv job runs without a shell")
	require.NotEmpty(t, processesWith("1"+token), "the shell job runs")

	s.keys("x")
	s.waitFor("the sleeper to stop", func(scr []string) bool {
		return strings.Contains(row(scr, "sleeper"), "■ killed (TERM)")
	})
	require.Len(t, processesWith("1"+token), 0, "stopping the job ended its process")

	s.keys("r")
	s.waitFor("the sleeper to run again", func(scr []string) bool {
		return strings.Contains(row(scr, "sleeper"), "● running")
	})
	require.NotEmpty(t, processesWith("1"+token))

	// Colours reach the terminal: the running state is drawn in colour.
	require.Contains(t, s.screenWithColours(), "\x1b[")

	s.tmux("resize-window", "-t", s.name, "-x", "80", "-y", "24")
	scr = s.waitFor("the 80x24 frame", func(scr []string) bool {
		return len(scr) == 24 && strings.HasPrefix(scr[0], "    ID NAME") && strings.Contains(scr[23], "quit")
	})
	require.Contains(t, strings.Join(scr, "\n"), "sleeper")
	s.tmux("resize-window", "-t", s.name, "-x", "160", "-y", "45")
	s.waitFor("the 160x45 frame", func(scr []string) bool {
		return len(scr) == 45 && strings.HasPrefix(scr[0], "    ID NAME") && strings.Contains(scr[44], "quit")
	})

	s.quit("2 jobs running — stop them and quit? y/n")
	require.Empty(t, processesWith(token), "no job process survives quitting")
}

// jobtop demo shows every kind of sample job and quits cleanly.
func TestDemo(t *testing.T) {
	bin := binary(t)
	tmp := t.TempDir() // the demo's script directory goes here, no other test's
	s := newSession(t, 160, 45, []string{"TMPDIR=" + tmp}, bin, "demo")
	scr := s.waitText("build", "test", "server", "lint", "hello from jobtop", "✗ failed (2)", "build succeeded")
	require.Contains(t, row(scr, "server"), "● running")
	require.Contains(t, row(scr, "lint"), "✓ succeeded")
	require.Contains(t, row(scr, "test"), "FAIL")

	// The build's progress bar was drawn with \r; only its last state and
	// the finished steps remain.
	all := strings.Join(scr, "\n")
	require.Contains(t, all, "✓ internal/config")
	require.NotContains(t, all, "] 45% compiling internal/config")

	// The linter's stderr lines are in the output, tinted.
	s.keys("G", "k", "Enter")
	s.waitText("▸ job 4 lint", "warning: ui/table.go:12")

	require.NotEmpty(t, demoProcesses(tmp), "the server job runs in the demo's directory, under tmp")
	s.keys("q", "y")
	require.Equal(t, "0", s.waitExit())
	require.Empty(t, demoProcesses(tmp), "no demo job survives quitting")
}

// demoProcesses lists processes still running in the script directory of
// a demo started with TMPDIR=tmp.
func demoProcesses(tmp string) []string {
	var found []string
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		cwd, err := os.Readlink("/proc/" + e.Name() + "/cwd")
		if err == nil && strings.HasPrefix(cwd, filepath.Join(tmp, "jobtop-demo-")) && !isZombie(e.Name()) {
			found = append(found, e.Name()+": "+cwd)
		}
	}
	return found
}
