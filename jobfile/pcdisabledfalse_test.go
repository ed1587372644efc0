package jobfile

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// process-compose's issue 177 (testdata/process-compose/upstream/
// issue_177/, from its issues/): an override's disabled: false does not
// enable the process the base disables, in process-compose as in jobtop;
// jobtop says so, and what enables it.
func TestProcessComposeWarnsDisabledFalseInOverride(t *testing.T) {
	t.Setenv("USER", "me")
	plan, err := LoadWith("../testdata/process-compose/upstream/issue_177/process-compose.yml", LoadOptions{Found: true})
	require.NoError(t, err)
	test, ok := plan.Job("test")
	require.True(t, ok)
	assert.False(t, test.Autostart, "still disabled, as in process-compose")
	assert.Equal(t, "echo bar", test.Spec.Command)
	require.Len(t, plan.Warnings, 1)
	w := plan.Warnings[0].Error()
	assert.True(t, strings.HasSuffix(w, `process-compose.override.yml:4:15: processes.test.disabled: false does not enable it: ../testdata/process-compose/upstream/issue_177/process-compose.yml disables it, and a merge keeps that (process-compose's skips false too); write is_disabled: "false" to enable it`), w)
}

// The same through a process's extends.
func TestProcessComposeWarnsDisabledFalseInExtends(t *testing.T) {
	inDir(t, map[string]string{"pc.yml": "processes:\n  base: {command: x, disabled: true}\n  web: {extends: base, disabled: false}\n  api: {extends: base, is_disabled: \"false\"}\n"})
	plan, err := Load("pc.yml")
	require.NoError(t, err)
	web, _ := plan.Job("web")
	assert.False(t, web.Autostart)
	api, _ := plan.Job("api")
	assert.True(t, api.Autostart)
	require.Len(t, plan.Warnings, 1)
	assert.Equal(t, `pc.yml:3:34: processes.web.disabled: false does not enable it: the process it extends, base, disables it, and a merge keeps that (process-compose's skips false too); write is_disabled: "false" to enable it`, plan.Warnings[0].Error())
}
