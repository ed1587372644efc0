package jobfile

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// is_disabled: false (or "false") in a later file enables a process an
// earlier one disables, with disabled: or is_disabled: true, as
// process-compose does (is_disabled is a string to it: "false" is not
// empty to its merge, and is applied after it).
func TestProcessComposeIsDisabledFalseEnables(t *testing.T) {
	for name, files := range map[string][2]string{
		"disabled then is_disabled false":     {"disabled: true", "is_disabled: false"},
		"disabled then is_disabled \"false\"": {"disabled: true", `is_disabled: "false"`},
		"is_disabled true then false":         {"is_disabled: true", "is_disabled: false"},
		"is_disabled \"true\" then \"false\"": {`is_disabled: "true"`, `is_disabled: "false"`},
	} {
		t.Run(name, func(t *testing.T) {
			inDir(t, map[string]string{
				"b.yml": "processes:\n  p:\n    command: echo p\n    " + files[0] + "\n",
				"d.yml": "processes:\n  p:\n    " + files[1] + "\n",
			})
			plan, err := LoadWith("b.yml", LoadOptions{More: []string{"d.yml"}})
			require.NoError(t, err)
			p, _ := plan.Job("p")
			assert.True(t, p.Autostart)
		})
	}
	inDir(t, map[string]string{
		"b.yml": "processes:\n  p:\n    command: echo p\n    is_disabled: false\n",
		"d.yml": "processes:\n  p:\n    disabled: true\n",
	})
	plan, err := LoadWith("b.yml", LoadOptions{More: []string{"d.yml"}})
	require.NoError(t, err)
	p, _ := plan.Job("p")
	assert.True(t, p.Autostart, "is_disabled: false wins over disabled: true, wherever each is")
}

// In one file too: is_disabled: "false" enables a process disabled: true
// disables, before or after it.
func TestProcessComposeIsDisabledFalseInOneFile(t *testing.T) {
	for _, body := range []string{
		"processes:\n  p:\n    command: echo p\n    disabled: true\n    is_disabled: \"false\"\n",
		"processes:\n  p:\n    command: echo p\n    is_disabled: false\n    disabled: true\n",
	} {
		inDir(t, map[string]string{"b.yml": body})
		plan, err := Load("b.yml")
		require.NoError(t, err)
		p, _ := plan.Job("p")
		assert.True(t, p.Autostart, body)
	}
	inDir(t, map[string]string{"b.yml": "processes:\n  p:\n    command: echo p\n    is_disabled: \"true\"\n    disabled: false\n"})
	plan, err := Load("b.yml")
	require.NoError(t, err)
	p, _ := plan.Job("p")
	assert.False(t, p.Autostart)
}
