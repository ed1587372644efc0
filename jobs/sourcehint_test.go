package jobs

import (
	"os/exec"
	"testing"

	"github.com/stretchr/testify/assert"
)

// dash, /bin/sh on Debian and Ubuntu, has no `source`: a job whose shell
// says so is told to use `.`.
func TestSourceNotFoundHintsAtDot(t *testing.T) {
	if exec.Command("/bin/sh", "-c", "source /dev/null").Run() == nil {
		t.Skip("this /bin/sh has source")
	}
	m := newManager(t, Options{})
	info := start(t, m, Spec{Command: "source /dev/null && echo activated"})
	info = wait(t, m, info.ID)
	assert.Equal(t, StateFailed, info.State)
	out := outputText(t, m, info.ID)
	assert.Len(t, out, 2)
	assert.Contains(t, out[0], "source: not found")
	assert.Equal(t, sourceHint, out[len(out)-1])

	// Nor only when it ended so: a line that went on without its
	// `source` ran the wrong python (rev55).
	info = wait(t, m, start(t, m, Spec{Command: "source /dev/null; echo went on"}).ID)
	assert.Equal(t, StateSucceeded, info.State)
	out = outputText(t, m, info.ID)
	assert.Equal(t, sourceHint, out[len(out)-1])

	// Another program not found says nothing more, nor a program that
	// prints the words.
	for _, quoted := range []Spec{
		{Command: "echo 'source: not found'"},
		{Argv: []string{"sh", "-c", "printf '/bin/sh: 1: source: not found\n' >&2"}}, // no command line of ours
		{Command: "echo 'zsh: source: not found' >&2"},
	} {
		info = wait(t, m, start(t, m, quoted).ID)
		assert.Len(t, outputText(t, m, info.ID), 1, "%+v", quoted)
	}
	info = wait(t, m, start(t, m, Spec{Command: "no-such-program-jobtop; exit 127"}).ID)
	assert.Len(t, outputText(t, m, info.ID), 1)
}
