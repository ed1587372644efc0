package jobfile

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// process-compose's vars hold any YAML value, and its templates (Go's
// text/template) see it decoded: a list to range over or index, a
// mapping to take a key of, numbers and booleans as themselves.
func TestProcessComposeVarsOfAnyValue(t *testing.T) {
	for _, tc := range []struct {
		name, vars, command, want string
	}{
		{"a list", "{HOSTS: [a, b, c]}", "echo{{range .HOSTS}} {{.}}{{end}}", "echo a b c"},
		{"a list item", "{HOSTS: [a, b]}", "echo {{index .HOSTS 1}} {{len .HOSTS}}", "echo b 2"},
		{"a mapping", "{DB: {host: db.local, port: 5432}}", "psql -h {{.DB.host}} -p {{.DB.port}}", "psql -h db.local -p 5432"},
		{"nested", "{SVC: {ports: [80, 443]}}", "echo{{range .SVC.ports}} {{.}}{{end}}", "echo 80 443"},
		{"a mapping of lists by key ($$ is a $)", "{M: {b: [2], a: [1]}}", "echo{{range $$k, $$v := .M}} {{$$k}}={{index $$v 0}}{{end}}", "echo a=1 b=2"},
		{"numbers and booleans", "{N: 3, F: 1.5, B: true, S: yes}", "echo {{.N}} {{.F}} {{.B}} {{.S}} {{if eq .N 3}}three{{end}}", "echo 3 1.5 true yes three"},
		{"an empty value", "{E: ~}", "echo {{if .E}}set{{else}}unset{{end}}", "echo unset"},
		{"an anchor's list", "{A: &l [x, y], B: *l}", "echo {{index .B 1}}", "echo y"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			inDir(t, nil)
			plan, err := Parse("process-compose.yaml", []byte("vars: "+tc.vars+"\nprocesses:\n  a: {command: '"+tc.command+"'}\n"))
			require.NoError(t, err)
			assert.Empty(t, plan.Warnings)
			assert.Equal(t, tc.want, plan.Jobs[0].Spec.Command)
		})
	}
}

// A var whose value is wrong is reported once, at its value: never again
// as "map has no entry" where a template uses it.
func TestProcessComposeVarGivenIsNeverMissing(t *testing.T) {
	inDir(t, nil)
	assert.Equal(t, []string{
		"process-compose.yaml:3:18: alias *nope refers to no anchor &nope defined before it",
	}, pcProblems(t, "processes:\n  a:\n    vars: {LIST: *nope}\n    command: echo {{.LIST}}\n"))
}

// A template's other mistakes with a var's value say what went wrong,
// not that the var is missing.
func TestProcessComposeVarValueMistakes(t *testing.T) {
	inDir(t, nil)
	assert.Equal(t, []string{
		`process-compose.yaml:4:14: processes.a.command: template: <.DB.name>: map has no entry for key "name"`,
		`process-compose.yaml:7:14: processes.b.command: template: <index .HOSTS 5>: error calling index: index out of range: 5`,
		`process-compose.yaml:10:14: processes.c.command: template: map has no entry for key "NOPE" (vars: give it under vars:)`,
		`process-compose.yaml:11:16: processes.d.command: template: map has no entry for key "NOPE" (vars: give it under vars:)`,
	}, pcProblems(t, `processes:
  a:
    vars: {DB: {host: h}}
    command: echo {{.DB.name}}
  b:
    vars: {HOSTS: [a]}
    command: echo {{index .HOSTS 5}}
  c:
    vars: {HOSTS: [a]}
    command: echo {{.NOPE}}
  d: {command: "echo {{.NOPE.x}}"}
`))
}
