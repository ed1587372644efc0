package cmd

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// signal, stop, kill, restart and rm of several jobs, some of which do
// not exist, act on the others and name each missing one once, in the
// words the command gives for it alone (an ID an earlier instance on the
// socket gave says so), then exit 1, as for a job named that the action
// does not apply to. They did nothing, and named only the first missing
// one (without the earlier instance's words); signal of one such ID
// lacked them too.
func TestActionsOnSeveralJobsSomeMissing(t *testing.T) {
	c := newCLI(t)
	c.serve()
	require.Equal(t, "1", c.startJob("true", "--name", "old"))
	c.ok("shutdown")
	c.serve()
	require.Equal(t, "2", c.startJob("exec sleep 60", "--name", "web"))
	require.Equal(t, "3", c.startJob("exec sleep 60", "--name", "db"))

	const earlier = "jobtop: no job with ID 1: job 1 belonged to an earlier jobtop instance on this socket, which has ended (its results are gone; this one numbers its jobs from 2)\n"
	const unknown = "jobtop: no job with ID 99\n"
	const noName = "jobtop: no job \"nope\": give a job ID (a number) or a job's name; `jobtop ls` lists them\n"
	for _, verb := range [][]string{{"signal", "STOP"}, {"signal", "CONT"}, {"restart"}, {"kill"}, {"restart"}, {"stop"}, {"rm"}} {
		r := c.run(append(verb, "2", "1", "99", "nope", "1", "3", "99")...)
		assert.Equal(t, 1, r.code, "%v", verb)
		assert.Equal(t, earlier+unknown+noName, r.stderr, "%v: each missing job once", verb)
		lines := strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n")
		require.Len(t, lines, 2, "%v: the others were acted on: %q", verb, r.stdout)
		assert.True(t, strings.HasPrefix(lines[0], "job 2 (web): "), "%v: %q", verb, r.stdout)
		assert.True(t, strings.HasPrefix(lines[1], "job 3 (db): "), "%v: %q", verb, r.stdout)

		for arg, want := range map[string]string{"1": earlier, "99": unknown, "nope": noName} {
			r = c.run(append(verb, arg)...)
			assert.Equal(t, 1, r.code, "%v %s", verb, arg)
			assert.Equal(t, want, r.stderr, "%v %s: as in the list", verb, arg)
		}
	}
	assert.Empty(t, c.states(), "rm removed them")
}
