package e2e

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// paneTop is the first row of the single pane's output, under its header
// (the row that names job id), without trailing blanks.
func paneTop(scr []string, id string) string {
	for i, r := range scr {
		if strings.Contains(r, "job "+id+" ") && i+1 < len(scr) {
			return strings.TrimRight(scr[i+1], " ")
		}
	}
	return ""
}

// `clear` and ctrl+l typed into a shell on a terminal leave its pane as
// a terminal shows it: the prompt on the top row, the lines before gone
// from it, one scroll up away (a terminal's scrollback).
func TestClearInAShellBlanksItsPane(t *testing.T) {
	bin := binary(t)
	s := newSession(t, 100, 30, []string{"PS1=$ "}, bin, "--name", "sh", "bash --norc --noprofile -i")
	s.waitFor("the prompt", func(scr []string) bool { return paneTop(scr, "1") == "$" })
	typeInto(s)
	s.keys("-l", "for i in 1 2 3; do echo old-$i; done")
	s.keys("Enter")
	s.waitText("old-3")

	s.keys("-l", "clear")
	s.keys("Enter")
	scr := s.waitFor("the cleared pane", func(scr []string) bool { return paneTop(scr, "1") == "$" })
	require.NotContains(t, strings.Join(scr, "\n"), "old-", "the lines before the clear are off the pane")

	s.keys("-l", "echo new-1")
	s.keys("Enter")
	scr = s.waitText("new-1")
	require.Equal(t, "$ echo new-1", paneTop(scr, "1"), "the lines since start on the top row")

	s.keys("C-l") // readline's clear-screen
	scr = s.waitFor("the pane cleared by ctrl+l", func(scr []string) bool {
		return paneTop(scr, "1") == "$" && !strings.Contains(strings.Join(scr, "\n"), "new-1")
	})

	s.keys("C-a", "k") // leave input mode, one row up: the scrollback
	scr = s.waitFor("the line before the clear", func(scr []string) bool { return strings.Contains(strings.Join(scr, "\n"), "paused") })
	require.Equal(t, "$", paneTop(scr, "1"), "the prompt ctrl+l cut is the line before")
	s.keys("g")
	scr = s.waitText("old-1")
	s.keys("q", "y")
	require.Equal(t, "0", s.waitExit())
}
