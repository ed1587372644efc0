package ui

import (
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/stretchr/testify/require"

	"jobtop/jobs"
)

// A name typed in the add prompt follows the job-file rules, with their
// message; the job is not started until it does.
func TestAddPromptChecksTheName(t *testing.T) {
	mgr := newManager(t)
	m := newSizedModel(t, mgr, Config{}, 120, 30)
	press(t, m, "a")
	typeText(t, m, "sleep 60")
	press(t, m, "tab")
	for _, bad := range []string{"4", "has space"} {
		typeText(t, m, bad)
		press(t, m, "enter")
		require.NotNil(t, m.prompt, "%q is refused", bad)
		require.Contains(t, m.View(), jobs.CheckName(bad).Error())
		require.Empty(t, mgr.List())
		for range bad {
			press(t, m, "backspace")
		}
	}
	press(t, m, "enter")
	require.Nil(t, m.prompt, "no name is fine")
	list := mgr.List()
	require.Len(t, list, 1)
	require.Equal(t, "sleep", list[0].Name, "the default name is the program's")
	require.Equal(t, "sleep 60", list[0].Command)
}

// A paste of several lines into the add prompt is refused, saying why:
// the field would have joined them into one command that is neither.
// A paste of one line (with its newline) is typed in.
func TestAddPromptRefusesAPasteOfLines(t *testing.T) {
	mgr := newManager(t)
	m := newSizedModel(t, mgr, Config{}, 160, 30)
	press(t, m, "a")
	m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("echo one\necho two\n"), Paste: true})
	require.Contains(t, m.View(), "a paste of 2 lines was not typed in")
	require.NotContains(t, m.View(), "echo one")
	m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("echo three\r\n"), Paste: true})
	require.Contains(t, m.View(), "echo three")
	require.NotContains(t, m.View(), "a paste of")
}

// Lines pasted without bracketed paste come as text, a line feed (ctrl+j)
// and text: the field would hold them joined with nothing between
// ("rm -rf buildmake"), so that is not run; emptied, the field takes a
// command again.
func TestAddPromptRefusesLinesPastedWithoutBracketedPaste(t *testing.T) {
	mgr := newManager(t)
	m := newSizedModel(t, mgr, Config{}, 200, 30)
	press(t, m, "a")
	m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("echo a")})
	m.Update(tea.KeyMsg{Type: tea.KeyCtrlJ})
	m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("echo b")})
	require.Contains(t, m.View(), "lines pasted without bracketed paste")
	press(t, m, "enter")
	require.NotNil(t, m.prompt, "not run")
	require.Empty(t, mgr.List())
	require.Contains(t, m.View(), "lines pasted without bracketed paste")
	press(t, m, "ctrl+u")
	require.NotContains(t, m.View(), "lines pasted")
	typeText(t, m, "true")
	press(t, m, "enter")
	require.Nil(t, m.prompt)
	require.Len(t, mgr.List(), 1)

	// One line copied with its newline: the line feed ends it, and
	// enter runs it.
	press(t, m, "a")
	m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("echo trail")})
	m.Update(tea.KeyMsg{Type: tea.KeyCtrlJ})
	require.NotContains(t, m.View(), "lines pasted")
	press(t, m, "enter")
	require.Nil(t, m.prompt)
	require.Len(t, mgr.List(), 2)
}
