package jobfile

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"jobtop/jobs"
)

// A jobtop.yaml is never merged with anything: found beside a
// process-compose override file, an empty one or one with no jobs: says
// what it said alone, and the override's processes do not run.
func TestJobtopYAMLNotMergedWithOverride(t *testing.T) {
	for name, body := range map[string]string{"empty": "", "no jobs": "max_parallel: 2\n"} {
		t.Run(name, func(t *testing.T) {
			inDir(t, map[string]string{"jobtop.yaml": body, "process-compose.override.yml": "processes:\n  a: {command: x}\n"})
			want := []string{"jobtop.yaml: the file is empty: give a jobs: mapping"}
			if body != "" {
				want = loadProblems(t, "jobtop.yaml", LoadOptions{})
			}
			assert.Equal(t, want, loadProblems(t, "jobtop.yaml", LoadOptions{Found: true}))
		})
	}
	inDir(t, map[string]string{"jobtop.yml": "jobs:\n  j: {cmd: x}\n", "process-compose.override.yml": "processes:\n  a: {command: x}\n"})
	plan, err := LoadWith("jobtop.yml", LoadOptions{Found: true})
	require.NoError(t, err)
	assert.Equal(t, []string{"j"}, plan.Order)
}

// An empty jobtop.yaml among several -f files is refused, as one with
// jobs: is.
func TestJobtopYAMLNotMergedWithFiles(t *testing.T) {
	inDir(t, map[string]string{"jobtop.yaml": "", "base.yml": "processes:\n  a: {command: x}\n"})
	assert.Equal(t, []string{"jobtop.yaml: is a jobtop.yaml file: -f given more than once merges process-compose files only; give one jobtop.yaml"},
		loadProblems(t, "jobtop.yaml", LoadOptions{More: []string{"base.yml"}}))
	assert.Equal(t, []string{"jobtop.yaml: is a jobtop.yaml file (by its name; it has no processes:): only process-compose files are merged, with -f given more than once, an override file or extends:"},
		loadProblems(t, "base.yml", LoadOptions{More: []string{"jobtop.yaml"}}))
}

// Several override files beside the file: the first in process-compose's
// order is merged, and a warning says which, as process-compose logs.
func TestProcessComposeSeveralOverridesWarn(t *testing.T) {
	inDir(t, map[string]string{
		"process-compose.yml":           "processes:\n  a: {command: base}\n",
		"process-compose.override.yml":  "processes:\n  a: {command: pc}\n",
		"process-compose.override.yaml": "processes:\n  a: {command: pc2}\n",
	})
	plan, err := LoadWith("process-compose.yml", LoadOptions{Found: true})
	require.NoError(t, err)
	a, _ := plan.Job("a")
	assert.Equal(t, "pc", a.Spec.Command)
	require.Len(t, plan.Warnings, 1)
	assert.Equal(t, "process-compose.yml: several override files are beside it (process-compose.override.yml, process-compose.override.yaml): "+
		"process-compose.override.yml is merged, the first of them in process-compose's order, as process-compose does", plan.Warnings[0].Error())

	inDir(t, map[string]string{
		"process-compose.yml":          "processes:\n  a: {command: base}\n",
		"process-compose.override.yml": "processes:\n  a: {command: pc}\n",
	})
	plan, err = LoadWith("process-compose.yml", LoadOptions{Found: true})
	require.NoError(t, err)
	assert.Empty(t, plan.Warnings)
}

// A probe given exec in one file and http_get in the other is refused at
// the later file's line; in one file, at the probe.
func TestProcessComposeMergedProbeBothKindsAtLaterFile(t *testing.T) {
	inDir(t, map[string]string{
		"base.yml": "processes:\n  a:\n    command: x\n    readiness_probe:\n      exec: {command: \"true\"}\n",
		"dev.yml":  "processes:\n  a:\n    readiness_probe:\n      http_get: {port: 80}\n",
	})
	assert.Equal(t, []string{"dev.yml:4:7: processes.a.readiness_probe: give exec or http_get, not both"},
		loadProblems(t, "base.yml", LoadOptions{More: []string{"dev.yml"}}))

	inDir(t, map[string]string{
		"base.yml": "processes:\n  a:\n    command: x\n    readiness_probe:\n      exec: {command: \"true\"}\n      http_get: {port: 80}\n",
	})
	assert.Equal(t, []string{"base.yml:4:5: processes.a.readiness_probe: give exec or http_get, not both"},
		loadProblems(t, "base.yml", LoadOptions{}))
}

// availability.restart: "no" in a later file switches restarts off in
// jobtop, with a warning that process-compose keeps the earlier policy.
func TestProcessComposeMergedRestartNoWarns(t *testing.T) {
	inDir(t, map[string]string{
		"b.yml": "processes:\n  p:\n    command: x\n    availability: {restart: always}\n",
		"d.yml": "processes:\n  p:\n    availability: {restart: \"no\"}\n",
	})
	plan, err := LoadWith("b.yml", LoadOptions{More: []string{"d.yml"}})
	require.NoError(t, err)
	p, _ := plan.Job("p")
	assert.Equal(t, jobs.RestartNever, p.Spec.Restart.Mode)
	require.Len(t, plan.Warnings, 1)
	assert.Equal(t, `d.yml:3:29: processes.p.availability.restart: "no" switches off the earlier file's "always" here; process-compose keeps "always" (its merge skips "no")`,
		plan.Warnings[0].Error())
}
