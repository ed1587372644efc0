package e2e

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// Text typed into the prompts in one burst, without bracketed paste
// (send-keys -l writes it to the terminal at once), arrives whole: words
// that spell key names (up, end, home, esc, enter, tab) are text, not
// keys.
func TestTypedKeyNamesAreText(t *testing.T) {
	bin := binary(t)
	s := newSession(t, 160, 30, nil, bin, "--no-file")
	s.waitText("no jobs")

	command := "echo docker compose up -d; echo the end home down tab esc enter"
	s.keys("a")
	s.waitText("add a job")
	s.keys("-l", command)
	scr := s.waitText("command " + command)
	require.Contains(t, strings.Join(scr, "\n"), "add a job", "no typed word closed the prompt")
	s.keys("Enter")
	scr = s.waitText("the end home down tab esc enter", "✓ succeeded")
	require.Contains(t, strings.Join(scr, "\n"), "docker compose up -d")

	// The search prompt and the table's filter take them as text too.
	s.keys("Enter", "/")
	s.keys("-l", "home up end")
	s.waitText("/ home up end")
	s.keys("Enter")
	s.waitText("/home up end no match")
	// One key at a time: two escapes in one read are alt+esc.
	s.keys("Escape")
	s.waitFor("the search cleared", func(scr []string) bool { return !strings.Contains(strings.Join(scr, "\n"), "no match") })
	s.keys("Escape")
	s.waitText("/ filter jobs")
	s.keys("/")
	s.keys("-l", "up esc")
	s.waitText("filter jobs / up esc", "no job matches /up esc")
	s.keys("Escape")
	s.waitFor("the filter cleared", func(scr []string) bool { return !strings.Contains(strings.Join(scr, "\n"), "no job matches") })

	s.keys("q")
	require.Equal(t, "0", s.waitExit())
}
