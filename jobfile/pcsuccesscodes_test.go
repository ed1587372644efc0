package jobfile

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// success_exit_codes is carried out, as in process-compose's own fixture
// (testdata/process-compose/upstream/success-exit-codes.yaml, from its
// fixtures-code/): allowed's 130 counts as success, control has none.
func TestProcessComposeSuccessExitCodesUpstreamFixture(t *testing.T) {
	plan, err := Load("../testdata/process-compose/upstream/success-exit-codes.yaml")
	require.NoError(t, err)
	assert.Empty(t, plan.Warnings)
	allowed, _ := plan.Job("allowed")
	assert.Equal(t, []int{130}, allowed.Spec.SuccessExitCodes)
	control, _ := plan.Job("control")
	assert.Empty(t, control.Spec.SuccessExitCodes)
}

// A code outside 0-255 or that is not a number is refused; 0 needs no
// listing.
func TestProcessComposeSuccessExitCodesRefusals(t *testing.T) {
	inDir(t, map[string]string{"pc.yml": "processes:\n  a:\n    command: x\n    success_exit_codes: [0, 256, abc, 2]\n  b:\n    command: y\n    success_exit_codes: 130\n"})
	assert.Equal(t, []string{
		"pc.yml:4:29: processes.a.success_exit_codes[1]: 256 is not an exit code: they go from 0 to 255",
		"pc.yml:4:34: processes.a.success_exit_codes[2]: want a whole number, got a string",
		"pc.yml:7:25: processes.b.success_exit_codes: want a list of exit codes like [130], got a number",
	}, loadProblems(t, "pc.yml", LoadOptions{}))
}

// availability's exit_on_end and exit_on_skipped are read (workspace
// carries them out), as process-compose's issues/issue_400 writes them.
func TestProcessComposeExitOnEndAndSkipped(t *testing.T) {
	plan, err := Load("../testdata/process-compose/upstream/issue_400/process-compose.yaml")
	require.NoError(t, err)
	assert.Empty(t, plan.Warnings)
	dep, _ := plan.Job("dependent_process")
	assert.True(t, dep.ExitOnSkipped)
	assert.False(t, dep.ExitOnEnd)

	plan, err = Load("../testdata/process-compose/upstream/success-exit-on-end.yaml")
	require.NoError(t, err)
	assert.Empty(t, plan.Warnings)
	j, _ := plan.Job("signal_exit")
	assert.True(t, j.ExitOnEnd)
}
