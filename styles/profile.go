package styles

import (
	"io"
	"strings"

	"github.com/muesli/termenv"
)

// TerminalProfile is the colour profile to draw with: termenv's choice
// from TERM and COLORTERM, raised where termenv knows too few terminal
// names. termenv gives no colours and no attributes (Ascii) to any TERM
// without "color" in it: screen (tmux's and GNU screen's default), tmux,
// foot, rxvt-unicode, vt100. On a terminal whose TERM is set and not
// "dumb", jobtop draws at least the 16 ANSI colours there (256 for the
// names listed in has256), as ls --color, htop and tmux do.
//
// NO_COLOR (and CLICOLOR=0 without CLICOLOR_FORCE) turns colour off, not
// attributes (no-color.org): on a terminal the profile still writes bold,
// underline and reverse video, so the cursor, search matches and the
// line selection show; the styles are built without colours (Default)
// and colours are left out of job output (Styles.KeepJobColours).
//
// tty says the output is a terminal; getenv reads the environment. As
// termenv, a set CI means no terminal, and CLICOLOR_FORCE means the 16
// colours where there is none.
func TerminalProfile(tty bool, getenv func(string) string) termenv.Profile {
	forced := getenv("CLICOLOR_FORCE") != "" && getenv("CLICOLOR_FORCE") != "0"
	if !tty || getenv("CI") != "" {
		if forced && !noColour(getenv) {
			return termenv.ANSI
		}
		return termenv.Ascii
	}
	term := getenv("TERM")
	p := termenv.NewOutput(io.Discard, termenv.WithTTY(true), termenv.WithEnvironment(environ(getenv))).ColorProfile()
	if p == termenv.Ascii && term != "" && term != "dumb" {
		p = termenv.ANSI
		if has256(term) {
			p = termenv.ANSI256
		}
	}
	if p == termenv.Ascii && forced {
		p = termenv.ANSI
	}
	if noColour(getenv) && p != termenv.Ascii {
		// Attributes only: the styles hold no colours then.
		p = termenv.ANSI
	}
	return p
}

// has256 reports whether a terminal whose name termenv does not know for
// colours has 256 of them.
func has256(term string) bool {
	for _, name := range []string{"tmux", "foot", "konsole", "st", "mlterm", "putty"} {
		if term == name || strings.HasPrefix(term, name+"-") || strings.HasPrefix(term, name+".") {
			return true
		}
	}
	return strings.Contains(term, "256")
}

// noColour reports whether the environment asks for no colours: NO_COLOR
// (https://no-color.org), or CLICOLOR=0 without CLICOLOR_FORCE, as
// termenv reads them.
func noColour(getenv func(string) string) bool {
	if getenv("NO_COLOR") != "" {
		return true
	}
	forced := getenv("CLICOLOR_FORCE") != "" && getenv("CLICOLOR_FORCE") != "0"
	return getenv("CLICOLOR") == "0" && !forced
}

// environ is getenv as termenv reads the environment.
type environ func(string) string

func (e environ) Getenv(key string) string { return e(key) }

func (e environ) Environ() []string { return nil }
