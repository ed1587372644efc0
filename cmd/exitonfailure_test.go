package cmd

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"jobtop/jobs"
	"jobtop/workspace"
)

// TestServeEndsWithAnExitOnFailureJob: process-compose's restart:
// exit_on_failure stops every job and ends jobtop with the failed job's
// exit code.
func TestServeEndsWithAnExitOnFailureJob(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("bash is not installed")
	}
	c := newCLI(t)
	dir := filepath.Join(c.dir, "app")
	require.NoError(t, os.Mkdir(dir, 0o700))
	marker := "1000.4242" // a sleep only this test runs
	require.NoError(t, os.WriteFile(filepath.Join(dir, "process-compose.yaml"), []byte(`processes:
  sanitycheck:
    command: "sleep 0.5; echo no go; exit 7"
    availability:
      restart: exit_on_failure
  server:
    command: "sleep `+marker+`"
  ok:
    command: "true"
    availability: {restart: exit_on_failure}
`), 0o600))
	r := c.runIn(dir, "serve", "--socket", c.socket)
	assert.Equal(t, 7, r.code)
	assert.Contains(t, r.stderr, "jobtop: job sanitycheck failed (exit 7) and its restart policy is exit_on_failure: stopping jobs")
	assert.Equal(t, 1, strings.Count(r.stderr, "failed (exit 7)"), "the reason is said once:\n%s", r.stderr)
	assert.Contains(t, r.stderr, "exit_on_failure: stopping jobs (a signal kills them at once)\nsanitycheck | no go\n",
		"the job's last output, as logs --all prints it")
	out, _ := exec.Command("pgrep", "-f", "sleep "+marker).Output()
	assert.Empty(t, strings.TrimSpace(string(out)), "the other jobs were stopped")
}

// exit_on_end on the last process of a CI run ends serve when an earlier
// process failed, so that the last could not start: serve ran on (CI's
// timeout ended it), and now it exits 1, saying why.
func TestServeEndsWhenAnExitOnEndJobCouldNotStart(t *testing.T) {
	c := newCLI(t)
	dir := filepath.Join(c.dir, "app")
	require.NoError(t, os.Mkdir(dir, 0o700))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "process-compose.yaml"), []byte(`processes:
  build:
    command: "echo broke; exit 1"
  test:
    command: "echo testing"
    depends_on: {build: {condition: process_completed_successfully}}
    availability: {exit_on_end: true}
`), 0o600))
	r := c.runIn(dir, "serve", "--socket", c.socket)
	assert.Equal(t, 1, r.code, r.stderr)
	assert.Contains(t, r.stderr, "jobtop: job test could not start (dependency build failed (exit 1)) and its availability has exit_on_end: stopping jobs")
}

// serveCrasher runs serve on a process-compose file of one process,
// crasher, running command (in the file's double quotes) with
// exit_on_failure, and returns how serve ended.
func serveCrasher(t *testing.T, command string) result {
	t.Helper()
	c := newCLI(t)
	dir := filepath.Join(c.dir, "app")
	require.NoError(t, os.Mkdir(dir, 0o700))
	file := "processes:\n  crasher:\n    command: \"" + command + "\"\n    availability: {restart: exit_on_failure}\n"
	require.NoError(t, os.WriteFile(filepath.Join(dir, "process-compose.yaml"), []byte(file), 0o600))
	return c.runIn(dir, "serve", "--socket", c.socket)
}

// The job that ends jobtop shows its last lines (ten at most): why it
// failed is there, and was shown nowhere. (One stream: lines of stdout
// and stderr may be stored in another order than they were written.)
func TestExitOnFailureShowsTheJobsLastLines(t *testing.T) {
	r := serveCrasher(t, `for i in $(seq 1 15); do echo line $$i; done >&2; echo crashing >&2; printf 'no newline' >&2; exit 4`)
	assert.Equal(t, 4, r.code)
	_, tail, ok := strings.Cut(r.stderr, "stopping jobs (a signal kills them at once)\n")
	require.True(t, ok, r.stderr)
	var lines []string
	for _, l := range strings.Split(tail, "\n") {
		if strings.HasPrefix(l, "crasher | ") {
			lines = append(lines, strings.TrimPrefix(l, "crasher | "))
		}
	}
	assert.Equal(t, []string{"line 8", "line 9", "line 10", "line 11", "line 12", "line 13", "line 14", "line 15", "crashing", "no newline"}, lines, r.stderr)
}

// A huge last line is cut: what is printed stays within ten lines of 500
// cells (the store keeps such a line as pieces of 16 KiB, each a line).
func TestExitOnFailureCutsAHugeLine(t *testing.T) {
	r := serveCrasher(t, `head -c 200000 /dev/zero | tr '\\0' y >&2; echo >&2; exit 3`)
	assert.Equal(t, 3, r.code)
	assert.Less(t, len(r.stderr), 6000, "the huge line is cut: %d bytes", len(r.stderr))
	assert.Contains(t, r.stderr, strings.Repeat("y", 100)+"…\n")
}

// A job with exit_on_end that someone stopped ends jobtop saying it was
// stopped, as its state says, not that it failed or was killed from
// outside.
func TestExitOnEndSaysAStopWasAStop(t *testing.T) {
	for _, c := range []struct {
		req  workspace.ExitRequest
		want string
	}{
		{workspace.ExitRequest{Job: "t", Code: 3, Why: "exit_on_end", Asked: "stopped"}, "job t was stopped (exit 3) and its availability has exit_on_end"},
		{workspace.ExitRequest{Job: "t", Code: 143, Signal: jobs.Signal(syscall.SIGTERM), Why: "exit_on_end", Asked: "stopped"}, "job t was stopped (exit 143) and its availability has exit_on_end"},
		{workspace.ExitRequest{Job: "t", Code: 137, Signal: jobs.Signal(syscall.SIGKILL), Why: "exit_on_end", Asked: "timed out"}, "job t timed out (exit 137) and its availability has exit_on_end"},
		{workspace.ExitRequest{Job: "t", Code: 143, Signal: jobs.Signal(syscall.SIGTERM), Why: "exit_on_end"}, "job t was killed by SIGTERM (exit 143) and its availability has exit_on_end"},
		{workspace.ExitRequest{Job: "t", Why: "exit_on_end"}, "job t succeeded and its availability has exit_on_end"},
	} {
		err := exitOnFailure(c.req)
		assert.Equal(t, c.want, err.Err.Error())
		assert.Equal(t, c.req.Code, err.Code)
	}
}
