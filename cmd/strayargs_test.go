package cmd

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// Words before -- when the command comes after it are refused, naming
// them, and no job is made: bash's --name exp-lr{1..4} gave a job
// exp-lr1 running "exp-lr2 exp-lr3 exp-lr4 python3 train.py". The
// documented forms stay: the command after --, or without -- at all.
func TestRunRefusesWordsBeforeDashDash(t *testing.T) {
	c := newCLI(t)
	c.serve()
	r := c.run("run", "--name", "exp-lr1", "exp-lr2", "exp-lr3", "exp-lr4", "--", "python3", "train.py")
	assert.Equal(t, 2, r.code)
	assert.Equal(t, "jobtop: exp-lr2 exp-lr3 exp-lr4: words before -- are not run's (each flag takes one value: --name exp-lr1); "+
		"the command goes after --, all of it: jobtop run [flags] -- COMMAND...\n", r.stderr)
	assert.Equal(t, "[]\n", c.ok("ls", "--json"), "no job was created")

	for _, args := range [][]string{{"run", "echo", "a"}, {"run", "echo a"}, {"run", "--", "echo", "a"}, {"run", "echo", "a", "--"}} {
		id := strings.TrimSpace(c.ok(args...))
		c.ok("wait", id)
		assert.Equal(t, []string{"a"}, c.logLines(id), "%q", args)
	}
}
