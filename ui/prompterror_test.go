package ui

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/stretchr/testify/require"

	"jobtop/jobs"
)

// A prompt's error shows whole at 80 columns, its advice too: a paste of
// two lines into a showed "…a command is one line (join t…", cut before
// what to do. One that does not fit beside the heading wraps onto rows
// of its own under it.
func TestAPromptErrorFitsAt80Columns(t *testing.T) {
	mgr := newManager(t)
	require.NoError(t, mgr.SetMaxRunning(1))
	start(t, mgr, "busy", "exec sleep 60")
	queued := start(t, mgr, "build", "echo typo")
	require.Equal(t, jobs.StateQueued, queued.State)
	m := newSizedModel(t, mgr, Config{}, 80, 24)
	whole := func(what string) {
		t.Helper()
		require.NotEmpty(t, m.prompt.err, what)
		view := m.View()
		requireFits(t, view, 80, 24, what)
		require.Contains(t, strings.ReplaceAll(view, "\n    ", " "), m.prompt.err, "%s: the whole error (wrapped: its rows joined)", what)
	}
	for _, heading := range []string{"a", "e"} {
		if heading == "e" {
			m.table.Select(queued.ID)
		}
		press(t, m, heading)
		require.NotNil(t, m.prompt)
		m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("echo one\necho two\n"), Paste: true})
		whole(heading + ": a paste of two lines")
		require.Contains(t, m.prompt.err, "join")

		press(t, m, "ctrl+u")
		typeText(t, m, "echo one")
		press(t, m, "ctrl+j")
		typeText(t, m, "echo two")
		whole(heading + ": lines typed without bracketed paste")
		require.Contains(t, m.prompt.err, "join")

		press(t, m, "ctrl+u")
		typeText(t, m, "echo hi")
		press(t, m, "tab")
		typeText(t, m, "web server")
		press(t, m, "enter")
		whole(heading + ": a name refused")
		require.True(t, strings.HasSuffix(m.prompt.err, `"/"`), m.prompt.err)
		press(t, m, "esc")
		require.Nil(t, m.prompt)
	}
}
