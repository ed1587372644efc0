package styles

import (
	"testing"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
	"github.com/stretchr/testify/require"
)

func withProfile(t *testing.T, p termenv.Profile) {
	t.Helper()
	old := lipgloss.ColorProfile()
	lipgloss.SetColorProfile(p)
	t.Cleanup(func() { lipgloss.SetColorProfile(old) })
}

func TestNoColorDropsColoursButKeepsAttributes(t *testing.T) {
	withProfile(t, termenv.ANSI256)
	t.Setenv("NO_COLOR", "1")
	require.True(t, NoColorRequested())
	st := Default()
	for _, s := range []lipgloss.Style{st.State.Running, st.State.Failed, st.Stderr, st.Selected, st.TitleFocused, st.HelpKey} {
		require.Equal(t, lipgloss.NoColor{}, s.GetForeground())
		require.Equal(t, lipgloss.NoColor{}, s.GetBackground())
	}
	require.True(t, st.Selected.GetReverse(), "selection still stands out without colour")
	require.False(t, st.KeepJobColours, "job output is drawn without colours too")
}

func TestColoursByDefault(t *testing.T) {
	withProfile(t, termenv.ANSI256)
	t.Setenv("NO_COLOR", "")
	st := Default()
	require.NotEqual(t, st.State.Running.GetForeground(), st.State.Failed.GetForeground())
	require.True(t, st.KeepJobColours)
	require.Equal(t, Seq{Open: "\x1b[38;5;42m", Close: "\x1b[0m"}, SeqOf(lipgloss.NewStyle().Foreground(lipgloss.Color("42"))))
}

func TestASCIIProfileWritesNoSequences(t *testing.T) {
	withProfile(t, termenv.Ascii)
	st := New(DefaultPalette(), true)
	require.Equal(t, Seq{}, SeqOf(st.State.Failed))
	require.Equal(t, "text", SeqOf(st.Selected).Wrap("text"))
	require.False(t, st.KeepJobColours)
}

// In 16 colours the selection's grey (237) comes out black, the
// background of most dark themes: the selected row and a focused title
// are reverse video there (rev54: only the ▸ showed the selection).
func TestSixteenColoursSelectInReverse(t *testing.T) {
	withProfile(t, termenv.ANSI)
	t.Setenv("NO_COLOR", "")
	st := Default()
	for _, s := range []lipgloss.Style{st.Selected, st.SelectedBlur, st.TitleFocused} {
		require.True(t, s.GetReverse())
		require.Equal(t, lipgloss.NoColor{}, s.GetBackground())
	}
	require.NotEqual(t, lipgloss.NoColor{}, st.State.Running.GetForeground(), "colours otherwise")

	withProfile(t, termenv.ANSI256)
	st = Default()
	require.False(t, st.Selected.GetReverse(), "256 colours have the grey")
	require.NotEqual(t, lipgloss.NoColor{}, st.Selected.GetBackground())
}
