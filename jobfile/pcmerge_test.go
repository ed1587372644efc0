package jobfile

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"jobtop/jobs"
)

// loadProblems loads path with o and returns its problems, one a string.
func loadProblems(t *testing.T, path string, o LoadOptions) []string {
	t.Helper()
	_, err := LoadWith(path, o)
	var list ErrorList
	require.True(t, errors.As(err, &list), "want an ErrorList, got %v", err)
	return strings.Split(list.Error(), "\n")
}

const mergeBase = `environment:
  - A=base
  - B=base
vars:
  V: base
  W: base
processes:
  web:
    command: echo web
    working_dir: .
    environment:
      - X=base
      - Y=base
    depends_on:
      cache:
        condition: process_started
    availability:
      restart: on_failure
      max_restarts: 3
      backoff_seconds: 2
    readiness_probe:
      http_get: {host: 127.0.0.1, port: 8080, path: /health}
  db:
    command: echo db
    disabled: true
  cache:
    command: echo cache
  tool:
    command: echo tool
`

const mergeOver = `environment:
  - B=over
  - C=over
vars:
  W: over
processes:
  web:
    command: echo web over
    environment:
      - Y=over
      - Z=over
    depends_on:
      cache:
        condition: process_completed
      extra:
        condition: process_started
    availability:
      max_restarts: 5
    readiness_probe:
      http_get: {port: 9090}
  db:
    disabled: false
  tool:
    disabled: true
  extra:
    command: echo extra
`

// The override file process-compose merges over the file it finds itself
// is merged the same way: maps merged, scalars replaced, environment
// merged by name, processes only in it added, disabled set in it applied
// (and, as mergo does, disabled: false leaving a disabled process so).
func TestProcessComposeMergesOverrideFile(t *testing.T) {
	inDir(t, map[string]string{"process-compose.yml": mergeBase, "process-compose.override.yml": mergeOver})
	plan, err := LoadWith("process-compose.yml", LoadOptions{Found: true})
	require.NoError(t, err)
	assert.Equal(t, []string{"process-compose.yml", "process-compose.override.yml"}, plan.Files)
	require.Len(t, plan.Warnings, 1, "disabled: false on a disabled process is said to do nothing")
	assert.Contains(t, plan.Warnings[0].Error(), "processes.db.disabled: false does not enable it")
	assert.Equal(t, map[string]string{"A": "base", "B": "over", "C": "over"}, plan.Env)

	web, ok := plan.Job("web")
	require.True(t, ok)
	assert.Equal(t, "echo web over", web.Spec.Command, "a scalar is replaced")
	assert.Equal(t, "base", web.Spec.Env["X"])
	assert.Equal(t, "over", web.Spec.Env["Y"], "environment is merged by name")
	assert.Equal(t, "over", web.Spec.Env["Z"])
	assert.Equal(t, "over", web.Spec.Env["B"])
	assert.Equal(t, map[string]jobs.Condition{"cache": jobs.CondCompleted, "extra": jobs.CondStarted}, web.Spec.DependsOn,
		"depends_on merged by name, each entry replaced")
	assert.Equal(t, 5, web.Spec.Restart.Max, "availability merged field by field")
	assert.Equal(t, 2*1e9, float64(web.Spec.Restart.Backoff), "the base's backoff is kept")
	require.NotNil(t, web.Spec.Health.Probe)

	db, _ := plan.Job("db")
	assert.False(t, db.Autostart, "disabled: false in an override does not enable it (mergo keeps the base's true)")
	tool, _ := plan.Job("tool")
	assert.False(t, tool.Autostart, "disabled: true in the override disables it")
	extra, ok := plan.Job("extra")
	require.True(t, ok, "a process only in the override is added")
	assert.Equal(t, "echo extra", extra.Spec.Command)
	assert.True(t, extra.Autostart)
}

// The probe is merged field by field: the override's port, the base's
// path.
func TestProcessComposeMergesProbeFields(t *testing.T) {
	inDir(t, map[string]string{"process-compose.yml": mergeBase, "process-compose.override.yml": mergeOver})
	plan, err := LoadWith("process-compose.yml", LoadOptions{Found: true})
	require.NoError(t, err)
	web, _ := plan.Job("web")
	assert.Contains(t, web.Spec.Ready.String(), "127.0.0.1:9090/health")
}

// Lists other than environment are appended to, as mergo's
// WithAppendSlice does: entrypoint.
func TestProcessComposeAppendsLists(t *testing.T) {
	inDir(t, map[string]string{
		"a.yml": "processes:\n  p:\n    entrypoint: [echo, one]\n",
		"b.yml": "processes:\n  p:\n    entrypoint: [two]\n",
	})
	plan, err := LoadWith("a.yml", LoadOptions{More: []string{"b.yml"}})
	require.NoError(t, err)
	p, _ := plan.Job("p")
	assert.Equal(t, []string{"echo", "one", "two"}, p.Spec.Argv)
}

// process-compose merges an override file only over a file it finds
// itself: a file named with -f gets none.
func TestProcessComposeOverrideOnlyWhenFound(t *testing.T) {
	inDir(t, map[string]string{"process-compose.yml": mergeBase, "process-compose.override.yml": mergeOver})
	plan, err := Load("process-compose.yml")
	require.NoError(t, err)
	assert.Equal(t, []string{"process-compose.yml"}, plan.Files)
	_, ok := plan.Job("extra")
	assert.False(t, ok)
	web, _ := plan.Job("web")
	assert.Equal(t, "echo web", web.Spec.Command)
}

// The first override name there is wins, in process-compose's order.
func TestProcessComposeOverrideNames(t *testing.T) {
	inDir(t, map[string]string{
		"process-compose.yaml":          "processes:\n  a: {command: base}\n",
		"compose.override.yaml":         "processes:\n  a: {command: compose}\n",
		"process-compose.override.yml":  "processes:\n  a: {command: pc}\n",
		"process-compose.override.yaml": "processes:\n  a: {command: pc2}\n",
	})
	plan, err := LoadWith("process-compose.yaml", LoadOptions{Found: true})
	require.NoError(t, err)
	a, _ := plan.Job("a")
	assert.Equal(t, "compose", a.Spec.Command)
	assert.Equal(t, []string{"process-compose.yaml", "compose.override.yaml"}, plan.Files)
}

// Several -f files are merged in order, later ones winning; an override
// file is then not looked for.
func TestProcessComposeMergesFilesInOrder(t *testing.T) {
	inDir(t, map[string]string{
		"base.yml":                     "processes:\n  a: {command: base}\n  b: {command: b}\n",
		"one.yml":                      "processes:\n  a: {command: one}\n",
		"two.yml":                      "processes:\n  a: {command: two}\n  c: {command: c}\n",
		"process-compose.override.yml": "processes:\n  a: {command: override}\n",
	})
	plan, err := LoadWith("base.yml", LoadOptions{More: []string{"one.yml", "two.yml"}, Found: true})
	require.NoError(t, err)
	a, _ := plan.Job("a")
	assert.Equal(t, "two", a.Spec.Command)
	assert.Equal(t, []string{"a", "b", "c"}, plan.Order)
	assert.Equal(t, []string{"base.yml", "one.yml", "two.yml"}, plan.Files)

	plan, err = LoadWith("base.yml", LoadOptions{More: []string{"two.yml", "one.yml"}})
	require.NoError(t, err)
	a, _ = plan.Job("a")
	assert.Equal(t, "one", a.Spec.Command)
}

// A problem in the second file is reported at its own file and line, and
// so is a warning.
func TestProcessComposeMergedErrorsNameTheirFile(t *testing.T) {
	inDir(t, map[string]string{
		"base.yml": "processes:\n  a:\n    command: x\n",
		"dev.yml":  "processes:\n  a:\n    is_daemon: true\n  b:\n    availability:\n      restart: sometimes\n    command: y\n",
	})
	assert.Equal(t, []string{
		`dev.yml:6:16: processes.b.availability.restart: "sometimes" is not a restart policy: use no, on_failure, always or exit_on_failure`,
	}, loadProblems(t, "base.yml", LoadOptions{More: []string{"dev.yml"}}))

	inDir(t, map[string]string{
		"base.yml": "processes:\n  a:\n    command: x\n",
		"dev.yml":  "processes:\n  a:\n    is_daemon: true\n",
	})
	plan, err := LoadWith("base.yml", LoadOptions{More: []string{"dev.yml"}})
	require.NoError(t, err)
	require.Len(t, plan.Warnings, 1)
	assert.True(t, strings.HasPrefix(plan.Warnings[0].Error(), "dev.yml:3:5: processes.a.is_daemon: not supported"), plan.Warnings[0].Error())
}

// A Procfile or a jobtop.yaml among several -f files is refused.
func TestProcessComposeMergesOnlyItsFiles(t *testing.T) {
	inDir(t, map[string]string{
		"base.yml":    "processes:\n  a: {command: x}\n",
		"Procfile":    "web: x\n",
		"jobtop.yaml": "jobs:\n  a: {cmd: x}\n",
	})
	assert.Equal(t, []string{"Procfile: is a Procfile: -f given more than once merges process-compose files only; give one Procfile"},
		loadProblems(t, "Procfile", LoadOptions{More: []string{"base.yml"}}))
	assert.Equal(t, []string{"Procfile: is a Procfile: -f given more than once merges process-compose files only"},
		loadProblems(t, "base.yml", LoadOptions{More: []string{"Procfile"}}))
	assert.Equal(t, []string{"jobtop.yaml: is a jobtop.yaml file: -f given more than once merges process-compose files only; give one jobtop.yaml"},
		loadProblems(t, "jobtop.yaml", LoadOptions{More: []string{"base.yml"}}))
	assert.Equal(t, []string{"jobtop.yaml: is a jobtop.yaml file (it has jobs:): only process-compose files are merged, with -f given more than once, an override file or extends:"},
		loadProblems(t, "base.yml", LoadOptions{More: []string{"jobtop.yaml"}}))
}

// extends: names a file, relative to the one it is in, merged before it;
// chains are followed. The processes of an extended file run in its
// directory, as process-compose sets their working_dir.
func TestProcessComposeExtendsChain(t *testing.T) {
	dir := inDir(t, map[string]string{
		"app/process-compose.yml": "extends: ../shared/base.yml\nprocesses:\n  web: {command: app-web}\n  own: {command: own}\n",
		"shared/base.yml":         "extends: root.yml\nprocesses:\n  web: {command: base-web}\n  worker: {command: worker, working_dir: sub}\n",
		"shared/root.yml":         "environment: [R=root]\nprocesses:\n  root: {command: root}\n",
		"shared/sub/":             "",
	})
	plan, err := Load("app/process-compose.yml")
	require.NoError(t, err)
	assert.Equal(t, []string{"shared/root.yml", "shared/base.yml", "app/process-compose.yml"}, plan.Files)
	assert.Equal(t, []string{"root", "web", "worker", "own"}, plan.Order)
	web, _ := plan.Job("web")
	assert.Equal(t, "app-web", web.Spec.Command)
	assert.Equal(t, filepath.Join(dir, "shared"), web.Spec.Dir, "web is first defined in shared/base.yml")
	worker, _ := plan.Job("worker")
	assert.Equal(t, filepath.Join(dir, "shared", "sub"), worker.Spec.Dir)
	root, _ := plan.Job("root")
	assert.Equal(t, filepath.Join(dir, "shared"), root.Spec.Dir)
	assert.Equal(t, "root", root.Spec.Env["R"])
	own, _ := plan.Job("own")
	assert.Equal(t, filepath.Join(dir, "app"), own.Spec.Dir)
}

// A cycle of extends is refused, naming it; so is an extends naming a
// file that is missing, at its line.
func TestProcessComposeExtendsRefused(t *testing.T) {
	inDir(t, map[string]string{
		"a.yml": "extends: b.yml\nprocesses:\n  a: {command: a}\n",
		"b.yml": "processes:\n  b: {command: b}\nextends: a.yml\n",
	})
	assert.Equal(t, []string{"b.yml:3:10: extends: a.yml extends itself through a.yml -> b.yml -> a.yml: a cycle"},
		loadProblems(t, "a.yml", LoadOptions{}))

	inDir(t, map[string]string{"a.yml": "processes:\n  a: {command: a}\nextends: gone.yml\n"})
	assert.Equal(t, []string{"a.yml:3:10: extends: gone.yml: gone.yml does not exist"},
		loadProblems(t, "a.yml", LoadOptions{}))

	inDir(t, map[string]string{"a.yml": "extends: a.yml\nprocesses:\n  a: {command: a}\n"})
	assert.Equal(t, []string{"a.yml:1:10: extends: a.yml extends itself through a.yml -> a.yml: a cycle"},
		loadProblems(t, "a.yml", LoadOptions{}))
}

// An environment written as a mapping in one file and as a list in the
// other is merged by name too; a warning about the same thing in both
// files names the other file's line.
func TestProcessComposeMergesEnvironmentForms(t *testing.T) {
	inDir(t, map[string]string{
		"a.yml": "environment: {A: a, B: a}\nprocesses:\n  p:\n    command: x\n    is_daemon: true\n",
		"b.yml": "environment: [B=b, C=b]\nprocesses:\n  q:\n    command: y\n    is_daemon: true\n",
	})
	plan, err := LoadWith("a.yml", LoadOptions{More: []string{"b.yml"}})
	require.NoError(t, err)
	assert.Equal(t, map[string]string{"A": "a", "B": "b", "C": "b"}, plan.Env)
	require.Len(t, plan.Warnings, 1)
	assert.Contains(t, plan.Warnings[0].Error(), "a.yml:5:5: processes.p.is_daemon: not supported")
	assert.Contains(t, plan.Warnings[0].Error(), "(also at b.yml:5)")
}

// Anchors and merge keys are read within each file before the files are
// merged.
func TestProcessComposeMergesWithAnchors(t *testing.T) {
	inDir(t, map[string]string{
		"a.yml": "x-base: &base\n  command: a\n  environment: [A=a]\nprocesses:\n  p:\n    <<: *base\n",
		"b.yml": "x-more: &more\n  environment: [B=b]\nprocesses:\n  p:\n    <<: *more\n  q: *more\n",
	})
	plan, err := LoadWith("a.yml", LoadOptions{More: []string{"b.yml"}})
	var list ErrorList
	if errors.As(err, &list) {
		assert.Equal(t, []string{"b.yml:6:3: processes.q: nothing to run: give command"}, strings.Split(list.Error(), "\n"))
	}
	require.Error(t, err)

	inDir(t, map[string]string{
		"a.yml": "x-base: &base\n  command: a\n  environment: [A=a]\nprocesses:\n  p:\n    <<: *base\n",
		"b.yml": "x-more: &more\n  environment: [B=b]\nprocesses:\n  p:\n    <<: *more\n",
	})
	plan, err = LoadWith("a.yml", LoadOptions{More: []string{"b.yml"}})
	require.NoError(t, err)
	p, _ := plan.Job("p")
	assert.Equal(t, "a", p.Spec.Command)
	assert.Equal(t, "a", p.Spec.Env["A"])
	assert.Equal(t, "b", p.Spec.Env["B"])
}

// namespace is replaced, not appended to (process-compose's own rule).
func TestProcessComposeReplacesNamespace(t *testing.T) {
	inDir(t, map[string]string{
		"a.yml": "processes:\n  p: {command: x, namespace: one}\n",
		"b.yml": "processes:\n  p: {namespace: two}\n",
	})
	plan, err := LoadWith("a.yml", LoadOptions{More: []string{"b.yml"}})
	require.NoError(t, err)
	assert.Equal(t, []string{"two/p"}, plan.Order)
}

// A dependency cycle closed by a later file is reported at the edge that
// file added, not at the earlier file's edge that was fine on its own.
func TestProcessComposeCycleReportedWhereAFileClosedIt(t *testing.T) {
	inDir(t, map[string]string{
		"base.yml": "processes:\n  a:\n    command: a\n    depends_on:\n      b: {condition: process_started}\n  b: {command: b}\n",
		"dev.yml":  "processes:\n  b:\n    command: b\n    depends_on:\n      a: {condition: process_started}\n",
	})
	assert.Equal(t, []string{"dev.yml:5:7: processes.b.depends_on.a: dependency cycle: b -> a -> b"},
		loadProblems(t, "base.yml", LoadOptions{More: []string{"dev.yml"}}))

	// Within one file, the first edge in file order, as before.
	inDir(t, map[string]string{
		"one.yml": "processes:\n  a:\n    command: a\n    depends_on:\n      b: {condition: process_started}\n  b:\n    command: b\n    depends_on:\n      a: {condition: process_started}\n",
	})
	assert.Equal(t, []string{"one.yml:5:7: processes.a.depends_on.b: dependency cycle: a -> b -> a"},
		loadProblems(t, "one.yml", LoadOptions{}))
}
