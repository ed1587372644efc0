package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// A job on a terminal writes what it likes to it (line mode keeps its
// text and colours), but neither jobtop logs nor jobtop screen lets
// a clipboard write, a title change or a screen clear reach the
// terminal of whoever reads them; --ansi keeps colours and only them.
func TestTTYJobOutputCannotReachTheTerminal(t *testing.T) {
	bin := binary(t)
	in := startServe(t, bin)
	in.cli("run", "--tty", "--name", "tty", "--", "printf '\\033[31mred\\033[0m out\\033]52;c;ZXZpbA==\\007\\033]0;owned\\007\\033[2J\\033[Hdone\\n'")
	in.cli("wait", "1")

	s := newSession(t, 200, 50, append(in.sessionEnv(), "PS1=$ ", "J="+bin), "sh")
	s.tmux("set-option", "-g", "set-clipboard", "on")
	title := func() string {
		return strings.TrimSpace(s.tmux("display-message", "-p", "-t", s.name, "#{pane_title}"))
	}
	s.keys("echo BEFORE''MARK", "Enter")
	s.waitText("BEFOREMARK")
	for _, c := range []string{"$J logs 1", "$J screen 1", "$J screen 1 --ansi"} {
		mark := strings.ReplaceAll(strings.TrimPrefix(c, "$J "), " ", "_")
		s.keys(c+"; echo END''OF "+mark, "Enter")
		s.waitText("ENDOF " + mark)
	}
	scr := strings.Join(s.screen(), "\n")
	require.Contains(t, scr, "BEFOREMARK", "the screen was not cleared")
	require.NotContains(t, title(), "owned", "the title was not changed")
	require.Empty(t, s.tmux("list-buffers"), "the clipboard was not written")
	// The clear only ended the line it cut: "done" is a line of its own;
	// on the screen it is all there is, as on a terminal after the clear
	// (which went home).
	require.Contains(t, scr, "\nred out\ndone\nENDOF logs_1", "logs printed the lines, their sequences stripped")
	require.Contains(t, scr, "screen 1; echo END''OF screen_1\ndone\nENDOF screen_1\n", "screen printed the screen, the sequences stripped")
	require.Contains(t, scr, "--ansi; echo END''OF screen_1_--ansi\ndone\nENDOF screen_1_--ansi", "so did screen --ansi")

	// The same bytes, passed through, are obeyed: the test would see them.
	// A TTY job's lines hold only their colours now, so a pipe job's, which
	// hold the bytes, are passed through.
	in.cli("run", "--name", "pipes", "--", "printf '\\033]0;owned\\007done\\n'")
	in.cli("wait", "2")
	s.keys("$J logs 1 --raw; $J logs 2 --raw", "Enter")
	require.Eventually(t, func() bool { return strings.Contains(title(), "owned") }, deadline, 50*time.Millisecond, "--raw retitles the window")
}
