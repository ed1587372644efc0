package ui

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/stretchr/testify/require"
)

// typeFast delivers text as bubbletea v1 reads it when it arrives in one
// read without bracketed paste: a key message per word (KeyRunes) and one
// per space (KeySpace).
func typeFast(t *testing.T, m *Model, text string) {
	t.Helper()
	for i, word := range strings.Split(text, " ") {
		if i > 0 {
			_, cmd := m.Update(tea.KeyMsg{Type: tea.KeySpace, Runes: []rune{' '}})
			runCmd(t, m, cmd)
		}
		if word != "" {
			_, cmd := m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(word)})
			runCmd(t, m, cmd)
		}
	}
}

// Words that spell key names are text in every text field: the prompt's
// own keys (esc, enter, tab) and the text field's (home, end, up, down,
// left, right) do not fire.
const keyWords = "docker compose up -d; echo the end home down left right tab enter esc ctrl+c"

func TestTypedKeyNamesAreTextInTheAddPrompt(t *testing.T) {
	mgr := newManager(t)
	m := newSizedModel(t, mgr, Config{}, 160, 30)
	press(t, m, "a")
	typeFast(t, m, keyWords)
	require.NotNil(t, m.prompt, "no typed word closes the prompt")
	require.Equal(t, keyWords, m.prompt.inputs[0].Value())
	require.Equal(t, 0, m.prompt.focused, "the typed word tab does not move to the name")
	require.Zero(t, m.table.Len(), "the typed word enter starts nothing")

	// The real keys still work.
	press(t, m, "tab")
	typeFast(t, m, "up end")
	require.Equal(t, "up end", m.prompt.inputs[1].Value())
	press(t, m, "esc")
	require.Nil(t, m.prompt)
}

func TestTypedKeyNamesAreTextInTheSearchAndFilterPrompts(t *testing.T) {
	mgr := newManager(t)
	start(t, mgr, "one", "echo hello")
	m := newSizedModel(t, mgr, Config{}, 160, 30)
	pumpUntil(t, m, "the job", func() bool { return m.liveJobs() == 0 && m.table.Len() == 1 })

	press(t, m, "/")
	typeFast(t, m, "home up end esc enter")
	require.NotNil(t, m.find, "no typed word closes the filter prompt")
	require.Equal(t, "home up end esc enter", m.find.input.Value())
	require.Equal(t, "home up end esc enter", m.table.Filter())
	press(t, m, "esc")
	require.Empty(t, m.table.Filter())

	press(t, m, "enter", "/")
	typeFast(t, m, "re: end|esc")
	require.NotNil(t, m.find)
	require.Equal(t, "re: end|esc", m.find.input.Value())
	press(t, m, "enter")
	require.Nil(t, m.find)
	require.NotNil(t, m.activePane().search)
	require.Equal(t, "re: end|esc", m.activePane().search.m.input)
}
