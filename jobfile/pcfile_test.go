package jobfile

import (
	"errors"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"jobtop/jobs"
	"jobtop/probe"
)

func TestProcessComposeExample(t *testing.T) {
	t.Setenv("WEB_PORT", "9123")
	t.Setenv("COMPOSE_SHELL", "")
	plan, err := Load("../testdata/process-compose/process-compose.yaml")
	require.NoError(t, err)
	assert.Equal(t, FormatProcessCompose, plan.Format)
	assert.Empty(t, plan.Warnings)
	assert.Equal(t, map[string]string{"STATE_DIR": "mktemp -d"}, plan.EnvCommands)
	assert.Equal(t, []string{"db", "migrate", "web", "queue", "background/worker", "report"}, plan.Order)
	bash := []string{"bash", "-c"}

	db, _ := plan.Job("db")
	assert.Equal(t, bash, db.Spec.Shell)
	assert.Contains(t, db.Spec.Command, `echo up > "${STATE_DIR}/db.pid"`, "$$ is a literal $")
	assert.Equal(t, jobs.ProbeCheck{Probe: &probe.Exec{Command: `test -s "${STATE_DIR}/db.pid"`}, Interval: time.Second}, db.Spec.Ready.Probe)
	assert.Equal(t, db.Spec.Ready.Probe, db.Spec.Health, "a readiness probe goes on checking once ready")
	assert.Equal(t, jobs.Signal(syscall.SIGINT), db.Spec.StopSignal)
	assert.Equal(t, 3*time.Second, db.Spec.Grace)
	assert.Equal(t, map[string]string{"APP_ENV": "development", "PC_PROC_NAME": "db", "PC_REPLICA_NUM": "0"}, db.Spec.Env)

	migrate, _ := plan.Job("migrate")
	assert.Equal(t, map[string]jobs.Condition{"db": jobs.CondHealthyPassed}, migrate.Spec.DependsOn)
	assert.Equal(t, 10*time.Second, migrate.Spec.Grace, "process-compose's default shutdown timeout")

	web, _ := plan.Job("web")
	assert.Equal(t, "python3 -m http.server 9123 --bind 127.0.0.1", web.Spec.Command)
	assert.Equal(t, jobs.ProbeCheck{Probe: &probe.HTTP{URL: "http://127.0.0.1:9123/", Status: 200}, Interval: time.Second, Failures: 5}, web.Spec.Ready.Probe)
	assert.Equal(t, map[string]jobs.Condition{"migrate": jobs.CondSucceeded}, web.Spec.DependsOn)
	assert.Equal(t, jobs.RestartPolicy{Mode: jobs.RestartOnFailure, Backoff: 2 * time.Second, MaxBackoff: 2 * time.Second, Max: 3, MaxOverLife: true}, web.Spec.Restart)

	queue, _ := plan.Job("queue")
	assert.Equal(t, "accepting work", queue.Spec.Ready.LogPattern)

	worker, _ := plan.Job("background/worker")
	assert.Equal(t, map[string]jobs.Condition{"queue": jobs.CondReadyPassed, "web": jobs.CondHealthyPassed}, worker.Spec.DependsOn)
	assert.Equal(t, jobs.RestartPolicy{Mode: jobs.RestartAlways, Backoff: time.Second, MaxBackoff: time.Second, Max: jobs.NoRestartLimit}, worker.Spec.Restart,
		"no max_restarts: no limit")
	assert.Equal(t, jobs.NoRestartLimit, worker.Spec.Restart.WithDefaults().Max, "not jobtop's default of 5")
	assert.Contains(t, worker.Spec.Command, "n=$((n+1))")
	assert.Equal(t, "worker", worker.Spec.Env["PC_PROC_NAME"])

	report, _ := plan.Job("report")
	assert.False(t, report.Autostart, "disabled: listed, started by hand")
	assert.Equal(t, map[string]jobs.Condition{"migrate": jobs.CondCompleted}, report.Spec.DependsOn)
}

func TestProcessComposeEveryField(t *testing.T) {
	t.Setenv("COMPOSE_SHELL", "")
	t.Setenv("FROM_ENV", "env")
	t.Setenv("UNSET_VAR", "")
	dir := inDir(t, map[string]string{
		".env":            "DOTENV=yes\nFROM_ENV=dotenv-wins\nTIMEOUT=7\n",
		"svc/":            "",
		"svc/backend.env": "FILE=backend\nGLOBAL=from-env-file\n",
		"probes/":         "",
		"other/":          "",
	})
	src := `version: "0.5"
is_strict: true
environment:
  - "GLOBAL=top"
  - "EQ=a=b"
shell:
  shell_command: sh
  shell_argument: -ec
vars:
  PRE: 2
  GREETING: hello
log_length: 500
processes:
  api:
    command: "echo {{.GREETING}} $FROM_ENV ${UNSET_VAR:-fallback} $$HOME {{.PC_REPLICA_NUM}}"
    working_dir: svc
    env_file: backend.env
    environment:
      - "LOCAL=1"
    replicas: 2
    vars:
      GREETING: hi
    liveness_probe:
      http_get:
        host: localhost
        scheme: https
        path: healthz
        port: 8443
        headers: {X-Probe: jobtop}
        status_code: 204
      initial_delay_seconds: 5
      period_seconds: 2
      timeout_seconds: 3
      success_threshold: 1
      failure_threshold: 4
    shutdown:
      command: "kill-api --graceful"
      timeout_seconds: ${TIMEOUT}
      signal: 15
  client:
    command: ./client
    is_dotenv_disabled: true
    namespace: tools
    depends_on:
      api:
        condition: process_started
      api-1:
        condition: process_completed
    readiness_probe:
      exec:
        command: ./ready.sh
        working_dir: probes
      initial_delay_seconds: 1
      timeout_seconds: 2
    is_disabled: "true"
  raw:
    entrypoint: [printf, "%s\n", "no shell"]
    is_template_disabled: true
    disabled: true # its dependency is disabled too: is_strict allows that
    description: "{{.NOT_RENDERED}}"
    depends_on:
      client: process_healthy
`
	plan, err := Parse("process-compose.yaml", []byte(src))
	require.NoError(t, err)
	assert.Empty(t, plan.Warnings)
	assert.Equal(t, 500, plan.Log.MemoryLines)
	assert.Equal(t, []string{"api-0", "api-1", "tools/client", "raw"}, plan.Order)

	api0, _ := plan.Job("api-0")
	api1, _ := plan.Job("api-1")
	assert.Equal(t, []string{"sh", "-ec"}, api0.Spec.Shell)
	assert.Equal(t, "echo hi dotenv-wins fallback $HOME 0", api0.Spec.Command, "expanded when read, then the process's vars over the file's")
	assert.Equal(t, "echo hi dotenv-wins fallback $HOME 1", api1.Spec.Command)
	assert.Equal(t, filepath.Join(dir, "svc"), api0.Spec.Dir)
	assert.Equal(t, map[string]string{
		"DOTENV": "yes", "TIMEOUT": "7",
		"GLOBAL": "from-env-file", "EQ": "a=b", "FILE": "backend", "LOCAL": "1",
		"PC_PROC_NAME": "api", "PC_REPLICA_NUM": "1",
	}, api1.Spec.Env, ".env (below the shell: FROM_ENV is the shell's), then environment, then env_file (beside working_dir), then the process's environment")
	assert.Equal(t, jobs.ProbeCheck{
		Probe:    &probe.HTTP{URL: "https://localhost:8443/healthz", Status: 204, Headers: map[string]string{"X-Probe": "jobtop"}},
		Interval: 2 * time.Second, Timeout: 3 * time.Second, InitialDelay: 5 * time.Second, Failures: 4,
	}, api0.Spec.Health)
	assert.Equal(t, jobs.ReadyCheck{}, api0.Spec.Ready)
	assert.Equal(t, "kill-api --graceful", api0.Spec.StopCommand)
	assert.True(t, api0.Spec.StopCommandFailKills, "as process-compose: a shutdown.command that fails kills")
	assert.Equal(t, 7*time.Second, api0.Spec.Grace)
	assert.Equal(t, jobs.Signal(syscall.SIGTERM), api0.Spec.StopSignal)

	client, _ := plan.Job("tools/client")
	assert.False(t, client.Autostart)
	assert.Equal(t, map[string]jobs.Condition{"api-0": jobs.CondStarted, "api-1": jobs.CondCompleted}, client.Spec.DependsOn,
		"a group name is each of its replicas; a replica's own entry wins")
	assert.Equal(t, map[string]string{"GLOBAL": "top", "EQ": "a=b", "PC_PROC_NAME": "client", "PC_REPLICA_NUM": "0"}, client.Spec.Env)
	assert.Equal(t, jobs.ProbeCheck{Probe: &probe.Exec{Command: "./ready.sh", Dir: filepath.Join(dir, "probes")},
		Interval: 10 * time.Second, Timeout: 2 * time.Second, InitialDelay: time.Second}, client.Spec.Ready.Probe)

	raw, _ := plan.Job("raw")
	assert.Equal(t, []string{"printf", "%s\n", "no shell"}, raw.Spec.Argv)
	assert.Empty(t, raw.Spec.Command)
	assert.Equal(t, "{{.NOT_RENDERED}}", raw.Spec.Description)
	assert.Equal(t, map[string]jobs.Condition{"tools/client": jobs.CondHealthyPassed}, raw.Spec.DependsOn)
}

func pcProblems(t *testing.T, src string) []string {
	t.Helper()
	_, err := Parse("process-compose.yaml", []byte(src))
	var list ErrorList
	require.True(t, errors.As(err, &list), "want an ErrorList, got %v", err)
	return strings.Split(list.Error(), "\n")
}

func TestProcessComposeErrors(t *testing.T) {
	inDir(t, nil)
	assert.Equal(t, []string{
		`process-compose.yaml:3:3: processes.a: give ready_log_line or readiness_probe, not both`,
		`process-compose.yaml:9:3: processes.b: nothing to run: give command`,
		`process-compose.yaml:14:22: processes.c.depends_on.a: "process_completed_successfuly" is not a condition (did you mean "process_completed_successfully"?): use process_started, process_completed, process_completed_successfully, process_healthy or process_log_ready`,
		`process-compose.yaml:15:7: processes.c.depends_on.nope: no process is named "nope"`,
		`process-compose.yaml:16:10: processes.c.depends_on.d: process_log_ready waits for d's ready_log_line, and it has none`,
		`process-compose.yaml:17:10: processes.c.depends_on.x: process_healthy waits for x's readiness_probe, and it has none`,
		`process-compose.yaml:18:29: processes.c.availability.restart: "sometimes" is not a restart policy: use no, on_failure, always or exit_on_failure`,
		`process-compose.yaml:22:7: processes.d.depends_on.e: dependency cycle: d -> e -> d`,
		`process-compose.yaml:26:5: processes.e.readiness_probe: give exec or http_get`,
		`process-compose.yaml:34:24: processes.g.readiness_probe.http_get.port: "http" is not a port (1-65535)`,
		`process-compose.yaml:35:3: processes: process name "bad name" may only use ASCII letters, digits, ".", "_", "-" and "/"`,
		`process-compose.yaml:37:14: processes.h.command: template: map has no entry for key "MISSING" (vars: give it under vars:)`,
		`process-compose.yaml:38:52: processes.h.liveness_probe.http_get.headers: "bad header" is not a header name`,
	}, pcProblems(t, `processes:
  x: {command: ok}
  a:
    command: x
    ready_log_line: up
    readiness_probe:
      exec: {command: y}
      period_seconds: 1
  b:
    description: nothing to run
  c:
    command: x
    depends_on:
      a: {condition: process_completed_successfuly}
      nope: {condition: process_started}
      d: process_log_ready
      x: process_healthy
    availability: {restart: sometimes}
  d:
    command: x
    depends_on:
      e: {}
  e:
    command: x
    depends_on: {d: {}}
    readiness_probe: {}
  f:
    command: x
    readiness_probe:
      http_get: {host: 127.0.0.1}
  g:
    command: x
    readiness_probe:
      http_get: {port: http}
  "bad name": {command: x}
  h:
    command: "{{.MISSING}}"
    liveness_probe: {http_get: {port: 1, headers: {"bad header": x}}}
`))
}

func TestProcessComposeStrictAndWarnings(t *testing.T) {
	inDir(t, nil)
	src := `log_level: debug
processes:
  web:
    commnad: ./web
    command: ./web
    is_daemon: true
    is_elevated: true
    success_exit_codes: [130]
    readiness_probe:
      exec: {command: "curl -f localhost"}
      success_threshold: 2
    availability: {restart: exit_on_failure, exit_on_end: true}
    shutdown: {parent_only: yes}
    namespace: [billing, orders]
    working_dir: missing
  worker:
    command: "echo ${NAME^^} ${OTHER,,}"
    entrypoint: [./worker]
    is_elevated: true
`
	plan, err := Parse("process-compose.yaml", []byte(src))
	require.NoError(t, err)
	var got []string
	for _, w := range plan.Warnings {
		got = append(got, w.Error())
	}
	assert.Equal(t, []string{
		`process-compose.yaml:1:1: log_level: not supported, ignored: jobtop has no log level of its own`,
		`process-compose.yaml:4:5: processes.web: unknown key "commnad" (did you mean "command"?), ignored`,
		`process-compose.yaml:6:5: processes.web.is_daemon: not supported, ignored: jobtop treats a job as ended when its command exits (and stops what it left): run the program in the foreground instead (docker run without -d, postgres rather than pg_ctl start), with shutdown.command if it needs one to stop`,
		`process-compose.yaml:7:5: processes.web.is_elevated: not supported, ignored: run jobtop itself with the rights the job needs (also on line 19)`,
		`process-compose.yaml:11:7: processes.web.readiness_probe.success_threshold: 2 is not supported: one passing check counts (process-compose does not use it either)`,
		`process-compose.yaml:13:16: processes.web.shutdown.parent_only: not supported, ignored: jobtop signals the job's whole process tree`,
		`process-compose.yaml:14:5: processes.web.namespace: a process in several namespaces is shown under the first, billing`,
		`process-compose.yaml:15:18: processes.web.working_dir: directory "missing" does not exist: the job will not start`,
		`process-compose.yaml:16:3: processes.worker: both command and entrypoint are given: command runs, as in process-compose`,
		`process-compose.yaml:17:20: ${NAME^^} is left as it is: jobtop expands $VAR, ${VAR}, ${VAR:-default} and ${VAR-default} (write $$ for a $)`,
		`process-compose.yaml:17:30: ${OTHER,,} is left as it is: jobtop expands $VAR, ${VAR}, ${VAR:-default} and ${VAR-default} (write $$ for a $)`,
	}, got)
	web, _ := plan.Job("billing/web")
	assert.Equal(t, jobs.RestartNever, web.Spec.Restart.Mode)
	assert.True(t, web.ExitOnFailure)

	assert.Equal(t, []string{
		`process-compose.yaml:4:5: processes.web: unknown key "commnad" (did you mean "command"?) (is_strict is on)`,
	}, pcProblems(t, "is_strict: true\nprocesses:\n  web:\n    commnad: ./web\n    command: ./web\n"))
}

func TestProcessComposeExpansionCanBeTurnedOff(t *testing.T) {
	inDir(t, nil)
	t.Setenv("HOME_DIR", "/home/x")
	plan, err := Parse("pc.yaml", []byte("disable_env_expansion: true\nprocesses:\n  a: {command: \"echo $HOME_DIR $$ ${X}\"}\n"))
	require.NoError(t, err)
	assert.Equal(t, FormatProcessCompose, plan.Format, "told apart by its processes: key, whatever its name")
	assert.Equal(t, "echo $HOME_DIR $$ ${X}", plan.Jobs[0].Spec.Command)
}

func TestFindPrefersJobtopFilesThenProcessCompose(t *testing.T) {
	dir := inDir(t, map[string]string{"process-compose.yaml": "processes: {a: {command: x}}\n", "process-compose.yml": "processes: {a: {command: x}}\n"})
	found, err := Find(dir)
	require.NoError(t, err)
	assert.Equal(t, filepath.Join(dir, "process-compose.yml"), found, "process-compose's own order")
	inDir(t, map[string]string{"process-compose.yaml": "processes: {a: {command: x}}\n", "Procfile": "a: x\n"})
	found, err = Find(".")
	require.NoError(t, err)
	assert.Equal(t, "Procfile", found)
}

// TestProcessComposeDocumentedExamples reads examples from
// process-compose's documentation (health.md, configuration.md,
// launcher.md), as written there.
func TestProcessComposeDocumentedExamples(t *testing.T) {
	inDir(t, map[string]string{".env": "VERSION='1.2.3'\nWAIT_SEC=60\n"})
	t.Setenv("COMPOSE_SHELL", "")

	// health.md: a liveness probe on a daemon, with a shutdown command
	// (its template escaped as configuration.md shows).
	plan, err := Parse("process-compose.yaml", []byte(`processes:
  nginx:
    command: "docker run -d --rm -p80:80 --name nginx_test nginx"
    is_daemon: true
    shutdown:
      command: "docker stop nginx_test"
      signal: 15
      timeout_seconds: 5
    liveness_probe:
      exec:
        command: '[ $(docker inspect -f {{ "{{.State.Running}}" }} nginx_test) = true ]'
        working_dir: /tmp # if not specified the process working dir will be used
      initial_delay_seconds: 5
      period_seconds: 2
      timeout_seconds: 5
      success_threshold: 1
      failure_threshold: 3
`))
	require.NoError(t, err)
	nginx := plan.Jobs[0].Spec
	assert.Equal(t, "docker stop nginx_test", nginx.StopCommand)
	assert.Equal(t, 5*time.Second, nginx.Grace)
	assert.Equal(t, jobs.ProbeCheck{
		Probe:    &probe.Exec{Command: "[ $(docker inspect -f {{.State.Running}} nginx_test) = true ]", Dir: "/tmp"},
		Interval: 2 * time.Second, Timeout: 5 * time.Second, InitialDelay: 5 * time.Second, Failures: 3,
	}, nginx.Health)
	require.Len(t, plan.Warnings, 1)
	assert.Contains(t, plan.Warnings[0].Msg, "processes.nginx.is_daemon: not supported")

	// health.md: a readiness probe over HTTP.
	plan, err = Parse("process-compose.yaml", []byte(`processes:
  nginx:
    command: "docker run -d --rm -p80:80 --name nginx_test nginx"
    shutdown:
      command: "docker stop nginx_test"
    readiness_probe:
      http_get:
        host: 127.0.0.1
        scheme: http
        path: "/"
        port: 80
      initial_delay_seconds: 5
      period_seconds: 10
      timeout_seconds: 5
      success_threshold: 1
      failure_threshold: 3
`))
	require.NoError(t, err)
	assert.Equal(t, jobs.ProbeCheck{Probe: &probe.HTTP{URL: "http://127.0.0.1:80/", Status: 200},
		Interval: 10 * time.Second, Timeout: 5 * time.Second, InitialDelay: 5 * time.Second, Failures: 3}, plan.Jobs[0].Spec.Ready.Probe)
	assert.Equal(t, 10*time.Second, plan.Jobs[0].Spec.Grace)

	// configuration.md: .env values expanded in the file.
	plan, err = Parse("process-compose.yaml", []byte(`processes:
  downloader:
    command: "python3 data_downloader_${VERSION}.py -s 'data.source.B.uri'"
    availability:
      restart: "always"
      backoff_seconds: ${WAIT_SEC}
    environment:
      - 'OUTPUT_DIR=/path/to/B/data'
`))
	require.NoError(t, err)
	dl := plan.Jobs[0].Spec
	assert.Equal(t, "python3 data_downloader_1.2.3.py -s 'data.source.B.uri'", dl.Command)
	assert.Equal(t, jobs.RestartPolicy{Mode: jobs.RestartAlways, Backoff: time.Minute, MaxBackoff: time.Minute, Max: jobs.NoRestartLimit}, dl.Restart)
	assert.Equal(t, "/path/to/B/data", dl.Env["OUTPUT_DIR"])

	// launcher.md: terminate on failure, with the docs' own misspelt
	// condition, which process-compose refuses too.
	assert.Equal(t, []string{
		`process-compose.yaml:11:20: processes.other_proc.depends_on.sanitycheck: "process_completed_successfuly" is not a condition (did you mean "process_completed_successfully"?): use process_started, process_completed, process_completed_successfully, process_healthy or process_log_ready`,
	}, pcProblems(t, `processes:
  sanitycheck:
    command: "which go"
    availability:
      restart: "exit_on_failure"

  other_proc:
    command: "go test ./..."
    depends_on:
      sanitycheck:
        condition: process_completed_successfuly
`))
}

// process-compose restarts without end unless max_restarts is above 0;
// jobtop's own default of 5 must not creep in.
func TestProcessComposeMaxRestarts(t *testing.T) {
	inDir(t, nil)
	for src, want := range map[string]int{
		"":                  jobs.NoRestartLimit,
		"max_restarts: 0\n": jobs.NoRestartLimit,
		"max_restarts: 7\n": 7,
	} {
		plan, err := Parse("process-compose.yaml", []byte("processes:\n  w:\n    command: exit 1\n    availability:\n      restart: on_failure\n      "+src))
		require.NoError(t, err, src)
		assert.Equal(t, want, plan.Jobs[0].Spec.Restart.WithDefaults().Max, src)
	}
}

// A scheduled process waits to be started by hand: jobtop runs nothing
// on a schedule, and a backup or cleanup job ran at every start instead.
// A process that depends on one starts without waiting, as on a
// disabled one, and the warning says why.
func TestProcessComposeScheduledProcessStartsByHand(t *testing.T) {
	src := `processes:
  sched:
    command: "echo cron"
    schedule: {cron: "* * * * *"}
  backup:
    command: "echo backup"
    schedule: {interval: 1h}
  web:
    command: "echo web"
    depends_on: {sched: {condition: process_completed}}
`
	plan, err := Parse("process-compose.yaml", []byte(src))
	require.NoError(t, err)
	for _, name := range []string{"sched", "backup"} {
		job, ok := plan.Job(name)
		require.True(t, ok, name)
		assert.False(t, job.Autostart, "%s: scheduled, started by hand", name)
	}
	web, _ := plan.Job("web")
	assert.True(t, web.Autostart)
	assert.Empty(t, web.Spec.DependsOn, "does not wait for a job that does not start by itself")
	var got []string
	for _, w := range plan.Warnings {
		got = append(got, w.Error())
	}
	assert.Equal(t, []string{
		`process-compose.yaml:4:5: processes.sched.schedule: not supported: jobtop runs nothing on a schedule, so a scheduled process does not start by itself; it is listed as created, to start by hand (jobtop restart NAME) (also on line 7)`,
		`process-compose.yaml:10:18: processes.web.depends_on.sched: sched is scheduled (started by hand here), so web starts without waiting for it`,
	}, got)
}

// A schedule with run_on_start runs once at start (process-compose runs it
// then, and on its schedule); an empty schedule schedules nothing.
func TestProcessComposeScheduleRunOnStart(t *testing.T) {
	src := `processes:
  warm:
    command: "echo warm"
    schedule: {cron: "0 * * * *", run_on_start: true}
  none:
    command: "echo none"
    schedule: {}
  off:
    command: "echo off"
    schedule: {interval: 1h, run_on_start: false}
`
	plan, err := Parse("process-compose.yaml", []byte(src))
	require.NoError(t, err)
	for name, auto := range map[string]bool{"warm": true, "none": true, "off": false} {
		job, ok := plan.Job(name)
		require.True(t, ok, name)
		assert.Equal(t, auto, job.Autostart, name)
	}
	var got []string
	for _, w := range plan.Warnings {
		got = append(got, w.Error())
	}
	assert.Equal(t, []string{
		`process-compose.yaml:4:5: processes.warm.schedule: not supported: jobtop runs nothing on a schedule; this process runs once at start (run_on_start), and again only by hand (jobtop restart NAME)`,
		`process-compose.yaml:10:5: processes.off.schedule: not supported: jobtop runs nothing on a schedule, so a scheduled process does not start by itself; it is listed as created, to start by hand (jobtop restart NAME)`,
	}, got)
}
