package cmd

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"jobtop/jobs"
)

// A misspelt subcommand is refused before anything starts: taken as
// commands, "jobtop stauts 3" started jobs "stauts" and "3" on the
// instance already running. A word that is a program, or comes after
// "--", is a job as before.
func TestAMisspeltSubcommandStartsNoJob(t *testing.T) {
	c := newCLI(t)
	c.serve()
	for _, args := range [][]string{{"stauts", "3"}, {"lgos", "1"}, {"shutdwon"}} {
		r := c.run(args...)
		assert.Equal(t, 2, r.code, "jobtop %v: %s", args, r.stderr)
		assert.Contains(t, r.stderr, "unknown command \""+args[0]+"\": did you mean ", "jobtop %v", args)
	}
	// A program's own arguments, unquoted ("jobtop git log -p"): not a
	// misspelt jobtop logs, but how to quote them.
	for _, tc := range []struct {
		args []string
		word string
	}{{[]string{"true", "lgos", "-x"}, "lgos"}, {[]string{"true", "status"}, "status"}, {[]string{"sleep", "20", "stauts"}, "stauts"}, {[]string{"env", "ls"}, "ls"}} {
		args := tc.args
		r := c.run(args...)
		assert.Equal(t, 2, r.code, "jobtop %v: %s", args, r.stderr)
		line := strings.Join(args, " ")
		assert.Contains(t, r.stderr, fmt.Sprintf("%q after %s would run as a command of its own", tc.word, args[0]), "jobtop %v", args)
		assert.Contains(t, r.stderr, fmt.Sprintf("quote its command line: jobtop '%s', or put it after --: jobtop -- %s", line, line), "jobtop %v", args)
		assert.NotContains(t, r.stderr, "did you mean", "jobtop %v", args)
	}
	procs := filepath.Join(c.dir, "procs")
	require.NoError(t, os.Mkdir(procs, 0o700))
	require.NoError(t, os.WriteFile(filepath.Join(procs, "Procfile"), []byte("web: sleep 30\nworker: sleep 30\n"), 0o600))
	for _, args := range [][]string{{"-m", "web=2", "web"}, {"-m", "web=2", "web.2"}, {"-m", "all=2", "worker.1"}} {
		r := c.runIn(procs, args...)
		assert.Equal(t, 2, r.code, "jobtop %v: %s", args, r.stderr)
		assert.Contains(t, r.stderr, "is a job of Procfile", "jobtop %v", args)
	}
	r := c.runIn(procs, "-m", "web=2", "web")
	assert.Contains(t, r.stderr, "jobtop restart web.1 web.2", "a restart that names the jobs there are")
	// A job of the job file named as another tool's command is that job
	// (rev58: jobtop follow gave pueue's advice).
	named := filepath.Join(c.dir, "named")
	require.NoError(t, os.Mkdir(named, 0o700))
	require.NoError(t, os.WriteFile(filepath.Join(named, "Procfile"), []byte("follow: sleep 30\nreset: sleep 30\n"), 0o600))
	for _, word := range []string{"follow", "reset"} {
		r := c.runIn(named, word)
		assert.Equal(t, 2, r.code, "jobtop %s: %s", word, r.stderr)
		assert.Contains(t, r.stderr, `"`+word+`" is a job of Procfile`, "jobtop %s", word)
	}
	// In a jobtop.yaml, v-2024 and shard-1 are names, not replicas of v
	// and shard: a program v is no job of it.
	own := filepath.Join(c.dir, "own")
	require.NoError(t, os.Mkdir(own, 0o700))
	require.NoError(t, os.WriteFile(filepath.Join(own, "jobtop.yaml"), []byte("jobs:\n  v-2024: {cmd: sleep 30}\n  shard-1: {cmd: sleep 30}\n"), 0o600))
	t.Chdir(own)
	for _, word := range []string{"v", "shard"} {
		assert.NoError(t, mistypedCommand(newRootCmd(), []string{word}, -1), word)
	}
	// A program in . with . on PATH is a program, as a shell runs it.
	require.NoError(t, os.WriteFile(filepath.Join(own, "up"), []byte("#!/bin/sh\n"), 0o755))
	t.Setenv("PATH", ".:"+os.Getenv("PATH"))
	assert.NoError(t, mistypedCommand(newRootCmd(), []string{"up"}, -1), "./up on PATH")
	t.Chdir(c.dir)
	var listed []jobs.Info
	require.NoError(t, json.Unmarshal([]byte(c.ok("ls", "--json")), &listed))
	assert.Empty(t, listed, "nothing started")

	for _, word := range []string{"sleepp", "'stauts'", "./stauts", "A=1", "exec stauts"} { // no near miss; a command line, a path, an assignment
		assert.NoError(t, mistypedCommand(newRootCmd(), []string{word}, -1), word)
	}
	assert.NoError(t, mistypedCommand(newRootCmd(), []string{"stauts"}, 0), "after --")
	assert.NoError(t, mistypedCommand(newRootCmd(), []string{"stat"}, -1), "a program on PATH") // coreutils
	for _, word := range []string{"htop", "rg", "bun", "deno"} {                                // programs a letter changed from a subcommand
		assert.NoError(t, mistypedCommand(newRootCmd(), []string{word}, -1), word)
	}
	for _, args := range [][]string{{"stauts"}, {"true", "stauts"}, {"stp"}, {"sttaus"}, {"shutdwon"}, {"sleep 20", "status"}} {
		assert.Error(t, mistypedCommand(newRootCmd(), args, -1), "%v", args)
	}
	root := newRootCmd()
	require.NoError(t, root.ParseFlags([]string{"--host", "ssh://far.invalid"}))
	assert.NoError(t, mistypedCommand(root, []string{"stauts"}, -1), "with --host, the far PATH counts")
	var unquoted *unquotedArgError
	assert.ErrorAs(t, mistypedCommand(root, []string{"git", "log"}, -1), &unquoted, "a subcommand after a word, with --host too")
}

// A program's subcommand or target, unquoted, is refused before anything
// starts: "jobtop npm install" started two jobs, npm and coreutils'
// install (which failed), and "jobtop make test" ran /usr/bin/test as a
// second job. Several single words where the first is a multi-command
// tool (make, npm, go, docker...), or where the second is no program on
// PATH, read as one command line unquoted. Programs side by side, and
// command lines, are jobs as before.
func TestAToolsSubcommandUnquotedStartsNoJob(t *testing.T) {
	c := newCLI(t)
	c.serve()
	for _, args := range [][]string{{"npm", "install"}, {"make", "test"}, {"make", "test", "lint"}, {"go", "test"}, {"docker", "ps"}, {"sleep", "30"}, {"true", "app.py"}} {
		r := c.run(args...)
		assert.Equal(t, 2, r.code, "jobtop %v: %s", args, r.stderr)
		line := strings.Join(args, " ")
		assert.Contains(t, r.stderr, fmt.Sprintf("%q after %s would run as a command of its own", args[1], args[0]), "jobtop %v", args)
		assert.Contains(t, r.stderr, fmt.Sprintf("write 'exec %s'", args[1]), "jobtop %v: how to run them apart", args)
		assert.Contains(t, r.stderr, fmt.Sprintf("quote its command line: jobtop '%s', or put it after --: jobtop -- %s", line, line), "jobtop %v: how to run it as one", args)
	}
	var listed []jobs.Info
	require.NoError(t, json.Unmarshal([]byte(c.ok("ls", "--json")), &listed))
	assert.Empty(t, listed, "nothing started")

	for _, args := range [][]string{{"true", "false"}, {"sleep 30", "test"}, {"make", "npm run dev"}, {"npm", "exec install"}, {"make test", "npm test"}, {"npm"}} {
		assert.NoError(t, mistypedCommand(newRootCmd(), args, -1), "%v", args)
	}
	assert.NoError(t, mistypedCommand(newRootCmd(), []string{"make", "test"}, 0), "after --")
	root := newRootCmd()
	require.NoError(t, root.ParseFlags([]string{"--host", "ssh://far.invalid"}))
	var unquoted *unquotedArgError
	assert.ErrorAs(t, mistypedCommand(root, []string{"npm", "install"}, -1), &unquoted, "a tool's subcommand, with --host too")
	assert.NoError(t, mistypedCommand(root, []string{"sleep", "30"}, -1), "with --host, the far PATH counts")
}

// Without a terminal nothing starts: the commands started as jobs on the
// instance, then the TUI failed ("could not open a new TTY"), and an agent
// that tried again started them twice.
func TestTheTUIWithoutATerminalStartsNothing(t *testing.T) {
	c := newCLI(t)
	c.serve()
	cmd := exec.Command(binary, "sleep 60", "true")
	cmd.Env = c.env
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true} // no controlling terminal
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	require.ErrorAs(t, err, &exit)
	assert.Equal(t, 1, exit.ExitCode())
	assert.Contains(t, stderr.String(), "nothing was started")
	var listed []jobs.Info
	require.NoError(t, json.Unmarshal([]byte(c.ok("ls", "--json")), &listed))
	assert.Empty(t, listed, "nothing started")

	demo := exec.Command(binary, "demo")
	demo.Env, demo.SysProcAttr = c.env, &syscall.SysProcAttr{Setsid: true}
	out, err := demo.CombinedOutput()
	require.ErrorAs(t, err, &exit)
	assert.Contains(t, string(out), "nothing was started", "the demo too")
}

// Another tool's subcommand, or a job of the job file, is refused with
// what to type in jobtop: "jobtop up" (process-compose) and "jobtop web"
// (foreman's "start web") started a job that failed with 127 beside the
// file's jobs. A program on PATH and a command line are jobs as before.
func TestOtherToolsCommandsStartNoJob(t *testing.T) {
	c := newCLI(t)
	c.serve()
	dir := filepath.Join(c.dir, "app")
	require.NoError(t, os.Mkdir(dir, 0o700))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "process-compose.yaml"), []byte("processes:\n  web: {command: \"sleep 30\"}\n  api: {command: \"sleep 30\", namespace: tools}\n  worker: {command: \"sleep 30\", replicas: 2}\n"), 0o600))
	for _, tc := range []struct{ args, want []string }{
		{[]string{"up"}, []string{`"up" is process-compose's command`, "plain jobtop", "jobtop serve -D"}},
		{[]string{"up", "-D"}, []string{`"up" is process-compose's command`, "jobtop serve -D"}}, // not "unknown shorthand flag"
		{[]string{"start", "-D"}, []string{`"start" is`, "jobtop serve -D"}},
		{[]string{"down"}, []string{`"down" is process-compose's command`, "jobtop shutdown"}},
		{[]string{"process", "list"}, []string{"jobtop ls"}},
		{[]string{"start"}, []string{`"start" is overmind's, foreman's and pueue's command`, "jobtop serve -D"}},
		{[]string{"start", "web"}, []string{`"start" is`}},
		{[]string{"s"}, []string{"overmind's command (start)"}},
		{[]string{"connect"}, []string{"jobtop attach"}},
		{[]string{"quit"}, []string{"jobtop shutdown"}},
		{[]string{"export"}, []string{"foreman's command"}},
		{[]string{"web"}, []string{`"web" is a job of process-compose.yaml`, "jobtop restart web", "'exec web'"}},
		{[]string{"tools/api"}, []string{`"tools/api" is a job of process-compose.yaml`}},
		{[]string{"api"}, []string{`"api" is a job of process-compose.yaml`, "jobtop restart tools/api"}},
		{[]string{"worker"}, []string{"jobtop restart worker-0 worker-1"}},
		{[]string{"worker-1"}, []string{`"worker-1" is a job of process-compose.yaml`}},
	} {
		r := c.runIn(dir, tc.args...)
		assert.Equal(t, 2, r.code, "jobtop %v: %s", tc.args, r.stderr)
		for _, w := range tc.want {
			assert.Contains(t, r.stderr, w, "jobtop %v", tc.args)
		}
	}
	var listed []jobs.Info
	require.NoError(t, json.Unmarshal([]byte(c.ok("ls", "--json")), &listed))
	assert.Empty(t, listed, "nothing started")

	t.Chdir(dir)
	for _, args := range [][]string{{"echo"}, {"sleep"}, {"up 1"}, {"web --port 1"}, {"./up"}, {"exec up"}} { // on PATH; command lines
		assert.NoError(t, mistypedCommand(newRootCmd(), args, -1), "%v", args)
	}
	assert.NoError(t, mistypedCommand(newRootCmd(), []string{"up"}, 0), "after --")
	root := newRootCmd()
	require.NoError(t, root.ParseFlags([]string{"--no-file"}))
	assert.NoError(t, mistypedCommand(root, []string{"web"}, -1), "no job file: web is no job")
}

// pueue's subcommands that jobtop has none of are refused with jobtop's
// way to do it: on a terminal with an instance running, "jobtop follow
// 3" started jobs follow and 3, which failed with 127. reset is refused
// though a reset is on PATH: running it as a job is never what pueue's
// reset asks. 'exec NAME' still runs a program of that name.
func TestPueueCommandsStartNoJob(t *testing.T) {
	c := newCLI(t)
	c.serve()
	for _, tc := range []struct{ args, want []string }{
		{[]string{"follow", "3"}, []string{`"follow" is pueue's command`, "jobtop logs -f"}},
		{[]string{"log", "3"}, []string{`"log" is pueue's command`, "jobtop logs"}},
		{[]string{"add", "make"}, []string{`"add" is pueue's command`, "jobtop run"}},
		{[]string{"remove", "3"}, []string{"jobtop rm"}},
		{[]string{"pause", "3"}, []string{"jobtop signal STOP ID"}},
		{[]string{"start", "3"}, []string{`"start" is overmind's, foreman's and pueue's command`, "jobtop signal CONT ID"}},
		{[]string{"edit", "3"}, []string{"e in the TUI"}},
		{[]string{"group", "add", "x"}, []string{"jobtop parallel"}},
		{[]string{"stash", "3"}, []string{"jobtop run --after"}},
		{[]string{"enqueue", "3"}, []string{"jobtop parallel"}},
		{[]string{"switch", "1", "2"}, []string{"jobtop parallel"}},
		{[]string{"reset"}, []string{`"reset" is pueue's command`, "jobtop clean", "jobtop shutdown", "'exec reset'"}},
		{[]string{"format-status"}, []string{"jobtop ls --json"}},
	} {
		r := c.run(tc.args...)
		assert.Equal(t, 2, r.code, "jobtop %v: %s", tc.args, r.stderr)
		for _, w := range tc.want {
			assert.Contains(t, r.stderr, w, "jobtop %v", tc.args)
		}
	}
	var listed []jobs.Info
	require.NoError(t, json.Unmarshal([]byte(c.ok("ls", "--json")), &listed))
	assert.Empty(t, listed, "nothing started")
	assert.NoError(t, mistypedCommand(newRootCmd(), []string{"exec reset"}, -1))
	assert.NoError(t, mistypedCommand(newRootCmd(), []string{"reset"}, 0), "after --")
}

// What jobtop project says to type instead runs, as it is written:
// it said "jobtop status shows the instance", and jobtop status with no
// job ID exits 2 ("status takes one job ID").
func TestProjectsHintNamesCommandsThatRun(t *testing.T) {
	c := newCLI(t)
	c.serveJobFile("jobs:\n  web: {cmd: exec sleep 60}\n")
	r := c.run("project", "state")
	assert.Equal(t, 2, r.code, r.stderr)
	assert.Contains(t, r.stderr, `"project" is process-compose's command`)
	named := regexp.MustCompile(`jobtop ([a-z]+)( [a-z]+)? (shows|lists|re-reads)`).FindAllStringSubmatch(r.stderr, -1)
	require.NotEmpty(t, named, r.stderr)
	for _, m := range named {
		ran := c.run(m[1])
		assert.Equal(t, 0, ran.code, "jobtop %s, as the hint writes it: %s", m[1], ran.stderr)
	}
}

// A help topic that is no command is refused, with the command it is
// a misspelling of, and exits 2, as the mistyped command does: "jobtop
// help stauts" printed the root's help and exited 0, saying nothing. The
// words after a command are its arguments ("help completion bsah" shows
// completion's help), as before.
func TestAnUnknownHelpTopicIsRefused(t *testing.T) {
	c := newCLI(t)
	for _, tc := range []struct {
		args []string
		says string
	}{
		{[]string{"help", "stauts"}, `unknown help topic "stauts": did you mean status?`},
		{[]string{"help", "lgos", "1"}, `unknown help topic "lgos": did you mean logs?`},
		{[]string{"help", "nosuchthing"}, `unknown help topic "nosuchthing": jobtop help lists the commands`},
	} {
		r := c.run(tc.args...)
		assert.Equal(t, 2, r.code, "jobtop %v: %s", tc.args, r.stderr)
		assert.Contains(t, r.stderr, tc.says, "jobtop %v", tc.args)
		assert.Empty(t, r.stdout, "jobtop %v: no help printed", tc.args)
	}
	for _, args := range [][]string{{"help"}, {"help", "status"}, {"help", "completion", "bsah"}, {"help", "help"}} {
		r := c.run(args...)
		assert.Equal(t, 0, r.code, "jobtop %v: %s", args, r.stderr)
		assert.Contains(t, r.stdout, "Usage:", "jobtop %v", args)
	}
}

// The guard against a command line unquoted looks at each run of single
// words: an argument with a space in it no longer turns it off ("jobtop
// make test 'npm run dev'" started make, test and npm run dev), and a
// wrapper that runs the command after it (nice, time, watch, env,
// timeout...) is caught as a tool's subcommand is. Programs side by side
// are still jobs. The hint keeps jobtop's own flags out of the command
// line it suggests ("jobtop npm install --name web" suggested
// 'npm install --name web').
func TestUnquotedGuardSeesWordsBesideACommandLineAndWrappers(t *testing.T) {
	c := newCLI(t)
	c.serve()
	for _, tc := range []struct {
		args       []string
		program    string
		word, hint string
	}{
		{[]string{"make", "test", "npm run dev"}, "make", "test", "jobtop 'make test', or put it after --: jobtop -- make test)"},
		{[]string{"npm run dev", "sleep", "30"}, "sleep", "30", "jobtop 'sleep 30', or put it after --: jobtop -- sleep 30)"},
		{[]string{"true", "make", "test"}, "make", "test", "jobtop 'make test', or put it after --: jobtop -- make test)"},
		{[]string{"nice", "make"}, "nice", "make", "jobtop 'nice make', or put it after --: jobtop -- nice make)"},
		{[]string{"time", "make"}, "time", "make", "put it after --: jobtop -- 'time' make)"},
		{[]string{"watch", "date"}, "watch", "date", "jobtop 'watch date', or put it after --: jobtop -- watch date)"},
		{[]string{"env", "FOO=1", "make"}, "env", "FOO=1", "jobtop 'env FOO=1 make', or put it after --: jobtop -- env FOO=1 make)"},
		{[]string{"timeout", "5", "make"}, "timeout", "5", "jobtop 'timeout 5 make', or put it after --: jobtop -- timeout 5 make)"},
		{[]string{"npm", "install", "--name", "web"}, "npm", "install", "jobtop --name web 'npm install', or put it after --: jobtop --name web -- npm install)"},
		{[]string{"--name", "make", "make", "test", "--pipes"}, "make", "test", "jobtop --pipes 'make test', or put it after --: jobtop --pipes -- make test)"},
	} {
		r := c.run(tc.args...)
		assert.Equal(t, 2, r.code, "jobtop %v: %s", tc.args, r.stderr)
		assert.Contains(t, r.stderr, fmt.Sprintf("%q after %s would run as a command of its own", tc.word, tc.program), "jobtop %v", tc.args)
		assert.Contains(t, r.stderr, "(to run "+tc.program+" with its arguments, ", "jobtop %v", tc.args)
		assert.Contains(t, r.stderr, tc.hint, "jobtop %v", tc.args)
	}
	var listed []jobs.Info
	require.NoError(t, json.Unmarshal([]byte(c.ok("ls", "--json")), &listed))
	assert.Empty(t, listed, "nothing started")

	for _, args := range [][]string{{"true", "false", "true"}, {"npm run dev", "true", "false"}, {"make", "npm run dev"}, {"sleep 5", "make"},
		{"true", "nice"}, {"nice"}, {"make test", "npm test"}} {
		assert.NoError(t, mistypedCommand(newRootCmd(), args, -1), "%v", args)
	}
	root := newRootCmd()
	require.NoError(t, root.ParseFlags([]string{"--host", "ssh://far.invalid"}))
	var unquoted *unquotedArgError
	assert.ErrorAs(t, mistypedCommand(root, []string{"nice", "make"}, -1), &unquoted, "a wrapper, with --host too")
	assert.ErrorAs(t, mistypedCommand(root, []string{"make", "test", "npm run dev"}, -1), &unquoted, "beside a command line, with --host too")
}
