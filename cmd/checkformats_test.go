package cmd

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"jobtop/jobs"
)

func TestCheckShowsProbesAndHealth(t *testing.T) {
	t.Chdir(t.TempDir())
	require.NoError(t, os.WriteFile("jobtop.yaml", []byte(`jobs:
  db:
    cmd: ./db
    ready: {tcp: "127.0.0.1:5432", interval: 2s}
  web:
    cmd: ./web
    depends_on: {db: healthy}
    ready: {http: "http://127.0.0.1:8080/healthz"}
    health: {exec: ./check, failures: 5}
    restart: on-failure
    stop: {command: ./web --drain}
`), 0o644))
	stdout, stderr, err := runCheck(t)
	require.NoError(t, err)
	assert.Empty(t, stderr)
	assert.Equal(t, `jobtop.yaml: 2 jobs, no limit on jobs running at once; start order:

#  JOB  STARTS     WAITS FOR    READY WHEN                           HEALTH                     RESTART                                   COMMAND
1  db   by itself  -            tcp: 127.0.0.1:5432, every 2s        -                          no                                        ./db
2  web  by itself  db: healthy  http: http://127.0.0.1:8080/healthz  exec: ./check, 5 failures  on-failure, backoff 1s up to 1m0s, max 5  ./web  (stops with: ./web --drain)
`, stdout)
}

func TestCheckProcfileWithFormationAndEnvFile(t *testing.T) {
	t.Chdir(t.TempDir())
	t.Setenv("PORT", "")
	require.NoError(t, os.WriteFile("Procfile", []byte("web: bundle exec rails s -p $PORT\nworker: sidekiq\n"), 0o644))
	require.NoError(t, os.WriteFile(".env", []byte("PORT=3000\n"), 0o644))
	stdout, _, err := runCheck(t, "-m", "web=2,worker=1")
	require.NoError(t, err)
	assert.Equal(t, `Procfile: 3 jobs, no limit on jobs running at once; start order:
every job reads .env
each job gets PORT (below) and PS, its name and instance: web.1

#  JOB       STARTS     WAITS FOR  READY WHEN  RESTART  COMMAND
1  web.1     by itself  -          running     no       PORT=3000 bundle exec rails s -p $PORT
2  web.2     by itself  -          running     no       PORT=3001 bundle exec rails s -p $PORT
3  worker.1  by itself  -          running     no       PORT=3100 sidekiq
`, stdout)

	stdout, _, err = runCheck(t, "--no-env-file", "--port", "8000")
	require.NoError(t, err)
	assert.Contains(t, stdout, "1  web     by itself  -          running     no       PORT=8000 bundle exec rails s -p $PORT")

	_, stderr, err := runCheck(t, "-m", "web=x")
	var exit *ExitError
	require.True(t, errors.As(err, &exit))
	assert.Equal(t, 2, exit.Code, "a command line that cannot run, not a file with problems")
	assert.EqualError(t, exit, "--formation: \"web=x\": the count must be a whole number, 0 or more")
	assert.Empty(t, stderr)

	require.NoError(t, os.WriteFile("-web.procfile", []byte("web: x\nnot a line\n"), 0o644))
	_, _, err = runCheck(t, "-f=-web.procfile")
	require.True(t, errors.As(err, &exit))
	assert.Equal(t, 1, exit.Code, "a file whose name starts with - has problems of its own")
	_, _, err = runCheck(t, "-e", "a.env", "--no-env-file")
	require.EqualError(t, err, "--env-file and --no-env-file contradict each other: give one")
}

// PS's example is a process the Procfile runs: "web.1" was shown for a
// Procfile with no web, or with -m running no web.
func TestCheckProcfilePSExampleIsAProcessOfIt(t *testing.T) {
	t.Chdir(t.TempDir())
	require.NoError(t, os.WriteFile("Procfile", []byte("clock: ./clock\nworker: sidekiq\n"), 0o644))
	stdout, _, err := runCheck(t)
	require.NoError(t, err)
	assert.Contains(t, stdout, "each job gets PORT (below) and PS, its name and instance: clock.1\n")
	stdout, _, err = runCheck(t, "-m", "worker=2")
	require.NoError(t, err)
	assert.Contains(t, stdout, "each job gets PORT (below) and PS, its name and instance: worker.1\n")
}

func TestCheckProcessComposeWarnsAndRunsNothing(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	require.NoError(t, os.WriteFile("process-compose.yaml", []byte(`version: "0.5"
log_location: ./pc.log
env_cmds:
  RAN: "touch env-cmd-ran"
processes:
  web:
    command: ./web
    is_elevated: true
  worker:
    command: ./worker
    is_elevated: true
`), 0o644))
	stdout, stderr, err := runCheck(t)
	require.NoError(t, err)
	assert.Contains(t, stdout, "process-compose.yaml: 2 jobs")
	assert.Contains(t, stdout, "env_cmds set RAN when the jobs start (not run by check)")
	assert.Equal(t, `process-compose.yaml:2:1: warning: log_location: not supported, ignored: jobtop writes each job's output to its own log file (see jobtop ls --json: log_path); for one file of every job's output, as process-compose writes there, run jobtop logs --all -f >> FILE
process-compose.yaml:8:5: warning: processes.web.is_elevated: not supported, ignored: run jobtop itself with the rights the job needs (also on line 11)
`, stderr)
	_, err = os.Stat(filepath.Join(dir, "env-cmd-ran"))
	assert.ErrorIs(t, err, os.ErrNotExist, "check runs nothing, env_cmds included")
}

func TestCheckExamples(t *testing.T) {
	for _, f := range []string{"../testdata/process-compose/process-compose.yaml", "../testdata/procfile/Procfile", "../testdata/webapp/jobtop.yaml"} {
		_, stderr, err := runCheck(t, f)
		require.NoError(t, err, f)
		assert.Empty(t, stderr, f)
	}
}

// jobtop check says a process that depends on a disabled one starts
// without waiting for it, and shows it waiting for nothing.
func TestCheckSaysDependencyOnDisabledIsSkipped(t *testing.T) {
	t.Chdir(t.TempDir())
	require.NoError(t, os.WriteFile("process-compose.yaml", []byte(`processes:
  off: {command: "true", disabled: true}
  web:
    command: "true"
    depends_on: {off: {condition: process_started}}
`), 0o644))
	stdout, stderr, err := runCheck(t)
	require.NoError(t, err)
	assert.Equal(t, "process-compose.yaml:5:18: warning: processes.web.depends_on.off: off is disabled, so web starts without waiting for it, as in process-compose\n", stderr)
	assert.Regexp(t, `\n\d+\s+web\s+by itself\s+-\s`, stdout)
}

// -f given more than once merges process-compose files in order, as
// process-compose does, and check says which files were read; so does a
// file found with its override file beside it (and not one named with
// -f, which gets none in process-compose either).
func TestCheckShowsTheFilesMerged(t *testing.T) {
	t.Chdir(t.TempDir())
	require.NoError(t, os.WriteFile("a.yaml", []byte("processes:\n  a: {command: \"echo a\"}\n"), 0o644))
	require.NoError(t, os.WriteFile("b.yaml", []byte("processes:\n  a: {command: \"echo b\"}\n  b: {command: \"true\"}\n"), 0o644))
	stdout, stderr, err := runCheck(t, "-f", "a.yaml", "-f", "b.yaml")
	require.NoError(t, err)
	assert.Empty(t, stderr)
	assert.Contains(t, stdout, "a.yaml: 2 jobs, no limit on jobs running at once; start order:\nmerged from a.yaml, b.yaml, in this order (later files win)\n")
	assert.Regexp(t, `\n1\s+a\s.*echo b\n`, stdout)

	src := []byte("processes:\n  a: {command: \"true\"}\n")
	require.NoError(t, os.WriteFile("process-compose.yaml", src, 0o644))
	require.NoError(t, os.WriteFile("process-compose.override.yaml", []byte("processes:\n  extra: {command: \"true\"}\n"), 0o644))
	stdout, stderr, err = runCheck(t)
	require.NoError(t, err)
	assert.Empty(t, stderr)
	assert.Contains(t, stdout, "merged from process-compose.yaml, process-compose.override.yaml, in this order (later files win)")
	assert.Contains(t, stdout, "extra")
	stdout, _, err = runCheck(t, "-f", "process-compose.yaml")
	require.NoError(t, err)
	assert.NotContains(t, stdout, "override", "a file named with -f gets no override in process-compose either")
	assert.NotContains(t, stdout, "extra")

	require.NoError(t, os.WriteFile("Procfile", []byte("web: true\n"), 0o644))
	_, _, err = runCheck(t, "-f", "Procfile", "-f", "a.yaml")
	require.Error(t, err)
}

// An instance runs the jobs of every -f file merged (serve, and serve
// -D with the same flags); a reload re-reads them all, so a change in
// the second file is applied; the instance names its files.
func TestServeRunsSeveralFilesMerged(t *testing.T) {
	c := newCLI(t)
	dir := filepath.Join(c.dir, "app")
	require.NoError(t, os.Mkdir(dir, 0o700))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "base.yaml"), []byte(`processes:
  web: {command: "exec sleep 1000.4344"}
  db: {command: "exec sleep 1000.4345"}
`), 0o600))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "dev.yaml"), []byte(`processes:
  web: {command: "exec sleep 1000.4346"}
  extra: {command: "exec sleep 1000.4347"}
`), 0o600))
	r := c.runIn(dir, "serve", "-D", "-f", "base.yaml", "-f", "dev.yaml", "--idle-exit", "10m")
	require.Equal(t, 0, r.code, r.stderr)
	inst := c.waitAnswering()
	t.Cleanup(func() { syscall.Kill(inst.PID, syscall.SIGTERM) }) //nolint:errcheck // may have gone
	assert.Equal(t, filepath.Join(dir, "base.yaml"), inst.JobFile)
	assert.Equal(t, []string{filepath.Join(dir, "base.yaml"), filepath.Join(dir, "dev.yaml")}, inst.JobFiles)
	commands := func() map[string]string {
		var listed []jobs.Info
		require.NoError(t, json.Unmarshal([]byte(c.ok("ls", "--json")), &listed))
		out := map[string]string{}
		for _, j := range listed {
			out[j.Name] = j.Command
		}
		return out
	}
	assert.Equal(t, map[string]string{"web": "exec sleep 1000.4346", "db": "exec sleep 1000.4345", "extra": "exec sleep 1000.4347"}, commands())

	require.NoError(t, os.WriteFile(filepath.Join(dir, "dev.yaml"), []byte(`processes:
  web: {command: "exec sleep 1000.4348"}
`), 0o600))
	out := c.ok("reload")
	assert.Equal(t, "reloaded base.yaml + dev.yaml: 1 changed (web), 1 removed (extra)\n", out, "a change in the second file is seen; every file is named")
	want := map[string]string{"web": "exec sleep 1000.4348", "db": "exec sleep 1000.4345"}
	require.Eventually(t, func() bool { return assert.ObjectsAreEqual(want, commands()) }, testTimeout, 20*time.Millisecond)
	c.ok("shutdown")
	require.Eventually(t, func() bool { return !processAlive(inst.PID) }, testTimeout, 20*time.Millisecond)
}

// check shows that process-compose's max_restarts counts over the job's
// whole life.
func TestCheckShowsMaxRestartsInAll(t *testing.T) {
	t.Chdir(t.TempDir())
	require.NoError(t, os.WriteFile("process-compose.yaml", []byte(`processes:
  w:
    command: "true"
    availability: {restart: on_failure, max_restarts: 1}
`), 0o644))
	stdout, _, err := runCheck(t)
	require.NoError(t, err)
	assert.Contains(t, stdout, "on-failure, backoff 1s up to 1s, max 1 in all")
}
