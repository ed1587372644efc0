package jobfile

import (
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// extends: "${BASE_FILE}" with the variable unset is empty: the file
// extends nothing, as process-compose (which acts only on a name that is
// not ""), with a warning.
func TestProcessComposeExtendsEmpty(t *testing.T) {
	t.Setenv("BASE_FILE", "")
	require.NoError(t, os.Unsetenv("BASE_FILE")) // t.Setenv puts it back as it was
	inDir(t, map[string]string{"q.yml": "extends: \"${BASE_FILE}\"\nprocesses:\n  a: {command: x}\n"})
	plan, err := Load("q.yml")
	require.NoError(t, err)
	assert.Equal(t, []string{"a"}, plan.Order)
	assert.Equal(t, []string{"q.yml"}, plan.Files)
	require.Len(t, plan.Warnings, 2)
	assert.Equal(t, "q.yml:1:10: extends: is empty, so this file extends nothing (as in process-compose)", plan.Warnings[0].Error())
	assert.Equal(t, "q.yml:1:11: ${BASE_FILE} is not set (in .env or the environment), so it expands to nothing, as in process-compose; write $${BASE_FILE} to keep it as it is (in a command, the shell then expands it when it runs)", plan.Warnings[1].Error())
	assert.NotContains(t, plan.Warnings[1].Error(), "for the shell to expand it", "no shell expands extends:")
}
