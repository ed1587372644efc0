package jobfile

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"jobtop/jobs"
)

func TestParseProcfile(t *testing.T) {
	t.Setenv("PORT", "")
	dir := inDir(t, nil)
	// Comments, blank lines, CRLF, leading blanks, a ":" in the command,
	// and no newline at the end.
	src := "# comment\n\nweb: bundle exec rails s -p $PORT\r\n  worker:python worker.py --queue=a:b  \n" +
		"  # indented comment\nclock-2_b: while :; do date >> log && sleep 1 || exit 1; done 2>&1 | tee x # not a comment"
	plan, err := Parse("Procfile", []byte(src))
	require.NoError(t, err)
	require.Equal(t, FormatProcfile, plan.Format)
	require.Equal(t, []Job{
		{Name: "web", Autostart: true, Line: 3, Col: 1, Spec: jobs.Spec{Name: "web", Command: "bundle exec rails s -p $PORT", Dir: dir,
			Env: map[string]string{"PORT": "5000", "PS": "web.1"}}},
		{Name: "worker", Autostart: true, Line: 4, Col: 3, Spec: jobs.Spec{Name: "worker", Command: "python worker.py --queue=a:b", Dir: dir,
			Env: map[string]string{"PORT": "5100", "PS": "worker.1"}}},
		{Name: "clock-2_b", Autostart: true, Line: 6, Col: 1, Spec: jobs.Spec{Name: "clock-2_b",
			Command: "while :; do date >> log && sleep 1 || exit 1; done 2>&1 | tee x # not a comment", Dir: dir,
			Env: map[string]string{"PORT": "5200", "PS": "clock-2_b.1"}}},
	}, plan.Jobs)
	require.Equal(t, []string{"web", "worker", "clock-2_b"}, plan.Order)
}

func procfileErrors(t *testing.T, src string, o LoadOptions) []string {
	t.Helper()
	_, err := ParseWith("Procfile", []byte(src), o)
	var list ErrorList
	require.True(t, errors.As(err, &list), "got %v", err)
	return strings.Split(list.Error(), "\n")
}

func TestParseProcfileErrors(t *testing.T) {
	inDir(t, nil)
	assert.Equal(t, []string{`Procfile: no jobs: write one "name: command" line per job`}, procfileErrors(t, "# nothing\n\n", LoadOptions{}))
	assert.Equal(t, []string{
		`Procfile:2: want "name: command", got "no colon here"`,
		`Procfile:3: job name "bad name" may only use ASCII letters, digits, "-" and "_" in a Procfile`,
		`Procfile:4: job name "42" is a number, which reads as a job ID: add a letter`,
		`Procfile:5: job "empty" has no command`,
		`Procfile:6: job "web" is already defined on line 1`,
		`Procfile:7: job "ok": command contains a NUL byte`,
		`Procfile:8: job name "web.1" may only use ASCII letters, digits, "-" and "_" in a Procfile`,
		`Procfile:9: a job name is empty`,
	}, procfileErrors(t, "web: run\nno colon here\nbad name: x\n42: x\nempty:\nweb: again\nok: \"a\x00b\"\nweb.1: x\n: x", LoadOptions{}))
}

func TestProcfileReadsTheEnvFileBesideIt(t *testing.T) {
	t.Setenv("PORT", "")
	dir := inDir(t, map[string]string{
		"app/Procfile": "web: ./run\n",
		"app/.env": "# settings\n\nexport SECRET='a $b \\n c'\nGREETING=\"hi \\\"there\\\"\\nsecond\"\n" +
			"PLAIN=value with spaces # a comment\nEMPTY=\nPORT=7000\n",
		".env": "FROM_CWD=1\n",
	})
	plan, err := Load("app/Procfile")
	require.NoError(t, err)
	web := plan.Jobs[0].Spec
	assert.Equal(t, map[string]string{
		"SECRET": `a $b \n c`, "GREETING": "hi \"there\"\nsecond", "PLAIN": "value with spaces", "EMPTY": "",
		"PORT": "7000", "PS": "web.1",
	}, web.Env, "the .env beside the Procfile, not the one in the current directory; its PORT is the base")
	assert.Equal(t, []string{"app/.env"}, plan.EnvFiles)
	assert.Equal(t, dir+"/app", web.Dir)
}

func TestProcfileEnvFileOptions(t *testing.T) {
	t.Setenv("PORT", "")
	inDir(t, map[string]string{
		"Procfile": "web: ./run\n",
		".env":     "A=default\n",
		"one.env":  "A=one\nB=one\n",
		"two.env":  "B=two\n",
		"bad.env":  "A=1\nnot a line\n",
	})
	plan, err := LoadWith("Procfile", LoadOptions{EnvFiles: []string{"one.env", "two.env"}})
	require.NoError(t, err)
	assert.Equal(t, map[string]string{"A": "one", "B": "two", "PORT": "5000", "PS": "web.1"}, plan.Jobs[0].Spec.Env,
		"-e files replace .env, later ones winning")
	plan, err = LoadWith("Procfile", LoadOptions{NoEnvFile: true})
	require.NoError(t, err)
	assert.Equal(t, map[string]string{"PORT": "5000", "PS": "web.1"}, plan.Jobs[0].Spec.Env)
	assert.Equal(t, []string{`missing.env: env file does not exist`},
		procfileErrors(t, "web: ./run\n", LoadOptions{EnvFiles: []string{"missing.env"}}))
	assert.Equal(t, []string{`bad.env:2: want NAME=VALUE, got "not a line"`},
		procfileErrors(t, "web: ./run\n", LoadOptions{EnvFiles: []string{"bad.env"}}))
}

func TestProcfilePorts(t *testing.T) {
	inDir(t, map[string]string{"Procfile": "web: a\nworker: b\nclock: c\n"})
	ports := func(o LoadOptions) map[string]string {
		t.Helper()
		plan, err := LoadWith("Procfile", o)
		require.NoError(t, err)
		out := map[string]string{}
		for _, j := range plan.Jobs {
			out[j.Name] = j.Spec.Env["PORT"] + " " + j.Spec.Env["PS"]
		}
		return out
	}
	t.Setenv("PORT", "")
	assert.Equal(t, map[string]string{"web": "5000 web.1", "worker": "5100 worker.1", "clock": "5200 clock.1"}, ports(LoadOptions{}))
	t.Setenv("PORT", "3000")
	assert.Equal(t, map[string]string{"web": "3000 web.1", "worker": "3100 worker.1", "clock": "3200 clock.1"}, ports(LoadOptions{}),
		"PORT from the environment is the base")
	assert.Equal(t, map[string]string{"web": "8000 web.1", "worker": "8100 worker.1", "clock": "8200 clock.1"}, ports(LoadOptions{Port: 8000}),
		"--port wins")
	// Formation: instances are NAME.N, +1 port each; a type's ports start
	// 100 after the previous type's, counted in file order even when a
	// type runs no instance.
	assert.Equal(t, map[string]string{
		"web.1": "3000 web.1", "web.2": "3001 web.2", "web.3": "3002 web.3",
		"clock.1": "3200 clock.1",
	}, ports(LoadOptions{Formation: "web=3, clock=1"}), "types not named run none (foreman's rule)")
	assert.Equal(t, map[string]string{
		"web.1": "4000 web.1", "worker.1": "4100 worker.1", "worker.2": "4101 worker.2", "clock.1": "4200 clock.1",
	}, ports(LoadOptions{Formation: "all=1,worker=2", Port: 4000}))
	assert.Equal(t, map[string]string{"web.1": "3000 web.1", "clock.1": "3200 clock.1"}, ports(LoadOptions{Formation: "all=1,worker=0"}))
}

func TestProcfileBadPortsAndFormations(t *testing.T) {
	inDir(t, map[string]string{".env": "PORT=http\n"})
	src := "web: a\nworker: b\n"
	assert.Equal(t, []string{`PORT: "http" from the env file is not a port number (1-65535): set another or give --port`},
		procfileErrors(t, src, LoadOptions{}))
	for formation, want := range map[string]string{
		"web":         `--formation: "web": want TYPE=COUNT, e.g. web=2,worker=1 (all=N for every type)`,
		"web=two":     `--formation: "web=two": the count must be a whole number, 0 or more`,
		"web=-1":      `--formation: "web=-1": the count must be a whole number, 0 or more`,
		"web=1000":    `--formation: "web=1000": at most 100 instances of a type`,
		"wbe=1":       `--formation: "wbe=1": the Procfile has no process type "wbe" (it has web, worker)`,
		"all=0":       `--formation: "all=0" runs no job: give a count above 0`,
		"web=0,all=0": `--formation: "web=0,all=0" runs no job: give a count above 0`,
		"web=2,web=3": `--formation: "web=3": web is given a count twice`,
		"all=1,all=2": `--formation: "all=2": all is given a count twice`,
	} {
		assert.Equal(t, []string{want}, procfileErrors(t, src, LoadOptions{Formation: formation, Port: 5000}), formation)
	}
	assert.Equal(t, []string{`--port: 65500 leaves job "worker" (Procfile:2) a port past 65535: give a lower --port`},
		procfileErrors(t, src, LoadOptions{Port: 65500}))
	assert.Equal(t, []string{`--port: 70000 is not a port number (1-65535)`}, procfileErrors(t, src, LoadOptions{Port: 70000}))
}

func TestFormationAndPortAreForProcfiles(t *testing.T) {
	inDir(t, nil)
	_, err := ParseWith("jobtop.yaml", []byte("jobs: {web: {cmd: x}}\n"), LoadOptions{Formation: "web=2"})
	require.EqualError(t, err, "--formation: applies to a Procfile only; jobtop.yaml is not one")
}
