package cmd

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"jobtop/control"
	"jobtop/termtext"
)

// waitLog polls jobtop logs until its output holds want.
func (c *cli) waitLog(id, want string) {
	c.t.Helper()
	require.Eventually(c.t, func() bool { return strings.Contains(c.ok("logs", id), want) }, testTimeout, 20*time.Millisecond,
		"job %s never wrote %q", id, want)
}

func TestSendAnswersAPrompt(t *testing.T) {
	c := newCLI(t)
	c.serve()
	id := c.startJob(`bash -c "read -p 'Overwrite? [y/N] ' a; echo answer=\$a"`, "--tty")
	info := c.status(id)
	assert.True(t, info.TTY)
	c.waitLog(id, "Overwrite? [y/N] ")
	c.ok("send", id, "--enter", "y")
	c.ok("wait", id)
	assert.Equal(t, []string{"Overwrite? [y/N] y", "answer=y"}, c.logLines(id))
}

func TestSendToStdinPipe(t *testing.T) {
	c := newCLI(t)
	c.serve()
	id := c.startJob("read a; echo got=$a; cat", "--stdin", "pipe")
	c.ok("send", id, `first\nsecond`, "--enter")
	c.waitLog(id, "second")
	assert.Equal(t, []string{"got=first", "second"}, c.logLines(id))
}

func TestSendRefusals(t *testing.T) {
	c := newCLI(t)
	c.serve()
	pipes := c.startJob("sleep 600")
	r := c.run("send", pipes, "x")
	assert.NotEqual(t, 0, r.code)
	assert.Contains(t, r.stderr, "cannot send input to job "+pipes+": it runs on pipes with stdin on /dev/null")

	done := c.startJob("true", "--tty")
	c.ok("wait", done)
	r = c.run("send", done, "x")
	assert.Contains(t, r.stderr, "cannot send input to job "+done+": it has ended (succeeded)")

	r = c.run("send", done, `\q`)
	assert.Contains(t, r.stderr, `unknown escape \q`)
	r = c.run("send", done)
	assert.Contains(t, r.stderr, "nothing to send")
	r = c.run("run", "--tty", "--stdin", "pipe", "--", "true")
	assert.Contains(t, r.stderr, "--stdin pipe is for jobs on pipes")
	r = c.run("run", "--stdin", "file", "--", "true")
	assert.Contains(t, r.stderr, `stdin "file" is not one of null, pipe`)
}

// TestServeKilledLeavesNothingOfTTYJobs: TTY jobs hang up with their
// terminal's master, but that is not what is relied on: the keeper stops
// them as it stops pipe jobs.
func TestServeKilledLeavesNothingOfTTYJobs(t *testing.T) {
	c := newCLI(t)
	serve := c.serve()
	mark := fmt.Sprintf("%s-%d", t.Name(), time.Now().UnixNano())
	// One ignores the hang-up: only the keeper's stop ends it.
	c.startJob("trap '' HUP; "+jobTree, "--tty", "--env", "TEST_MARK="+mark)
	c.startJob(jobTree, "--tty", "--env", "TEST_MARK="+mark)
	require.Eventually(t, func() bool { return treesComplete(mark) }, testTimeout, 10*time.Millisecond)
	require.NoError(t, serve.Process.Signal(syscall.SIGKILL))
	serve.Wait() //nolint:errcheck // killed on purpose
	requireNoneLeft(t, mark, 10*time.Second)
}

// fullscreenProgram builds the PTY tests' full-screen program next to the
// jobtop binary.
func fullscreenProgram(t *testing.T) string {
	t.Helper()
	path := filepath.Join(filepath.Dir(binary), "fullscreen")
	if _, err := os.Stat(path); err == nil {
		return path
	}
	out, err := exec.Command("go", "build", "-o", path, "jobtop/e2e/testdata/fullscreen").CombinedOutput()
	require.NoError(t, err, "%s", out)
	return path
}

// TestAgentDrivesAFullScreenProgram is the agent's loop with the CLI:
// start a program on a terminal, read its screen, type into it, read
// again, and end it by its own key.
func TestAgentDrivesAFullScreenProgram(t *testing.T) {
	c := newCLI(t)
	c.serve()
	id := c.startJob(fullscreenProgram(t), "--tty")
	var screen control.ScreenResponse
	require.Eventually(t, func() bool {
		require.NoError(t, json.Unmarshal([]byte(c.ok("screen", id, "--json")), &screen))
		return screen.Screen && strings.HasPrefix(screen.Lines[49], "└")
	}, testTimeout, 20*time.Millisecond)
	assert.True(t, screen.AltScreen)
	assert.Contains(t, screen.Lines[0], "fullscreen 200x50")
	assert.True(t, c.status(id).Screen)

	c.ok("send", id, `hi\x03`)
	require.Eventually(t, func() bool { return strings.Contains(c.ok("screen", id), "keys: hi^C") }, testTimeout, 20*time.Millisecond)
	out := strings.Split(c.ok("screen", id, "--ansi"), "\n")
	assert.Contains(t, out[2], "\x1b[31mred", "colours with --ansi")
	assert.Len(t, out, 51, "50 rows and the last newline")

	c.ok("send", id, "q")
	c.ok("wait", id)
	lines := c.logLines(id)
	assert.Equal(t, "fullscreen: bye", lines[len(lines)-1])
	assert.False(t, c.status(id).Screen)
	assert.True(t, strings.HasSuffix("\n"+c.ok("screen", id), "\nfullscreen: bye\n"), "back to lines: the tail")
}

func TestSendEOF(t *testing.T) {
	c := newCLI(t)
	c.serve()
	id := c.startJob("sort", "--stdin", "pipe")
	c.ok("send", id, `pear\napple\n`, "--eof")
	c.ok("wait", id)
	assert.Equal(t, []string{"apple", "pear"}, c.logLines(id))
	r := c.run("send", id, "--eof")
	assert.Contains(t, r.stderr, "it has ended (succeeded)")
}

// jobtop screen prints the rows a terminal shows (blank rows at the
// bottom left out, those between kept; a full-screen program's row with
// its visible cursor is not blank, nor with --ansi a row of coloured
// blanks), and --json every row, blank ones as "", with the cursor.
func TestScreenPrintsWhatATerminalShows(t *testing.T) {
	c := newCLI(t)
	c.serve()
	screenJSON := func(id string, ansi bool) control.ScreenResponse {
		args := []string{"screen", id, "--json"}
		if ansi {
			args = append(args, "--ansi")
		}
		var screen control.ScreenResponse
		require.NoError(t, json.Unmarshal([]byte(c.ok(args...)), &screen))
		return screen
	}

	id := c.startJob(`printf 'a\n\nb\n'; sleep 600`, "--tty")
	require.Eventually(t, func() bool { return c.ok("screen", id) == "a\n\nb\n" }, testTimeout, 20*time.Millisecond,
		"line mode: the blank row between kept, none after the last")
	screen := screenJSON(id, false)
	require.Len(t, screen.Lines, 50, "--json: every row")
	assert.Equal(t, []string{"a", "", "b", ""}, screen.Lines[:4])
	assert.Equal(t, 3, screen.CursorY)

	// A full-screen program with its cursor hidden on row 5 and a status
	// bar of coloured blanks on the last row.
	program := `printf '\033[?1049h\033[?25l\033[Htop\033[50;1H\033[44m    \033[m\033[5;1H'; sleep 600`
	id = c.startJob(program, "--tty")
	require.Eventually(t, func() bool {
		s := screenJSON(id, true)
		return s.Screen && s.Lines[0] == "top" && strings.Contains(s.ANSI[49], "\x1b[44m")
	}, testTimeout, 20*time.Millisecond)
	assert.Equal(t, "top\n", c.ok("screen", id), "a hidden cursor does not keep its blank row")
	ansi := strings.Split(c.ok("screen", id, "--ansi"), "\n")
	require.Len(t, ansi, 51, "with --ansi the coloured bar shows, and the rows above it")
	assert.Equal(t, "\x1b[44m    \x1b[m", ansi[49])
	screen = screenJSON(id, false)
	assert.Len(t, screen.Lines, 50, "--json: every row")
	assert.Equal(t, [2]int{0, 4}, [2]int{screen.CursorX, screen.CursorY})
	assert.False(t, screen.CursorVisible)

	// The same with its cursor shown: its row is the last printed.
	id = c.startJob(strings.Replace(program, `\033[?25l`, ``, 1), "--tty")
	// Once drawn: the emulator takes the program's bytes after screen
	// mode begins.
	var shown string
	require.Eventually(t, func() bool {
		s := screenJSON(id, true)
		if !s.Screen || !strings.Contains(s.ANSI[49], "\x1b[44m") || s.CursorY != 4 {
			return false
		}
		shown = c.ok("screen", id)
		return strings.HasPrefix(shown, "top\n")
	}, testTimeout, 20*time.Millisecond)
	assert.Equal(t, "top\n\n\n\n\n", shown, "the row with the cursor is the last")
}

// jobtop screen prints what a terminal shows of a job's controls:
// nothing for SO, SI, BEL, NUL or DEL, a backspace played, and never an
// escape sequence but colours, on a pipe job as on a terminal's and on a
// full-screen program's.
func TestScreenShowsNoControls(t *testing.T) {
	c := newCLI(t)
	c.serve()
	out := `a\016b\017c\007d\bE\001f\177g\302\205h\033]0;title\007i\033[?25lj\033[31mk\033[0m\000lm\304n\n`
	for _, job := range []struct {
		name  string
		flags []string
		setup string
	}{
		{"a pipe job", nil, ""},
		{"a terminal job", []string{"--tty"}, ""},
		{"a full-screen program", []string{"--tty"}, `\033[?1049h\033[H`},
	} {
		id := c.startJob(`printf '`+job.setup+out+`'; sleep 600`, job.flags...)
		var text string
		require.Eventually(t, func() bool {
			text = c.ok("screen", id)
			return strings.Contains(text, "n\n")
		}, testTimeout, 20*time.Millisecond, job.name)
		assert.Equal(t, "abcEfghijklm\uFFFDn", strings.Split(text, "\n")[0], job.name)
		assert.NotContains(t, text, `\x`, job.name)
		for _, ansi := range []bool{false, true} {
			args := []string{"screen", id}
			if ansi {
				args = append(args, "--ansi")
			}
			for _, row := range strings.Split(c.ok(args...), "\n") {
				assert.Equal(t, termtext.Printed(row, ansi), row, "%s, --ansi %v: %q holds a control or a sequence", job.name, ansi, row)
			}
		}
	}
}
