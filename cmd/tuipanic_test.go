package cmd

import (
	"errors"
	"io"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/stretchr/testify/require"
)

// keyModel quits on q and panics on p, the way a bug in Update would.
type keyModel struct{}

func (keyModel) Init() tea.Cmd { return nil }

func (m keyModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if k, ok := msg.(tea.KeyMsg); ok {
		switch k.String() {
		case "p":
			var rows []string
			_ = rows[len(k.String())] // index out of range
		case "q":
			return m, tea.Quit
		}
	}
	return m, nil
}

func (keyModel) View() string { return "keys" }

// A TUI that panics ends jobtop with exit status 1 and a message that
// says where (it once exited 0, so a script read success); one that
// quits ends it without an error.
func TestTUIPanicExitsNonZeroSayingWhere(t *testing.T) {
	err := runProgram(keyModel{}, nil, nil, tea.WithInput(strings.NewReader("p")), tea.WithOutput(io.Discard))
	var exit *ExitError
	require.True(t, errors.As(err, &exit), "a panic is an error: %v", err)
	require.Equal(t, 1, exit.Code)
	require.Contains(t, exit.Error(), "the TUI stopped on a panic")
	require.Contains(t, exit.Error(), "index out of range [1] with length 0")
	require.Contains(t, exit.Error(), "cmd.keyModel.Update", "the stack says where")

	require.NoError(t, runProgram(keyModel{}, nil, nil, tea.WithInput(strings.NewReader("q")), tea.WithOutput(io.Discard)))
}
