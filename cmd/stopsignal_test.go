package cmd

import (
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"jobtop/jobs"
)

// A job can be stopped with SIGINT from the CLI, as Python's
// KeyboardInterrupt handlers need: its stop signal (run --stop-signal),
// or this stop's (stop --signal), for one job or several; INT, SIGINT
// and 2 alike.
func TestStopWithSIGINTFromTheCLI(t *testing.T) {
	c := newCLI(t)
	c.serve()
	const script = `trap 'echo got INT; exit 3' INT; echo ready; while :; do sleep 0.1; done`
	own := c.startJob(script, "--name", "own", "--stop-signal", "INT")
	one := c.startJob(script, "--name", "one")
	many := c.startJob(script, "--name", "many")
	for _, id := range []string{own, one, many} {
		c.ok("wait", id, "--until", "^ready$", "--timeout", "20s")
	}

	c.ok("stop", own)
	c.ok("stop", "--signal", "SIGINT", one)
	c.ok("stop", "--signal", "2", "--name", "many")
	for _, id := range []string{own, one, many} {
		info := c.status(id)
		assert.Equal(t, jobs.StateKilled, info.State, "job %s: stopped", id)
		require.NotNil(t, info.ExitCode, "job %s", id)
		assert.Equal(t, 3, *info.ExitCode, "job %s", id)
		assert.Equal(t, []string{"ready", "got INT"}, c.logLines(id), "job %s", id)
	}

	r := c.run("stop", "--signal", "NOPE", one)
	assert.Equal(t, 2, r.code)
	assert.Contains(t, r.stderr, "--signal")
	r = c.run("run", "--stop-signal", "NOPE", "--", "true")
	assert.Equal(t, 2, r.code)
	assert.Contains(t, r.stderr, "--stop-signal")
}

// A job stopped with a signal it catches and then exits 128+N for that
// signal (bash's trap 'exit 143' TERM, as a shell killed by it would
// exit) reads as the signal in ls, status and stop's answer: "SIGTERM",
// as shells show it, not "143 after SIGTERM"; another code after the
// signal still reads "N after SIGTERM".
func TestExitOf128PlusTheStopSignalReadsAsTheSignal(t *testing.T) {
	c := newCLI(t)
	c.serve()
	for _, tc := range []struct {
		trap, signal, exit string
	}{
		{"trap 'exit 143' TERM", "", "SIGTERM"},
		{"trap 'exit 130' INT", "INT", "SIGINT"},
		{"trap 'exit 3' TERM", "", "3 after SIGTERM"},
		{"trap 'exit 143' INT", "INT", "143 after SIGINT"},
	} {
		id := c.startJob(tc.trap + "; echo ready; while :; do sleep 0.1; done")
		c.ok("wait", id, "--until", "^ready$", "--timeout", "20s")
		args := []string{"stop", id}
		if tc.signal != "" {
			args = append(args, "--signal", tc.signal)
		}
		assert.Contains(t, c.ok(args...), "killed ("+tc.exit+")", "stop's answer: %s", tc.trap)
		assert.Contains(t, c.ok("status", id), "\nexit:     "+tc.exit+"\n", tc.trap)
		var exit string // ls's EXIT cell: cells are apart by two spaces or more
		for _, l := range strings.Split(c.ok("ls"), "\n") {
			if cells := regexp.MustCompile(`  +`).Split(l, -1); len(cells) == 7 && cells[0] == id {
				exit = cells[5]
			}
		}
		assert.Equal(t, tc.exit, exit, "ls: %s", tc.trap)
	}
}

// TestStopRefusesASignalThatDoesNotEndAProcess: stop --signal STOP (or
// CONT, TSTP, URG...) sent it and SIGKILLed the job 5 s later, though such a
// signal never ends a process: a usage error (exit 2) that names the
// command that sends a signal alone, and the job is left alone. (WINCH,
// httpd's graceful stop, is a stop's to send.)
func TestStopRefusesASignalThatDoesNotEndAProcess(t *testing.T) {
	c := newCLI(t)
	c.serve()
	id := c.startJob("exec sleep 60", "--name", "srv")
	for _, sig := range []string{"STOP", "SIGTSTP", "TTIN", "TTOU", "CONT", "19", "URG", "SIGCHLD"} {
		for _, args := range [][]string{{"stop", "--signal", sig, id}, {"stop", "--signal", sig, "--all"}} {
			r := c.run(args...)
			assert.Equal(t, 2, r.code, "%v: %s", args, r.stderr)
			assert.Contains(t, r.stderr, "does not end a process", args)
			assert.Contains(t, r.stderr, "jobtop signal ", args)
		}
	}
	assert.Equal(t, jobs.StateRunning, c.status(id).State, "a refused stop did nothing")
}

// A job's own stop signal that pauses or continues a process (run
// --stop-signal STOP) is refused as stop --signal STOP is (rev59: the
// stop waited out its grace and SIGKILLed the job); WINCH, httpd's
// graceful stop, is taken.
func TestRunRefusesAStopSignalThatPausesTheJob(t *testing.T) {
	c := newCLI(t)
	c.serve()
	for _, sig := range []string{"STOP", "CONT", "TSTP", "URG", "CHLD"} {
		r := c.run("run", "--stop-signal", sig, "--", "sleep", "50")
		assert.Equal(t, 2, r.code, "%s: a usage error, as stop --signal STOP: %s", sig, r.stdout)
		assert.Contains(t, r.stderr, "does not end a process", sig)
		assert.Contains(t, r.stderr, "jobtop signal "+sig, sig)
	}
	id := c.startJob("trap 'echo graceful; exit 0' WINCH; echo ready; while :; do sleep 0.1; done", "--stop-signal", "WINCH")
	c.ok("wait", id, "--until", "^ready$", "--timeout", "20s")
	c.ok("stop", id)
	assert.Contains(t, c.ok("logs", id), "graceful")
	assert.Equal(t, 0, *c.status(id).ExitCode, "its own end, not SIGKILL")
}
