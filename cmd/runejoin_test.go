package cmd

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/stretchr/testify/require"
)

// typed records the text a model is given as keys, and quits on ctrl+c.
type typed struct{ text *strings.Builder }

func (m typed) Init() tea.Cmd { return nil }

func (m typed) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if k, ok := msg.(tea.KeyMsg); ok {
		switch k.Type {
		case tea.KeyCtrlC:
			return m, tea.Quit
		case tea.KeyRunes, tea.KeySpace:
			m.text.WriteString(string(k.Runes))
		default:
			m.text.WriteString("<" + k.String() + ">")
		}
	} else {
		m.text.WriteString("<?>") // what Bubble Tea makes of a cut character
	}
	return m, nil
}

func (m typed) View() string { return "" }

// runTyped feeds input, then ctrl+c, through a real Bubble Tea program
// (which reads it 256 bytes at a time) and returns the text the model got.
func runTyped(t *testing.T, input string, join bool) string {
	t.Helper()
	var text strings.Builder
	var model tea.Model = typed{text: &text}
	if join {
		model = &runeJoiner{Model: model}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	p := tea.NewProgram(model, tea.WithContext(ctx), tea.WithInput(bytes.NewReader([]byte(input+"\x03"))),
		tea.WithOutput(io.Discard), tea.WithoutRenderer(), tea.WithoutSignalHandler())
	_, err := p.Run()
	require.NoError(t, err)
	return text.String()
}

// Characters cut by the 256-byte reads arrive whole; bytes that make no
// character still arrive as Bubble Tea reports them.
func TestRuneJoinerMendsCharactersCutByReads(t *testing.T) {
	text := strings.Repeat("é日本👍🏽a", 100)
	require.NotEqual(t, text, runTyped(t, text, false), "Bubble Tea alone loses characters cut at a read boundary")
	require.Equal(t, text, runTyped(t, text, true))
	require.Equal(t, "a<?>b", runTyped(t, "a\xffb", true), "an invalid byte goes on")
	require.Equal(t, "a<?><?>b", runTyped(t, "a\xe6\x97b", true), "an unfinished character goes on as its bytes")
}
