package jobfile

import (
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"jobtop/jobs"
)

// A process's environment entries are templates too, as process-compose
// renders them: with the vars and PC_REPLICA_NUM, is_template_disabled or
// not (that keeps only command as written).
func TestProcessComposeRendersEnvironment(t *testing.T) {
	inDir(t, nil)
	plan, err := Parse("process-compose.yaml", []byte(`vars: {DB_HOST: db.local}
processes:
  api:
    command: "echo {{.DB_HOST}}"
    replicas: 2
    environment:
      - "DB_URL=postgres://{{.DB_HOST}}:5432/app"
      - "INSTANCE=api-{{.PC_REPLICA_NUM}}"
  raw:
    command: "echo {{.DB_HOST}}"
    is_template_disabled: true
    environment: {MODE: "{{.DB_HOST}}"}
`))
	require.NoError(t, err)
	for i, name := range []string{"api-0", "api-1"} {
		job, ok := plan.Job(name)
		require.True(t, ok, name)
		assert.Equal(t, "postgres://db.local:5432/app", job.Spec.Env["DB_URL"], name)
		assert.Equal(t, []string{"api-0", "api-1"}[i], job.Spec.Env["INSTANCE"], name)
	}
	raw, _ := plan.Job("raw")
	assert.Equal(t, "echo {{.DB_HOST}}", raw.Spec.Command)
	assert.Equal(t, "db.local", raw.Spec.Env["MODE"])

	// One that does not render is kept as written, with a warning
	// (process-compose would pass "<no value>").
	plan, err = Parse("process-compose.yaml", []byte(`processes:
  a:
    command: x
    environment: ["FORMAT={{.Name}}"]
`))
	require.NoError(t, err)
	a, _ := plan.Job("a")
	assert.Equal(t, "{{.Name}}", a.Spec.Env["FORMAT"])
	require.Len(t, plan.Warnings, 1)
	assert.Contains(t, plan.Warnings[0].Warning(), `processes.a.environment[0]: template: map has no entry for key "Name" (vars: give it under vars:); kept as written`)
}

// process-compose layers a process's environment as .env, then the
// shell's environment, then the YAML's: a variable the shell sets beats
// .env, the YAML beats both. The file's own $VARs still read .env first.
func TestProcessComposeShellBeatsDotenv(t *testing.T) {
	inDir(t, map[string]string{".env": "SHELL_SET=dotenv\nONLY_DOTENV=dotenv\nBOTH=dotenv\n"})
	t.Setenv("SHELL_SET", "shell")
	t.Setenv("BOTH", "shell")
	plan, err := Parse("process-compose.yaml", []byte(`processes:
  a:
    command: "echo $SHELL_SET"
    environment: ["BOTH=yaml"]
`))
	require.NoError(t, err)
	a := plan.Jobs[0].Spec
	assert.Equal(t, "echo dotenv", a.Command, "expansion reads .env first, as process-compose's loader does")
	assert.Equal(t, map[string]string{"ONLY_DOTENV": "dotenv", "BOTH": "yaml", "PC_PROC_NAME": "a", "PC_REPLICA_NUM": "0"}, a.Env,
		"SHELL_SET is left to the shell's environment")
}

// A Procfile's .env wins over the shell, as in foreman and honcho.
func TestProcfileDotenvBeatsShell(t *testing.T) {
	inDir(t, map[string]string{".env": "SHELL_SET=dotenv\n", "Procfile": "web: echo\n"})
	t.Setenv("SHELL_SET", "shell")
	plan, err := Load("Procfile")
	require.NoError(t, err)
	assert.Equal(t, "dotenv", plan.Jobs[0].Spec.Env["SHELL_SET"])
}

// A process-compose file's .env and env_file are expanded as godotenv
// does; a Procfile's .env is not, as in foreman and honcho.
func TestProcessComposeExpandsEnvFiles(t *testing.T) {
	inDir(t, map[string]string{
		".env":     "HOST=db.local\nDB_URL=postgres://${HOST}/app\n",
		"api.env":  "PORT=8080\nADDR=\"127.0.0.1:$PORT\"\n",
		"Procfile": "web: echo\n",
	})
	plan, err := Parse("process-compose.yaml", []byte(`processes:
  a:
    command: "echo $DB_URL"
    env_file: api.env
`))
	require.NoError(t, err)
	a := plan.Jobs[0].Spec
	assert.Equal(t, "echo postgres://db.local/app", a.Command)
	assert.Equal(t, "postgres://db.local/app", a.Env["DB_URL"])
	assert.Equal(t, "127.0.0.1:8080", a.Env["ADDR"])

	plan, err = Load("Procfile")
	require.NoError(t, err)
	assert.Equal(t, "postgres://${HOST}/app", plan.Jobs[0].Spec.Env["DB_URL"])
}

// Replica names are padded as process-compose pads them: to as many
// digits as the number of replicas has (1 + floor(log10(n))).
func TestProcessComposeReplicaNames(t *testing.T) {
	inDir(t, nil)
	for replicas, want := range map[int][2]string{
		2:   {"w-0", "w-1"},
		9:   {"w-0", "w-8"},
		10:  {"w-00", "w-09"},
		11:  {"w-00", "w-10"},
		100: {"w-000", "w-099"},
	} {
		plan, err := Parse("process-compose.yaml", []byte(fmt.Sprintf("processes:\n  w: {command: x, replicas: %d}\n", replicas)))
		require.NoError(t, err, replicas)
		require.Len(t, plan.Jobs, replicas)
		assert.Equal(t, want, [2]string{plan.Jobs[0].Name, plan.Jobs[replicas-1].Name}, replicas)
	}
	plan, err := Parse("process-compose.yaml", []byte(`processes:
  w: {command: x, replicas: 10}
  after:
    command: x
    depends_on: {w-05: {condition: process_started}}
`))
	require.NoError(t, err)
	after, _ := plan.Job("after")
	assert.Equal(t, map[string]jobs.Condition{"w-05": jobs.CondStarted}, after.Spec.DependsOn)
}

// Files process-compose runs must load: an http_get without port (the
// URL then has none), an is_disabled left empty by expansion, and
// shutdown.send_keys (a warning, also with is_strict, as process-compose
// knows the key); a top-level x- key (anchors' home) is no warning.
func TestProcessComposeAcceptsWhatItAccepts(t *testing.T) {
	inDir(t, nil)
	t.Setenv("UNSET", "")
	plan, err := Parse("process-compose.yaml", []byte(`is_strict: true
x-probe: &probe
  period_seconds: 2
processes:
  web:
    command: x
    x-note: a process's own x- key
    readiness_probe:
      <<: *probe
      http_get: {host: localhost, path: /healthz}
  tls:
    command: x
    liveness_probe:
      http_get: {scheme: https, host: "::1"}
  off:
    command: x
    disabled: true
    is_disabled: ${UNSET}
  on:
    command: x
    is_disabled: ${UNSET}
    shutdown:
      send_keys: "^C"
`))
	require.NoError(t, err)
	web, _ := plan.Job("web")
	require.NotNil(t, web.Spec.Ready.Probe.Probe)
	assert.Equal(t, "http: http://localhost/healthz (status 200)", web.Spec.Ready.Probe.Probe.String())
	tls, _ := plan.Job("tls")
	assert.Equal(t, "http: https://[::1]/ (status 200)", tls.Spec.Health.Probe.String())
	off, _ := plan.Job("off")
	assert.False(t, off.Autostart, "disabled: true stays")
	on, _ := plan.Job("on")
	assert.True(t, on.Autostart)
	var warnings []string
	for _, w := range plan.Warnings {
		warnings = append(warnings, w.Error())
	}
	assert.Equal(t, []string{
		`process-compose.yaml:23:7: processes.on.shutdown.send_keys: not supported, ignored: jobtop does not type keys to stop a job: it sends the stop signal (or runs shutdown.command) instead`,
	}, warnings)
}

// A process that depends on a disabled one starts without waiting for it,
// as process-compose does, and the file says so; with is_strict the file
// is refused, as there. Two disabled ones keep their dependency.
func TestProcessComposeDependencyOnDisabled(t *testing.T) {
	inDir(t, nil)
	src := `processes:
  off: {command: x, disabled: true}
  db: {command: x}
  web:
    command: x
    depends_on:
      off: {condition: process_started}
      db: {condition: process_started}
  tool:
    command: x
    disabled: true
    depends_on: {off: {}}
`
	plan, err := Parse("process-compose.yaml", []byte(src))
	require.NoError(t, err)
	web, _ := plan.Job("web")
	assert.Equal(t, map[string]jobs.Condition{"db": jobs.CondStarted}, web.Spec.DependsOn)
	tool, _ := plan.Job("tool")
	assert.Equal(t, map[string]jobs.Condition{"off": jobs.CondStarted}, tool.Spec.DependsOn)
	require.Len(t, plan.Warnings, 1)
	assert.Equal(t, `process-compose.yaml:7:7: processes.web.depends_on.off: off is disabled, so web starts without waiting for it, as in process-compose`, plan.Warnings[0].Error())

	assert.Equal(t, []string{
		`process-compose.yaml:8:7: processes.web.depends_on.off: off is disabled, and is_strict refuses a dependency on it, as process-compose does: enable it (is_disabled: "false"), or leave out this dependency or is_strict`,
	}, pcProblems(t, "is_strict: true\n"+src))
}

// A variable that is set nowhere expands to nothing, as in
// process-compose, which is seldom what was meant: a shell variable of
// the command ($i in a loop, as process-compose's own demo/ has it) is
// to be written $$i. jobtop says so, once per variable, and not for a
// variable with a default, one that is set (to "" too), $$ or a comment.
func TestProcessComposeWarnsAboutUnsetVariables(t *testing.T) {
	t.Setenv("PCREAL_EMPTY", "")
	inDir(t, map[string]string{"process-compose.yaml": `# a comment with $COMMENTED is left alone
processes:
  redis:
    command: |
      i=0
      while [ $i -lt 3 ]; do i=$((i+1)); echo "$i ${PCREAL_EMPTY}$${KEPT} ${D:-x} ${E-y}"; done
    environment: ["A=${NOWHERE}"]
`})
	plan, err := Load("process-compose.yaml")
	require.NoError(t, err)
	var got []string
	for _, w := range plan.Warnings {
		got = append(got, w.Error())
	}
	assert.Equal(t, []string{
		"process-compose.yaml:6:15: $i is not set (in .env or the environment), so it expands to nothing, as in process-compose; write $$i to keep it as it is (in a command, the shell then expands it when it runs)",
		"process-compose.yaml:7:22: ${NOWHERE} is not set (in .env or the environment), so it expands to nothing, as in process-compose; write $${NOWHERE} to keep it as it is (in a command, the shell then expands it when it runs)",
	}, got)
	redis, _ := plan.Job("redis")
	assert.Contains(t, redis.Spec.Command, `while [  -lt 3 ]`, "expanded as process-compose expands it")
}

// An env file's problems are reported for a process-compose file as for
// any other, whether its variables are expanded or not: nothing starts
// with a missing -e file or a .env that cannot be read.
func TestProcessComposeReportsEnvFileProblems(t *testing.T) {
	inDir(t, map[string]string{"bad.env": "A=1\nnot a line\n"})
	for _, src := range []string{
		"processes:\n  p: {command: \"echo [$$A]\"}\n",
		"disable_env_expansion: true\nprocesses:\n  p: {command: \"echo [$$A]\"}\n",
	} {
		for file, want := range map[string]string{
			"missing.env": `missing.env: env file does not exist`,
			"bad.env":     `bad.env:2: want NAME=VALUE, got "not a line"`,
		} {
			_, err := ParseWith("process-compose.yaml", []byte(src), LoadOptions{EnvFiles: []string{file}})
			var list ErrorList
			if assert.True(t, errors.As(err, &list), "%s with %s: got %v", src, file, err) {
				assert.Equal(t, want, list.Error(), "%s with %s", src, file)
			}
		}
	}
	inDir(t, map[string]string{".env": "H x\n"})
	_, err := Parse("process-compose.yaml", []byte("processes:\n  p: {command: echo}\n"))
	assert.EqualError(t, err, `.env:1: want NAME=VALUE, got "H x"`)
}

// Two processes whose jobs would have the same name (a replica's, a
// namespaced one's) are refused: one would silently replace the other.
func TestProcessComposeJobNamesClash(t *testing.T) {
	inDir(t, map[string]string{
		"a.yaml": "processes:\n  web:\n    command: echo\n    replicas: 2\n",
		"b.yaml": "processes:\n  web-1:\n    command: echo other\n",
	})
	_, err := Parse("process-compose.yaml", []byte(`processes:
  web:
    command: echo
    replicas: 2
  web-0:
    command: echo other
  x:
    command: echo
    namespace: app
  app/x:
    command: echo y
  y:
    command: echo
    namespace: app
`))
	assert.EqualError(t, err, `process-compose.yaml:5:3: processes.web-0: its job name "web-0" is taken by process web (line 2, 2 replicas): rename one of them
process-compose.yaml:10:3: processes.app/x: its job name "app/x" is taken by process x (line 7, namespace app): rename one of them`)
	_, err = LoadWith("a.yaml", LoadOptions{More: []string{"b.yaml"}})
	assert.EqualError(t, err, `b.yaml:2:3: processes.web-1: its job name "web-1" is taken by process web (a.yaml:2, 2 replicas): rename one of them`)
}
