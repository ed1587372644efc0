package mcp

import (
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"jobtop/control"
)

// TestAgentAnswersAPrompt is the loop a model follows with an
// interactive program: start it on a terminal, read the screen until the
// question shows, answer, read the outcome.
func TestAgentAnswersAPrompt(t *testing.T) {
	e := newEnv(t)
	var run RunJobOutput
	e.ok("run_job", map[string]any{"name": "init", "tty": true,
		"command": `bash -c 'read -p "Overwrite? [y/N] " a; echo "answer=$a"; read -p "name: " n; echo "hello $n"'`}, &run)
	assert.True(t, run.Job.TTY)
	var scr ReadScreenOutput
	text := e.ok("read_screen", map[string]any{"id": "init", "wait_for": `Overwrite\? \[y/N\] $`}, &scr)
	require.True(t, *scr.Matched, text)
	assert.Equal(t, []string{"Overwrite? [y/N] "}, scr.Lines)
	assert.Equal(t, [2]int{0, 17}, [2]int{scr.CursorRow, scr.CursorCol}, "the cursor waits at the prompt")
	assert.Contains(t, text, "newest output lines, 200x50, cursor at row 0 col 17:\nOverwrite? [y/N] ")

	e.ok("send_input", map[string]any{"id": run.Job.ID, "text": "y", "enter": true}, nil)
	e.ok("read_screen", map[string]any{"id": run.Job.ID, "wait_for": "name: $"}, &scr)
	e.ok("send_input", map[string]any{"id": run.Job.ID, "text": "Ada", "keys": []string{"enter"}}, nil)
	info := e.waitEnded(run.Job.ID)
	assert.Equal(t, "succeeded", string(info.State))
	e.ok("read_screen", map[string]any{"id": run.Job.ID}, &scr)
	assert.Equal(t, []string{"Overwrite? [y/N] y", "answer=y", "name: Ada", "hello Ada"}, scr.Lines)
}

func TestAgentDrivesAFullScreenProgramWithKeys(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "fullscreen")
	out, err := exec.Command("go", "build", "-o", bin, "jobtop/e2e/testdata/fullscreen").CombinedOutput()
	require.NoError(t, err, "%s", out)
	e := newEnv(t)
	var run RunJobOutput
	e.ok("run_job", map[string]any{"argv": []string{bin}, "tty": true}, &run)
	var scr ReadScreenOutput
	e.ok("read_screen", map[string]any{"id": run.Job.ID, "wait_for": "└"}, &scr)
	assert.True(t, scr.FullScreen)
	assert.Contains(t, scr.Lines[0], "fullscreen 200x50")
	e.ok("send_input", map[string]any{"id": run.Job.ID, "text": "x", "keys": []string{"ctrl+c", "tab", "up"}}, nil)
	text := e.ok("read_screen", map[string]any{"id": run.Job.ID, "wait_for": `keys: x\^C\^I\^\[\[A`}, &scr)
	require.True(t, *scr.Matched, text)
	e.ok("send_input", map[string]any{"id": run.Job.ID, "text": "q"}, nil)
	assert.Equal(t, "succeeded", string(e.waitEnded(run.Job.ID).State))
}

func TestSendInputToAStdinPipe(t *testing.T) {
	e := newEnv(t)
	info, err := e.api.StartJob(ctxT(t), control.StartRequest{Command: "sort", Stdin: "pipe"})
	require.NoError(t, err)
	e.ok("send_input", map[string]any{"id": int(info.ID), "text": "b\na", "enter": true, "eof": true}, nil)
	assert.Equal(t, "succeeded", string(e.waitEnded(int(info.ID)).State))
	var out ReadOutputResult
	e.ok("read_output", map[string]any{"id": int(info.ID)}, &out)
	require.Len(t, out.Lines, 2)
	assert.Equal(t, "a", out.Lines[0].Text)
}

// An agent starts a job with a stdin pipe itself, as send_input's
// refusal and eof's description tell it to, and feeds it like sort.
func TestRunJobWithAStdinPipe(t *testing.T) {
	e := newEnv(t)
	var run RunJobOutput
	e.ok("run_job", map[string]any{"command": "sort", "stdin": "pipe"}, &run)
	e.ok("send_input", map[string]any{"id": run.Job.ID, "text": "b\nc\na", "enter": true, "eof": true}, nil)
	assert.Equal(t, "succeeded", string(e.waitEnded(run.Job.ID).State))
	var out ReadOutputResult
	e.ok("read_output", map[string]any{"id": run.Job.ID}, &out)
	require.Len(t, out.Lines, 3)
	assert.Equal(t, []string{"a", "b", "c"}, []string{out.Lines[0].Text, out.Lines[1].Text, out.Lines[2].Text})

	assert.Contains(t, e.toolErr("run_job", map[string]any{"command": "sort", "stdin": "file"}), "stdin")
	assert.Contains(t, e.toolErr("run_job", map[string]any{"command": "sort", "stdin": "pipe", "tty": true}), "a tty job reads its terminal")
}

func TestTerminalToolRefusals(t *testing.T) {
	e := newEnv(t)
	id := e.run("pipes", "sleep 600")
	assert.Contains(t, e.toolErr("send_input", map[string]any{"id": id, "text": "x"}), "it runs on pipes with stdin on /dev/null")
	assert.Contains(t, e.toolErr("send_input", map[string]any{"id": id}), "nothing to type")
	assert.Contains(t, e.toolErr("send_input", map[string]any{"id": id, "keys": []string{"hyper+q"}}), `unknown key "hyper+q"`)
	assert.Contains(t, e.toolErr("read_screen", map[string]any{"id": id, "wait_for": "listening (on"}), `wait_for "listening (on" is not a valid regular expression: missing closing ) at byte 10 ("(on")`)
	assert.Contains(t, e.ok("read_screen", map[string]any{"id": id}, nil), "it has no terminal")
	assert.Contains(t, e.toolErr("read_screen", map[string]any{"id": "nope"}), `no job is named "nope"`)
}

func TestKeyBytes(t *testing.T) {
	for _, tc := range []struct {
		key       string
		appCursor bool
		want      string
	}{
		{"enter", false, "\r"}, {"ctrl+c", false, "\x03"}, {"CTRL+D", false, "\x04"},
		{"up", false, "\x1b[A"}, {"up", true, "\x1bOA"}, {"home", true, "\x1bOH"},
		{"pageup", true, "\x1b[5~"}, {"esc", false, "\x1b"}, {"backspace", false, "\x7f"},
	} {
		got, err := keyBytes(tc.key, tc.appCursor)
		require.NoError(t, err, tc.key)
		assert.Equal(t, tc.want, got, tc.key)
	}
	_, err := keyBytes("ctrl+1", false)
	assert.Error(t, err)
}
