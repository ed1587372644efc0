package mcp

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"jobtop/jobs"
)

// Every tool is listed with a description and an input schema from its Go
// type (job arguments take an ID or a name; enums and minimums where they
// apply), an output schema. The server's instructions give the loop.
func TestToolsSchemasAndInstructions(t *testing.T) {
	e := newEnv(t)
	res, err := e.session.ListTools(ctxT(t), nil)
	require.NoError(t, err)
	schemas := map[string]*jsonschema.Schema{}
	for _, tool := range res.Tools {
		require.NotEmpty(t, tool.Description, tool.Name)
		require.NotNil(t, tool.OutputSchema, tool.Name)
		b, err := json.Marshal(tool.InputSchema)
		require.NoError(t, err)
		var s jsonschema.Schema
		require.NoError(t, json.Unmarshal(b, &s), tool.Name)
		require.Equal(t, "object", s.Type, tool.Name)
		schemas[tool.Name] = &s
	}
	names := make([]string, 0, len(schemas))
	for n := range schemas {
		names = append(names, n)
	}
	require.ElementsMatch(t, []string{"run_job", "list_jobs", "job_status", "read_output", "wait_job", "stop_job", "kill_job", "restart_job", "remove_job", "search_output", "send_input", "read_screen"}, names)

	run := schemas["run_job"]
	for _, p := range []string{"command", "argv", "name", "cwd", "env", "timeout", "wait_for", "wait_timeout", "tty"} {
		require.Contains(t, run.Properties, p)
		require.NotEmpty(t, run.Properties[p].Description, p)
	}
	require.Empty(t, run.Required, "every run_job argument is optional")
	require.ElementsMatch(t, []string{"string", "number"}, run.Properties["timeout"].Types)
	for _, tool := range []string{"job_status", "read_output", "wait_job", "stop_job", "kill_job", "restart_job", "remove_job", "send_input", "read_screen"} {
		require.Equal(t, []string{"id"}, schemas[tool].Required[:1], tool)
		require.ElementsMatch(t, []string{"integer", "string"}, schemas[tool].Properties["id"].Types, tool)
	}
	require.Equal(t, []any{"stdout", "stderr"}, schemas["read_output"].Properties["stream"].Enum)
	require.Equal(t, []string{"pattern"}, schemas["search_output"].Required)
	require.Contains(t, schemas["list_jobs"].Properties["state"].Enum, "running")

	inst := e.session.InitializeResult().Instructions
	for _, want := range []string{"longer than a few seconds", "run_job", "wait_for", "next_cursor", "kill_job", "the person", "tty: true", "send_input", "read_screen"} {
		require.Contains(t, inst, want)
	}
}

// run_job starts the job with origin mcp and the client's name, in the
// server's directory by default or a relative cwd under it, with env and
// argv; wait_for a regex answers with the matching line of a job that
// goes on running.
func TestRunJobWaitsForALine(t *testing.T) {
	e := newEnv(t)
	var out RunJobOutput
	text := e.ok("run_job", map[string]any{
		"name": "web", "command": `echo booting; echo "listening on $PORT in $(pwd)"; exec sleep 60`,
		"env": map[string]string{"PORT": "8080"}, "wait_for": "listening on \\d+",
	}, &out)
	require.NotNil(t, out.Wait)
	require.Equal(t, "matched", out.Wait.Outcome)
	require.Equal(t, "listening on 8080 in "+e.dir, out.Wait.Matched.Text)
	require.Equal(t, uint64(2), out.Wait.Matched.Seq)
	require.Equal(t, "running", out.Job.State)
	require.Contains(t, text, "line 2: listening on 8080")
	require.Contains(t, text, "read_output with cursor 2")

	info := e.job(out.Job.ID)
	require.Equal(t, "mcp", info.Origin)
	require.Equal(t, "test-agent", info.Client)
	require.Equal(t, "mcp", out.Job.Origin)

	require.NoError(t, mkdir(e.dir+"/sub"))
	var sub RunJobOutput
	e.ok("run_job", map[string]any{"argv": []string{"pwd"}, "cwd": "sub", "wait_for": "exit"}, &sub)
	require.Equal(t, "exited", sub.Wait.Outcome)
	require.Equal(t, "succeeded", sub.Job.State)
	require.Equal(t, e.dir+"/sub", sub.Wait.LastLines[0].Text)
}

// wait_for exit answers with how the job ended and its last lines;
// "ready" answers once it runs; a regex that a job's end beats says so;
// one that never comes times out, leaving the job running.
func TestRunJobWaitOutcomes(t *testing.T) {
	e := newEnv(t)
	var out RunJobOutput
	text := e.ok("run_job", map[string]any{"command": "echo compiling; echo 'main.go:3: undefined: x' >&2; exit 2", "wait_for": "exit"}, &out)
	require.Equal(t, "exited", out.Wait.Outcome)
	require.Equal(t, "failed", out.Job.State)
	require.Equal(t, 2, *out.Job.ExitCode)
	// stdout and stderr are two pipes: which line comes first is up to the
	// scheduler.
	var got []string
	for _, l := range out.Wait.LastLines {
		got = append(got, l.Stream+":"+l.Text)
	}
	require.ElementsMatch(t, []string{"stdout:compiling", "stderr:main.go:3: undefined: x"}, got)
	require.Contains(t, text, "failed (exit 2)")
	require.Contains(t, text, "[stderr] main.go:3: undefined: x")

	e.ok("run_job", map[string]any{"command": "exec sleep 60", "wait_for": "ready"}, &out)
	require.Equal(t, "ready", out.Wait.Outcome)
	require.Equal(t, "running", out.Job.State)

	text = e.ok("run_job", map[string]any{"command": "echo starting; exit 1", "wait_for": "listening"}, &out)
	require.Equal(t, "ended", out.Wait.Outcome)
	require.Contains(t, text, `the job ended before a line matched "listening"`)
	require.Equal(t, "starting", out.Wait.LastLines[0].Text)

	text = e.ok("run_job", map[string]any{"command": "echo up; exec sleep 60", "wait_for": "never printed", "wait_timeout": 0.3}, &out)
	require.Equal(t, "timed_out", out.Wait.Outcome)
	require.Equal(t, "running", out.Job.State)
	require.Contains(t, text, "the job keeps running")
	require.Equal(t, "running", string(e.job(out.Job.ID).State))
}

// read_output by cursor returns only lines not seen yet; the first read
// from 0 returns everything held.
func TestReadOutputByCursor(t *testing.T) {
	e := newEnv(t)
	fifo := mkfifo(t)
	id := e.run("gen", "for i in 1 2 3; do echo first $i; done; read l < "+fifo+"; for i in 1 2; do echo second $i; done; exec sleep 60")
	var r ReadOutputResult
	require.Eventually(t, func() bool {
		e.ok("read_output", map[string]any{"id": id}, &r)
		return len(r.Lines) == 3
	}, deadline, 20*time.Millisecond)
	require.Equal(t, uint64(3), r.NextCursor)
	require.False(t, r.More)
	require.False(t, r.Ended)

	writeFifo(t, fifo, "go\n")
	var r2 ReadOutputResult
	require.Eventually(t, func() bool {
		e.ok("read_output", map[string]any{"id": "gen", "cursor": r.NextCursor}, &r2)
		return len(r2.Lines) == 2
	}, deadline, 20*time.Millisecond)
	require.Equal(t, []OutputLine{{Seq: 4, Stream: "stdout", Text: "second 1"}, {Seq: 5, Stream: "stdout", Text: "second 2"}}, r2.Lines)

	var r3 ReadOutputResult
	text := e.ok("read_output", map[string]any{"id": id, "cursor": r2.NextCursor}, &r3)
	require.Empty(t, r3.Lines)
	require.Contains(t, text, "no new lines")
}

// One read holds at most 200 lines and 16 KiB by default, and says how
// many are left; asking for more than the caps is capped, a long line is
// cut, tail reads the newest, stream filters, escapes go.
func TestReadOutputCaps(t *testing.T) {
	e := newEnv(t)
	id := e.run("many", "seq 1 1000")
	e.waitEnded(id)
	var r ReadOutputResult
	text := e.ok("read_output", map[string]any{"id": id}, &r)
	require.Len(t, r.Lines, DefaultMaxLines)
	require.Equal(t, uint64(200), r.NextCursor)
	require.True(t, r.More)
	require.Equal(t, uint64(800), r.Remaining)
	require.False(t, r.Ended, "more lines follow: not the end of the output")
	require.Contains(t, text, "800 more lines after next_cursor 200: call read_output with cursor 200")

	e.ok("read_output", map[string]any{"id": id, "cursor": 900, "max_lines": 5000}, &r)
	require.Len(t, r.Lines, 100)
	require.True(t, r.Ended)
	require.Contains(t, r.Note, "max_lines was capped at 1000")
	require.Contains(t, r.Note, "the job has ended: no more lines will come after these")

	e.ok("read_output", map[string]any{"id": id, "tail": 3}, &r)
	require.Equal(t, []OutputLine{{Seq: 998, Stream: "stdout", Text: "998"}, {Seq: 999, Stream: "stdout", Text: "999"}, {Seq: 1000, Stream: "stdout", Text: "1000"}}, r.Lines)

	wide := e.run("wide", `i=0; while [ $i -lt 100 ]; do printf '%01000d\n' $i; i=$((i+1)); done; head -c 10000 /dev/zero | tr '\0' x; echo`)
	e.waitEnded(wide)
	e.ok("read_output", map[string]any{"id": wide}, &r)
	require.Equal(t, 16, len(r.Lines), "16 lines of 1000 bytes fill 16 KiB")
	require.LessOrEqual(t, textBytes(r.Lines), DefaultMaxBytes)
	require.Equal(t, uint64(85), r.Remaining)
	e.ok("read_output", map[string]any{"id": wide, "tail": 1}, &r)
	require.Len(t, r.Lines, 1)
	require.True(t, strings.HasPrefix(r.Lines[0].Text, strings.Repeat("x", 2048)+"… [7952 bytes cut]"), r.Lines[0].Text[2040:])
	e.ok("read_output", map[string]any{"id": wide, "max_bytes": 1 << 20}, &r)
	require.Contains(t, r.Note, "max_bytes was capped at 65536")
	require.LessOrEqual(t, textBytes(r.Lines), MaxMaxBytes)

	mixed := e.run("mixed", `printf '\033[31mred\033[0m out\n'; echo err >&2; printf 'progress 10%%\rprogress 100%%\n'; printf 'prompt> '; exec sleep 60`)
	require.Eventually(t, func() bool {
		e.ok("read_output", map[string]any{"id": mixed}, &r)
		return len(r.Lines) == 3 && len(r.Partial) == 1
	}, deadline, 20*time.Millisecond)
	// stdout and stderr are two pipes: their order is the reader's.
	require.ElementsMatch(t, []string{"red out", "[stderr] err", "progress 100%"}, lineTexts(r.Lines))
	require.Equal(t, "prompt> ", r.Partial[0].Text)
	e.ok("read_output", map[string]any{"id": mixed, "stream": "stderr"}, &r)
	require.Equal(t, []string{"[stderr] err"}, lineTexts(r.Lines))
}

func lineTexts(lines []OutputLine) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = l.text()
	}
	return out
}

func textBytes(lines []OutputLine) int {
	n := 0
	for _, l := range lines {
		n += len(l.Text)
	}
	return n
}

// Lines memory no longer holds are counted as dropped, and the note
// points at the log file, where search_output in_log finds them.
func TestReadOutputDroppedAndLogSearch(t *testing.T) {
	mgr, api := newInstance(t, jobs.StoreOptions{MaxLines: 100})
	e := &env{t: t, mgr: mgr, api: api, dir: t.TempDir()}
	e.srv = New(Options{Client: api, Dir: e.dir})
	e.session, _ = connect(t, e.srv, "test-agent")
	id := e.run("long", "seq 1 300")
	e.waitEnded(id)
	var r ReadOutputResult
	text := e.ok("read_output", map[string]any{"id": id}, &r)
	require.Equal(t, uint64(200), r.Dropped)
	require.Equal(t, uint64(201), r.Lines[0].Seq)
	require.Contains(t, text, "200 lines before these are no longer in memory; search_output with in_log: true")

	var s SearchResult
	e.ok("search_output", map[string]any{"id": id, "pattern": "^1[0-9]$"}, &s)
	require.Empty(t, s.Matches, "lines 10-19 are gone from memory")
	e.ok("search_output", map[string]any{"id": id, "pattern": "^1[0-9]$", "in_log": true}, &s)
	require.Len(t, s.Matches, 10)
	// Line 1 of the log file is the run's separator.
	require.Equal(t, SearchMatch{Job: id, Name: "long", Line: 11, Text: "10"}, s.Matches[0])
	require.Equal(t, "log", s.Searched)
}

// search_output finds lines in one job or all, with line numbers that are
// cursors, stops at max_matches and says so.
func TestSearchOutput(t *testing.T) {
	e := newEnv(t)
	a := e.run("a", "echo ok; echo 'ERROR: disk full' >&2; echo fine")
	b := e.run("b", "seq 1 50 | sed 's/^/error /'")
	e.waitEnded(a)
	e.waitEnded(b)
	var s SearchResult
	text := e.ok("search_output", map[string]any{"pattern": "(?i)error"}, &s)
	require.Len(t, s.Matches, 50, "the default max_matches")
	require.True(t, s.More)
	m := s.Matches[0]
	require.Equal(t, SearchMatch{Job: a, Name: "a", Line: m.Line, Stream: "stderr", Text: "ERROR: disk full"}, m)
	require.Equal(t, SearchMatch{Job: b, Name: "b", Line: 1, Stream: "stdout", Text: "error 1"}, s.Matches[1])
	require.Contains(t, text, fmt.Sprintf("1 a:%d: [stderr] ERROR: disk full", m.Line))
	require.Contains(t, text, "2 b:1: error 1\n", "stdout lines are not marked in the text")
	var r ReadOutputResult
	e.ok("read_output", map[string]any{"id": a, "cursor": m.Line - 1, "max_lines": 1}, &r)
	require.Equal(t, "ERROR: disk full", r.Lines[0].Text, "a match's line number is a cursor")
	require.Contains(t, text, "stopped at 50 matches")

	e.ok("search_output", map[string]any{"id": "b", "pattern": "error 4\\d", "max_matches": 3}, &s)
	require.Len(t, s.Matches, 3)
	require.Equal(t, uint64(40), s.Matches[0].Line)
	require.True(t, s.More)

	e.ok("search_output", map[string]any{"id": b, "pattern": "^nothing$"}, &s)
	require.Empty(t, s.Matches)
	require.False(t, s.More)
}

// wait_job waits for a line that comes later, for readiness, for the
// exit; a timeout above 10 minutes is capped, and said so.
func TestWaitJob(t *testing.T) {
	e := newEnv(t)
	// Two fifos: a second read of one fifo could open it while the first
	// write still holds it, and read nothing.
	fifo, fifo2 := mkfifo(t), mkfifo(t)
	id := e.run("srv", "echo starting; read l < "+fifo+"; echo 'ready to serve'; read l < "+fifo2+"; exit 0")
	done := make(chan WaitResult, 1)
	go func() {
		var w WaitResult
		e.ok("wait_job", map[string]any{"id": "srv", "until": "ready to \\w+"}, &w)
		done <- w
	}()
	writeFifo(t, fifo, "go\n")
	w := <-done
	require.Equal(t, "matched", w.Outcome)
	require.Equal(t, "ready to serve", w.Matched.Text)

	e.ok("wait_job", map[string]any{"id": id, "until": "ready"}, &w)
	require.Equal(t, "ready", w.Outcome)

	go func() {
		var w WaitResult
		e.ok("wait_job", map[string]any{"id": id, "timeout": "1h"}, &w)
		done <- w
	}()
	writeFifo(t, fifo2, "go\n")
	w = <-done
	require.Equal(t, "exited", w.Outcome)
	require.Equal(t, "succeeded", w.Job.State)
	require.Contains(t, w.Note, "the wait was capped at 10m0s")
}

// A job is found by ID (number or string) or name (the newest); an
// unknown one is an error listing the jobs there are.
func TestJobStatusAndUnknownJobs(t *testing.T) {
	e := newEnv(t)
	require.Contains(t, e.toolErr("job_status", map[string]any{"id": 1}), "no job has ID 1. There are no jobs; run_job starts one.")
	first := e.run("web", "exec sleep 60")
	second := e.run("web", "exec sleep 60")
	_, err := e.mgr.Start(jobs.Spec{Name: "mine", Command: "exec sleep 60"})
	require.NoError(t, err)

	var st JobStatusOutput
	text := e.ok("job_status", map[string]any{"id": "web"}, &st)
	require.Equal(t, second, st.Job.ID, "a name means the newest job with it")
	require.Equal(t, "test-agent", st.Job.Client)
	require.NotZero(t, st.Job.PID)
	require.Contains(t, text, "command: exec sleep 60")
	e.ok("job_status", map[string]any{"id": "1"}, &st)
	require.Equal(t, first, st.Job.ID)

	msg := e.toolErr("job_status", map[string]any{"id": 42})
	require.Contains(t, msg, "no job has ID 42. The jobs are (ID name state):\n1 web running\n2 web running\n3 mine running\nPass one of these IDs or names.")
	require.Contains(t, e.toolErr("kill_job", map[string]any{"id": "api"}), `no job is named "api". The jobs are`)
	require.Contains(t, e.toolErr("read_output", map[string]any{"id": ""}), "no job given")
}

// list_jobs lists every job (the person's too), filtered by state or name.
func TestListJobs(t *testing.T) {
	e := newEnv(t)
	var l ListJobsOutput
	require.Equal(t, "no jobs; run_job starts one", e.ok("list_jobs", map[string]any{}, &l))
	run := e.run("server", "echo up; exec sleep 60")
	done := e.run("build", "echo built")
	e.waitEnded(done)
	_, err := e.mgr.Start(jobs.Spec{Name: "mine", Command: "exec sleep 60"})
	require.NoError(t, err)

	text := e.ok("list_jobs", map[string]any{}, &l)
	require.Len(t, l.Jobs, 3)
	require.Equal(t, "mcp", l.Jobs[0].Origin)
	require.Empty(t, l.Jobs[2].Origin, "the person's own job")
	require.Contains(t, text, "2 build succeeded")
	require.Regexp(t, `3 mine running \S+$`, text)

	e.ok("list_jobs", map[string]any{"state": "ended"}, &l)
	require.Len(t, l.Jobs, 1)
	require.Equal(t, done, l.Jobs[0].ID)
	e.ok("list_jobs", map[string]any{"state": "active", "name": "serv"}, &l)
	require.Len(t, l.Jobs, 1)
	require.Equal(t, run, l.Jobs[0].ID)
	require.Contains(t, e.ok("list_jobs", map[string]any{"name": "zzz"}, &l), "no job matches (there are 3 jobs)")
}

// list_jobs' name is a glob when it reads as one, as --name and the API's
// name= are: "web-*" picks web-1, not a name holding "web-*".
func TestListJobsNameGlob(t *testing.T) {
	e := newEnv(t)
	var l ListJobsOutput
	e.run("web-1", "exec sleep 60")
	e.run("web-2", "exec sleep 60")
	e.run("api/web", "exec sleep 60")
	names := func() []string {
		var n []string
		for _, j := range l.Jobs {
			n = append(n, j.Name)
		}
		return n
	}
	e.ok("list_jobs", map[string]any{"name": "web-*"}, &l)
	require.Equal(t, []string{"web-1", "web-2"}, names())
	e.ok("list_jobs", map[string]any{"name": "api*,web-?"}, &l)
	require.Equal(t, []string{"web-1", "web-2", "api/web"}, names(), "several globs, and * takes a namespace's /")
	e.ok("list_jobs", map[string]any{"name": "web"}, &l)
	require.Len(t, l.Jobs, 3, "plain text is still text the name contains")
	require.Contains(t, e.toolErr("list_jobs", map[string]any{"name": "web-["}), `name "web-[" is not a valid pattern`)
}

// kill_job ends the job's whole tree at once; stop_job with its grace
// rules; restart_job runs it again; remove_job refuses a running job and
// forgets an ended one.
func TestStopKillRestartRemove(t *testing.T) {
	e := newEnv(t)
	var out RunJobOutput
	e.ok("run_job", map[string]any{"name": "tree", "command": "sleep 300 & echo child $!; wait", "wait_for": "child"}, &out)
	var child int
	_, err := fmtSscan(out.Wait.Matched.Text, &child)
	require.NoError(t, err)
	require.True(t, processAlive(child))

	var j JobOutput
	text := e.ok("kill_job", map[string]any{"id": "tree"}, &j)
	require.Equal(t, "killed", j.Job.State)
	require.Equal(t, "SIGKILL", *j.Job.Signal)
	require.Contains(t, text, "killed job")
	require.Eventually(t, func() bool { return !processAlive(child) }, deadline, 20*time.Millisecond, "the job's child is gone too")

	e.ok("restart_job", map[string]any{"id": out.Job.ID}, &j)
	require.Equal(t, 2, e.job(out.Job.ID).Runs)

	require.Contains(t, e.toolErr("remove_job", map[string]any{"id": "tree"}), "stop it first")
	e.ok("stop_job", map[string]any{"id": "tree"}, &j)
	require.Equal(t, "killed", j.Job.State)
	require.Equal(t, "SIGTERM", *j.Job.Signal)
	e.ok("remove_job", map[string]any{"id": "tree"}, &j)
	_, err = e.mgr.Get(jobs.ID(out.Job.ID))
	require.Error(t, err, "the job is gone")
}

// stop_job and kill_job say in their structured answer whether the job
// ended and was removed before the answer (its end let ten jobs run
// after it, which pushed it, the oldest finished, past the instance's
// cap on finished jobs), as the API's and the CLI's answers do.
func TestEndAnswerSaysTheJobWasRemoved(t *testing.T) {
	e := newEnvWith(t, jobs.Options{KeepFinished: 5})
	for _, tool := range []string{"kill_job", "stop_job"} {
		a := e.run("A"+tool, "exec sleep 300")
		for range 10 {
			e.ok("run_job", map[string]any{"command": "true", "after": []any{a}}, nil)
		}
		var out EndJobOutput
		text := e.ok(tool, map[string]any{"id": a}, &out)
		assert.Equal(t, a, out.Job.ID, tool)
		assert.True(t, out.Removed, "%s: %s", tool, text)
		assert.Contains(t, text, "it ended and was removed since", tool)

		kept := e.run("K"+tool, "exec sleep 300")
		var raw map[string]any
		e.ok(tool, map[string]any{"id": kept}, &raw)
		assert.Equal(t, false, raw["removed"], "%s: a job kept says removed: false: %v", tool, raw)
	}
}

// With Options.Environ (the MCP client's environment, as jobtop mcp gives
// it), a job starts from it, run_job's env over it, not from the
// instance's.
func TestRunJobStartsFromTheClientsEnvironment(t *testing.T) {
	_, api := newInstance(t, jobs.StoreOptions{})
	srv := New(Options{Client: api, Dir: t.TempDir(), Environ: []string{"PATH=" + os.Getenv("PATH"), "FROM_CLIENT=agent", "OVER=client"}})
	session, _ := connect(t, srv, "test-agent")
	e := &env{t: t, session: session}
	var out RunJobOutput
	e.ok("run_job", map[string]any{
		"command": `echo "$FROM_CLIENT/$OVER/${HOME:-no home}"; sleep 60`, "env": map[string]string{"OVER": "env"}, "wait_for": "/",
	}, &out)
	require.NotNil(t, out.Wait)
	require.Equal(t, "agent/env/no home", out.Wait.Matched.Text, "the client's environment, not the instance's (which has HOME)")
}

// stop_job's signal sends that signal instead of the job's stop signal,
// this time, as jobtop stop --signal and the API's ?signal= do: INT,
// SIGINT and 2 alike. A name no signal has is a tool error that says
// how a signal is written.
func TestStopJobTakesASignal(t *testing.T) {
	e := newEnv(t)
	const script = `trap 'echo got INT; exit 3' INT; trap 'echo got TERM; exit 4' TERM; echo ready; while :; do sleep 0.1; done`
	for _, sig := range []string{"INT", "SIGINT", "2"} {
		var out RunJobOutput
		e.ok("run_job", map[string]any{"name": "trap", "command": script, "wait_for": "^ready$"}, &out)
		var j EndJobOutput
		text := e.ok("stop_job", map[string]any{"id": out.Job.ID, "signal": sig}, &j)
		require.Contains(t, text, "stopped job", sig)
		require.Equal(t, "killed", j.Job.State, sig)
		require.NotNil(t, j.Job.ExitCode, sig)
		require.Equal(t, 3, *j.Job.ExitCode, "signal %s: the job's INT trap ran", sig)
		var r ReadOutputResult
		e.ok("read_output", map[string]any{"id": out.Job.ID, "stream": "stdout"}, &r)
		var got []string
		for _, l := range r.Lines {
			got = append(got, l.Text)
		}
		require.Equal(t, []string{"ready", "got INT"}, got, sig)
	}

	var own RunJobOutput // its traps set before it is stopped
	e.ok("run_job", map[string]any{"name": "own", "command": script, "wait_for": "^ready$"}, &own)
	id := own.Job.ID
	msg := e.toolErr("stop_job", map[string]any{"id": id, "signal": "NOPE"})
	require.Contains(t, msg, `"NOPE"`)
	require.Contains(t, msg, "SIGINT")
	require.Contains(t, msg, "2", "the forms a signal takes")
	require.False(t, e.job(id).State.Done(), "a bad signal stops nothing")
	require.Contains(t, e.toolErr("kill_job", map[string]any{"id": id, "signal": "INT"}), "signal", "a kill is SIGKILL")

	var j EndJobOutput
	e.ok("stop_job", map[string]any{"id": id}, &j)
	require.NotNil(t, j.Job.ExitCode)
	require.Equal(t, 4, *j.Job.ExitCode, "without signal: its stop signal, SIGTERM")
}

// A job a kill -9 from outside jobtop ended (or the OOM killer) is said
// to be so by wait_job, job_status and list_jobs, as the TUI and jobtop
// status say it, where they said "killed (SIGKILL)" as for kill_job.
func TestAnswersSayKilledFromOutside(t *testing.T) {
	e := newEnv(t)
	id := e.run("victim", "exec sleep 60")
	var st JobStatusOutput
	e.ok("job_status", map[string]any{"id": id}, &st)
	require.NotNil(t, st.Job.PID)
	require.NoError(t, syscall.Kill(*st.Job.PID, syscall.SIGKILL))

	var w WaitResult
	text := e.ok("wait_job", map[string]any{"id": id, "timeout": "20s"}, &w)
	require.Equal(t, "exited", w.Outcome)
	require.True(t, w.Job.KilledFromOutside)
	require.Contains(t, text, "victim killed by SIGKILL from outside jobtop (out of memory?)")
	require.Contains(t, e.ok("job_status", map[string]any{"id": id}, nil), "victim killed by SIGKILL from outside jobtop")
	require.Contains(t, e.ok("list_jobs", map[string]any{}, nil), "victim killed by SIGKILL from outside jobtop")

	own := e.run("own", "exec sleep 60")
	var k EndJobOutput
	text = e.ok("kill_job", map[string]any{"id": own}, &k)
	require.False(t, k.Job.KilledFromOutside)
	require.NotContains(t, text, "outside", "kill_job's SIGKILL is jobtop's own")
}
