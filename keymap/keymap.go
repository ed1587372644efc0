// Package keymap holds every key binding of jobtop's TUI, built by
// DefaultKeyMap, and implements help.KeyMap so the help bar is drawn from
// the same bindings that fire. Nothing else in jobtop defines a key. The
// UI disables the bindings that do not apply where it is (SetEnabled), so
// help shows only what works. It imports only charm libraries.
package keymap

import "github.com/charmbracelet/bubbles/key"

// KeyMap is every binding, grouped by where it applies.
type KeyMap struct {
	// Job table.
	TableUp, TableDown, TableTop, TableBottom, FocusOutput key.Binding
	// TablePageUp and TablePageDown move the selection a screen of rows.
	TablePageUp, TablePageDown    key.Binding
	Mark, FilterJobs, ClearFilter key.Binding
	// TableInput, on a TTY job's row, shows its pane and enters input
	// mode there (Input, from the table).
	TableInput key.Binding
	// Output pane.
	LineUp, LineDown, HalfPageUp, HalfPageDown, Top, Bottom, Follow, Wrap, FocusTable key.Binding
	Search, NextMatch, PrevMatch, FilterMatches, ClearSearch                          key.Binding
	// ScrollLeft and ScrollRight move a pane sideways while wrap is off.
	ScrollLeft, ScrollRight key.Binding
	// Input enters input mode on a TTY job's pane: every key goes to the
	// job until LeaveInput. TypeLeaveKey, the leave key outside input
	// mode, types it into the job (the leave key twice sends it, as
	// screen's and tmux's prefix do) and enters input mode.
	Input, LeaveInput, TypeLeaveKey key.Binding
	// Everywhere.
	Add, Stop, Kill, Restart, Remove, Zoom, Help, Quit key.Binding
	// Edit opens the add prompt filled in with the selected job's
	// command, to start it again changed, as a new job.
	Edit key.Binding
	// Reload re-reads the instance's job file (only when it has one).
	Reload                                        key.Binding
	Split, AllView, NextPane, PrevPane, FocusPane key.Binding
	Pager, Bell                                   key.Binding
	// Redraw clears the terminal and draws the whole screen again.
	Redraw key.Binding
	// HideEnded hides the jobs that have ended, and shows them again.
	HideEnded key.Binding
	// Timeline shows the jobs' runs across time in place of the output;
	// TimeZoomIn and TimeZoomOut change the time it spans.
	Timeline, TimeZoomIn, TimeZoomOut key.Binding
	// Select starts a line selection in the output pane; Copy copies it,
	// CopyVisible the lines on screen (or a filtered search's matches).
	Select, Copy, CopyVisible key.Binding
	// QuietAlert turns the quiet alert of the job on or off.
	QuietAlert key.Binding
	// LogSearch searches the job's whole log file for the pane's search
	// (L in the pane, ctrl+l in its / prompt), and back.
	LogSearch, LogInPrompt key.Binding
	// The add-a-job prompt; ToggleTTY chooses a terminal or pipes,
	// PromptHistory walks the commands started from it before.
	Submit, NextField, Cancel, ToggleTTY, PromptHistory key.Binding
	// The search prompt (it also takes Cancel).
	Apply, ToggleRegex key.Binding
	// Yes and No answer a question about jobs ("stop 3 marked jobs?
	// y/n"): ctrl+c cancels it, as it cancels the prompts. QuitYes and
	// QuitNo answer the quit question, the one place where ctrl+c means
	// yes: it is the key that asked, pressed again.
	Yes, No, QuitYes, QuitNo key.Binding
	// While jobs are being stopped on quit.
	KillAll key.Binding
	// ClosePanel closes what covers the screen: the full help, or the
	// problems of a job file that could not be reloaded.
	ClosePanel key.Binding
}

// DefaultKeyMap returns jobtop's default bindings, all enabled.
func DefaultKeyMap() KeyMap {
	b := func(keys []string, helpKey, desc string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(helpKey, desc))
	}
	k := func(keys ...string) []string { return keys }
	return KeyMap{
		TableUp:       b(k("k", "up"), "↑/k", "up"),
		TableDown:     b(k("j", "down"), "↓/j", "down"),
		TableTop:      b(k("g", "home"), "g/home", "first"),
		TableBottom:   b(k("G", "end"), "G/end", "last"),
		TablePageUp:   b(k("pgup"), "pgup", "page up"),
		TablePageDown: b(k("pgdown"), "pgdn", "page down"),
		FocusOutput:   b(k("enter"), "enter", "output"),
		TableInput:    b(k("i"), "i", "type into job"),
		Mark:          b(k(" "), "space", "mark"),
		FilterJobs:    b(k("/"), "/", "filter jobs"),
		ClearFilter:   b(k("esc"), "esc", "clear filter"),
		LineUp:        b(k("k", "up"), "↑/k", "line up"),
		LineDown:      b(k("j", "down"), "↓/j", "line down"),
		HalfPageUp:    b(k("ctrl+u", "pgup"), "ctrl+u/pgup", "half page up"),
		HalfPageDown:  b(k("ctrl+d", "pgdown"), "ctrl+d/pgdn", "half page down"),
		Top:           b(k("g", "home"), "g/home", "top"),
		Bottom:        b(k("G", "end"), "G/end", "bottom, follow"),
		Follow:        b(k("f"), "f", "follow"),
		Wrap:          b(k("w"), "w", "wrap"),
		FocusTable:    b(k("esc"), "esc", "jobs"),
		Search:        b(k("/"), "/", "search"),
		NextMatch:     b(k("n"), "n", "next match"),
		PrevMatch:     b(k("N"), "N", "previous match"),
		FilterMatches: b(k("&"), "&", "only matches"),
		ClearSearch:   b(k("esc"), "esc", "clear search"),
		ScrollLeft:    b(k("left", "h"), "←/h", "scroll left"),
		ScrollRight:   b(k("right", "l"), "→/l", "scroll right"),
		Input:         b(k("i", "enter"), "i/enter", "type into job"),
		LeaveInput:    b(k("ctrl+a"), "ctrl+a", "leave input mode"),
		TypeLeaveKey:  b(k("ctrl+a"), "ctrl+a", "type ctrl+a into job"),
		Add:           b(k("a"), "a", "add"),
		Edit:          b(k("e"), "e", "edit & run as new"),
		Stop:          b(k("x"), "x", "stop"),
		Kill:          b(k("X"), "X", "kill"),
		Restart:       b(k("r"), "r", "restart"),
		Remove:        b(k("d"), "d", "remove"),
		Reload:        b(k("R"), "R", "reload file"),
		Zoom:          b(k("z"), "z", "zoom"),
		Help:          b(k("?"), "?", "help"),
		Quit:          b(k("q", "ctrl+c"), "q", "quit"),
		Split:         b(k("s"), "s", "split"),
		AllView:       b(k("A"), "A", "all output"),
		NextPane:      b(k("tab"), "tab", "next pane"),
		PrevPane:      b(k("shift+tab"), "shift+tab", "previous pane"),
		FocusPane:     b(k("1", "2", "3", "4"), "1-4", "focus pane"),
		Pager:         b(k("o"), "o", "open log"),
		Bell:          b(k("b"), "b", "bell"),
		Redraw:        b(k("ctrl+l"), "ctrl+l", "redraw"),
		HideEnded:     b(k("H"), "H", "hide ended"),
		Timeline:      b(k("T"), "T", "timeline"),
		TimeZoomIn:    b(k("+", "="), "+", "zoom in time"),
		TimeZoomOut:   b(k("-"), "-", "zoom out time"),
		Select:        b(k("v"), "v", "select lines"),
		Copy:          b(k("y"), "y", "copy selection"),
		CopyVisible:   b(k("Y"), "Y", "copy shown lines"),
		QuietAlert:    b(k("m"), "m", "quiet alert"),
		LogSearch:     b(k("L"), "L", "search the log file"),
		LogInPrompt:   b(k("ctrl+l"), "ctrl+l", "in the log file"),
		Submit:        b(k("enter"), "enter", "start"),
		NextField:     b(k("tab", "shift+tab"), "tab", "next field"),
		Cancel:        b(k("esc", "ctrl+c"), "esc", "cancel"),
		ToggleTTY:     b(k("ctrl+t"), "ctrl+t", "terminal/pipes"),
		PromptHistory: b(k("up", "down"), "↑/↓", "earlier commands"),
		Apply:         b(k("enter"), "enter", "search"),
		ToggleRegex:   b(k("ctrl+r"), "ctrl+r", "regex"),
		Yes:           b(k("y", "Y"), "y", "yes"),
		No:            b(k("n", "N", "esc", "ctrl+c"), "n", "no"),
		QuitYes:       b(k("y", "Y", "ctrl+c"), "y", "yes"),
		QuitNo:        b(k("n", "N", "esc"), "n", "no"),
		KillAll:       b(k("X", "ctrl+c"), "X", "kill all now"),
		ClosePanel:    b(k("esc", "q", "?"), "esc/q", "close"),
	}
}

// ShortHelp is the one-line help. What acts on jobs comes first, then help
// and quit, so a narrow terminal still shows them; then the keys of where
// the focus is, the views, and moving around last. Disabled bindings are
// not shown.
func (k KeyMap) ShortHelp() []key.Binding {
	return []key.Binding{
		k.LeaveInput,
		k.Submit, k.Apply, k.NextField, k.ToggleTTY, k.PromptHistory, k.ToggleRegex, k.Cancel, k.Yes, k.No, k.QuitYes, k.QuitNo, k.KillAll, k.ClosePanel, k.LogInPrompt,
		k.Input, k.TableInput, k.Add, k.Stop, k.Kill, k.Restart, k.Remove, k.Help, k.Quit, k.Reload,
		k.NextMatch, k.PrevMatch, k.FilterMatches, k.ClearSearch, k.ClearFilter,
		k.Copy, k.FocusOutput, k.Mark, k.Search, k.FilterJobs, k.Follow, k.Wrap, k.ScrollRight, k.FocusTable,
		k.Split, k.AllView, k.Timeline, k.TimeZoomIn, k.TimeZoomOut, k.NextPane, k.FocusPane, k.Zoom, k.Pager, k.HideEnded,
		k.TableUp, k.TableDown, k.LineUp, k.LineDown,
	}
}

// FullHelp is every binding, one column per group, what acts on jobs
// first (help.KeyMap). The TUI's "?" shows its own panel, the keys
// grouped by where they work.
func (k KeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{
		{k.Add, k.Edit, k.Stop, k.Kill, k.Restart, k.Remove, k.Reload, k.Pager, k.Bell, k.QuietAlert, k.Redraw, k.Help, k.Quit},
		{k.Split, k.AllView, k.Timeline, k.TimeZoomIn, k.TimeZoomOut, k.NextPane, k.PrevPane, k.FocusPane, k.Zoom},
		{k.TableUp, k.TableDown, k.TableTop, k.TableBottom, k.TablePageUp, k.TablePageDown, k.FocusOutput, k.TableInput, k.Mark, k.FilterJobs, k.ClearFilter, k.HideEnded},
		{k.LineUp, k.LineDown, k.HalfPageUp, k.HalfPageDown, k.Top, k.Bottom},
		{k.Follow, k.Wrap, k.ScrollLeft, k.ScrollRight, k.FocusTable, k.Search, k.NextMatch, k.PrevMatch, k.FilterMatches, k.LogSearch, k.ClearSearch},
		{k.Select, k.Copy, k.CopyVisible},
		{k.Input, k.LeaveInput, k.TypeLeaveKey},
		{k.Submit, k.Apply, k.NextField, k.ToggleTTY, k.PromptHistory, k.ToggleRegex, k.LogInPrompt, k.Cancel, k.Yes, k.No, k.QuitYes, k.QuitNo, k.KillAll, k.ClosePanel},
	}
}

// All lists every binding, for code that enables or checks them all.
func (k *KeyMap) All() []*key.Binding {
	return []*key.Binding{
		&k.TableUp, &k.TableDown, &k.TableTop, &k.TableBottom, &k.TablePageUp, &k.TablePageDown, &k.FocusOutput, &k.TableInput,
		&k.Mark, &k.FilterJobs, &k.ClearFilter,
		&k.LineUp, &k.LineDown, &k.HalfPageUp, &k.HalfPageDown, &k.Top, &k.Bottom,
		&k.Follow, &k.Wrap, &k.ScrollLeft, &k.ScrollRight, &k.FocusTable, &k.Input, &k.LeaveInput, &k.TypeLeaveKey,
		&k.Search, &k.NextMatch, &k.PrevMatch, &k.FilterMatches, &k.ClearSearch,
		&k.Add, &k.Edit, &k.Stop, &k.Kill, &k.Restart, &k.Remove, &k.Reload, &k.Zoom, &k.Help, &k.Quit,
		&k.Split, &k.AllView, &k.NextPane, &k.PrevPane, &k.FocusPane, &k.Pager, &k.Bell, &k.Redraw, &k.HideEnded,
		&k.Timeline, &k.TimeZoomIn, &k.TimeZoomOut, &k.Select, &k.Copy, &k.CopyVisible,
		&k.QuietAlert, &k.LogSearch, &k.LogInPrompt,
		&k.Submit, &k.NextField, &k.Cancel, &k.ToggleTTY, &k.PromptHistory, &k.Apply, &k.ToggleRegex, &k.Yes, &k.No, &k.QuitYes, &k.QuitNo, &k.KillAll,
		&k.ClosePanel,
	}
}
