package mcp

import (
	"testing"

	"github.com/stretchr/testify/require"
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
