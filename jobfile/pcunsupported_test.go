package jobfile

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// process-compose's issues/issue_102 (testdata/process-compose/upstream/
// issue_102/) has a readiness probe grep the file its log_location
// names; jobtop writes no such file, and its warning says so and what to
// write instead. An empty log_location (no file in process-compose
// either) is no warning.
func TestProcessComposeLogLocationSaysWhatToWrite(t *testing.T) {
	t.Setenv("USER", "me")
	plan, err := Load("../testdata/process-compose/upstream/issue_102/process-compose.yaml")
	require.NoError(t, err)
	var got []string
	for _, w := range plan.Warnings {
		got = append(got, w.Error())
	}
	assert.Contains(t, got, "../testdata/process-compose/upstream/issue_102/process-compose.yaml:9:5: processes.watcher.log_location: not supported, ignored: jobtop writes each job's output to its own log file (jobtop logs watcher prints it; jobtop ls --json: log_path), so nothing is written to ./watcher.log; if something reads it (a probe, a tail), run jobtop logs watcher -f >> ./watcher.log beside the job")
	assert.NotContains(t, got, "| tee", "a pipe in the command would make tee's exit status the job's, and merge stderr into stdout")

	inDir(t, map[string]string{"pc.yml": "processes:\n  a: {command: x, log_location: \"\"}\n"})
	plan, err = Load("pc.yml")
	require.NoError(t, err)
	assert.Empty(t, plan.Warnings)
}

// The commands the log_location warning gives name the job as jobtop
// names it (its namespace, its replicas), each process its own.
func TestProcessComposeLogLocationNamesTheJob(t *testing.T) {
	inDir(t, map[string]string{"pc.yml": `processes:
  worker:
    command: x
    namespace: bg
    replicas: 2
    log_location: w.log
  web: {command: x, log_location: web.log}
`})
	plan, err := Load("pc.yml")
	require.NoError(t, err)
	var got []string
	for _, w := range plan.Warnings {
		got = append(got, w.Error())
	}
	assert.Equal(t, []string{
		"pc.yml:6:5: processes.worker.log_location: not supported, ignored: jobtop writes each job's output to its own log file (jobtop logs bg/worker-0 prints it; jobtop ls --json: log_path), so nothing is written to w.log; if something reads it (a probe, a tail), run jobtop logs bg/worker-0 -f >> w.log beside the job (and the same for bg/worker-1)",
		"pc.yml:7:21: processes.web.log_location: not supported, ignored: jobtop writes each job's output to its own log file (jobtop logs web prints it; jobtop ls --json: log_path), so nothing is written to web.log; if something reads it (a probe, a tail), run jobtop logs web -f >> web.log beside the job",
	}, got)
}

// An unsupported field set to false (or left empty) asks for what
// process-compose does by default, which jobtop does: no warning. Set to
// true, it is warned about.
func TestProcessComposeUnsupportedFalseIsNoWarning(t *testing.T) {
	inDir(t, map[string]string{
		"off.yml": "is_tui_disabled: false\nprocesses:\n  a: {command: x, is_daemon: false, is_foreground: false, is_elevated: false, disable_ansi_colors: false, truncate_log: false, watch: ~, shutdown: {parent_only: false}}\n",
		"on.yml":  "processes:\n  a: {command: x, is_daemon: true, truncate_log: true}\n",
	})
	plan, err := Load("off.yml")
	require.NoError(t, err)
	assert.Empty(t, plan.Warnings)
	plan, err = Load("on.yml")
	require.NoError(t, err)
	var got []string
	for _, w := range plan.Warnings {
		got = append(got, w.Error())
	}
	assert.Equal(t, []string{
		"on.yml:2:19: processes.a.is_daemon: not supported, ignored: " + pcUnsupported()["is_daemon"],
		"on.yml:2:36: processes.a.truncate_log: not supported, ignored: " + pcUnsupported()["truncate_log"],
	}, got)
}
