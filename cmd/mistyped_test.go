package cmd

import (
	"encoding/json"
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

	for _, word := range []string{"sleepp", "'stauts'", "./stauts", "A=1"} { // no near miss; a command line, a path, an assignment
		assert.NoError(t, mistypedCommand(newRootCmd(), []string{word}, -1), word)
	}
	assert.NoError(t, mistypedCommand(newRootCmd(), []string{"stauts"}, 0), "after --")
	assert.NoError(t, mistypedCommand(newRootCmd(), []string{"stat"}, -1), "a program on PATH") // coreutils
	assert.Error(t, mistypedCommand(newRootCmd(), []string{"stauts"}, -1))
}
