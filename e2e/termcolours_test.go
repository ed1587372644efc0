package e2e

import (
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// A terminal whose TERM has no "color" in its name (tmux's default
// screen, GNU screen, foot, rxvt-unicode) gets colours: jobtop's own
// (the running state) and a job's red and bold. termenv gave such names
// no colours and no attributes at all, and capture-pane -e showed not
// one SGR sequence.
func TestColoursUnderTermScreen(t *testing.T) {
	bin := binary(t)
	// tmux sets its panes' TERM (default-terminal): env sets it after.
	s := newSession(t, 100, 20, nil, "env", "TERM=screen", "COLORTERM=", bin,
		"--name", "painter", `printf 'is \033[1;31mred bold\033[0m plain\n'; sleep 60`)
	s.waitFor("the job running and its line", func(scr []string) bool {
		return strings.Contains(row(scr, "painter"), "● running") && row(scr, "is red bold plain") != ""
	})
	colours := s.screenWithColours()
	job := regexp.MustCompile(`((?:\x1b\[[0-9;]*m)+)red bold`).FindStringSubmatch(colours)
	require.NotNil(t, job, "the job's colours reach the terminal:\n%q", colours)
	require.Regexp(t, `\x1b\[([0-9;]*;)?31[;m]`, job[1], "red")
	require.Regexp(t, `\x1b\[(1|1;[0-9;]*)m`, job[1], "bold")
	require.Regexp(t, `\x1b\[[0-9;]*m●`, colours, "the running state is drawn in colour")
}
