package cmd

import (
	"bytes"
	"encoding/json"
	"os/exec"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"jobtop/jobs"
)

// A misspelt subcommand is refused before anything starts: taken as
// commands, "jobtop stauts 3" started jobs "stauts" and "3" on the
// instance already running. A word that is a program, or comes after
// "--", is a job as before.
func TestAMisspeltSubcommandStartsNoJob(t *testing.T) {
	c := newCLI(t)
	c.serve()
	for _, args := range [][]string{{"stauts", "3"}, {"lgos", "1"}, {"shutdwon"}} {
		r := c.run(args...)
		assert.Equal(t, 2, r.code, "jobtop %v: %s", args, r.stderr)
		assert.Contains(t, r.stderr, "unknown command \""+args[0]+"\": did you mean ", "jobtop %v", args)
	}
	var listed []jobs.Info
	require.NoError(t, json.Unmarshal([]byte(c.ok("ls", "--json")), &listed))
	assert.Empty(t, listed, "nothing started")

	for _, word := range []string{"sleepp", "'stauts'", "./stauts", "A=1", "exec stauts"} { // no near miss; a command line, a path, an assignment
		assert.NoError(t, mistypedCommand(newRootCmd(), []string{word}, -1), word)
	}
	assert.NoError(t, mistypedCommand(newRootCmd(), []string{"stauts"}, 0), "after --")
	assert.NoError(t, mistypedCommand(newRootCmd(), []string{"stat"}, -1), "a program on PATH") // coreutils
	for _, word := range []string{"htop", "rg", "bun", "deno"} {                                // programs a letter changed from a subcommand
		assert.NoError(t, mistypedCommand(newRootCmd(), []string{word}, -1), word)
	}
	for _, args := range [][]string{{"stauts"}, {"true", "stauts"}, {"stp"}, {"sttaus"}, {"shutdwon"}, {"sleep 20", "status"}} {
		assert.Error(t, mistypedCommand(newRootCmd(), args, -1), "%v", args)
	}
	root := newRootCmd()
	require.NoError(t, root.ParseFlags([]string{"--host", "ssh://far.invalid"}))
	assert.NoError(t, mistypedCommand(root, []string{"stauts"}, -1), "with --host, the far PATH counts")
}

// Without a terminal nothing starts: the commands started as jobs on the
// instance, then the TUI failed ("could not open a new TTY"), and an agent
// that tried again started them twice.
func TestTheTUIWithoutATerminalStartsNothing(t *testing.T) {
	c := newCLI(t)
	c.serve()
	cmd := exec.Command(binary, "sleep 60", "true")
	cmd.Env = c.env
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true} // no controlling terminal
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	require.ErrorAs(t, err, &exit)
	assert.Equal(t, 1, exit.ExitCode())
	assert.Contains(t, stderr.String(), "nothing was started")
	var listed []jobs.Info
	require.NoError(t, json.Unmarshal([]byte(c.ok("ls", "--json")), &listed))
	assert.Empty(t, listed, "nothing started")

	demo := exec.Command(binary, "demo")
	demo.Env, demo.SysProcAttr = c.env, &syscall.SysProcAttr{Setsid: true}
	out, err := demo.CombinedOutput()
	require.ErrorAs(t, err, &exit)
	assert.Contains(t, string(out), "nothing was started", "the demo too")
}
