// Package styles holds jobtop's look: a palette of semantic colours
// (adaptive for light and dark terminals) and the lipgloss styles built
// from it. Nothing else in jobtop defines a colour. It imports only charm
// libraries.
//
// NO_COLOR is honoured: with it set (to anything but ""), Default builds
// styles without colours; bold, underline and reverse video stay (see
// TerminalProfile). The UI never relies on a style alone to show what is
// selected or focused (TERM=dumb draws no attributes): it draws markers
// as well.
package styles

import (
	"os"
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
)

// Palette names the colours jobtop uses by what they mean.
type Palette struct {
	Text, Muted, Subtle, Accent lipgloss.AdaptiveColor
	// SelectedBg and TitleBg are backgrounds for the selected row and the
	// focused pane title.
	SelectedBg, TitleBg lipgloss.AdaptiveColor
	// Job states.
	Running, Queued, Stopping, Succeeded, Failed, Killed, TimedOut, Error lipgloss.AdaptiveColor
	// Stderr tints lines a job wrote to its standard error.
	Stderr lipgloss.AdaptiveColor
	// MatchBg and MatchCurrentBg mark search matches, and the match
	// jumped to.
	MatchBg, MatchCurrentBg lipgloss.AdaptiveColor
	// Input marks where keys go to a job (input mode).
	Input lipgloss.AdaptiveColor
	// Jobs are the colours job names are told apart by (the "all" view's
	// prefixes), used in turn by job ID.
	Jobs []lipgloss.AdaptiveColor
}

// DefaultPalette is jobtop's palette for light and dark terminals.
func DefaultPalette() Palette {
	c := func(light, dark string) lipgloss.AdaptiveColor {
		return lipgloss.AdaptiveColor{Light: light, Dark: dark}
	}
	return Palette{
		Text:           c("235", "252"),
		Muted:          c("245", "243"),
		Subtle:         c("250", "238"),
		Accent:         c("26", "75"),
		SelectedBg:     c("254", "237"),
		TitleBg:        c("253", "236"),
		Running:        c("28", "42"),
		Queued:         c("244", "246"),
		Stopping:       c("136", "220"),
		Succeeded:      c("28", "78"),
		Failed:         c("160", "203"),
		Killed:         c("130", "208"),
		TimedOut:       c("130", "214"),
		Error:          c("124", "197"),
		Stderr:         c("166", "216"),
		MatchBg:        c("229", "58"),
		MatchCurrentBg: c("214", "130"),
		Input:          c("127", "213"),
		Jobs: []lipgloss.AdaptiveColor{
			c("26", "75"), c("28", "114"), c("127", "176"), c("130", "180"),
			c("30", "80"), c("91", "141"), c("166", "209"), c("64", "150"),
		},
	}
}

// StateStyles holds one style per job state.
type StateStyles struct {
	Running, Queued, Stopping, Succeeded, Failed, Killed, TimedOut, Error lipgloss.Style
}

// Styles is every style the UI draws with. Build it with New or Default
// and pass it down; it is read-only once built.
type Styles struct {
	// TableHeader styles the job table's column titles.
	TableHeader lipgloss.Style
	// Selected styles the selected row; SelectedBlur the same row while
	// the output pane has the focus.
	Selected, SelectedBlur lipgloss.Style
	// Muted is for secondary text (empty cells, hints).
	Muted lipgloss.Style
	// Title and TitleFocused style pane headers.
	Title, TitleFocused lipgloss.Style
	// Flag styles mode flags (follow, wrap) that are on; Paused the
	// paused-follow warning.
	Flag, Paused lipgloss.Style
	// State styles status cells and counts.
	State StateStyles
	// Stderr tints standard-error lines; Meta styles jobtop's own lines in
	// a job's output (run markers).
	Stderr, Meta lipgloss.Style
	// StatusBar is the bar's base; Notice and NoticeError its messages.
	StatusBar, Notice, NoticeError lipgloss.Style
	// Prompt styles dialogs (add a job, confirm quit); PromptLabel their
	// labels and PromptError inline errors.
	Prompt, PromptLabel, PromptError lipgloss.Style
	// HelpKey, HelpDesc and HelpSep style the help bar.
	HelpKey, HelpDesc, HelpSep lipgloss.Style
	// Border outlines the panes of a split view; BorderFocused the one
	// that has the focus.
	Border, BorderFocused lipgloss.Style
	// Match marks search matches in output; MatchCurrent the match
	// jumped to.
	Match, MatchCurrent lipgloss.Style
	// Marked is the job table's mark of jobs chosen for the split view;
	// Unseen its mark of output or an end not yet seen.
	Marked, Unseen lipgloss.Style
	// JobNames style job names by job (see JobName).
	JobNames []lipgloss.Style
	// Input marks input mode, where keys go to a job: the status bar's
	// and the pane's "INPUT" flag; InputBorder the box of the pane typed
	// into.
	Input, InputBorder lipgloss.Style
	// Cursor draws a screen-mode job's cursor in its focused pane.
	Cursor lipgloss.Style
	// KeepJobColours says whether SGR colours in job output reach the
	// screen: false when colours are off (NO_COLOR, or a terminal without
	// colour).
	KeepJobColours bool
	// KeepJobAttributes says whether the rest of job output's SGR (bold,
	// underline, reverse video: less's search hits, vim's visual mode)
	// reaches the screen: also under NO_COLOR, false only where the
	// terminal draws no attributes (TERM=dumb).
	KeepJobAttributes bool
}

// NoColorRequested reports whether the NO_COLOR convention asks for no
// colours (https://no-color.org), or CLICOLOR=0 does.
func NoColorRequested() bool { return noColour(os.Getenv) }

// Default builds the styles for this terminal: the default palette, or
// no colours when NO_COLOR is set.
func Default() Styles {
	return New(DefaultPalette(), !NoColorRequested())
}

// New builds styles from a palette; with colour false, only text
// attributes (bold, reverse, faint) are used.
func New(p Palette, colour bool) Styles {
	fg := func(s lipgloss.Style, c lipgloss.AdaptiveColor) lipgloss.Style {
		if colour {
			return s.Foreground(c)
		}
		return s
	}
	bg := func(s lipgloss.Style, c lipgloss.AdaptiveColor) lipgloss.Style {
		if colour {
			return s.Background(c)
		}
		return s.Reverse(true)
	}
	// The selected row's and a title's greys (237, 236) are black in 16
	// colours, the background of most dark themes: the selection showed
	// only by its ▸ (rev54). There they are reverse video, as without
	// colour.
	grey := bg
	if colour && lipgloss.ColorProfile() == termenv.ANSI {
		grey = func(s lipgloss.Style, _ lipgloss.AdaptiveColor) lipgloss.Style { return s.Reverse(true) }
	}
	base := lipgloss.NewStyle()
	st := Styles{
		TableHeader:  fg(base.Bold(true), p.Muted),
		Selected:     grey(base.Bold(true), p.SelectedBg),
		SelectedBlur: grey(base, p.SelectedBg),
		Muted:        fg(base, p.Muted),
		Title:        fg(base.Bold(true), p.Text),
		TitleFocused: fg(grey(base.Bold(true), p.TitleBg), p.Accent),
		Flag:         fg(base.Bold(true), p.Accent),
		Paused:       fg(base.Bold(true), p.Stopping),
		State: StateStyles{
			Running:   fg(base, p.Running),
			Queued:    fg(base, p.Queued),
			Stopping:  fg(base, p.Stopping),
			Succeeded: fg(base, p.Succeeded),
			Failed:    fg(base.Bold(true), p.Failed),
			Killed:    fg(base, p.Killed),
			TimedOut:  fg(base, p.TimedOut),
			Error:     fg(base.Bold(true), p.Error),
		},
		Stderr:        fg(base, p.Stderr),
		Meta:          fg(base.Faint(true), p.Muted),
		StatusBar:     fg(base, p.Muted),
		Notice:        fg(base, p.Text),
		NoticeError:   fg(base.Bold(true), p.Failed),
		Prompt:        fg(base.Bold(true), p.Accent),
		PromptLabel:   fg(base, p.Muted),
		PromptError:   fg(base, p.Failed),
		HelpKey:       fg(base, p.Accent),
		HelpDesc:      fg(base, p.Muted),
		HelpSep:       fg(base, p.Subtle),
		Border:        fg(base, p.Subtle),
		BorderFocused: fg(base.Bold(true), p.Accent),
		Match:         bg(base, p.MatchBg),
		MatchCurrent:  bg(base.Bold(true).Underline(true), p.MatchCurrentBg),
		Marked:        fg(base.Bold(true), p.Accent),
		Unseen:        fg(base.Bold(true), p.Stopping),
		Input:         fg(base.Bold(true).Reverse(true), p.Input),
		InputBorder:   fg(base.Bold(true), p.Input),
		Cursor:        base.Reverse(true),
	}
	for _, c := range p.Jobs {
		st.JobNames = append(st.JobNames, fg(base, c))
	}
	// Under the ASCII profile lipgloss writes no sequences at all.
	st.KeepJobColours = colour && SeqOf(base.Foreground(lipgloss.Color("1"))).Open != ""
	st.KeepJobAttributes = SeqOf(base.Reverse(true)).Open != ""
	return st
}

// JobName is the style of a job's name where jobs are told apart by
// colour: the palette's job colours in turn by job ID (1, 2, 3...).
func (s *Styles) JobName(id int) lipgloss.Style {
	if len(s.JobNames) == 0 || id <= 0 {
		return lipgloss.NewStyle()
	}
	return s.JobNames[(id-1)%len(s.JobNames)]
}

// Seq is a style as the escape sequences that open and close it, so hot
// drawing paths can wrap text without calling Render. Under a colour
// profile without styles (ASCII) both are empty.
type Seq struct {
	Open, Close string
}

// SeqOf returns the sequences of a style that sets only colours and text
// attributes (no padding, margins, borders or sizes).
func SeqOf(s lipgloss.Style) Seq {
	const mark = "x" // no escape sequence contains an x
	out := s.Render(mark)
	i := strings.Index(out, mark)
	if i < 0 {
		return Seq{}
	}
	return Seq{Open: out[:i], Close: out[i+len(mark):]}
}

// Wrap surrounds text with the sequences.
func (q Seq) Wrap(text string) string {
	if q.Open == "" {
		return text
	}
	return q.Open + text + q.Close
}
