package jobfile

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"jobtop/jobs"
)

// inDir runs the test in a fresh directory holding files (name: content;
// a name ending in "/" is a directory) and returns its absolute path.
func inDir(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	t.Chdir(dir)
	for name, content := range files {
		path := filepath.Join(dir, name)
		if strings.HasSuffix(name, "/") {
			require.NoError(t, os.MkdirAll(path, 0o755))
			continue
		}
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, os.WriteFile(path, []byte(content), 0o644))
	}
	return dir
}

// problems parses src as jobtop.yaml and returns its error lines.
func problems(t *testing.T, src string) []string {
	t.Helper()
	_, err := Parse("jobtop.yaml", []byte(src))
	require.Error(t, err)
	var list ErrorList
	require.True(t, errors.As(err, &list), "want an ErrorList, got %T: %v", err, err)
	return strings.Split(list.Error(), "\n")
}

func TestParseFullJob(t *testing.T) {
	dir := inDir(t, map[string]string{
		"api/":       "",
		"shared.env": "# shared\nA=from-file\nB=\"two words\"\n",
		"api.env":    "export B='from api.env'\nC=3 # comment\n",
	})
	src := `max_parallel: 3
env:
  A: top
  G: global
log:
  dir: logs
  max_size: 64MiB
  memory_lines: 5000
jobs:
  api:
    description: the API server
    argv: [./server, --port, 8080, true]
    cwd: api
    env_file: [shared.env, api.env]
    env:
      C: from-env
      EMPTY:
    timeout: 1m30s
    autostart: false
    stop: {signal: INT, grace: 250ms}
    restart:
      policy: always
      backoff: 100ms
      max_backoff: 2s
      max: 0
    depends_on:
      db: ready
      setup: succeeded
    ready:
      log: "listening on :\\d+"
  db:
    cmd: |
      echo starting
      exec sleep 100
    restart: on-failure
    ready: {after: 2s}
  setup:
    cmd: "true"
`
	plan, err := Parse("jobtop.yaml", []byte(src))
	require.NoError(t, err)
	require.Equal(t, "jobtop.yaml", plan.Path)
	require.Equal(t, FormatYAML, plan.Format)
	require.Equal(t, dir, plan.Dir)
	require.Equal(t, 3, plan.MaxParallel)
	require.Equal(t, map[string]string{"A": "top", "G": "global"}, plan.Env)
	require.Equal(t, LogOptions{Dir: filepath.Join(dir, "logs"), MaxSize: 64 << 20, MemoryLines: 5000}, plan.Log)
	require.Equal(t, []Job{
		{
			Name: "api", Autostart: false, Line: 10, Col: 3,
			Spec: jobs.Spec{
				Name:        "api",
				Description: "the API server",
				Argv:        []string{"./server", "--port", "8080", "true"},
				Dir:         filepath.Join(dir, "api"),
				Env: map[string]string{
					"A": "from-file", "G": "global", "B": "from api.env", "C": "from-env", "EMPTY": "",
				},
				Timeout:    90 * time.Second,
				StopSignal: jobs.Signal(syscall.SIGINT),
				Grace:      250 * time.Millisecond,
				Restart:    jobs.RestartPolicy{Mode: jobs.RestartAlways, Backoff: 100 * time.Millisecond, MaxBackoff: 2 * time.Second, Max: jobs.NoRestartLimit},
				DependsOn:  map[string]jobs.Condition{"db": jobs.CondReady, "setup": jobs.CondSucceeded},
				Ready:      jobs.ReadyCheck{LogPattern: `listening on :\d+`},
			},
		},
		{
			Name: "db", Autostart: true, Line: 31, Col: 3,
			Spec: jobs.Spec{
				Name:    "db",
				Command: "echo starting\nexec sleep 100\n",
				Dir:     dir,
				Env:     map[string]string{"A": "top", "G": "global"},
				Restart: jobs.RestartPolicy{Mode: jobs.RestartOnFailure}, // the engine's defaults apply
				Ready:   jobs.ReadyCheck{After: 2 * time.Second},
			},
		},
		{
			Name: "setup", Autostart: true, Line: 37, Col: 3,
			Spec: jobs.Spec{Name: "setup", Command: "true", Dir: dir, Env: map[string]string{"A": "top", "G": "global"}},
		},
	}, plan.Jobs)
	require.Equal(t, []string{"db", "setup", "api"}, plan.Order)
	require.Equal(t, []string{"db", "setup", "api"}, names(plan.StartOrder()))
	for _, j := range plan.Jobs {
		require.NoError(t, j.Spec.Validate(), j.Name)
	}
}

func names(js []Job) []string {
	out := make([]string, len(js))
	for i, j := range js {
		out[i] = j.Name
	}
	return out
}

func TestParseAnchorsAndMerges(t *testing.T) {
	inDir(t, nil)
	src := `x-defaults: &defaults
  timeout: 10s
  restart: {policy: on-failure, max: 2}
  env: {MODE: test}
jobs:
  a:
    <<: *defaults
    cmd: make a
  b:
    <<: *defaults
    cmd: make b
    timeout: 20s
`
	plan, err := Parse("jobtop.yaml", []byte(src))
	require.NoError(t, err)
	a, _ := plan.Job("a")
	b, _ := plan.Job("b")
	require.Equal(t, 10*time.Second, a.Spec.Timeout)
	require.Equal(t, 20*time.Second, b.Spec.Timeout, "a key written in the job wins over the merged one")
	require.Equal(t, jobs.RestartPolicy{Mode: jobs.RestartOnFailure, Max: 2}, b.Spec.Restart)
	require.Equal(t, map[string]string{"MODE": "test"}, a.Spec.Env)
}

func TestStartOrderIsStableByFileOrder(t *testing.T) {
	inDir(t, nil)
	src := `jobs:
  web: {cmd: w, depends_on: {api: ready, assets: succeeded}}
  lint: {cmd: l}
  api: {cmd: a, depends_on: {db: ready}}
  assets: {cmd: s}
  db: {cmd: d}
`
	plan, err := Parse("jobtop.yaml", []byte(src))
	require.NoError(t, err)
	require.Equal(t, []string{"lint", "assets", "db", "api", "web"}, plan.Order)
	require.Equal(t, []string{"web", "lint", "api", "assets", "db"}, names(plan.Jobs), "Jobs keep file order")
}

func TestParseErrors(t *testing.T) {
	inDir(t, map[string]string{
		"bad.env":  "GOOD=1\nno equals sign\n1X=2\nQ=\"unclosed\n",
		"notadir":  "a file",
		"okdir/":   "",
		"good.env": "A=1\n",
	})
	tests := []struct {
		name string
		src  string
		want []string
	}{
		{"empty file", "", []string{"jobtop.yaml: the file is empty: give a jobs: mapping"}},
		{"top level is a list", "- a\n", []string{
			"jobtop.yaml:1:1: the top level must be a mapping with a jobs: key, got a list"}},
		{"no jobs key", "max_parallel: 2\n", []string{
			"jobtop.yaml:1:1: no jobs: key: name the jobs to run under jobs:"}},
		{"jobs empty", "jobs:\n", []string{"jobtop.yaml:1:1: jobs: no jobs given"}},
		{"jobs is a list", "jobs: [a, b]\n", []string{"jobtop.yaml:1:7: jobs: want a mapping, got a list"}},
		{"depends_on as compose lists it", "jobs:\n  a: {cmd: x, depends_on: [b, c, b, \"x: y\", \"\\e]52;c;eA==\\a\"]}\n  b: {cmd: y}\n  c: {cmd: y}\n  d: {cmd: z, depends_on: []}\n", []string{
			"jobtop.yaml:2:27: jobs.a.depends_on: want a mapping of job: condition, got a list: write {b: started, c: started} (conditions: started, ready, healthy, succeeded, completed)",
			"jobtop.yaml:5:27: jobs.d.depends_on: want a mapping of job: condition, got a list: write {JOB: started} (conditions: started, ready, healthy, succeeded, completed)"}},
		{"depends_on as one name", "jobs:\n  a: {cmd: x, depends_on: b}\n  b: {cmd: y}\n  c: {cmd: z, depends_on: \"no name\"}\n", []string{
			"jobtop.yaml:2:27: jobs.a.depends_on: want a mapping of job: condition, got a string: write {b: started} (conditions: started, ready, healthy, succeeded, completed)",
			"jobtop.yaml:4:27: jobs.c.depends_on: want a mapping of job: condition, got a string: write {JOB: started} (conditions: started, ready, healthy, succeeded, completed)"}},
		{"syntax error", "jobs:\n  a:\n    cmd: printf a: b\n", []string{
			`jobtop.yaml:3:10: mapping value is not allowed in this context (a value holding ": " must be quoted)`}},
		{"duplicate job", "jobs:\n  a: {cmd: x}\n  a: {cmd: y}\n", []string{
			`jobtop.yaml:3:3: mapping key "a" already defined at [2:3]`}},
		{"two documents", "jobs: {a: {cmd: x}}\n---\njobs: {}\n", []string{
			"jobtop.yaml:2:1: only one YAML document is allowed; remove the ---"}},
		{"unknown keys everywhere", `verison: 1
x-ignored: anything
log: {dir: x, colour: red}
jobs:
  a:
    comand: make
    cmd: make
    working_dir: /tmp
    stop: {signl: TERM}
`, []string{
			`jobtop.yaml:1:1: top level: unknown key "verison" (known keys: env, env_file, jobs, log, max_parallel, tty)`,
			`jobtop.yaml:3:15: log: unknown key "colour" (known keys: dir, keep_sessions, max_size, max_total, memory_lines)`,
			`jobtop.yaml:6:5: jobs.a: unknown key "comand" (did you mean "cmd"?)`,
			`jobtop.yaml:8:5: jobs.a: unknown key "working_dir" (did you mean "cwd"?)`,
			`jobtop.yaml:9:12: jobs.a.stop: unknown key "signl" (did you mean "signal"?)`,
		}},
		{"another tool's name for cmd", "jobs:\n  a:\n    command: make\n  b:\n    comand: make\n  c:\n    cwd: /tmp\n", []string{
			`jobtop.yaml:3:5: jobs.a: unknown key "command" (did you mean "cmd"?)`,
			`jobtop.yaml:5:5: jobs.b: unknown key "comand" (did you mean "cmd"?)`,
			`jobtop.yaml:6:3: jobs.c: nothing to run: give cmd (a shell command) or argv (a list)`,
		}},
		{"wrong types", `max_parallel: many
env: [A=1]
jobs:
  a:
    cmd: [make]
    timeout: {s: 1}
    autostart: "sure"
    description: {x: 1}
    depends_on: [b]
    stop: TERM
    ready: true
  b:
    argv: make all
    env: {A: [1]}
`, []string{
			"jobtop.yaml:1:15: max_parallel: want a whole number, got a string",
			"jobtop.yaml:2:6: env: want a mapping, got a list",
			"jobtop.yaml:5:10: jobs.a.cmd: want a string, got a list",
			"jobtop.yaml:6:14: jobs.a.timeout: want a duration like 500ms, 5s or 1m30s, got a mapping",
			"jobtop.yaml:7:16: jobs.a.autostart: want true or false, got a string",
			"jobtop.yaml:8:18: jobs.a.description: want a string, got a mapping",
			"jobtop.yaml:9:17: jobs.a.depends_on: want a mapping of job: condition, got a list: write {b: started} (conditions: started, ready, healthy, succeeded, completed)",
			"jobtop.yaml:10:11: jobs.a.stop: want a mapping, got a string",
			"jobtop.yaml:11:12: jobs.a.ready: want a mapping, got true/false",
			"jobtop.yaml:13:11: jobs.b.argv: want a list like [program, arg], got a string",
			"jobtop.yaml:14:14: jobs.b.env.A: want a string, got a list",
		}},
		{"durations", `jobs:
  a:
    cmd: x
    timeout: 5
    stop: {grace: -1s}
    ready: {after: soon}
  b:
    cmd: x
    timeout: 99999999h
    restart: {policy: always, backoff: 0s, max_backoff: 10ms}
  c:
    cmd: x
    restart: {policy: always, backoff: 2s, max_backoff: 1s}
  d:
    cmd: x
    restart: {policy: always, backoff: 99999999h}
`, []string{
			"jobtop.yaml:4:14: jobs.a.timeout: 5 has no unit: write e.g. 5s or 5ms",
			"jobtop.yaml:5:19: jobs.a.stop.grace: -1s is negative",
			`jobtop.yaml:6:20: jobs.a.ready.after: "soon" is not a duration: write e.g. 500ms, 5s or 1m30s`,
			`jobtop.yaml:9:14: jobs.b.timeout: "99999999h" is too large: at most 2562047h (about 292 years)`,
			"jobtop.yaml:10:40: jobs.b.restart.backoff: must be more than 0 (default 1s)",
			"jobtop.yaml:13:57: jobs.c.restart.max_backoff: 1s is less than backoff 2s",
			`jobtop.yaml:16:40: jobs.d.restart.backoff: "99999999h" is too large: at most 2562047h (about 292 years)`,
		}},
		{"numbers", "max_parallel: -1\nlog: {memory_lines: 99999999999, max_size: lots}\njobs:\n  a: {cmd: x, restart: {policy: always, max: -2}}\n", []string{
			"jobtop.yaml:1:15: max_parallel: -1 is negative",
			"jobtop.yaml:2:21: log.memory_lines: 99999999999 is too large",
			`jobtop.yaml:2:44: log.max_size: "lots" is not a size: write e.g. 500KiB, 64MiB or 1GiB`,
			"jobtop.yaml:4:46: jobs.a.restart.max: -2 is negative",
		}},
		{"log file too small", "log: {max_size: 1KiB}\njobs: {a: {cmd: x}}\n", []string{
			"jobtop.yaml:1:17: log.max_size: at least 4KiB (room for the log's own marker lines), got 1KiB",
		}},
		{"session retention", "log: {keep_sessions: -1, max_total: -1GiB}\njobs: {a: {cmd: x}}\n", []string{
			"jobtop.yaml:1:22: log.keep_sessions: -1 is negative",
			`jobtop.yaml:1:37: log.max_total: "-1GiB" is not a size: write e.g. 500KiB, 64MiB or 1GiB`,
		}},
		{"command", `jobs:
  both:
    cmd: make
    argv: [make]
  neither:
    description: nothing here
  blank: {cmd: "  "}
  noargs: {argv: []}
  noprog: {argv: ["", x]}
  nul: {cmd: "a\0b"}
  nothing:
`, []string{
			"jobtop.yaml:4:5: jobs.both: give cmd or argv, not both",
			"jobtop.yaml:5:3: jobs.neither: nothing to run: give cmd (a shell command) or argv (a list)",
			"jobtop.yaml:7:16: jobs.blank.cmd: the command is empty",
			"jobtop.yaml:8:18: jobs.noargs.argv: the list is empty: name a program",
			"jobtop.yaml:9:19: jobs.noprog.argv[0]: the program name is empty",
			"jobtop.yaml:11:3: jobs.nothing: nothing to run: give cmd (a shell command) or argv (a list)",
		}},
		{"names", "jobs:\n  \"my job\": {cmd: x}\n  \"42\": {cmd: x}\n  ok.name_1-x: {cmd: x}\n", []string{
			`jobtop.yaml:2:3: jobs: job name "my job" may only use ASCII letters, digits, ".", "_", "-" and "/"`,
			`jobtop.yaml:3:3: jobs: job name "42" is a number, which reads as a job ID: add a letter`,
		}},
		{"restart policy", `jobs:
  a: {cmd: x, restart: sometimes}
  b: {cmd: x, restart: {backoff: 1s}}
  c: {cmd: x, restart: {policy: never}}
`, []string{
			`jobtop.yaml:2:24: jobs.a.restart: "sometimes" is not a restart policy: use no, on-failure or always`,
			"jobtop.yaml:3:15: jobs.b.restart: give a policy: no, on-failure or always",
			`jobtop.yaml:4:33: jobs.c.restart.policy: "never" is not a restart policy: use no, on-failure or always`,
		}},
		{"stop signal", "jobs:\n  a: {cmd: x, stop: {signal: SIGFOO}}\n  b: {cmd: x, stop: {signal: 99}}\n" +
			"  c: {cmd: x, stop: {signal: SIGSTOP}}\n  d: {cmd: x, stop: {signal: CONT}}\n  e: {cmd: x, stop: {signal: URG}}\n", []string{
			`jobtop.yaml:2:30: jobs.a.stop.signal: unknown signal "SIGFOO" (try SIGTERM, SIGINT, SIGHUP, SIGKILL or a number)`,
			"jobtop.yaml:3:30: jobs.b.stop.signal: signal number 99 is out of range 1-64",
			// Each one that pauses or continues, where it is written (rev60:
			// only the first, at its job's name).
			"jobtop.yaml:4:30: jobs.c.stop.signal: SIGSTOP does not end a process (it pauses it): a stop with it would wait out the grace and SIGKILL the job; jobtop signal STOP ID sends it alone",
			"jobtop.yaml:5:30: jobs.d.stop.signal: SIGCONT does not end a process (it continues it): a stop with it would wait out the grace and SIGKILL the job; jobtop signal CONT ID sends it alone",
			"jobtop.yaml:6:30: jobs.e.stop.signal: SIGURG does not end a process (it is ignored unless caught): a stop with it would wait out the grace and SIGKILL the job; jobtop signal URG ID sends it alone",
		}},
		{"ready", `jobs:
  a: {cmd: x, ready: {log: "(unclosed"}}
  b: {cmd: x, ready: {log: x, after: 1s}}
  c: {cmd: x, ready: {}}
  d: {cmd: x, ready: {log: ""}}
`, []string{
			"jobtop.yaml:2:28: jobs.a.ready.log: bad regular expression: error parsing regexp: missing closing ): `(unclosed`",
			"jobtop.yaml:3:31: jobs.b.ready: give one of log, after, http, tcp or exec, not both log and after",
			"jobtop.yaml:4:15: jobs.c.ready: give log: REGEX (ready when an output line matches), after: DURATION, or a probe: http: URL, tcp: HOST:PORT or exec: COMMAND",
			"jobtop.yaml:5:28: jobs.d.ready.log: the pattern is empty",
		}},
		{"dependencies", `jobs:
  web:
    cmd: x
    depends_on:
      dbb: ready
      queue: started
      api: finished
  api:
    cmd: x
  db:
    cmd: x
`, []string{
			`jobtop.yaml:5:7: jobs.web.depends_on.dbb: no job is named "dbb" (did you mean "db"?)`,
			`jobtop.yaml:6:7: jobs.web.depends_on.queue: no job is named "queue"`,
			`jobtop.yaml:7:12: jobs.web.depends_on.api: "finished" is not a condition: use started, ready, healthy, succeeded, completed`,
		}},
		{"cycles", `jobs:
  a: {cmd: x, depends_on: {b: started}}
  b: {cmd: x, depends_on: {c: ready}}
  c: {cmd: x, depends_on: {a: succeeded}}
  d: {cmd: x, depends_on: {d: started}}
  e: {cmd: x, depends_on: {a: started}}
`, []string{
			"jobtop.yaml:2:28: jobs.a.depends_on.b: dependency cycle: a -> b -> c -> a",
			"jobtop.yaml:5:28: jobs.d.depends_on.d: dependency cycle: d -> d",
		}},
		{"paths", `jobs:
  a: {cmd: x, cwd: nowhere}
  b: {cmd: x, cwd: notadir}
  c: {cmd: x, cwd: okdir, env_file: missing.env}
  d: {cmd: x, env_file: okdir}
  e: {cmd: x, env_file: bad.env}
  f: {cmd: x, env_file: [good.env, bad.env]}
`, []string{
			`jobtop.yaml:2:20: jobs.a.cwd: directory "nowhere" does not exist`,
			`jobtop.yaml:3:20: jobs.b.cwd: "notadir" is not a directory`,
			`jobtop.yaml:4:37: jobs.c.env_file: "missing.env" does not exist`,
			`jobtop.yaml:5:25: jobs.d.env_file: "okdir" is not a regular file`,
			`bad.env:2: want NAME=VALUE, got "no equals sign"`,
			`bad.env:3: "1X" is not a variable name (ASCII letters, digits and _, not starting with a digit)`,
			`bad.env:4: Q: missing closing ": the quoted value runs to the end of the file`,
		}},
		{"env names", "env: {\"A B\": 1}\njobs:\n  a: {cmd: x, env: {\"X=Y\": 1}}\n", []string{
			`jobtop.yaml:1:7: env: "A B" is not a variable name (ASCII letters, digits and _, not starting with a digit)`,
			`jobtop.yaml:3:21: jobs.a.env: "X=Y" is not a variable name (ASCII letters, digits and _, not starting with a digit)`,
		}},
		{"aliases", "x-a: &a {cmd: x}\njobs:\n  a: *nope\n  b: {<<: *a, cmd: *missing}\n  c:\n    <<: [*a, 5]\n  d: &d\n    <<: *d\n", []string{
			"jobtop.yaml:3:6: alias *nope refers to no anchor &nope defined before it",
			"jobtop.yaml:4:20: alias *missing refers to no anchor &missing defined before it",
			"jobtop.yaml:6:5: jobs.c: << merges mappings, got a number",
			"jobtop.yaml:7:3: jobs.d: nothing to run: give cmd (a shell command) or argv (a list)",
			"jobtop.yaml:8:5: jobs.d: merge keys nest too deeply",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.Equal(t, tt.want, problems(t, tt.src))
		})
	}
}

func TestParseScalarForms(t *testing.T) {
	dir := inDir(t, map[string]string{"abs/": ""})
	tests := []struct {
		name, src string
		check     func(t *testing.T, p *Plan)
	}{
		{"session retention", "log: {keep_sessions: 7, max_total: 500MiB}\njobs: {a: {cmd: x}}", func(t *testing.T, p *Plan) {
			require.Equal(t, LogOptions{KeepSessions: 7, MaxTotal: 500 << 20}, p.Log)
			require.Equal(t, jobs.Retention{Sessions: 7, MaxTotal: 500 << 20}, p.ManagerOptions().Sessions)
		}},
		{"no session limits", "log: {keep_sessions: 0, max_total: 0}\njobs: {a: {cmd: x}}", func(t *testing.T, p *Plan) {
			require.Equal(t, jobs.Retention{Sessions: -1, MaxTotal: -1}, p.ManagerOptions().Sessions, "0 means no limit")
		}},
		{"size in bytes", "log: {max_size: 1048576}\njobs: {a: {cmd: x}}", func(t *testing.T, p *Plan) {
			require.Equal(t, int64(1<<20), p.Log.MaxSize)
		}},
		{"size in decimal units", "log: {max_size: 2 GB}\njobs: {a: {cmd: x}}", func(t *testing.T, p *Plan) {
			require.Equal(t, int64(2e9), p.Log.MaxSize)
		}},
		{"zero duration without a unit", "jobs: {a: {cmd: x, timeout: 0}}", func(t *testing.T, p *Plan) {
			require.Zero(t, p.Jobs[0].Spec.Timeout)
		}},
		{"signal by number", "jobs: {a: {cmd: x, stop: {signal: 1}}}", func(t *testing.T, p *Plan) {
			require.Equal(t, jobs.Signal(syscall.SIGHUP), p.Jobs[0].Spec.StopSignal)
		}},
		{"restart no", "jobs: {a: {cmd: x, restart: no}}", func(t *testing.T, p *Plan) {
			require.Equal(t, jobs.RestartPolicy{Mode: jobs.RestartNever}, p.Jobs[0].Spec.Restart)
		}},
		{"a tag is looked through", "jobs: {a: {cmd: !!str 5}}", func(t *testing.T, p *Plan) {
			require.Equal(t, "5", p.Jobs[0].Spec.Command)
		}},
		{"an absolute cwd is kept", "jobs: {a: {cmd: x, cwd: " + filepath.Join(dir, "abs") + "}}", func(t *testing.T, p *Plan) {
			require.Equal(t, filepath.Join(dir, "abs"), p.Jobs[0].Spec.Dir)
		}},
		{"a single-entry job mapping", "jobs:\n  a:\n    cmd: x\n", func(t *testing.T, p *Plan) {
			require.Equal(t, "x", p.Jobs[0].Spec.Command)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := Parse("jobtop.yaml", []byte(tt.src))
			require.NoError(t, err)
			tt.check(t, p)
		})
	}
}

func TestParseNotify(t *testing.T) {
	inDir(t, nil)
	plan, err := Parse("jobtop.yaml", []byte("jobs:\n  agent: {cmd: run-agent, notify: {quiet: 45s}}\n  build: {cmd: make}\n"))
	require.NoError(t, err)
	require.Equal(t, 45*time.Second, plan.Jobs[0].Spec.Notify.Quiet)
	require.Zero(t, plan.Jobs[1].Spec.Notify.Quiet)

	require.Contains(t, problems(t, "jobs:\n  a: {cmd: x, notify: {quiet: 0s}}\n")[0], "jobs.a.notify.quiet: want a time above zero")
	require.Contains(t, problems(t, "jobs:\n  a: {cmd: x, notify: {loud: 1s}}\n")[0], "loud")
}
