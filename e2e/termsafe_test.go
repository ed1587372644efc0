package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// Escape sequences a job may try on the terminal of whoever reads its
// output: write the clipboard (OSC 52), retitle the window, clear the
// screen; and a bell and a ^A. (A backspace is played: a line keeps
// what it shows, not the backspace.)
const (
	clipboardSeq = "\x1b]52;c;ZXZpbA==\x07" // "evil"
	titleSeq     = "\x1b]0;owned\x07"
	clearSeq     = "\x1b[2J\x1b[H"
)

// Every CLI command that prints what a job wrote, or its name and
// command, shows it on a terminal without letting one sequence through:
// the screen is not cleared, the title not changed, the clipboard not
// written; controls are shown as \xNN. --raw lets them through (which is
// how this test knows it would see them).
func TestCLIOutputCannotReachTheTerminal(t *testing.T) {
	bin := binary(t)
	in := startServe(t, bin)
	all := clipboardSeq + titleSeq + clearSeq
	// The command holds the sequences as bytes (for ls and status) and
	// prints them (for logs and wait).
	command := "printf 'out\\033]52;c;ZXZpbA==\\007\\033]0;owned\\007\\033[2J\\033[H\\007\\001done\\n'; : '" + all + "'"
	// Job names cannot carry escapes (they are checked); commands can.
	in.cli("run", "--name", "job", "--", command)
	in.cli("wait", "1")

	s := newSession(t, 200, 50, append(in.sessionEnv(), "PS1=$ ", "J="+bin), "sh")
	s.tmux("set-option", "-g", "set-clipboard", "on") // tmux takes OSC 52 from what runs in it
	title := func() string {
		return strings.TrimSpace(s.tmux("display-message", "-p", "-t", s.name, "#{pane_title}"))
	}
	buffers := func() string { return s.tmux("list-buffers") }
	s.keys("echo BEFORE''MARK", "Enter")
	s.waitText("BEFOREMARK")
	for _, c := range []string{
		"$J logs 1",
		"$J logs --all",
		"$J wait 1 --until done",
		"$J ls",
		"$J status 1",
	} {
		mark := strings.ReplaceAll(strings.TrimPrefix(c, "$J "), " ", "_")
		s.keys(c+"; echo END''OF "+mark, "Enter")
		s.waitText("ENDOF " + mark)
	}
	scr := strings.Join(s.screen(), "\n")
	require.Contains(t, scr, "BEFOREMARK", "the screen was not cleared")
	require.NotContains(t, title(), "owned", "the title was not changed")
	require.Empty(t, buffers(), "the clipboard was not written")
	require.Contains(t, scr, `out\x07\x01done`, "controls are shown")
	require.Contains(t, scr, "job ")
	require.Contains(t, row(s.screen(), "command:"), "printf")

	// --raw passes the bytes: the terminal obeys them.
	s.keys("$J logs 1 --raw", "Enter")
	require.Eventually(t, func() bool { return strings.Contains(title(), "owned") }, deadline, 50*time.Millisecond, "--raw retitles the window")
	require.NotEmpty(t, buffers(), "--raw writes the clipboard")
	require.NotContains(t, strings.Join(s.screen(), "\n"), "BEFOREMARK", "--raw clears the screen")
}

// The TUI's pane header shows an argv job's arguments with a newline or
// an escape in them as bash's $'...', on the header's one line: a raw
// newline broke the line, and ESC went (the argument showed as 'red').
func TestTUIShowsArgvControlsAsBashReadsThem(t *testing.T) {
	bin := binary(t)
	s := newSession(t, 160, 30, nil, bin, "--", "printf", "%s|", "line\nbreak", "\x1b[31mred")
	want := `$ printf '%s|' $'line\nbreak' $'\e[31mred'`
	scr := s.waitFor("the header with the command", func(scr []string) bool {
		return strings.Contains(row(scr, "$ printf"), "succeeded")
	})
	require.Contains(t, row(scr, "$ printf"), want, "the command is on the header's line, as bash reads it")
	s.keys("q")
	require.Equal(t, "0", s.waitExit(), "jobtop exits cleanly")
}
