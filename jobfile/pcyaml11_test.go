package jobfile

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// process-compose reads its file with yaml.v3, which takes YAML 1.1's
// y/yes/on and n/no/off (in any of their three casings) for a true/false
// field: a file written so runs there, so it runs here.
func TestProcessComposeYAML11Booleans(t *testing.T) {
	for _, tc := range []struct {
		name, field string
		want        func(p *Plan) bool
	}{
		{"disabled yes", "disabled: yes", func(p *Plan) bool { return !p.Jobs[0].Autostart }},
		{"disabled no", "disabled: no", func(p *Plan) bool { return p.Jobs[0].Autostart }},
		{"disabled Off", "disabled: Off", func(p *Plan) bool { return p.Jobs[0].Autostart }},
		{"disabled quoted Y", `disabled: "Y"`, func(p *Plan) bool { return !p.Jobs[0].Autostart }},
		{"is_tty on", "is_tty: on", func(p *Plan) bool { return p.Jobs[0].Spec.TTY }},
		{"is_tty OFF", "is_tty: OFF", func(p *Plan) bool { return !p.Jobs[0].Spec.TTY }},
		{"is_interactive Yes", "is_interactive: Yes", func(p *Plan) bool { return p.Jobs[0].Spec.TTY }},
		{"exit_on_end yes", "availability: {exit_on_end: yes}", func(p *Plan) bool { return p.Jobs[0].ExitOnEnd }},
		{"exit_on_skipped n", "availability: {exit_on_skipped: n}", func(p *Plan) bool { return !p.Jobs[0].ExitOnSkipped }},
		{"is_template_disabled ON", "is_template_disabled: ON\n    vars: {X: 1}\n    description: \"{{.X}}\"", func(p *Plan) bool { return p.Jobs[0].Spec.Description == "{{.X}}" }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			inDir(t, map[string]string{"pc.yml": "processes:\n  a:\n    command: x\n    " + tc.field + "\n"})
			plan, err := Load("pc.yml")
			require.NoError(t, err)
			assert.Empty(t, plan.Warnings)
			assert.True(t, tc.want(plan))
		})
	}
}

// The top-level switches read the same way, disable_env_expansion too
// (it is read before anything else).
func TestProcessComposeYAML11BooleansAtTheTop(t *testing.T) {
	t.Setenv("PCY_UNSET", "")
	inDir(t, map[string]string{"pc.yml": "disable_env_expansion: yes\nis_strict: on\nprocesses:\n  a: {command: echo $PCY_UNSET, nope: 1}\n"})
	_, err := Load("pc.yml")
	require.Error(t, err)
	assert.Contains(t, err.Error(), `unknown key "nope"`)
	assert.Contains(t, err.Error(), "(is_strict is on)")

	inDir(t, map[string]string{"pc.yml": "disable_env_expansion: yes\nprocesses:\n  a: {command: echo $PCY_UNSET}\n"})
	plan, err := Load("pc.yml")
	require.NoError(t, err)
	assert.Equal(t, "echo $PCY_UNSET", plan.Jobs[0].Spec.Command)
}

// What is not a boolean at all is still refused.
func TestProcessComposeNotABoolean(t *testing.T) {
	inDir(t, nil)
	assert.Equal(t, []string{
		"process-compose.yaml:2:29: processes.a.disabled: want true or false, got a string",
		"process-compose.yaml:3:27: processes.b.is_tty: want true or false, got a string",
	}, pcProblems(t, "processes:\n  a: {command: x, disabled: maybe}\n  b: {command: x, is_tty: \"true\"}\n"))
}

// The unsupported fields' false forms are process-compose's default
// (shutdown.parent_only: no is its own documented example): no warning.
// Their true forms are warned about, as true is.
func TestProcessComposeUnsupportedNoIsNoWarning(t *testing.T) {
	inDir(t, map[string]string{
		"off.yml": "is_tui_disabled: off\nprocesses:\n  a: {command: x, is_daemon: no, is_foreground: off, is_elevated: N, shutdown: {parent_only: no}}\n",
		"on.yml":  "processes:\n  a: {command: x, is_daemon: yes}\n",
	})
	plan, err := Load("off.yml")
	require.NoError(t, err)
	assert.Empty(t, plan.Warnings)
	plan, err = Load("on.yml")
	require.NoError(t, err)
	require.Len(t, plan.Warnings, 1)
	assert.Equal(t, "on.yml:2:19: processes.a.is_daemon: not supported, ignored: "+pcUnsupported()["is_daemon"], plan.Warnings[0].Error())
}

// jobtop.yaml reads its true/false fields the same way, as yaml.v3
// users expect.
func TestParseYAML11Booleans(t *testing.T) {
	inDir(t, nil)
	plan, err := Parse("jobtop.yaml", []byte("tty: yes\njobs:\n  a: {cmd: x, autostart: no}\n  b: {cmd: x, tty: off}\n"))
	require.NoError(t, err)
	a, _ := plan.Job("a")
	b, _ := plan.Job("b")
	assert.False(t, a.Autostart)
	assert.True(t, a.Spec.TTY, "the top-level tty: yes")
	assert.False(t, b.Spec.TTY)
}

// A merge skips a false field as process-compose's does (it sees the
// decoded false): disabled: no in an override leaves the base's
// disabled: true, with the warning disabled: false gets.
func TestProcessComposeMergeSkipsNo(t *testing.T) {
	inDir(t, map[string]string{
		"base.yml": "processes:\n  a: {command: x, disabled: true, is_tty: on}\n",
		"over.yml": "processes:\n  a: {disabled: no, is_tty: off}\n",
	})
	plan, err := LoadWith("base.yml", LoadOptions{More: []string{"over.yml"}})
	require.NoError(t, err)
	a, _ := plan.Job("a")
	assert.False(t, a.Autostart, "still disabled, as in process-compose")
	assert.True(t, a.Spec.TTY, "off is empty to the merge as false is")
	require.Len(t, plan.Warnings, 1)
	assert.Contains(t, plan.Warnings[0].Error(), "over.yml:2:17: processes.a.disabled: false does not enable it")
}
