package jobs

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Leading NAME=value words of an argv set variables for its program, as
// a shell and env read them (`jobtop run -- CUDA_VISIBLE_DEVICES=1
// python3 train.py` was a job named CUDA_VISIBLE_DEVICES whose program
// was not found); the job is named as without them, and its command
// line, run by a shell, means the same.
func TestLeadingAssignmentsOfAnArgvSetItsEnvironment(t *testing.T) {
	m := newManager(t, Options{})
	info := start(t, m, Spec{
		Argv: []string{"GREETING=hi there", "EMPTY=", "sh", "-c", `echo "$GREETING|${EMPTY-unset}|$1"`, "sh", "X=not-a-variable"},
		Env:  map[string]string{"GREETING": "from --env"},
	})
	info = wait(t, m, info.ID)
	assert.Equal(t, StateSucceeded, info.State, info.Reason)
	assert.Equal(t, []string{"hi there||X=not-a-variable"}, outputText(t, m, info.ID))
	assert.Equal(t, "sh", info.Name)
	assert.Equal(t, `GREETING='hi there' EMPTY= sh -c 'echo "$GREETING|${EMPTY-unset}|$1"' sh X=not-a-variable`, info.Command)

	named := start(t, m, Spec{Argv: []string{"CUDA_VISIBLE_DEVICES=1", "true"}})
	assert.Equal(t, "true", named.Name)
	assert.Equal(t, StateSucceeded, wait(t, m, named.ID).State)

	_, err := m.Start(Spec{Argv: []string{"A=1", "B=2"}})
	require.EqualError(t, err, "argv sets variables (A=1 B=2) and runs no program: give the program after them")
}
