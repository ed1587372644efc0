package ui

import (
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"
	"github.com/stretchr/testify/require"

	"jobtop/styles"
	"jobtop/termtext"
)

// noColourStyles are the styles under NO_COLOR on a 256-colour terminal,
// drawn with the profile jobtop chooses there, for the rest of the test.
// CI is unset: with it set (as CI machines do) termenv, and so jobtop,
// take the output for no terminal and draw no attributes at all.
func noColourStyles(t *testing.T) *styles.Styles {
	t.Helper()
	t.Setenv("CI", "")
	t.Setenv("NO_COLOR", "1")
	t.Setenv("TERM", "xterm-256color")
	lipgloss.SetColorProfile(styles.TerminalProfile(true, os.Getenv))
	t.Cleanup(func() { lipgloss.SetColorProfile(termenv.Ascii) })
	st := styles.Default()
	return &st
}

// requireNoColour fails when view sets a colour.
func requireNoColour(t *testing.T, view, what string) {
	t.Helper()
	require.Equal(t, termtext.StripColours(view), view, "%s: no colour under NO_COLOR", what)
}

// NO_COLOR turns colours off, not attributes (no-color.org): a job's
// reverse video (less's search hits), bold and underline show in line
// mode and on a screen, its colours do not; jobtop's cursor and search
// match stay reverse video. lipgloss's ASCII profile dropped them all:
// no cursor, no match, no selection, no less or vim highlight.
func TestNoColorKeepsAttributes(t *testing.T) {
	st := noColourStyles(t)
	m := linesModel(t, Config{Styles: st}, `printf 'is \033[7;31mhit\033[0m \033[1;44mbold\033[0m \033[4;38;5;208munder\033[0m end\n'`)
	view := m.View()
	require.Contains(t, view, "is \x1b[7mhit\x1b[0m \x1b[1mbold\x1b[0m \x1b[4munder\x1b[0m end", "the job's attributes")
	requireNoColour(t, view, "line mode")
	search(t, m, "end")
	view = m.View()
	require.Regexp(t, `\x1b\[([0-9;]*;)?7(;[0-9;]*)?mend`, view, "the match jumped to, in reverse video")
	requireNoColour(t, view, "a search")

	mgr := newManager(t)
	startTTY(t, mgr, "ask", `printf 'name? \033[31mxyz\033[0m\b\b'; read a; sleep 60`)
	m = newSizedModel(t, mgr, Config{Styles: st}, 80, 20)
	pumpUntil(t, m, "the prompt", func() bool { return slices.Contains(paneRows(m), "name? xyz") })
	press(t, m, "enter", "i")
	pumpUntil(t, m, "the cursor on y", func() bool { return strings.Contains(m.View(), "\x1b[7my\x1b[0m") })
	requireNoColour(t, m.View(), "input mode")

	mgr = newManager(t)
	startTTY(t, mgr, "full", `printf '\033[?1049h\033[H\033[7;32mbar\033[0m \033[1;31mred\033[0m'; sleep 60`)
	m = newSizedModel(t, mgr, Config{Styles: st}, 80, 20)
	pumpUntil(t, m, "the screen", func() bool { return screenShows(m, "bar red") })
	view = m.View()
	require.Contains(t, view, "\x1b[7mbar", "the screen's reverse video")
	require.Contains(t, view, "\x1b[1mred", "the screen's bold")
	requireNoColour(t, view, "screen mode")
	require.Contains(t, ansi.Strip(view), "bar red")
}
