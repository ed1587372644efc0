package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestCopyReachesTmuxPasteBuffer: lines selected with v and copied with y
// arrive, without colours, in tmux's paste buffer (set-clipboard on), the
// way they reach the system clipboard through a terminal or over ssh.
func TestCopyReachesTmuxPasteBuffer(t *testing.T) {
	bin := binary(t)
	s := newSession(t, 100, 30, nil, bin, "--name", "colours",
		`for i in 1 2 3 4 5; do printf '\033[32mgreen %d\033[0m plain\n' $i; done; exec sleep 600`)
	s.tmux("set-option", "-g", "set-clipboard", "on")
	s.waitText("green 5 plain")
	s.keys("Enter", "v", "k", "k", "y")
	s.waitText("copied 3 lines selected")
	var buf string
	end := time.Now().Add(deadline)
	for {
		out, err := s.tmuxOut("show-buffer")
		if err == nil && out != "" {
			buf = out
			break
		}
		require.True(t, time.Now().Before(end), "nothing reached the paste buffer: %v %q", err, out)
		time.Sleep(50 * time.Millisecond)
	}
	require.Equal(t, "green 3 plain\ngreen 4 plain\ngreen 5 plain\n", buf)
	require.NotContains(t, buf, "\x1b")

	s.keys("Y")
	s.waitFor("the second copy", func(scr []string) bool {
		return strings.Contains(strings.Join(scr, "\n"), "copied 5 lines on screen")
	})
	end = time.Now().Add(deadline)
	for {
		out, _ := s.tmuxOut("show-buffer")
		if strings.HasPrefix(out, "green 1 plain\n") {
			require.Equal(t, "green 1 plain\ngreen 2 plain\ngreen 3 plain\ngreen 4 plain\ngreen 5 plain\n", out)
			break
		}
		require.True(t, time.Now().Before(end), "Y did not reach the paste buffer: %q", out)
		time.Sleep(50 * time.Millisecond)
	}
	s.quit("and quit? y/n")
}
