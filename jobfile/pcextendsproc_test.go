package jobfile

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"jobtop/jobs"
)

// A process's extends: inherits another process's settings, as
// process-compose's own fixture (testdata/process-compose/upstream/
// process-extends.yaml, from its fixtures-code/) has it: derived takes
// base's command, working_dir and availability, and its environment
// merged by name; chain_top extends derived in turn and runs its own
// command.
func TestProcessComposeProcessExtendsUpstreamFixture(t *testing.T) {
	plan, err := Load("../testdata/process-compose/upstream/process-extends.yaml")
	require.NoError(t, err)
	assert.Empty(t, plan.Warnings)
	derived, ok := plan.Job("derived")
	require.True(t, ok)
	assert.Equal(t, "echo base", derived.Spec.Command)
	assert.Equal(t, "/tmp", derived.Spec.Dir)
	assert.Equal(t, jobs.RestartAlways, derived.Spec.Restart.Mode)
	assert.Equal(t, "override", derived.Spec.Env["FOO"])
	assert.Equal(t, "base", derived.Spec.Env["SHARED"])
	assert.Equal(t, "2", derived.Spec.Env["EXTRA"])

	top, ok := plan.Job("chain_top")
	require.True(t, ok)
	assert.Equal(t, "echo top", top.Spec.Command)
	assert.Equal(t, "/tmp", top.Spec.Dir)
	assert.Equal(t, "override", top.Spec.Env["FOO"])
	assert.Equal(t, "2", top.Spec.Env["EXTRA"])

	base, _ := plan.Job("base")
	assert.Equal(t, "bar", base.Spec.Env["FOO"], "the process extended is left as it is")
	assert.NotContains(t, base.Spec.Env, "EXTRA")
}

// Lists are appended to and depends_on merged by name, as an override
// file's; a process may extend one from another file of the merge.
func TestProcessComposeProcessExtendsMergeRules(t *testing.T) {
	inDir(t, map[string]string{
		"base.yml": "processes:\n  db: {command: db}\n  cache: {command: c}\n" +
			"  tmpl:\n    entrypoint: [sh, -c]\n    depends_on: {db: {condition: process_started}}\n" +
			"    shutdown: {signal: 2, timeout_seconds: 3}\n",
		"dev.yml": "processes:\n  web:\n    extends: tmpl\n    entrypoint: [\"echo web\"]\n" +
			"    depends_on: {cache: {condition: process_started}}\n    shutdown: {timeout_seconds: 7}\n",
	})
	plan, err := LoadWith("base.yml", LoadOptions{More: []string{"dev.yml"}})
	require.NoError(t, err)
	web, ok := plan.Job("web")
	require.True(t, ok)
	assert.Equal(t, []string{"sh", "-c", "echo web"}, web.Spec.Argv)
	assert.Equal(t, map[string]jobs.Condition{"db": jobs.CondStarted, "cache": jobs.CondStarted}, web.Spec.DependsOn)
	assert.Equal(t, jobs.Signal(2), web.Spec.StopSignal)
	assert.Equal(t, "7s", web.Spec.Grace.String())
}

// Extending an unknown process, itself, or in a cycle is refused, as
// process-compose refuses to load it.
func TestProcessComposeProcessExtendsRefusals(t *testing.T) {
	inDir(t, map[string]string{"pc.yml": "processes:\n  a:\n    command: x\n    extends: bse\n  base: {command: y}\n"})
	assert.Equal(t, []string{`pc.yml:4:14: processes.a.extends: no process is named "bse" (did you mean "base"?) (extends names another process of the file, whose settings this one inherits)`},
		loadProblems(t, "pc.yml", LoadOptions{}))

	inDir(t, map[string]string{"pc.yml": "processes:\n  a:\n    command: x\n    extends: a\n"})
	assert.Equal(t, []string{"pc.yml:4:14: processes.a.extends: process a extends itself"},
		loadProblems(t, "pc.yml", LoadOptions{}))

	inDir(t, map[string]string{"pc.yml": "processes:\n  a: {command: x, extends: b}\n  b: {command: y, extends: a}\n"})
	assert.Equal(t, []string{"pc.yml:2:3: processes.a.extends: a cycle: a extends b extends a"},
		loadProblems(t, "pc.yml", LoadOptions{}))
}

// A process whose extends is refused (a cycle, an unknown name, not a
// name) gets that error only, not "nothing to run: give command" besides
// (it has no command because it inherits one).
func TestProcessComposeProcessExtendsRefusedSaysItOnce(t *testing.T) {
	inDir(t, map[string]string{"pc.yml": `processes:
  c: {extends: b}
  b: {extends: a}
  a: {extends: c}
  num: {extends: 123}
  lst: {extends: [c]}
  ok: {command: x}
  bare: {}
`})
	assert.Equal(t, []string{
		"pc.yml:2:3: processes.c.extends: a cycle: c extends b extends a extends c",
		`pc.yml:5:18: processes.num.extends: no process is named "123" (extends names another process of the file, whose settings this one inherits)`,
		"pc.yml:6:18: processes.lst.extends: want a string, got a list",
		"pc.yml:8:3: processes.bare: nothing to run: give command",
	}, loadProblems(t, "pc.yml", LoadOptions{}))
}

// A field jobtop warns about, inherited through extends, is warned about
// once, at the line it is written on.
func TestProcessComposeProcessExtendsWarnsOnce(t *testing.T) {
	inDir(t, map[string]string{"pc.yml": "processes:\n  base:\n    command: x\n    is_daemon: true\n  web: {extends: base}\n  api: {extends: web}\n"})
	plan, err := Load("pc.yml")
	require.NoError(t, err)
	require.Len(t, plan.Warnings, 1)
	assert.Equal(t, "pc.yml:4:5: processes.base.is_daemon: not supported, ignored: jobtop treats a job as ended when its command exits (and stops what it left): run the program in the foreground instead (docker run without -d, postgres rather than pg_ctl start), with shutdown.command if it needs one to stop", plan.Warnings[0].Error())
	web, _ := plan.Job("web")
	assert.Equal(t, "x", web.Spec.Command)
}
