package jobfile

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"jobtop/jobs"
	"jobtop/probe"
)

func TestParseProbes(t *testing.T) {
	inDir(t, nil)
	plan, err := Parse("jobtop.yaml", []byte(`jobs:
  web:
    cmd: ./server
    ready: {http: "http://127.0.0.1:8080/healthz", status: 204, interval: 250ms, timeout: 2s, initial_delay: 1s, failures: 5}
    health:
      http: http://127.0.0.1:8080/live
  db:
    cmd: ./db
    ready: {tcp: "127.0.0.1:5432"}
    health: {exec: pg_isready -q, interval: 10s}
  worker:
    cmd: ./worker
    depends_on: {db: healthy, web: ready, migrate: completed}
    stop: {command: ./worker --drain, grace: 30s}
  migrate: {cmd: ./migrate}
`))
	require.NoError(t, err)
	web, _ := plan.Job("web")
	assert.Equal(t, jobs.ReadyCheck{Probe: jobs.ProbeCheck{
		Probe:    &probe.HTTP{URL: "http://127.0.0.1:8080/healthz", Status: 204},
		Interval: 250 * time.Millisecond, Timeout: 2 * time.Second, InitialDelay: time.Second, Failures: 5,
	}}, web.Spec.Ready)
	assert.Equal(t, jobs.ProbeCheck{Probe: &probe.HTTP{URL: "http://127.0.0.1:8080/live"}}, web.Spec.Health,
		"zero timing: the engine's defaults (1s, 1s, 0, 3)")
	db, _ := plan.Job("db")
	assert.Equal(t, &probe.TCP{Addr: "127.0.0.1:5432"}, db.Spec.Ready.Probe.Probe)
	assert.Equal(t, jobs.ProbeCheck{Probe: &probe.Exec{Command: "pg_isready -q"}, Interval: 10 * time.Second}, db.Spec.Health)
	worker, _ := plan.Job("worker")
	assert.Equal(t, map[string]jobs.Condition{"db": jobs.CondHealthy, "web": jobs.CondReady, "migrate": jobs.CondCompleted}, worker.Spec.DependsOn)
	assert.Equal(t, "./worker --drain", worker.Spec.StopCommand)
	assert.False(t, worker.Spec.StopCommandFailKills, "a jobtop.yaml's stop command that fails leaves the grace")
	assert.Equal(t, []string{"web", "db", "migrate", "worker"}, plan.Order)
}

func TestParseProbeErrors(t *testing.T) {
	inDir(t, nil)
	assert.Equal(t, []string{
		`jobtop.yaml:2:29: jobs.a.ready.http: "127.0.0.1:8080": the URL must start with http:// or https://`,
		`jobtop.yaml:3:29: jobs.b.ready.http: "ftp://x/": the URL must start with http:// or https://`,
		`jobtop.yaml:4:28: jobs.c.ready.tcp: "5432" is not host:port (e.g. 127.0.0.1:5432)`,
		`jobtop.yaml:5:29: jobs.d.ready.exec: the command is empty`,
		`jobtop.yaml:6:35: jobs.e.ready: give one of log, after, http, tcp or exec, not both tcp and exec`,
		`jobtop.yaml:7:32: jobs.f.ready: interval applies to a probe (http, tcp or exec), not to log`,
		`jobtop.yaml:8:23: jobs.g.ready: status applies to an http probe only`,
		`jobtop.yaml:9:50: jobs.h.ready.status: 700 is not an HTTP status (100-599)`,
		`jobtop.yaml:10:52: jobs.i.ready.interval: must be more than 0`,
		`jobtop.yaml:11:52: jobs.j.ready.failures: must be 1 or more`,
		`jobtop.yaml:12:51: jobs.k.ready.timeout: 1 has no unit: write e.g. 1s or 1ms`,
		`jobtop.yaml:13:24: jobs.l.health: unknown key "log" (known keys: exec, failures, http, initial_delay, interval, status, tcp, timeout)`,
		`jobtop.yaml:14:15: jobs.m.health: give a probe: http: URL, tcp: HOST:PORT or exec: COMMAND`,
		`jobtop.yaml:15:24: jobs.n.health: interval applies to a probe: give http, tcp or exec`,
		`jobtop.yaml:16:31: jobs.o.stop.command: the command is empty`,
	}, problems(t, `jobs:
  a: {cmd: x, ready: {http: "127.0.0.1:8080"}}
  b: {cmd: x, ready: {http: "ftp://x/"}}
  c: {cmd: x, ready: {tcp: "5432"}}
  d: {cmd: x, ready: {exec: ""}}
  e: {cmd: x, ready: {tcp: "h:1", exec: y}}
  f: {cmd: x, ready: {log: up, interval: 1s}}
  g: {cmd: x, ready: {status: 200, tcp: "h:1"}}
  h: {cmd: x, ready: {http: "http://h/", status: 700}}
  i: {cmd: x, ready: {http: "http://h/", interval: 0s}}
  j: {cmd: x, ready: {http: "http://h/", failures: 0}}
  k: {cmd: x, ready: {http: "http://h/", timeout: 1}}
  l: {cmd: x, health: {log: up}}
  m: {cmd: x, health: {}}
  n: {cmd: x, health: {interval: 1s}}
  o: {cmd: x, stop: {command: ""}}
`))
}

func TestYAMLEnvFiles(t *testing.T) {
	inDir(t, map[string]string{
		".env":      "A=dotenv\nB=dotenv\nC=dotenv\nD=dotenv\n",
		"other.env": "A=other\n",
		"web.env":   "C=web.env\n",
	})
	plan, err := Parse("jobtop.yaml", []byte("env: {B: top}\njobs:\n  web: {cmd: x, env_file: web.env, env: {D: job}}\n"))
	require.NoError(t, err)
	assert.Equal(t, map[string]string{"A": "dotenv", "B": "top", "C": "web.env", "D": "job"}, plan.Jobs[0].Spec.Env,
		".env, then the top-level env, then the job's env_file, then its env")
	assert.Equal(t, []string{".env"}, plan.EnvFiles)

	plan, err = Parse("jobtop.yaml", []byte("env_file: other.env\njobs:\n  web: {cmd: x}\n"))
	require.NoError(t, err)
	assert.Equal(t, map[string]string{"A": "other"}, plan.Jobs[0].Spec.Env, "a top-level env_file replaces .env")
	assert.Equal(t, []string{"other.env"}, plan.EnvFiles)

	plan, err = ParseWith("jobtop.yaml", []byte("jobs:\n  web: {cmd: x}\n"), LoadOptions{NoEnvFile: true})
	require.NoError(t, err)
	assert.Nil(t, plan.Jobs[0].Spec.Env)

	plan, err = ParseWith("jobtop.yaml", []byte("jobs:\n  web: {cmd: x}\n"), LoadOptions{EnvFiles: []string{"web.env"}})
	require.NoError(t, err)
	assert.Equal(t, map[string]string{"C": "web.env"}, plan.Jobs[0].Spec.Env)
}
