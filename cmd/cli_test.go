package cmd

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"jobtop/control"
	"jobtop/jobs"
)

func TestHelloWorld(t *testing.T) {
	c := newCLI(t)
	c.serve()
	id := c.startJob("echo hello world")
	assert.Equal(t, "1", id)
	c.ok("wait", id)
	assert.Equal(t, []string{"hello world"}, c.logLines(id))
	info := c.status(id)
	assert.Equal(t, jobs.StateSucceeded, info.State)
	require.NotNil(t, info.ExitCode)
	assert.Equal(t, 0, *info.ExitCode)
}

func TestStatusJSONFields(t *testing.T) {
	c := newCLI(t)
	c.serve()
	id := c.startJob("echo out; exit 42", "--name", "answer")
	r := c.run("wait", id)
	assert.Equal(t, 42, r.code, "wait exits with the job's exit code")
	assert.Equal(t, "jobtop: job 1 failed (exit 42)\n", r.stderr)

	var fields map[string]any
	require.NoError(t, json.Unmarshal([]byte(c.ok("status", id, "--json")), &fields))
	for _, name := range []string{"id", "name", "command", "state", "exit_code", "signal", "error", "pid", "started_at", "ended_at", "runs", "log_path", "lines", "bytes"} {
		assert.Contains(t, fields, name)
	}
	assert.EqualValues(t, 1, fields["id"])
	assert.Equal(t, "answer", fields["name"])
	assert.Equal(t, "echo out; exit 42", fields["command"])
	assert.Equal(t, "failed", fields["state"])
	assert.EqualValues(t, 42, fields["exit_code"])
	assert.Nil(t, fields["signal"])
	assert.EqualValues(t, 1, fields["runs"])
	assert.EqualValues(t, 1, fields["lines"])
	assert.EqualValues(t, 4, fields["bytes"])
	logBytes, err := os.ReadFile(fields["log_path"].(string))
	require.NoError(t, err)
	assert.Regexp(t, `^\[jobtop\] ── run 1 · started \S+ ──\nout\n$`, string(logBytes), "the run's separator, then its output")

	// exit_code is null while the job runs.
	running := c.startJob("sleep 60")
	require.NoError(t, json.Unmarshal([]byte(c.ok("status", running, "--json")), &fields))
	assert.Nil(t, fields["exit_code"])
	assert.Nil(t, fields["ended_at"])
	c.ok("kill", running)
}

func TestTimeoutExits124(t *testing.T) {
	c := newCLI(t)
	c.serve()
	id := c.startJob("sleep 30", "--timeout", "300ms")
	r := c.run("wait", id)
	assert.Equal(t, 124, r.code)
	assert.Equal(t, "jobtop: job 1 timed out\n", r.stderr)
	assert.Equal(t, jobs.StateTimedOut, c.status(id).State)

	r = c.run("run", "--timeout", "soon", "--", "true")
	assert.Equal(t, 2, r.code, "a command line that cannot run")
	assert.Contains(t, r.stderr, `timeout "soon" is not a duration`)
	r = c.run("run", "--timeout", "99999999h", "--", "true")
	assert.Equal(t, 2, r.code, "a command line that cannot run")
	assert.Equal(t, "jobtop: --timeout \"99999999h\" is too large: at most 2562047h (about 292 years)\n", r.stderr)
	r = c.run("wait", id, "--timeout", "99999999h")
	assert.Equal(t, 2, r.code, "a command line that cannot run")
	assert.Contains(t, r.stderr, `"99999999h" is too large: at most 2562047h (about 292 years)`)
}

func TestUnknownIDs(t *testing.T) {
	c := newCLI(t)
	c.serve()
	for _, args := range [][]string{
		{"status", "99"}, {"logs", "99"}, {"wait", "99"}, {"stop", "99"},
		{"kill", "99"}, {"restart", "99"}, {"rm", "99"},
	} {
		r := c.run(args...)
		assert.Equal(t, 1, r.code, "%v", args)
		assert.Equal(t, "jobtop: no job with ID 99\n", r.stderr, "%v", args)
		assert.Empty(t, r.stdout)
	}
	r := c.run("status", "web")
	assert.Equal(t, 1, r.code)
	assert.Equal(t, "jobtop: no job \"web\": give a job ID (a number) or a job's name; `jobtop ls` lists them\n", r.stderr)
}

func TestJobsByName(t *testing.T) {
	c := newCLI(t)
	c.serve()
	c.startJob("echo first", "--name", "web")
	id := c.startJob("echo second", "--name", "web")
	c.ok("wait", "web")
	assert.Equal(t, id, c.status("web").ID.String(), "a name means the newest job with it")
	assert.Equal(t, []string{"second"}, c.logLines("web"))
}

func TestCwd(t *testing.T) {
	c := newCLI(t)
	c.serve()
	dir := t.TempDir()
	id := c.startJob("pwd", "--cwd", dir)
	c.ok("wait", id)
	assert.Equal(t, []string{dir}, c.logLines(id))

	// Without --cwd the job runs where jobtop run was called, not where
	// the server runs.
	here := t.TempDir()
	id = strings.TrimSpace(c.runIn(here, "run", "--", "pwd").stdout)
	c.ok("wait", id)
	assert.Equal(t, []string{here}, c.logLines(id))

	// A relative --cwd is relative to the caller.
	require.NoError(t, os.Mkdir(filepath.Join(here, "sub"), 0o755))
	id = strings.TrimSpace(c.runIn(here, "run", "--cwd", "sub", "--", "pwd").stdout)
	c.ok("wait", id)
	assert.Equal(t, []string{filepath.Join(here, "sub")}, c.logLines(id))

	r := c.run("run", "--cwd", "/no/such/dir", "--", "ls")
	assert.Equal(t, 1, r.code)
	assert.Equal(t, "jobtop: cwd \"/no/such/dir\" does not exist\n", r.stderr)
	assert.Empty(t, r.stdout)
}

func TestEnv(t *testing.T) {
	c := newCLI(t)
	c.serve()
	id := c.startJob(`echo "$FOO|$EQ|$EMPTY|"`, "--env", "FOO=bar baz", "--env", "EQ=a=b", "--env", "EMPTY=")
	c.ok("wait", id)
	assert.Equal(t, []string{"bar baz|a=b||"}, c.logLines(id))

	r := c.run("run", "--env", "NOEQUALS", "--", "true")
	assert.Equal(t, 2, r.code)
	assert.Equal(t, "jobtop: --env \"NOEQUALS\": write it as NAME=VALUE\n", r.stderr)
}

func TestEmptyCommand(t *testing.T) {
	c := newCLI(t)
	c.serve()
	for _, args := range [][]string{{"run", "--"}, {"run", "--", ""}, {"run", "--", " ", "\t"}} {
		r := c.run(args...)
		assert.Equal(t, 2, r.code, "%q: a command line it cannot run", args)
		assert.Equal(t, "jobtop: nothing to run: give the command after --, e.g. jobtop run -- make test\n", r.stderr)
	}
	assert.Equal(t, "[]\n", c.ok("ls", "--json"), "no job was created")
}

// Words after -- that only set variables (A=1 B=2, and no program) are a
// usage error, exit 2 as the other usage errors of run, refused before an
// instance is started for it; it was exit 1, from the instance, which
// run had started in the background to hear it.
func TestRunWithOnlyVariables(t *testing.T) {
	c := newCLI(t)
	for _, args := range [][]string{{"run", "--", "A=1", "B=2"}, {"run", "--name", "x", "--", "A=1", "EMPTY="}} {
		r := c.run(args...)
		assert.Equal(t, 2, r.code, "%q: %s", args, r.stderr)
		assert.Contains(t, r.stderr, "a command is needed after the variables", "%q", args)
	}
	assert.Equal(t, "jobtop: A=1 B=2 only sets variables: a command is needed after the variables, e.g. jobtop run -- A=1 B=2 make test\n",
		c.run("run", "--", "A=1", "B=2").stderr)
	assert.Equal(t, "jobtop: A='1 B' C=2 only sets variables: a command is needed after the variables, e.g. jobtop run -- A='1 B' C=2 make test\n",
		c.run("run", "--", "A=1 B", "C=2").stderr, "quoted as a shell reads them back")
	_, err := os.Stat(c.socket)
	assert.ErrorIs(t, err, os.ErrNotExist, "no instance was started for it")
}

// Words after -- are the job's, flags included; one is a command line,
// several a program's words ("&&" among them is an argument).
func TestWordsAfterDashDashAreTheJobs(t *testing.T) {
	c := newCLI(t)
	c.serve()
	id := c.startJob("echo a && echo b")
	c.ok("wait", id)
	id2 := strings.TrimSpace(c.ok("run", "--", "echo", "x", "&&", "echo", "--json"))
	c.ok("wait", id2)
	assert.Equal(t, []string{"a", "b"}, c.logLines(id))
	assert.Equal(t, []string{"x && echo --json"}, c.logLines(id2))
	assert.Equal(t, "echo x '&&' echo --json", c.status(id2).Command)

	var info jobs.Info
	require.NoError(t, json.Unmarshal([]byte(c.ok("run", "--json", "--name", "j", "--", "true")), &info))
	assert.Equal(t, "j", info.Name)
	assert.EqualValues(t, 3, info.ID)
}

// TestCursorReadsNoRepeats reads a job's output in two steps with
// --cursor: the second read returns only the lines the first did not.
func TestCursorReadsNoRepeats(t *testing.T) {
	c := newCLI(t)
	c.serve()
	fifo := mkfifo(t)
	id := c.startJob("for i in 1 2 3; do echo a$i; done; read x < " + fifo + "; for i in 1 2; do echo b$i; done; echo e1 >&2; sleep 60")
	assert.Equal(t, "a3\n", c.ok("wait", id, "--until", "^a3$", "--timeout", "20s"))

	var first control.OutputResponse
	require.NoError(t, json.Unmarshal([]byte(c.ok("logs", id, "--json")), &first))
	assert.Equal(t, []string{"a1", "a2", "a3"}, lineTexts(first.Lines))
	assert.EqualValues(t, 3, first.NextCursor)
	assert.Zero(t, first.Dropped)

	writeFifo(t, fifo, "go\n")
	// stdout and stderr are separate pipes: wait for the last line of each.
	c.ok("wait", id, "--until", "^b2$", "--timeout", "20s")
	c.ok("wait", id, "--until", "^e1$", "--timeout", "20s")
	var second control.OutputResponse
	require.NoError(t, json.Unmarshal([]byte(c.ok("logs", id, "--json", "--cursor", "3")), &second))
	assert.ElementsMatch(t, []string{"b1", "b2", "e1"}, lineTexts(second.Lines))
	assert.EqualValues(t, 6, second.NextCursor)

	var third control.OutputResponse
	require.NoError(t, json.Unmarshal([]byte(c.ok("logs", id, "--json", "--cursor", "6")), &third))
	assert.Empty(t, third.Lines)
	assert.EqualValues(t, 6, third.NextCursor)

	assert.Equal(t, []string{"e1"}, c.logLines(id, "--stderr"))
	assert.Equal(t, []string{"a1", "a2", "a3", "b1", "b2"}, c.logLines(id, "--stdout"))
	assert.Equal(t, []string{"b2"}, c.logLines(id, "--stdout", "--tail", "1"))
	assert.Len(t, c.logLines(id, "--tail", "2"), 2)
	c.ok("kill", id)
}

// TestLogsTailZero: --tail 0 prints no line, as tail -n 0, and with
// --json gives the cursor at the job's end.
func TestLogsTailZero(t *testing.T) {
	c := newCLI(t)
	c.serve()
	id := c.startJob("echo l1; echo l2; echo l3")
	c.ok("wait", id)
	assert.Equal(t, "", c.ok("logs", id, "--tail", "0"))
	assert.Equal(t, "", c.ok("logs", id, "--tail", "0", "--follow"))
	var r control.OutputResponse
	require.NoError(t, json.Unmarshal([]byte(c.ok("logs", id, "--json", "--tail", "0")), &r))
	assert.Empty(t, r.Lines)
	assert.Empty(t, r.Partial)
	assert.EqualValues(t, 3, r.NextCursor)
	assert.False(t, r.More)
	var all control.AllOutputResponse
	require.NoError(t, json.Unmarshal([]byte(c.ok("logs", "--all", "--json", "--tail", "0")), &all))
	assert.Empty(t, all.Lines)
	assert.NotZero(t, all.NextCursor)
	assert.Equal(t, "", c.ok("logs", "--all", "--tail", "0"))
	// Without --tail, every line.
	assert.Equal(t, "l1\nl2\nl3\n", c.ok("logs", id))
	assert.Equal(t, 2, c.run("logs", id, "--tail", "-1").code, "a command line it cannot run")
}

// TestLogsCursorPastTheEnd: a cursor past the job's newest line is an
// error, not an empty read that would skip the lines a restart writes.
func TestLogsCursorPastTheEnd(t *testing.T) {
	c := newCLI(t)
	c.serve()
	id := c.startJob("echo l1; echo l2")
	c.ok("wait", id)
	for _, flags := range [][]string{{"--cursor", "50"}, {"--cursor", "50", "--json"}, {"--cursor", "3", "--follow"}} {
		r := c.run(append([]string{"logs", id}, flags...)...)
		assert.Equal(t, 1, r.code, "%v", flags)
		assert.Contains(t, r.stderr, "is past job "+id+"'s last line (2)", "%v", flags)
		assert.Empty(t, r.stdout)
	}
	assert.Equal(t, "", c.ok("logs", id, "--cursor", "2"))
}

// TestLogsCursorOfARemovedJob: logs --cursor of a removed job says what
// logs of an unknown job says, with its exit code, not that the cursor
// is past the job's end.
func TestLogsCursorOfARemovedJob(t *testing.T) {
	c := newCLI(t)
	c.serve()
	id := c.startJob("seq 1 10")
	c.ok("wait", id)
	c.ok("rm", id)
	unknown := c.run("logs", id)
	require.NotZero(t, unknown.code)
	assert.Equal(t, "jobtop: no job with ID "+id+"\n", unknown.stderr)
	for _, flags := range [][]string{{"--cursor", "5"}, {"--cursor", "5", "--json"}, {"--cursor", "5", "--follow"}} {
		r := c.run(append([]string{"logs", id}, flags...)...)
		assert.Equal(t, unknown.code, r.code, "%v", flags)
		assert.Equal(t, unknown.stderr, r.stderr, "%v", flags)
		assert.Empty(t, r.stdout, "%v", flags)
	}
}

func TestWaitUntil(t *testing.T) {
	c := newCLI(t)
	c.serve()
	id := c.startJob(`echo booting; sleep 0.2; echo "listening on http://localhost:5173"; exec sleep 60`)
	r := c.run("wait", id, "--until", "listening on", "--timeout", "20s")
	assert.Equal(t, 0, r.code, r.stderr)
	assert.Equal(t, "listening on http://localhost:5173\n", r.stdout)
	assert.Equal(t, jobs.StateRunning, c.status(id).State, "the job keeps running")

	ended := c.startJob("echo nothing to see")
	r = c.run("wait", ended, "--until", "listening")
	assert.Equal(t, 1, r.code)
	assert.Equal(t, "jobtop: job 2 ended (succeeded) before an output line matched \"listening\"\n", r.stderr)

	r = c.run("wait", id, "--until", "never printed", "--timeout", "300ms")
	assert.Equal(t, 124, r.code)
	assert.Contains(t, r.stderr, "no output line of job 1 matched \"never printed\" within 300ms (the job keeps running)")

	r = c.run("wait", id, "--timeout", "300ms")
	assert.Equal(t, 124, r.code)
	assert.Contains(t, r.stderr, "job 1 is still running after 300ms")

	r = c.run("wait", id, "--until", "(")
	assert.Equal(t, 2, r.code)
	assert.Contains(t, r.stderr, `--until "(" is not a valid regular expression: missing closing ) at byte 0 ("(")`)

	// After a restart, the old run's lines do not count.
	c.ok("restart", id)
	r = c.run("wait", id, "--until", "listening on", "--timeout", "20s")
	assert.Equal(t, 0, r.code, r.stderr)
	assert.Equal(t, 2, c.status(id).Runs)
	c.ok("kill", id)
}

// TestWaitUntilAfterACursor: --until --cursor C waits for output after
// line C: the next prompt of a program typed into, where the prompt
// shown when C was read would match at once.
func TestWaitUntilAfterACursor(t *testing.T) {
	c := newCLI(t)
	c.serve()
	id := c.startJob(`echo banner; printf '$ '; read l; echo "got $l"; printf '$ '; exec sleep 60`, "--stdin", "pipe")
	prompt := `^\$ $`
	r := c.run("wait", id, "--until", prompt, "--timeout", "20s")
	require.Equal(t, 0, r.code, "the prompt shown now: %s", r.stderr)
	var read control.OutputResponse
	require.NoError(t, json.Unmarshal([]byte(c.ok("logs", id, "--json")), &read))
	r = c.run("wait", id, "--until", prompt, "--cursor", fmt.Sprint(read.NextCursor), "--timeout", "500ms")
	assert.Equal(t, 124, r.code, "the prompt shown when the cursor was read does not count: %s", r.stderr)
	require.Equal(t, uint64(1), read.NextCursor, "after the banner")
	_, waited := c.startWait("wait", id, "--until", prompt, "--cursor", fmt.Sprint(read.NextCursor), "--timeout", "20s")
	c.ok("send", id, "--enter", "hello")
	r = waited()
	assert.Equal(t, 0, r.code, r.stderr)
	assert.Equal(t, "$ \n", r.stdout, "the next prompt, not the line answered at the first")
	assert.Equal(t, []string{"banner", "$ got hello", "$ "}, c.logLines(id))

	r = c.run("wait", id, "--until", "x", "--cursor", "99")
	assert.Equal(t, 2, r.code)
	assert.Contains(t, r.stderr, "--cursor 99 is past job 1's last line (2)")
	r = c.run("wait", id, "--cursor", "0")
	assert.Equal(t, 2, r.code)
	assert.Contains(t, r.stderr, "give --until REGEX too")
	c.ok("kill", id)
}

// TestWaitUntilMatchesTextWithoutColours: --until matches a line's text
// without its colours (a pipe job's bold "Proceed" matches '^Proceed'),
// and a terminal's lines hold no sequence but colours (the cursor hidden
// around a question is not part of its line).
func TestWaitUntilMatchesTextWithoutColours(t *testing.T) {
	c := newCLI(t)
	c.serve()
	id := c.startJob(`printf '\033[1mProceed\033[0m? [y/N] \n'; exec sleep 60`)
	r := c.run("wait", id, "--until", `^Proceed\? \[y/N\] $`, "--timeout", "20s")
	assert.Equal(t, 0, r.code, r.stderr)
	assert.Equal(t, "\x1b[1mProceed\x1b[0m? [y/N] \n", r.stdout, "printed as held (a pipe)")

	tty := c.startJob(`printf '\033[?25lProceed? [y/N] \033[?25h\n'; exec sleep 60`, "--tty")
	r = c.run("wait", tty, "--until", `^Proceed\? \[y/N\] $`, "--timeout", "20s")
	assert.Equal(t, 0, r.code, r.stderr)
	assert.Equal(t, "Proceed? [y/N] \n", r.stdout)
	var out control.OutputResponse
	require.NoError(t, json.Unmarshal([]byte(c.ok("logs", tty, "--json")), &out))
	assert.Equal(t, []string{"Proceed? [y/N] "}, lineTexts(out.Lines))

	// A colour reset after a prompt, the job waiting: no line shows
	// nothing there to match '^$' (it matched at once).
	reset := c.startJob(`printf 'Name?\n\033[0m'; exec sleep 60`, "--tty")
	c.ok("wait", reset, "--until", "^Name", "--timeout", "20s")
	r = c.run("wait", reset, "--until", "^$", "--timeout", "1s")
	assert.NotEqual(t, 0, r.code, "nothing matched: %s", r.stdout)
	assert.Equal(t, "Name?", c.status(reset).LastLine)
	// A tab after the prompt only moves the cursor: no line either.
	tab := c.startJob(`printf 'Name?
	'; exec sleep 60`, "--tty")
	c.ok("wait", tab, "--until", "^Name", "--timeout", "20s")
	r = c.run("wait", tab, "--until", `^\s*$`, "--timeout", "1s")
	assert.NotEqual(t, 0, r.code, "nothing matched: %q", r.stdout)
	c.ok("kill", id, tty, reset, tab)
}

// TestKillLeavesNoDescendant kills a job whose children escaped its
// process group (setsid) and backgrounded themselves: none survive.
func TestKillLeavesNoDescendant(t *testing.T) {
	c := newCLI(t)
	c.serve()
	pids := filepath.Join(c.dir, "pids")
	id := c.startJob(`sleep 60 & echo $! > `+pids+`.1; setsid sh -c 'echo $$ > `+pids+`.2; sleep 60 & echo $! > `+pids+`.3; wait' & echo ready; wait`, "--name", "tree")
	c.ok("wait", id, "--until", "ready", "--timeout", "20s")
	var descendants []int
	require.Eventually(t, func() bool {
		descendants = descendants[:0]
		for i := 1; i <= 3; i++ {
			b, err := os.ReadFile(pids + "." + strconv.Itoa(i))
			pid, perr := strconv.Atoi(strings.TrimSpace(string(b)))
			if err != nil || perr != nil {
				return false
			}
			descendants = append(descendants, pid)
		}
		return true
	}, testTimeout, 20*time.Millisecond)
	for _, pid := range descendants {
		require.True(t, processAlive(pid), "pid %d runs before the kill", pid)
	}
	out := c.ok("kill", id)
	assert.Equal(t, "job 1 (tree): killed (SIGKILL)\n", out)
	require.Eventually(t, func() bool {
		for _, pid := range descendants {
			if processAlive(pid) {
				return false
			}
		}
		return true
	}, testTimeout, 20*time.Millisecond, "a descendant survived the kill")
}

func TestStopRestartRm(t *testing.T) {
	c := newCLI(t)
	c.serve()
	id := c.startJob("echo run; exec sleep 60", "--name", "svc")
	c.ok("wait", id, "--until", "^run$", "--timeout", "20s")
	first := c.status(id)

	out := c.ok("restart", id)
	second := c.status(id)
	assert.Equal(t, "job 1 (svc): running (pid "+strconv.Itoa(second.PID)+", run 2)\n", out)
	assert.Equal(t, 2, second.Runs)
	assert.NotEqual(t, first.PID, second.PID)
	assert.False(t, processAlive(first.PID), "the first run is gone")
	c.ok("wait", id, "--until", "^run$", "--timeout", "20s")
	assert.Equal(t, []string{"run", "── run 2 ──", "run"}, c.logLines(id))

	r := c.run("rm", id)
	assert.Equal(t, 1, r.code)
	assert.Equal(t, "jobtop: cannot remove job 1: it is running; stop it first\n", r.stderr)

	assert.Equal(t, "job 1 (svc): killed (SIGTERM)\n", c.ok("stop", id))
	assert.Equal(t, jobs.StateKilled, c.status(id).State)
	r = c.run("stop", id)
	assert.Equal(t, 1, r.code)
	assert.Equal(t, "jobtop: cannot stop job 1: it has ended (killed)\n", r.stderr)

	assert.Equal(t, "job 1 (svc): removed\n", c.ok("rm", id))
	assert.Equal(t, "[]\n", c.ok("ls", "--json"))
}

func TestLsTableAndJSON(t *testing.T) {
	c := newCLI(t)
	c.serve()
	a := c.startJob("exit 3", "--name", "fails")
	c.run("wait", a)
	b := c.startJob("sleep 60")
	pid := c.status(b).PID
	lines := strings.Split(strings.TrimSpace(c.ok("ls")), "\n")
	require.Len(t, lines, 3)
	assert.Equal(t, []string{"ID", "NAME", "STATE", "PID", "TIME", "EXIT", "COMMAND"}, strings.Fields(lines[0]))
	row1, row2 := strings.Fields(lines[1]), strings.Fields(lines[2])
	assert.Equal(t, []string{"1", "fails", "failed", "-"}, row1[:4])
	assert.Equal(t, []string{"3", "exit", "3"}, row1[5:])
	assert.Equal(t, []string{"2", "sleep", "running", strconv.Itoa(pid)}, row2[:4], "named after its program")
	assert.Equal(t, []string{"-", "sleep", "60"}, row2[5:])

	var list []jobs.Info
	require.NoError(t, json.Unmarshal([]byte(c.ok("ls", "--json")), &list))
	require.Len(t, list, 2)
	assert.Equal(t, jobs.StateFailed, list[0].State)
	assert.Equal(t, jobs.StateRunning, list[1].State)
	c.ok("kill", b)
}

// TestLsJSONIsTheJobsStatusGives: ls --json passes the instance's answer
// on rather than decoding and encoding it; the jobs it prints are those
// status --json prints, HTML characters and invalid UTF-8 included, and
// it is indented as every --json is.
func TestLsJSONIsTheJobsStatusGives(t *testing.T) {
	c := newCLI(t)
	c.serve()
	a := c.startJob(`printf 'a<b>&\377\n'`, "--name", "odd")
	c.ok("wait", a)
	b := c.startJob("exec sleep 60")
	out := c.ok("ls", "--json")
	var indented bytes.Buffer
	require.NoError(t, json.Indent(&indented, []byte(out), "", "  "))
	assert.Equal(t, out, indented.String(), "indented two spaces, as printJSON does")
	assert.True(t, strings.HasSuffix(out, "]\n"))

	var listed []map[string]any
	require.NoError(t, json.Unmarshal([]byte(out), &listed))
	require.Len(t, listed, 2)
	for i, id := range []string{a, b} {
		var one map[string]any
		require.NoError(t, json.Unmarshal([]byte(c.ok("status", id, "--json")), &one))
		delete(one, "usage") // sampled between the two reads
		delete(listed[i], "usage")
		assert.Equal(t, one, listed[i], "job %s", id)
	}
	assert.Equal(t, "printf 'a<b>&\\377\\n'", listed[0]["command"])
	assert.Equal(t, "a<b>&\ufffd", listed[0]["last_line"])
	c.ok("kill", b)
}

func TestLogsFollow(t *testing.T) {
	c := newCLI(t)
	c.serve()
	id := c.startJob(`for i in 1 2 3; do echo f$i; sleep 0.1; done; printf 'no newline'`)
	assert.Equal(t, "f1\nf2\nf3\nno newline\n", c.ok("logs", id, "--follow"))
	assert.Equal(t, jobs.StateSucceeded, c.status(id).State, "follow returns when the job has ended")

	id = c.startJob(`echo j1; echo j2 >&2`)
	var last control.OutputResponse
	var got []string
	for _, line := range strings.Split(strings.TrimSpace(c.ok("logs", id, "--follow", "--json", "--stderr")), "\n") {
		require.NoError(t, json.Unmarshal([]byte(line), &last))
		got = append(got, lineTexts(last.Lines)...)
	}
	assert.Equal(t, []string{"j2"}, got)
	assert.True(t, last.Ended)
}

func TestCompletion(t *testing.T) {
	c := newCLI(t)
	c.serve()
	for _, shell := range []string{"bash", "zsh", "fish"} {
		assert.Contains(t, c.ok("completion", shell), "jobtop", shell)
	}
	r := c.run("completion", "tcsh")
	assert.Equal(t, 2, r.code)
	assert.Equal(t, "jobtop: jobtop has no completion script for \"tcsh\": name one shell: bash, zsh or fish\n", r.stderr)
	r = c.run("completion")
	assert.Equal(t, 2, r.code)
	assert.Equal(t, "jobtop: name one shell: bash, zsh or fish\n", r.stderr)
	c.startJob("sleep 60", "--name", "web")
	out := c.ok("__complete", "kill", "")
	assert.Contains(t, out, "1\tweb (running)")
	c.startJob("sleep 60", "--name", "worker")
	c.startJob("sleep 60", "--name", "web")
	out = c.ok("__complete", "logs", "w")
	assert.Contains(t, out, "web\tjob 3 (running)\n", "a name, its newest job")
	assert.Contains(t, out, "worker\tjob 2 (running)\n")
	assert.Equal(t, 1, strings.Count(out, "web\t"), "once: %s", out)
	assert.NotContains(t, c.ok("__complete", "logs", "wo"), "web")
	assert.Contains(t, c.ok("__complete", "run", "--after", "wo"), "worker\tjob 2 (running)\n", "--after takes a name")
	assert.Contains(t, c.ok("__complete", "run", "--after", "1,wo"), "1,worker\tjob 2 (running)\n", "and a comma list")
	c.startJob("sleep 60", "--name", "2fa")
	out = c.ok("__complete", "logs", "2")
	assert.Contains(t, out, "2\tworker (running)\n", "an ID")
	assert.Contains(t, out, "2fa\tjob 4 (running)\n", "a name that starts with a digit")
	c.ok("kill", "4")
	c.ok("kill", "1")
	c.ok("kill", "2")
	c.ok("kill", "3")
}

func lineTexts(lines []jobs.Line) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = l.Text
	}
	return out
}

// wait --ready on a job that ran and ended: one without a ready check was
// ready once it ran, so it did not end first.
func TestWaitReadyAfterTheJobEnded(t *testing.T) {
	c := newCLI(t)
	c.serve()
	id := c.startJob("true")
	c.ok("wait", id)
	r := c.run("wait", id, "--ready")
	assert.Equal(t, 0, r.code, r.stderr)
	assert.Equal(t, "jobtop: job "+id+" was ready, and has ended since: succeeded (0)\n", r.stderr)

	failed := c.startJob("exit 3")
	c.run("wait", failed)
	r = c.run("wait", failed, "--ready")
	assert.Equal(t, 1, r.code, "ready, then failed: nothing to go on with")
	assert.Equal(t, "jobtop: job "+failed+" was ready, then ended failed (3)\n", r.stderr)
}

// wait --ready on a job that succeeded before its ready check passed
// exits 0, as a job that depends on it with ready takes it as ready and
// runs; it said "ended succeeded (0) before it was ready" and exited 1.
// One that failed before it was ready still exits 1.
func TestWaitReadyOnAJobThatSucceededBeforeItsCheck(t *testing.T) {
	c := newCLI(t)
	file := writeJobFile(t, t.TempDir(), "jobtop.yaml", "jobs:\n"+
		"  early: {cmd: echo done, ready: {log: never printed}}\n"+
		"  next: {cmd: echo went, depends_on: {early: ready}}\n"+
		"  broken: {cmd: exit 3, ready: {log: never printed}}\n")
	c.serveIn("", "-f", file)
	r := c.run("wait", "early", "--ready", "--timeout", "20s")
	assert.Equal(t, 0, r.code, r.stderr)
	assert.Equal(t, "jobtop: job 1 succeeded before its ready check passed: ready, as jobs that depend on it take it\n", r.stderr)
	c.ok("wait", "next", "--timeout", "20s") // the dependant ran, and succeeded

	r = c.run("wait", "broken", "--ready", "--timeout", "20s")
	assert.Equal(t, 1, r.code, r.stderr)
	assert.Equal(t, "jobtop: job 3 ended failed (3) before it was ready\n", r.stderr)
}

// wait --ready on a job that succeeded before its ready check passed and
// waits out its restart's backoff: ready at once, as its dependant takes
// it; the wait ran to its timeout (5 minutes here: the bound below is
// for that, not for speed).
func TestWaitReadyOnASucceededJobThatWillRestart(t *testing.T) {
	c := newCLI(t)
	file := writeJobFile(t, t.TempDir(), "jobtop.yaml", "jobs:\n"+
		"  again: {cmd: echo done, ready: {log: never printed}, restart: {policy: always, backoff: 10m}}\n"+
		"  next: {cmd: echo went, depends_on: {again: ready}}\n")
	c.serveIn("", "-f", file)
	c.ok("wait", "next", "--timeout", "20s") // the dependant took it as ready
	began := time.Now()
	r := c.run("wait", "again", "--ready", "--timeout", "5m")
	assert.Equal(t, 0, r.code, r.stderr)
	assert.Less(t, time.Since(began), 4*time.Minute, "the wait ran to its timeout")
}

// wait on a job stopped before it ran says so once.
func TestWaitOnAJobStoppedBeforeItRan(t *testing.T) {
	c := newCLI(t)
	file := writeJobFile(t, t.TempDir(), "jobtop.yaml",
		"jobs:\n  db: {cmd: exec sleep 600, ready: {log: never}}\n  web: {cmd: echo web, depends_on: {db: ready}}\n")
	c.serveIn("", "-f", file)
	c.ok("stop", "web")
	r := c.run("wait", "web")
	assert.Equal(t, exitNoRun, r.code)
	assert.Equal(t, "jobtop: job 2 was stopped before it ran\n", r.stderr)
}

// wait on a job that ran and that its stop command ended (no signal:
// it exited by itself once asked to) gives the code it exited with, not
// "stopped before it ran" (125, the exit of a job that never ran).
func TestWaitOnAJobItsStopCommandEnded(t *testing.T) {
	c := newCLI(t)
	dir := t.TempDir()
	file := writeJobFile(t, dir, "jobtop.yaml", "jobs:\n"+
		"  clean: {cmd: 'echo up; while [ ! -e stop-clean ]; do sleep 0.05; done; echo bye', stop: {command: touch stop-clean, grace: 30s}}\n"+
		"  code: {cmd: 'echo up; while [ ! -e stop-code ]; do sleep 0.05; done; exit 3', stop: {command: touch stop-code, grace: 30s}}\n"+
		"  trapped: {cmd: \"trap 'echo bye; exit 0' TERM; echo up; while :; do sleep 0.05; done\", stop: {grace: 30s}}\n"+
		"  plain: {cmd: 'echo up; exec sleep 600', stop: {grace: 30s}}\n")
	c.serveIn("", "-f", file)
	for _, name := range []string{"clean", "code", "trapped", "plain"} {
		c.ok("wait", name, "--until", "^up$", "--timeout", "60s")
		c.ok("stop", name)
	}
	r := c.run("wait", "clean")
	assert.Equal(t, 0, r.code, r.stderr)
	assert.Equal(t, "jobtop: job 1 was stopped, and exited 0\n", r.stderr)
	r = c.run("wait", "code")
	assert.Equal(t, 3, r.code, r.stderr)
	assert.Equal(t, "jobtop: job 2 was stopped, and exited 3\n", r.stderr)
	// A job that handles the stop signal and exits by itself: its code.
	r = c.run("wait", "trapped")
	assert.Equal(t, 0, r.code, r.stderr)
	assert.Equal(t, "jobtop: job 3 was stopped by SIGTERM, and exited 0\n", r.stderr)
	// One the signal ended: 128+N.
	r = c.run("wait", "plain")
	assert.Equal(t, 128+15, r.code, r.stderr)
	assert.Equal(t, "jobtop: job 4 was killed by SIGTERM\n", r.stderr)
}

// A job from jobtop run starts from the environment run was called in
// (a virtualenv activated after the instance started, its PATH), not the
// instance's; --env goes on top; jobtop's own variables are the
// instance's to set.
func TestRunPassesTheCallersEnvironment(t *testing.T) {
	c := newCLI(t)
	c.serve() // its environment has no CALLER_ONLY
	bin := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(bin, "only-in-callers-path"), []byte("#!/bin/sh\necho found in the PATH of run\n"), 0o755))
	c.env = append(slices.Clip(c.env), "CALLER_ONLY=from the caller", "PATH="+bin+":"+os.Getenv("PATH"), "JOBTOP_JOB_ID=999")
	id := c.startJob(`echo "$CALLER_ONLY / $ADDED / $JOBTOP_JOB_ID"; only-in-callers-path`, "--env", "ADDED=by --env")
	r := c.run("wait", id)
	require.Equal(t, 0, r.code, "%q", c.logLines(id))
	assert.Equal(t, []string{"from the caller / by --env / " + id, "found in the PATH of run"}, c.logLines(id))
	direct := c.startJob("only-in-callers-path") // no shell syntax: run directly, found in that PATH
	c.ok("wait", direct)
	assert.Equal(t, []string{"found in the PATH of run"}, c.logLines(direct))
}

// Several words after -- are a program and its arguments, run directly:
// each reaches it as given, quotes, spaces and all (pueue's and ssh's
// joining would run "printf %s|\n a b ..." through the shell); the job
// shows them quoted as a shell would need. One word is a command line.
func TestRunWordsReachTheProgramAsGiven(t *testing.T) {
	c := newCLI(t)
	c.serve()
	words := []string{"printf", `[%s]\n`, "a b", "it's", "$HOME", "*", "", "(x)", "WORD=a b", "café"}
	out := c.ok(append([]string{"run", "--json", "--"}, words...)...)
	var info jobs.Info
	require.NoError(t, json.Unmarshal([]byte(out), &info))
	id := strconv.Itoa(int(info.ID))
	c.ok("wait", id)
	assert.Equal(t, []string{"[a b]", "[it's]", "[$HOME]", "[*]", "[]", "[(x)]", "[WORD=a b]", "[café]"}, c.logLines(id))
	assert.Equal(t, `printf '[%s]\n' 'a b' "it's" '$HOME' '*' '' '(x)' WORD='a b' café`, info.Command)

	env := c.ok("run", "--", "env", "GREETING=hello there", "sh", "-c", `echo "$GREETING"`)
	c.ok("wait", strings.TrimSpace(env))
	assert.Equal(t, []string{"hello there"}, c.logLines(strings.TrimSpace(env)))

	// Leading NAME=value words set variables for the program, as a
	// shell's do (CUDA_VISIBLE_DEVICES=1 python3 train.py).
	vars := strings.TrimSpace(c.ok("run", "--", "FOO=1 2", "printenv", "FOO"))
	c.ok("wait", vars)
	assert.Equal(t, []string{"1 2"}, c.logLines(vars))
	assert.Equal(t, "printenv", c.status(vars).Name)

	// A program not found cannot start: its ID still, and an exit that
	// says so.
	r := c.run("run", "--", "FOO=1", "no-such-program-jobtop")
	notFound := strings.TrimSpace(r.stdout)
	assert.Equal(t, 125, r.code)
	assert.Regexp(t, `^jobtop: job `+notFound+` could not start: .*"no-such-program-jobtop" not found`, r.stderr)
	st := c.status(notFound)
	assert.Equal(t, jobs.StateError, st.State)
	assert.Contains(t, st.Error, `"no-such-program-jobtop" not found`)
	assert.Equal(t, "FOO=1 no-such-program-jobtop", st.Command)

	// Run directly: a first word that starts with - is no option.
	bin := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(bin, "-v"), []byte("#!/bin/sh\necho \"dash-v got $1\"\n"), 0o755))
	c.env = append(slices.Clip(c.env), "PATH="+bin+":"+os.Getenv("PATH"))
	dash := strings.TrimSpace(c.ok("run", "--", "-v", "hello"))
	c.ok("wait", dash)
	assert.Equal(t, []string{"dash-v got hello"}, c.logLines(dash))

	line := c.startJob("echo one && echo two")
	c.ok("wait", line)
	assert.Equal(t, []string{"one", "two"}, c.logLines(line))
}

// An environment larger than a request carries still starts the job,
// without its largest variables, and says which.
func TestRunWithAHugeEnvironment(t *testing.T) {
	c := newCLI(t)
	c.serve()
	c.env = slices.Clip(c.env)
	for i := range 6 { // 600 KiB; one variable holds at most 128 KiB
		c.env = append(c.env, fmt.Sprintf("HUGE%d=%s", i, strings.Repeat("a", 100<<10)))
	}
	c.env = append(c.env, "SMALL=kept")
	r := c.run("run", "--", "echo ${#HUGE0} ${#HUGE5} $SMALL")
	require.Equal(t, 0, r.code, r.stderr)
	assert.Regexp(t, `the job gets it without HUGE\d, the largest\n`, r.stderr)
	id := strings.TrimSpace(r.stdout)
	c.ok("wait", id)
	out := c.logLines(id)
	require.Len(t, out, 1)
	assert.True(t, strings.HasSuffix(out[0], " kept"), "%q: the rest of the environment is the job's", out[0])
}

// run --name with a name a live job has already says so: the name now
// names the newest, and the first job runs on (a second dev server an
// agent did not notice).
func TestRunSaysAnotherLiveJobHasItsName(t *testing.T) {
	c := newCLI(t)
	c.serve()
	first := strings.TrimSpace(c.ok("run", "--name", "web", "--", "exec sleep 600"))
	r := c.run("run", "--name", "web", "--", "exec sleep 600")
	require.Equal(t, 0, r.code, r.stderr)
	second := strings.TrimSpace(r.stdout)
	assert.Equal(t, "jobtop: job "+first+", also named web, has not ended: web names job "+second+" now (the newest); jobtop kill "+first+" ends it\n", r.stderr)
	c.ok("kill", first)
	c.run("wait", first) // killed: ended
	r = c.run("run", "--name", "web", "--", "true")
	assert.Equal(t, "jobtop: job "+second+", also named web, has not ended: web names job "+strings.TrimSpace(r.stdout)+" now (the newest); jobtop kill "+second+" ends it\n", r.stderr)
	r = c.run("run", "--name", "other", "--", "true")
	assert.Empty(t, r.stderr, "a name no live job has")
}
