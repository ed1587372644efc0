package jobfile

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A mapping environment merged with a list one keeps its values as one
// file reads them: a block scalar's text, a folded one's, a number, null
// as "".
func TestProcessComposeMergedMappingEnvironmentValues(t *testing.T) {
	inDir(t, map[string]string{
		"base.yml": "environment: [A=1]\nprocesses:\n  a:\n    command: x\n    environment: [P=1]\n",
		"dev.yml": "environment:\n  W: |\n    hello\n  F: >-\n    folded\n    text\n  N: 3\n  E:\n" +
			"processes:\n  a:\n    environment:\n      Q: |-\n        block\n",
	})
	plan, err := LoadWith("base.yml", LoadOptions{More: []string{"dev.yml"}})
	require.NoError(t, err)
	assert.Equal(t, map[string]string{"A": "1", "W": "hello\n", "F": "folded text", "N": "3", "E": ""}, plan.Env)
	a, _ := plan.Job("a")
	assert.Equal(t, "block", a.Spec.Env["Q"])
	assert.Equal(t, "1", a.Spec.Env["P"])
}

// What one file refuses in an environment is refused the same way when
// it is merged with a list: a value that is a list or a mapping, an
// environment that is a scalar, whichever file it is in.
func TestProcessComposeMergedEnvironmentRefusals(t *testing.T) {
	inDir(t, map[string]string{
		"base.yml": "environment: [A=1]\nprocesses:\n  a: {command: x}\n",
		"dev.yml":  "environment:\n  X: [1, 2]\n  Y: {z: 1}\n  B: b\n",
	})
	assert.Equal(t, []string{
		"dev.yml:2:6: environment.X: want a string, got a list",
		"dev.yml:3:6: environment.Y: want a string, got a mapping",
	}, loadProblems(t, "base.yml", LoadOptions{More: []string{"dev.yml"}}))

	inDir(t, map[string]string{
		"base.yml": "environment: [A=1]\nprocesses:\n  a: {command: x}\n",
		"dev.yml":  "environment: \"B=2\"\n",
	})
	assert.Equal(t, []string{"dev.yml:1:14: environment: want a mapping, got a string"},
		loadProblems(t, "base.yml", LoadOptions{More: []string{"dev.yml"}}))

	inDir(t, map[string]string{
		"base.yml": "environment: \"B=2\"\nprocesses:\n  a: {command: x}\n",
		"dev.yml":  "environment: {C: 3}\n",
	})
	assert.Equal(t, []string{"base.yml:1:14: environment: want a mapping, got a string"},
		loadProblems(t, "base.yml", LoadOptions{More: []string{"dev.yml"}}))

	inDir(t, map[string]string{
		"base.yml": "processes:\n  a:\n    command: x\n    environment: {X: [1]}\n",
		"dev.yml":  "processes:\n  a:\n    environment: [B=2]\n",
	})
	assert.Equal(t, []string{"base.yml:4:22: processes.a.environment.X: want a string, got a list"},
		loadProblems(t, "base.yml", LoadOptions{More: []string{"dev.yml"}}))
}

// A name a list environment repeats takes the later file's value, as
// process-compose's map does: the earlier items of the name all go.
func TestProcessComposeMergedEnvironmentRepeatedName(t *testing.T) {
	inDir(t, map[string]string{
		"base.yml": "environment: [T=1, T=2]\nprocesses:\n  e:\n    command: x\n    environment: [A=1, B=1, A=2]\n",
		"dev.yml":  "environment: {T: 3}\nprocesses:\n  e:\n    environment: [A=3]\n",
	})
	plan, err := LoadWith("base.yml", LoadOptions{More: []string{"dev.yml"}})
	require.NoError(t, err)
	e, _ := plan.Job("e")
	assert.Equal(t, "3", e.Spec.Env["A"])
	assert.Equal(t, "1", e.Spec.Env["B"])
	assert.Equal(t, "3", plan.Env["T"])
}

// A problem in a later file's environment list is named by its place in
// that file, not in the merged list; a mapping's entry merged into a list
// is named as one file's mapping is.
func TestProcessComposeMergedEnvironmentProblemsNameTheirOwnPlace(t *testing.T) {
	inDir(t, map[string]string{
		"base.yml": "processes:\n  a:\n    command: a\n    environment:\n      - A=1\n      - B=2\n",
		"dev.yml":  "processes:\n  a:\n    environment:\n      - C\n",
		"map.yml":  "processes:\n  a:\n    environment:\n      \"B C\": x\n",
	})
	assert.Equal(t, []string{`dev.yml:4:9: processes.a.environment[0]: want NAME=VALUE, got "C"`},
		loadProblems(t, "base.yml", LoadOptions{More: []string{"dev.yml"}}))
	assert.Equal(t, []string{`map.yml:4:7: processes.a.environment: "B C" is not a variable name (ASCII letters, digits and _, not starting with a digit)`},
		loadProblems(t, "base.yml", LoadOptions{More: []string{"map.yml"}}))
}
