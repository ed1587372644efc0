package mcp

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"jobtop/jobs"
)

// Answers a model could misread: a prompt matched before its newline is
// not "line 0"; stopping a job that has ended is done, not an error; a
// lookbehind is named as what RE2 lacks.
func TestAnswersSayWhatHappened(t *testing.T) {
	e := newEnv(t)
	fifo := mkfifo(t)
	text := e.ok("run_job", map[string]any{"name": "ask", "command": "printf 'password: '; read l < " + fifo, "wait_for": "password:"}, nil)
	require.Contains(t, text, "matched after")
	require.Contains(t, text, "the line being written (no newline yet): password: ")
	require.NotContains(t, text, "line 0")
	writeFifo(t, fifo, "x\n")

	id := e.run("done", "exit 3")
	e.waitEnded(id)
	for _, tool := range []string{"stop_job", "kill_job"} {
		var out JobOutput
		text = e.ok(tool, map[string]any{"id": id}, &out)
		require.Contains(t, text, "done failed (exit 3)")
		require.Contains(t, text, "it had already ended")
		require.Equal(t, "failed", out.Job.State)
	}

	// One never started (autostart: false) did not end: it never ran.
	later, err := e.mgr.Add(jobs.Spec{Name: "later", Command: "true"})
	require.NoError(t, err)
	text = e.ok("stop_job", map[string]any{"id": int(later.ID)}, nil)
	require.Contains(t, text, "it was never started: nothing to stop")

	msg := e.toolErr("wait_job", map[string]any{"id": id, "until": "(?<=x)y"})
	require.Contains(t, msg, "the syntax is Go's RE2: no lookahead, lookbehind or backreferences")
}

// A watcher prints the same line after each rebuild: wait_job with the
// cursor of the last read waits for the next one, not the one already
// seen.
func TestWaitJobAfterACursor(t *testing.T) {
	e := newEnv(t)
	fifo := mkfifo(t)
	var run RunJobOutput
	e.ok("run_job", map[string]any{"name": "watch", "command": "echo 'compiled ok (1)'; read l < " + fifo + "; echo 'compiled ok (2)'; exec sleep 60",
		"wait_for": "compiled ok"}, &run)
	require.Equal(t, "compiled ok (1)", run.Wait.Matched.Text)

	done := make(chan WaitResult, 1)
	go func() {
		var w WaitResult
		e.ok("wait_job", map[string]any{"id": "watch", "until": "compiled ok", "cursor": run.Wait.Matched.Seq}, &w)
		done <- w
	}()
	writeFifo(t, fifo, "rebuild\n")
	w := <-done
	require.Equal(t, "matched", w.Outcome)
	require.Equal(t, "compiled ok (2)", w.Matched.Text)

	require.Contains(t, e.toolErr("wait_job", map[string]any{"id": "watch", "cursor": 1}), "cursor applies to a regex until")
	require.Contains(t, e.toolErr("wait_job", map[string]any{"id": "watch", "until": "x", "cursor": 50}), "cursor 50 is past job 1's last line (2)")
}

// wait_job from a cursor read while a prompt was on screen waits for the
// next prompt: the one shown, and it with the answer typed at it, do not
// count (rev47: it matched the prompt shown at once).
func TestWaitJobFromACursorWaitsForTheNextPrompt(t *testing.T) {
	e := newEnv(t)
	var run RunJobOutput
	e.ok("run_job", map[string]any{"name": "ask", "stdin": "pipe", "command": `printf 'prompt> '; read l; echo "got $l"; printf 'prompt> '; exec sleep 60`,
		"wait_for": "^prompt> "}, &run)
	var read ReadOutputResult
	e.ok("read_output", map[string]any{"id": "ask"}, &read)
	var w WaitResult
	e.ok("wait_job", map[string]any{"id": "ask", "until": "^prompt> ", "cursor": read.NextCursor, "timeout": "500ms"}, &w)
	require.Equal(t, "timed_out", w.Outcome, "the prompt shown does not count: %+v", w.Matched)
	e.ok("send_input", map[string]any{"id": "ask", "text": "hello", "enter": true}, nil)
	e.ok("wait_job", map[string]any{"id": "ask", "until": "^prompt> ", "cursor": read.NextCursor, "timeout": "20s"}, &w)
	require.Equal(t, "matched", w.Outcome)
	require.Equal(t, "prompt> ", w.Matched.Text, "the next prompt, not the line answered at the first")
}

// One of a thing is singular; a pipe job's answer is in its output, not
// on a screen.
func TestWordsForOneAndForPipes(t *testing.T) {
	e := newEnv(t)
	var run RunJobOutput
	e.ok("run_job", map[string]any{"name": "cat", "command": "cat", "stdin": "pipe"}, &run)
	text := e.ok("send_input", map[string]any{"id": run.Job.ID, "text": "x"}, nil)
	require.Contains(t, text, "typed 1 byte into job 1; read_output shows the result")
	text = e.ok("send_input", map[string]any{"id": run.Job.ID, "text": "hello", "enter": true, "eof": true}, nil)
	require.Contains(t, text, "typed 6 bytes into job 1 and closed its input; read_output shows the result")
	e.waitEnded(run.Job.ID)

	text = e.ok("search_output", map[string]any{"pattern": "hello"}, nil)
	require.Contains(t, text, "1 match in the ")
	require.Contains(t, text, " of 1 job ")
}

// Every duration argument takes a number as seconds, and says so.
func TestDurationArgumentsAreSeconds(t *testing.T) {
	e := newEnv(t)
	res, err := e.session.ListTools(ctxT(t), nil)
	require.NoError(t, err)
	var found []string
	var walk func(tool, path string, s map[string]any)
	walk = func(tool, path string, s map[string]any) {
		props, _ := s["properties"].(map[string]any)
		for name, p := range props {
			p := p.(map[string]any)
			if types, _ := p["type"].([]any); len(types) == 2 && types[0] == "string" && types[1] == "number" {
				found = append(found, tool+"."+path+name)
				require.Contains(t, p["description"], "or a number of seconds (5 means 5s)", "%s.%s%s", tool, path, name)
			}
			walk(tool, path+name+".", p)
		}
	}
	for _, tool := range res.Tools {
		b, err := json.Marshal(tool.InputSchema)
		require.NoError(t, err)
		var s map[string]any
		require.NoError(t, json.Unmarshal(b, &s))
		walk(tool.Name, "", s)
	}
	require.ElementsMatch(t, []string{"run_job.timeout", "run_job.wait_timeout", "run_job.ready.after", "read_screen.timeout", "wait_job.timeout"}, found)

	id := e.run("sleeper", "exec sleep 600")
	var w WaitResult
	e.ok("wait_job", map[string]any{"id": id, "timeout": 1}, &w)
	require.Equal(t, "timed_out", w.Outcome)
	require.Contains(t, w.Note, "it did not end within 1s")
}

// tail: 0 reads no lines and puts next_cursor at the newest, as the API's
// tail=0; a tail not given reads from the oldest line.
func TestReadOutputTailZero(t *testing.T) {
	e := newEnv(t)
	id := e.run("three", "echo one; echo two; echo three")
	e.waitEnded(id)
	var out ReadOutputResult
	text := e.ok("read_output", map[string]any{"id": id, "tail": 0}, &out)
	require.Empty(t, out.Lines, text)
	require.Equal(t, uint64(3), out.NextCursor)
	require.True(t, out.Ended)
	require.Contains(t, text, "no new lines")

	e.ok("read_output", map[string]any{"id": id}, &out)
	require.Len(t, out.Lines, 3)
	e.ok("read_output", map[string]any{"id": id, "tail": 1}, &out)
	require.Len(t, out.Lines, 1)
	require.Equal(t, "three", out.Lines[0].Text)
	require.Contains(t, e.toolErr("read_output", map[string]any{"id": id, "tail": 0, "cursor": 2}), "either cursor")
}

// A job that exits by itself once jobtop's stop signal asks it to is
// said to have ended as jobtop ls and jobtop status say it ("3 after
// SIGTERM", jobs.Info.ExitText), by stop_job, job_status, list_jobs and
// wait_job alike: not "killed (SIGTERM)", which hid its own exit code. A
// trap that exits 128+15 is told as SIGTERM, as a shell shows it.
func TestAnswersSayAStoppedJobsEndAsTheCLIDoes(t *testing.T) {
	e := newEnv(t)
	for _, c := range []struct{ name, exit, want string }{
		{"three", "3", "three killed (3 after SIGTERM)"},
		{"shell", "143", "shell killed (SIGTERM)"},
	} {
		var out RunJobOutput
		e.ok("run_job", map[string]any{"name": c.name, "command": "trap 'exit " + c.exit + "' TERM; echo ready; while :; do sleep 0.1; done", "wait_for": "^ready$"}, &out)
		var j EndJobOutput
		text := e.ok("stop_job", map[string]any{"id": out.Job.ID}, &j)
		require.Contains(t, text, c.want)
		info := e.job(out.Job.ID)
		require.Equal(t, c.want, c.name+" "+string(info.State)+" ("+info.ExitText()+")", "the CLI's words for the same end")
		require.Contains(t, e.ok("job_status", map[string]any{"id": out.Job.ID}, nil), c.want)
		require.Contains(t, e.ok("list_jobs", map[string]any{}, nil), c.want)
		require.Contains(t, e.ok("wait_job", map[string]any{"id": out.Job.ID, "timeout": "20s"}, nil), c.want)
	}
}
