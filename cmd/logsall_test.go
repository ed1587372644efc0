package cmd

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"jobtop/control"
	"jobtop/jobs"
)

// jobtop logs --all prints every job's lines in arrival order behind the
// job's name; --follow goes on until the jobs end; --json gives the
// stream for programs.
func TestLogsAll(t *testing.T) {
	c := newCLI(t)
	c.serve()
	f0, f1 := mkfifo(t), mkfifo(t)
	web := c.startJob(fmt.Sprintf("echo listening; read x < %s; echo 'GET /'", f1), "--name", "web")
	db := c.startJob(fmt.Sprintf("read x < %s; echo ready", f0), "--name", "database")
	c.ok("wait", web, "--until", "^listening$", "--timeout", "20s")

	follow := make(chan result, 1)
	go func() { follow <- c.run("logs", "--all", "--follow") }()
	writeFifo(t, f0, "go\n")
	c.ok("wait", db)
	writeFifo(t, f1, "go\n")
	c.ok("wait", web)

	want := "web      | listening\ndatabase | ready\nweb      | GET /\n"
	assert.Equal(t, want, c.ok("logs", "--all"), "no colours when not a terminal")
	r := <-follow
	require.Equal(t, 0, r.code, r.stderr)
	assert.Equal(t, want, r.stdout, "--follow ends when the jobs have")

	var resp control.AllOutputResponse
	require.NoError(t, json.Unmarshal([]byte(c.ok("logs", "--all", "--json", "--tail", "2")), &resp))
	require.Len(t, resp.Lines, 2)
	assert.Equal(t, "database", resp.Lines[0].Name)
	assert.Equal(t, "ready", resp.Lines[0].Text)
	assert.Equal(t, "GET /", resp.Lines[1].Text)
	assert.Equal(t, resp.Lines[1].Arrival, resp.NextCursor)
	assert.True(t, resp.Ended)
	assert.Equal(t, "web      | GET /\n", c.ok("logs", "--all", "--cursor", fmt.Sprint(resp.Lines[0].Arrival)))

	var lines []string
	for _, l := range strings.Split(strings.TrimSpace(c.ok("logs", "--all", "--follow", "--json")), "\n") {
		var r control.AllOutputResponse
		require.NoError(t, json.Unmarshal([]byte(l), &r))
		for _, jl := range r.Lines {
			lines = append(lines, jl.Name+": "+jl.Text)
		}
	}
	assert.Equal(t, []string{"web: listening", "database: ready", "web: GET /"}, lines)

	r = c.run("logs", "--all", web)
	assert.NotEqual(t, 0, r.code)
	assert.NotEmpty(t, r.stderr)
}

// logs --all --stderr is every job's stderr (and --stdout every job's
// stdout), in arrival order, as logs ID --stderr is one job's: --tail
// counts the lines of that stream, and --follow prints only them.
func TestLogsAllOneStream(t *testing.T) {
	c := newCLI(t)
	c.serve()
	web := c.startJob("echo out1; echo err1 >&2; echo out2; echo err2 >&2", "--name", "web")
	c.ok("wait", web)
	db := c.startJob("echo err3 >&2; echo out3; echo out4", "--name", "db")
	c.ok("wait", db)

	assert.Equal(t, "web | err1\nweb | err2\ndb  | err3\n", c.ok("logs", "--all", "--stderr"))
	assert.Equal(t, "web | out1\nweb | out2\ndb  | out3\ndb  | out4\n", c.ok("logs", "--all", "--stdout"))
	assert.Equal(t, "web | err2\ndb  | err3\n", c.ok("logs", "--all", "--stderr", "--tail", "2"), "the newest 2 lines of stderr, not of all")
	assert.Equal(t, "web | err1\nweb | err2\ndb  | err3\n", c.ok("logs", "--all", "--stderr", "--follow"))

	var resp control.AllOutputResponse
	require.NoError(t, json.Unmarshal([]byte(c.ok("logs", "--all", "--stderr", "--json", "--tail", "1")), &resp))
	require.Len(t, resp.Lines, 1)
	assert.Equal(t, "err3", resp.Lines[0].Text)
	assert.Equal(t, jobs.Stderr, resp.Lines[0].Stream)

	r := c.run("logs", "--all", "--stdout", "--stderr")
	assert.Equal(t, 2, r.code, "one stream or the other")

	tty := c.startJob("echo on a terminal", "--tty", "--name", "term")
	c.ok("wait", tty)
	r = c.run("logs", "--all", "--stderr")
	require.Equal(t, 0, r.code, r.stderr)
	assert.Equal(t, "web  | err1\nweb  | err2\ndb   | err3\n", r.stdout)
	assert.Equal(t, "jobtop: job "+tty+" runs on a terminal, which has one stream: its output is all on stdout\n", r.stderr)
}

func TestLightBackground(t *testing.T) {
	for v, light := range map[string]bool{"": false, "15;0": false, "0;15": true, "0;7": true, "7;default;0": false, "garbage": false} {
		assert.Equal(t, light, lightBackground(v), "COLORFGBG=%q", v)
	}
}

// TestLogsAllSaysARemovedJobsLinesAreGone: logs --all from a cursor
// before the rest of a job removed since says on stderr that its lines
// went with it, rather than skip them without a word.
func TestLogsAllSaysARemovedJobsLinesAreGone(t *testing.T) {
	c := newCLI(t)
	c.serve()
	ja := c.startJob("seq 1 5", "--name", "ja")
	c.ok("wait", ja)
	jb := c.startJob("seq 101 105", "--name", "jb")
	c.ok("wait", jb)
	var first control.AllOutputResponse
	require.NoError(t, json.Unmarshal([]byte(c.ok("logs", "--all", "--json", "--tail", "6")), &first))
	require.Equal(t, "ja", first.Lines[0].Name)
	require.Equal(t, "jb", first.Lines[1].Name)
	cursor := fmt.Sprint(first.Lines[0].Arrival - 1) // before ja's line 5
	c.ok("rm", ja)
	r := c.run("logs", "--all", "--cursor", cursor)
	require.Equal(t, 0, r.code, r.stderr)
	assert.Equal(t, "jb | 101\njb | 102\njb | 103\njb | 104\njb | 105\n", r.stdout)
	assert.Equal(t, "jobtop: ja: some of its lines are no longer held here: job "+ja+" was removed; its log file has them\n", r.stderr)
	r = c.run("logs", "--all")
	assert.Empty(t, r.stderr, "a read from the start names no job removed before: ls does not list it either")
}

// Many jobs removed by the cap on finished jobs: logs --all and --tail
// print the lines held and no note for each removed job (rev62: one
// line each, 93 for 80 jobs); a read that goes on from a cursor names
// the first few removed since, and counts the rest in one line.
func TestLogsAllOfManyRemovedJobs(t *testing.T) {
	c := newCLI(t)
	c.serveIn("", "--keep-finished", "1")
	first := c.startJob("echo first", "--name", "j0")
	c.ok("wait", first)
	var start control.AllOutputResponse
	require.NoError(t, json.Unmarshal([]byte(c.ok("logs", "--all", "--json")), &start))
	cursor := fmt.Sprint(start.NextCursor)
	for i := 1; i <= 8; i++ {
		c.ok("wait", c.startJob(fmt.Sprintf("echo line%d; echo more%d", i, i), "--name", fmt.Sprintf("j%d", i)))
	}
	r := c.run("logs", "--all", "--tail", "1")
	require.Equal(t, 0, r.code, r.stderr)
	assert.Equal(t, "j8 | more8\n", r.stdout)
	assert.Empty(t, r.stderr)
	r = c.run("logs", "--all")
	assert.Empty(t, r.stderr)
	r = c.run("logs", "--all", "--cursor", cursor)
	require.Equal(t, 0, r.code, r.stderr)
	assert.Equal(t, "j8 | line8\nj8 | more8\n", r.stdout)
	assert.Equal(t, "jobtop: j1: 2 of its lines are no longer held here: job 2 was removed; its log file has them\n"+
		"jobtop: j2: 2 of its lines are no longer held here: job 3 was removed; its log file has them\n"+
		"jobtop: j3: 2 of its lines are no longer held here: job 4 was removed; its log file has them\n"+
		"jobtop: and 4 more jobs removed since with lines not read here (job 5 (j4), job 6 (j5), job 7 (j6)...); their log files have them\n", r.stderr)
}
