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
