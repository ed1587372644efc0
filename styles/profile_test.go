package styles

import (
	"testing"

	"github.com/muesli/termenv"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// env is an environment of KEY=VALUE pairs.
func env(pairs ...string) func(string) string {
	m := map[string]string{}
	for i := 0; i+1 < len(pairs); i += 2 {
		m[pairs[i]] = pairs[i+1]
	}
	return func(k string) string { return m[k] }
}

// Terminals whose TERM has no "color" in it draw colours, as ls --color,
// htop and tmux find them: termenv gave them no colours and no
// attributes (its Ascii profile), so a job's red and bold were stripped
// and jobtop's own colours never drawn.
func TestTerminalProfileGivesColourToTerminalsTermenvDoesNotName(t *testing.T) {
	for _, c := range []struct {
		env  []string
		want termenv.Profile
	}{
		{[]string{"TERM", "screen"}, termenv.ANSI},
		{[]string{"TERM", "vt100"}, termenv.ANSI},
		{[]string{"TERM", "rxvt-unicode"}, termenv.ANSI},
		{[]string{"TERM", "foot"}, termenv.ANSI256},
		{[]string{"TERM", "tmux"}, termenv.ANSI256},
		{[]string{"TERM", "rxvt-unicode-256color"}, termenv.ANSI256},
		{[]string{"TERM", "screen-256color"}, termenv.ANSI256},
		{[]string{"TERM", "xterm-256color"}, termenv.ANSI256},
		{[]string{"TERM", "screen", "COLORTERM", "truecolor", "TERM_PROGRAM", "tmux"}, termenv.TrueColor},
		{[]string{"TERM", "foot", "COLORTERM", "24bit"}, termenv.TrueColor},
		{[]string{"TERM", "dumb"}, termenv.Ascii},
		{nil, termenv.Ascii},
	} {
		assert.Equal(t, c.want, TerminalProfile(true, env(c.env...)), "%v", c.env)
	}
	assert.Equal(t, termenv.Ascii, TerminalProfile(false, env("TERM", "screen")), "not a terminal")
	assert.Equal(t, termenv.ANSI, TerminalProfile(false, env("TERM", "screen", "CLICOLOR_FORCE", "1")))
}

// NO_COLOR turns colours off, not bold, underline and reverse video
// (no-color.org): the profile still writes attributes on a terminal,
// and the styles hold none of the palette's colours.
func TestTerminalProfileUnderNoColorKeepsAttributes(t *testing.T) {
	for _, term := range []string{"screen", "xterm-256color", "foot"} {
		p := TerminalProfile(true, env("TERM", term, "NO_COLOR", "1"))
		require.Equal(t, termenv.ANSI, p, term)
		withProfile(t, p)
		st := New(DefaultPalette(), false)
		assert.Equal(t, Seq{Open: "\x1b[7m", Close: "\x1b[0m"}, SeqOf(st.Cursor), term)
		assert.Equal(t, "\x1b[1;7m", SeqOf(st.Selected).Open, term)
	}
	assert.Equal(t, termenv.Ascii, TerminalProfile(true, env("TERM", "dumb", "NO_COLOR", "1")))
	assert.Equal(t, termenv.ANSI, TerminalProfile(true, env("TERM", "screen", "CLICOLOR", "0")))
	assert.Equal(t, termenv.Ascii, TerminalProfile(false, env("TERM", "screen", "NO_COLOR", "1", "CLICOLOR_FORCE", "1")))
}
