package jobfile

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"jobtop/jobs"
)

// mprocsProblems parses src as mprocs.yaml and returns its error lines.
func mprocsProblems(t *testing.T, src string) []string {
	t.Helper()
	_, err := Parse("mprocs.yaml", []byte(src))
	require.Error(t, err)
	var list ErrorList
	require.True(t, errors.As(err, &list), "want an ErrorList, got %T: %v", err, err)
	return strings.Split(list.Error(), "\n")
}

// warningLines are a plan's warnings as check prints them.
func warningLines(plan *Plan) []string {
	var out []string
	for _, w := range plan.Warnings {
		out = append(out, w.Error())
	}
	return out
}

// The example of mprocs' README: every form of a proc, each job on a
// terminal, in the directory mprocs runs in, with mprocs' stop grace.
func TestMprocsReadmeExample(t *testing.T) {
	dir := inDir(t, map[string]string{".env": "FROM_DOTENV=1\n"})
	plan, err := Parse("mprocs.yaml", []byte(`procs:
  nvim:
    cmd: ["nvim"]
  server:
    shell: "nodemon server.js"
  webpack: "webpack serve"
  tests:
    shell: "jest -w"
    env:
      NODE_ENV: test
  watch: [tsc, --watch]
`))
	require.NoError(t, err)
	assert.Equal(t, FormatMprocs, plan.Format)
	assert.Empty(t, plan.Warnings)
	assert.Equal(t, []string{"nvim", "server", "webpack", "tests", "watch"}, plan.Order)
	want := map[string]jobs.Spec{
		"nvim":    {Argv: []string{"nvim"}},
		"server":  {Command: "nodemon server.js"},
		"webpack": {Command: "webpack serve"},
		"tests":   {Command: "jest -w", Env: map[string]string{"NODE_ENV": "test"}},
		"watch":   {Argv: []string{"tsc", "--watch"}},
	}
	for _, j := range plan.Jobs {
		w := want[j.Name]
		w.Name, w.Dir, w.TTY, w.Grace = j.Name, dir, true, 10*time.Second
		assert.Equal(t, w, j.Spec, j.Name)
		assert.True(t, j.Autostart, j.Name)
	}
	assert.Empty(t, plan.EnvFiles, "mprocs reads no .env")
}

// A file named mprocs.json is JSON, as mprocs reads it; a file of any
// name with procs: is an mprocs config (mprocs --config dev.yaml).
func TestMprocsJSONAndOtherNames(t *testing.T) {
	inDir(t, nil)
	plan, err := Parse("mprocs.json", []byte(`{"$schema": "https://example.com/mprocs.json", "procs": {"a": {"shell": "echo a"}, "b": ["echo", "b"]}}`))
	require.NoError(t, err)
	assert.Equal(t, FormatMprocs, plan.Format)
	assert.Equal(t, []string{"a", "b"}, plan.Order)
	assert.Empty(t, plan.Warnings, "$schema is for editors")

	plan, err = Parse("dev.yaml", []byte("procs:\n  a: echo a\n"))
	require.NoError(t, err)
	assert.Equal(t, FormatMprocs, plan.Format)
}

// cwd and the default working directory are where mprocs would run: the
// file's directory when the file was found there, else the current one;
// <CONFIG_DIR> is the file's directory either way.
func TestMprocsWorkingDirectories(t *testing.T) {
	dir := inDir(t, map[string]string{"cfg/sub/": "", "sub/": ""})
	src := []byte("procs:\n  a: {shell: x}\n  b: {shell: x, cwd: sub}\n  c: {shell: x, cwd: <CONFIG_DIR>/sub}\n  d: {shell: x, cwd: /tmp}\n")
	dirs := func(plan *Plan) []string {
		var out []string
		for _, j := range plan.Jobs {
			out = append(out, j.Spec.Dir)
		}
		return out
	}
	plan, err := ParseWith("cfg/mprocs.yaml", src, LoadOptions{})
	require.NoError(t, err)
	assert.Equal(t, []string{dir, filepath.Join(dir, "sub"), filepath.Join(dir, "cfg/sub"), "/tmp"}, dirs(plan), "named with -f: as mprocs --config")
	plan, err = ParseWith("cfg/mprocs.yaml", src, LoadOptions{Found: true})
	require.NoError(t, err)
	cfg := filepath.Join(dir, "cfg")
	assert.Equal(t, []string{cfg, filepath.Join(cfg, "sub"), filepath.Join(cfg, "sub"), "/tmp"}, dirs(plan), "found in cfg: as mprocs run there")
	assert.Empty(t, plan.Warnings)

	plan, err = Parse("mprocs.yaml", []byte("procs:\n  a: {shell: x, cwd: nowhere}\n"))
	require.NoError(t, err)
	assert.Equal(t, []string{`mprocs.yaml:2:22: procs.a.cwd: directory "nowhere" does not exist: the job will not start`}, warningLines(plan))
}

// env: NAME: null removes NAME from what the job inherits; add_path
// appends to PATH, the proc's own PATH if it sets one.
func TestMprocsEnvNullAndAddPath(t *testing.T) {
	inDir(t, nil)
	t.Setenv("FX25_GONE", "inherited")
	t.Setenv("PATH", "/usr/bin:/bin")
	plan, err := Parse("mprocs.yaml", []byte(`procs:
  a:
    shell: env
    env: {FX25_GONE: null, KEPT: "1", PORT: 8080}
    add_path: [node_modules/.bin, /opt/x]
  b: {shell: env, add_path: /opt/y, env: {PATH: /custom}}
  c: {shell: env}
`))
	require.NoError(t, err)
	a, _ := plan.Job("a")
	assert.Equal(t, map[string]string{"KEPT": "1", "PORT": "8080", "PATH": "/usr/bin:/bin:node_modules/.bin:/opt/x"}, a.Spec.Env)
	require.NotNil(t, a.Spec.Environ)
	assert.False(t, slices.ContainsFunc(a.Spec.Environ, func(kv string) bool { return strings.HasPrefix(kv, "FX25_GONE=") }))
	assert.Contains(t, a.Spec.Environ, "PATH=/usr/bin:/bin", "the rest is inherited")
	b, _ := plan.Job("b")
	assert.Equal(t, "/custom:/opt/y", b.Spec.Env["PATH"])
	assert.Nil(t, b.Spec.Environ, "nothing removed: jobtop's environment as it is when the job starts")
	c, _ := plan.Job("c")
	assert.Nil(t, c.Spec.Environ)
	assert.Nil(t, c.Spec.Env)
}

// env: {PATH: null} with add_path: the job's PATH is jobtop's with
// add_path's entries after it, as mprocs builds it (its ProcessSpec from
// a proc config: the base is the proc's own PATH when it sets one, else
// the inherited one; null sets none), not add_path's entries alone.
func TestMprocsPathNullAndAddPath(t *testing.T) {
	inDir(t, nil)
	t.Setenv("PATH", "/usr/bin:/bin")
	plan, err := Parse("mprocs.yaml", []byte("procs:\n  a: {shell: env, env: {PATH: null}, add_path: /x/bin}\n"))
	require.NoError(t, err)
	a, _ := plan.Job("a")
	assert.Equal(t, map[string]string{"PATH": "/usr/bin:/bin:/x/bin"}, a.Spec.Env)
	assert.False(t, slices.ContainsFunc(a.Spec.Environ, func(kv string) bool { return strings.HasPrefix(kv, "PATH=") }))
}

// A removed variable is gone from the job's real environment.
func TestMprocsEnvNullRuns(t *testing.T) {
	dir := inDir(t, nil)
	t.Setenv("FX25_GONE", "inherited")
	t.Setenv("FX25_KEPT", "inherited")
	plan, err := Parse("mprocs.yaml", []byte("procs:\n  a: {cmd: [sh, -c, 'echo \"gone=${FX25_GONE-unset} kept=$FX25_KEPT\"'], env: {FX25_GONE: null}}\n"))
	require.NoError(t, err)
	m, err := jobs.NewManager(jobs.Options{LogDir: filepath.Join(dir, "logs")})
	require.NoError(t, err)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		require.NoError(t, m.Shutdown(ctx))
	})
	require.True(t, plan.Jobs[0].Spec.TTY)
	started, err := m.Start(plan.Jobs[0].Spec)
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	info, err := m.Wait(ctx, started.ID)
	require.NoError(t, err)
	require.Equal(t, jobs.StateSucceeded, info.State)
	out, err := m.Output(started.ID)
	require.NoError(t, err)
	var text []string
	for _, l := range out.ReadAfter(0, 100).Lines {
		text = append(text, strings.TrimRight(l.Text, "\r"))
	}
	assert.Contains(t, text, "gone=unset kept=inherited")
}

// $select: os picks this system's value, else $else, anywhere a value
// goes; no match is an error at the $select.
func TestMprocsSelect(t *testing.T) {
	inDir(t, nil)
	other := "windows"
	if mprocsOS() == "windows" {
		other = "linux"
	}
	plan, err := Parse("mprocs.yaml", []byte(`procs:
  a:
    shell:
      $select: os
      `+mprocsOS()+`: echo mine
      `+other+`: echo other
      $else: echo else
    env:
      TEXT: {$select: os, `+other+`: no, $else: fallback}
  b:
    $select: os
    $else: {cmd: [echo, b]}
  c: {$select: os, `+mprocsOS()+`: null, $else: echo c}
`))
	require.NoError(t, err)
	a, _ := plan.Job("a")
	assert.Equal(t, "echo mine", a.Spec.Command)
	assert.Equal(t, "fallback", a.Spec.Env["TEXT"])
	b, _ := plan.Job("b")
	assert.Equal(t, []string{"echo", "b"}, b.Spec.Argv)
	_, ok := plan.Job("c")
	assert.False(t, ok, "null for this system disables it")

	assert.Equal(t, []string{
		"mprocs.yaml:4:7: procs.a.shell: $select has no value for " + mprocsOS() + " and no $else",
		`mprocs.yaml:6:24: procs.b.shell: $select: want os (the only thing mprocs selects on), got "arch"`,
	}, mprocsProblems(t, `procs:
  a:
    shell:
      $select: os
      `+other+`: echo
  b: {shell: {$select: arch, $else: x}}
`))
}

// autostart: false lists the job, not started, as process-compose's
// disabled; autorestart restarts on failure with mprocs' backoff; deps
// wait for the dependency to run, and start it if it does not autostart.
func TestMprocsAutostartRestartDeps(t *testing.T) {
	inDir(t, nil)
	plan, err := Parse("mprocs.yaml", []byte(`procs:
  web: {shell: serve, deps: [db], autorestart: true}
  db: {shell: postgres, autostart: false, deps: [disk]}
  disk: {shell: mount, autostart: false}
  manual: {shell: x, autostart: false}
`))
	require.NoError(t, err)
	assert.Equal(t, []string{"disk", "db", "web", "manual"}, plan.Order)
	web, _ := plan.Job("web")
	assert.Equal(t, jobs.RestartPolicy{Mode: jobs.RestartOnFailure, Backoff: 100 * time.Millisecond, MaxBackoff: 30 * time.Second, Max: jobs.NoRestartLimit}, web.Spec.Restart)
	assert.Equal(t, map[string]jobs.Condition{"db": jobs.CondReady}, web.Spec.DependsOn)
	for name, started := range map[string]bool{"web": true, "db": true, "disk": true, "manual": false} {
		j, _ := plan.Job(name)
		assert.Equal(t, started, j.Autostart, name)
	}
	assert.Equal(t, []string{
		"mprocs.yaml:2:30: procs.web.deps[0]: db has autostart: false, and starts anyway since web depends on it, as in mprocs",
		"mprocs.yaml:3:50: procs.db.deps[0]: disk has autostart: false, and starts anyway since db depends on it, as in mprocs",
	}, warningLines(plan))
}

// stop: each of mprocs' forms, mapped to what jobtop does: send-keys are
// typed into the job's terminal as a terminal sends them.
func TestMprocsStop(t *testing.T) {
	inDir(t, nil)
	plan, err := Parse("mprocs.yaml", []byte(`procs:
  int: {shell: x, stop: SIGINT}
  term: {shell: x, stop: SIGTERM}
  kill: {shell: x, stop: SIGKILL}
  hard: {shell: x, stop: hard-kill}
  ctrlc: {shell: x, stop: {send-keys: ["<C-c>"]}}
  quit: {shell: x, stop: {send-keys: ["<q>", "<Enter>", "<M-x>", "<S-a>", "<Up>", "<C-Space>", "<LT>", "<F5>"]}}
  down: {shell: x, stop: {cmd: podman compose down}}
`))
	require.NoError(t, err)
	assert.Empty(t, plan.Warnings)
	for name, sig := range map[string]syscall.Signal{"int": syscall.SIGINT, "term": syscall.SIGTERM, "kill": syscall.SIGKILL, "hard": syscall.SIGKILL, "ctrlc": 0, "quit": 0, "down": 0} {
		j, _ := plan.Job(name)
		assert.Equal(t, jobs.Signal(sig), j.Spec.StopSignal, name)
	}
	ctrlc, _ := plan.Job("ctrlc")
	assert.Equal(t, "\x03", ctrlc.Spec.StopInput)
	quit, _ := plan.Job("quit")
	assert.Equal(t, "q\r\x1bxA\x1b[A\x00<\x1b[15~", quit.Spec.StopInput)
	down, _ := plan.Job("down")
	assert.Equal(t, "podman compose down", down.Spec.StopCommand)

	assert.Equal(t, []string{
		`mprocs.yaml:2:23: procs.a.stop: "SIGHUP" is not a way to stop: use SIGINT, SIGTERM, SIGKILL, hard-kill, {send-keys: [...]} or {cmd: ...}`,
		"mprocs.yaml:3:23: procs.b.stop: give send-keys or cmd",
		"mprocs.yaml:4:23: procs.c.stop: want SIGINT, SIGTERM, SIGKILL, hard-kill, {send-keys: [...]} or {cmd: ...}, got a list",
		`mprocs.yaml:5:36: procs.d.stop.send-keys[0]: "q" is not a key: write it as mprocs does, between < and >: <q>, <Enter>, <C-c>`,
		`mprocs.yaml:5:39: procs.d.stop.send-keys[1]: "<X-q>": "X-" is not a modifier: use C- (ctrl), M- (alt) or S- (shift)`,
		`mprocs.yaml:5:48: procs.d.stop.send-keys[2]: "<Nope>": "Nope" is not a key jobtop can type (a character, Enter, Tab, BS, Esc, Space, the arrows, Home, End, PageUp, PageDown, Insert, Del, F1 to F12)`,
		`mprocs.yaml:5:58: procs.d.stop.send-keys[3]: "<C-Tab>": a terminal has no ctrl form of Tab`,
		"mprocs.yaml:6:35: procs.e.stop.send-keys: no keys given",
	}, mprocsProblems(t, `procs:
  a: {shell: x, stop: SIGHUP}
  b: {shell: x, stop: {signal: 2}}
  c: {shell: x, stop: [SIGINT]}
  d: {shell: x, stop: {send-keys: [q, "<X-q>", "<Nope>", "<C-Tab>"]}}
  e: {shell: x, stop: {send-keys: []}}
`))
}

// UI settings and fields jobtop has no counterpart for are warnings;
// scrollback and proc_log's dir are mapped; unknown keys are warnings, as
// mprocs ignores them.
func TestMprocsSettingsWarnings(t *testing.T) {
	dir := inDir(t, nil)
	plan, err := Parse("mprocs.yaml", []byte(`hide_keymap_window: true
mouse_scroll_speed: 3
proc_list_width: 40
scrollback: 5000
server: 127.0.0.1:4050
on_all_finished: {c: quit}
keymap_procs:
  <C-q>: {c: quit}
proc_log: {dir: <CONFIG_DIR>/logs, file: "{name}-{pid}.log"}
procs:
  a: {shell: x, log: {dir: other}, autostrat: false}
  b: {shell: x, log: true}
typo_key: 1
`))
	require.NoError(t, err)
	assert.Equal(t, 5000, plan.Log.MemoryLines)
	assert.Equal(t, filepath.Join(dir, "logs"), plan.Log.Dir)
	assert.Equal(t, []string{
		"mprocs.yaml:1:1: hide_keymap_window: has no effect in jobtop, ignored: " + mprocsUnsupported()["hide_keymap_window"],
		"mprocs.yaml:2:1: mouse_scroll_speed: has no effect in jobtop, ignored: " + mprocsUnsupported()["mouse_scroll_speed"],
		"mprocs.yaml:3:1: proc_list_width: has no effect in jobtop, ignored: " + mprocsUnsupported()["proc_list_width"],
		"mprocs.yaml:5:1: server: has no effect in jobtop, ignored: " + mprocsUnsupported()["server"],
		"mprocs.yaml:6:1: on_all_finished: has no effect in jobtop, ignored: " + mprocsUnsupported()["on_all_finished"],
		"mprocs.yaml:7:1: keymap_procs: has no effect in jobtop, ignored: " + mprocsUnsupported()["keymap_procs"],
		"mprocs.yaml:9:36: proc_log.file: not supported, ignored: jobtop names each job's log file itself (jobtop ls --json: log_path)",
		"mprocs.yaml:11:17: procs.a.log: not supported, ignored: jobtop writes each job's output to its own log file in one directory (proc_log's dir at the top level; jobtop ls --json: log_path)",
		`mprocs.yaml:11:36: procs.a: unknown key "autostrat" (did you mean "autostart"?), ignored (as mprocs does)`,
		`mprocs.yaml:13:1: top level: unknown key "typo_key" (known keys: $schema, hide_keymap_window, keymap_copy, keymap_procs, keymap_term, mouse_scroll_speed, on_all_finished, proc_list_title, proc_list_width, proc_log, procs, scrollback, server), ignored (as mprocs does)`,
	}, warningLines(plan))
}

// Names a job name cannot have are made ones, and deps follow; two
// procs that would get the same name, or a name that cannot be made
// one, are errors.
func TestMprocsNames(t *testing.T) {
	inDir(t, nil)
	plan, err := Parse("mprocs.yaml", []byte("procs:\n  my process: {shell: x}\n  npm:dev: {shell: y, deps: [my process]}\n  off: null\n"))
	require.NoError(t, err)
	assert.Equal(t, []string{"my-process", "npm-dev"}, plan.Order)
	dev, _ := plan.Job("npm-dev")
	assert.Equal(t, map[string]jobs.Condition{"my-process": jobs.CondReady}, dev.Spec.DependsOn)
	assert.Equal(t, []string{
		`mprocs.yaml:2:3: procs.my process: jobtop names it my-process (job names use ASCII letters, digits, ".", "_" and "-")`,
		`mprocs.yaml:3:3: procs.npm:dev: jobtop names it npm-dev (job names use ASCII letters, digits, ".", "_" and "-")`,
	}, warningLines(plan))

	assert.Equal(t, []string{
		`mprocs.yaml:2:3: procs: process name "123" is a number, which reads as a job ID: add a letter`,
		`mprocs.yaml:3:3: procs: a process name is empty`,
		`mprocs.yaml:5:3: procs.a b: its job name "a-b" is taken by procs.a-b (line 4): rename one of them`,
		`mprocs.yaml:6:24: procs.c.deps[0]: no process is named "a_b" (did you mean "a-b"?)`,
	}, mprocsProblems(t, "procs:\n  123: x\n  \"\": x\n  a-b: x\n  a b: x\n  c: {shell: x, deps: [a_b]}\n"))
}

// Wrong types, an empty file, no procs, a proc with neither cmd nor
// shell: each said with its file, line and column.
func TestMprocsErrors(t *testing.T) {
	inDir(t, nil)
	for _, tc := range []struct{ src, want string }{
		{"", "mprocs.yaml: the file is empty: give a procs: mapping"},
		{"[a]\n", "mprocs.yaml:1:1: the top level must be a mapping with a procs: key, got a list"},
		{"server: x\n", "mprocs.yaml:1:1: no procs: key: name the processes to run under procs:"},
		{"procs: {}\n", "mprocs.yaml:1:1: procs: no processes given"},
		{"procs: [a]\n", "mprocs.yaml:1:8: procs: want a mapping, got a list"},
		{"procs:\n  a: null\n", "mprocs.yaml:1:1: procs: every process is null (disabled): nothing to run"},
		{"procs:\n  a: true\n", "mprocs.yaml:2:6: procs.a: want a shell command, a cmd list or a mapping, got true/false"},
		{"procs:\n  a: 5\n", "mprocs.yaml:2:6: procs.a: want a shell command, a cmd list or a mapping, got a number"},
		{"procs:\n  a: {cwd: /}\n", "mprocs.yaml:2:3: procs.a: nothing to run: give shell (a shell command) or cmd (a list)"},
		{"procs:\n  a: {shell: x, cmd: [y]}\n", "mprocs.yaml:2:17: procs.a: give shell or cmd, not both"},
		{"procs:\n  a: {cmd: make test}\n", "mprocs.yaml:2:12: procs.a.cmd: want a list like [program, arg], got a string (a shell command line goes in shell:)"},
		{"procs:\n  a: {cmd: []}\n", "mprocs.yaml:2:12: procs.a.cmd: the list is empty: name a program"},
		{"procs:\n  a: {shell: \"  \"}\n", "mprocs.yaml:2:14: procs.a.shell: the command is empty"},
		{"procs:\n  a: {shell: x, autostart: maybe}\n", "mprocs.yaml:2:28: procs.a.autostart: want true or false, got a string"},
		{"procs:\n  a: {shell: x, env: {A-B: x}}\n", `mprocs.yaml:2:23: procs.a.env: "A-B" is not a variable name (ASCII letters, digits and _, not starting with a digit)`},
		{"procs:\n  a: {shell: x, env: {A: [x]}}\n", "mprocs.yaml:2:26: procs.a.env.A: want a string, got a list"},
		{"procs:\n  a: {shell: x, deps: [a]}\n", "mprocs.yaml:2:24: procs.a.deps[0]: dependency cycle: a -> a"},
		{"scrollback: -1\nprocs: {a: x}\n", "mprocs.yaml:1:13: scrollback: -1 is negative"},
		{"$select: os\nplan9: {procs: {a: x}}\n", "mprocs.yaml:1:1: top level: $select has no value for " + mprocsOS() + " and no $else"},
	} {
		assert.Equal(t, []string{tc.want}, mprocsProblems(t, tc.src), tc.src)
	}
}

// Find takes mprocs.yaml (then mprocs.json) after every other job file:
// a directory with a Procfile beside it runs the Procfile, as before.
func TestFindMprocs(t *testing.T) {
	dir := inDir(t, map[string]string{"mprocs.yaml": "procs:\n  a: x\n", "mprocs.json": `{"procs": {"b": "y"}}`})
	found, err := Find(dir)
	require.NoError(t, err)
	assert.Equal(t, filepath.Join(dir, "mprocs.yaml"), found)
	require.NoError(t, os.Remove("mprocs.yaml"))
	found, err = Find(dir)
	require.NoError(t, err)
	assert.Equal(t, filepath.Join(dir, "mprocs.json"), found)
	require.NoError(t, os.WriteFile("mprocs.yaml", []byte("procs:\n  a: x\n"), 0o644))
	require.NoError(t, os.WriteFile("Procfile", []byte("web: x\n"), 0o644))
	found, err = Find(dir)
	require.NoError(t, err)
	assert.Equal(t, filepath.Join(dir, "Procfile"), found)
	plan, err := LoadWith(found, LoadOptions{Found: true})
	require.NoError(t, err)
	assert.Equal(t, []string{found + ": is the job file that runs; also here, and not run: mprocs.yaml, mprocs.json (jobtop takes the first of jobtop.yaml, jobtop.yml, Procfile, process-compose.yml, process-compose.yaml, then of compose.yml, compose.yaml with processes:, then of mprocs.yaml, mprocs.json; -f names another)"}, warningLines(plan))

	empty := t.TempDir()
	_, err = Find(empty)
	assert.ErrorContains(t, err, "looked for jobtop.yaml, jobtop.yml, Procfile, process-compose.yml, process-compose.yaml, compose.yml, compose.yaml, mprocs.yaml, mprocs.json")
}

// stop: {send-keys: [...]} stops a real job by typing the keys into its
// terminal: the program quits its own way, inside a grace it never
// reaches.
func TestMprocsSendKeysStopsTheJob(t *testing.T) {
	dir := inDir(t, nil)
	plan, err := Parse("mprocs.yaml", []byte(`procs:
  prompt:
    shell: "trap 'echo got TERM' TERM; echo ready; read key; echo quit on $key"
    stop: {send-keys: ["<q>", "<Enter>"]}
`))
	require.NoError(t, err)
	m, err := jobs.NewManager(jobs.Options{LogDir: filepath.Join(dir, "logs")})
	require.NoError(t, err)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		require.NoError(t, m.Shutdown(ctx))
	})
	started, err := m.Start(plan.Jobs[0].Spec)
	require.NoError(t, err)
	out, err := m.Output(started.ID)
	require.NoError(t, err)
	text := func() string {
		var lines []string
		for _, l := range out.ReadAfter(0, 100).Lines {
			lines = append(lines, strings.TrimRight(l.Text, "\r"))
		}
		return strings.Join(lines, "\n")
	}
	require.Eventually(t, func() bool { return strings.Contains(text(), "ready") }, 30*time.Second, 10*time.Millisecond)
	require.NoError(t, m.Stop(started.ID))
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	info, err := m.Wait(ctx, started.ID)
	require.NoError(t, err)
	assert.Contains(t, text(), "quit on q")
	assert.NotContains(t, text(), "got TERM")
	assert.Zero(t, info.Signal)
}
