package cmd

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// runToFull runs jobtop ARGS with stdout on /dev/full, where every write
// fails (a full disk), and returns its exit code and stderr.
func (c *cli) runToFull(args ...string) (int, string) {
	c.t.Helper()
	full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	require.NoError(c.t, err)
	defer full.Close()
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary, args...)
	cmd.Env = c.env
	cmd.Stdout = full
	var stderr strings.Builder
	cmd.Stderr = &stderr
	err = cmd.Run()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return exit.ExitCode(), stderr.String()
	}
	require.NoError(c.t, err)
	return 0, stderr.String()
}

// TestPrintsThatFailAreErrors: `jobtop run -- true >/dev/full` exited 0
// with no word, the job's ID lost; status, wait --all, kill and shutdown
// too. Every command now says that stdout failed it, and exits 1 (ls and
// logs already did).
func TestPrintsThatFailAreErrors(t *testing.T) {
	c := newCLI(t)
	c.serve()
	id := c.startJob("exec sleep 600", "--name", "long")
	done := c.startJob("true")
	c.ok("wait", done)
	const said = "jobtop: write /dev/stdout: no space left on device\n"
	for _, args := range [][]string{
		{"run", "--", "true"},
		{"status", id},
		{"status", "--json", id},
		{"wait", "--all", "--state", "succeeded"},
		{"ls"},
		{"kill", id},
		{"shutdown"},
	} {
		code, stderr := c.runToFull(args...)
		assert.Equal(t, 1, code, "%v: %s", args, stderr)
		assert.Equal(t, 1, strings.Count(stderr, "no space left on device"), "%v said it once: %s", args, stderr)
		assert.Contains(t, stderr, said, "%v", args)
	}
}
