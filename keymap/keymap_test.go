package keymap

import (
	"strings"
	"testing"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/x/ansi"
	"github.com/stretchr/testify/require"
)

// helpKeyNames maps the symbols used in help labels to key names.
var helpKeyNames = map[string]string{"↑": "up", "↓": "down", "←": "left", "→": "right", "pgdn": "pgdown", "space": " "}

// helpKeys are the keys a help label names: "g/home", "/", or a range
// "1-4".
func helpKeys(label string) []string {
	if label == "/" {
		return []string{label}
	}
	if len(label) == 3 && label[1] == '-' {
		var keys []string
		for c := label[0]; c <= label[2]; c++ {
			keys = append(keys, string(c))
		}
		return keys
	}
	var keys []string
	for _, name := range strings.Split(label, "/") {
		if n, ok := helpKeyNames[name]; ok {
			name = n
		}
		keys = append(keys, name)
	}
	return keys
}

func TestHelpNamesKeysThatFire(t *testing.T) {
	km := DefaultKeyMap()
	for _, b := range km.All() {
		h := b.Help()
		require.NotEmpty(t, h.Key, "binding %v has no help key", b.Keys())
		require.NotEmpty(t, h.Desc, "binding %v has no help text", b.Keys())
		for _, name := range helpKeys(h.Key) {
			require.Contains(t, b.Keys(), name, "help %q names a key that does not fire", h.Key)
		}
	}
}

func TestShortAndFullHelpCoverEveryBinding(t *testing.T) {
	km := DefaultKeyMap()
	var full []string
	for _, col := range km.FullHelp() {
		for _, b := range col {
			full = append(full, b.Help().Key+" "+b.Help().Desc)
		}
	}
	for _, b := range km.All() {
		require.Contains(t, full, b.Help().Key+" "+b.Help().Desc)
	}
	for _, b := range km.ShortHelp() {
		require.Contains(t, full, b.Help().Key+" "+b.Help().Desc)
	}
}

// No key may mean two things where both bindings are live at once.
func TestNoConflictsWithinAContext(t *testing.T) {
	km := DefaultKeyMap()
	global := []key.Binding{
		km.Add, km.Stop, km.Kill, km.Restart, km.Remove, km.Reload, km.Zoom, km.Help, km.Quit,
		km.Split, km.AllView, km.NextPane, km.PrevPane, km.FocusPane, km.Pager, km.Bell, km.Redraw,
	}
	table := []key.Binding{km.TableUp, km.TableDown, km.TableTop, km.TableBottom, km.TablePageUp, km.TablePageDown, km.FocusOutput, km.TableInput, km.Mark, km.FilterJobs}
	output := []key.Binding{km.LineUp, km.LineDown, km.HalfPageUp, km.HalfPageDown, km.Top, km.Bottom, km.Follow, km.Wrap, km.ScrollLeft, km.ScrollRight, km.Search, km.Input}
	with := func(lists ...[]key.Binding) []key.Binding {
		var all []key.Binding
		for _, l := range lists {
			all = append(all, l...)
		}
		return all
	}
	contexts := map[string][]key.Binding{
		"table":          with(table, []key.Binding{km.ClearFilter}, global),
		"output":         with(output, []key.Binding{km.FocusTable}, global),
		"output, search": with(output, []key.Binding{km.NextMatch, km.PrevMatch, km.FilterMatches, km.ClearSearch}, global),
		"add prompt":     {km.Submit, km.NextField, km.Cancel, km.ToggleTTY, km.Redraw},
		"search prompt":  {km.Apply, km.ToggleRegex, km.Cancel, km.Redraw},
		"confirm":        {km.Yes, km.No, km.Redraw},
		"quit question":  {km.QuitYes, km.QuitNo, km.Redraw},
		"stopping":       {km.KillAll},
		"input mode":     {km.LeaveInput},
		"panel":          {km.ClosePanel, km.LineUp, km.LineDown, km.HalfPageUp, km.HalfPageDown, km.Top, km.Bottom, km.Redraw},
	}
	for name, bindings := range contexts {
		seen := map[string]string{}
		for _, b := range bindings {
			for _, k := range b.Keys() {
				other, dup := seen[k]
				require.False(t, dup, "%s: key %q is bound to both %q and %q", name, k, other, b.Help().Desc)
				seen[k] = b.Help().Desc
			}
		}
	}
}

// ctrl+c cancels a question about jobs; only the quit question, which
// ctrl+c asked, takes it again as yes.
func TestCtrlCIsYesOnlyToTheQuitQuestion(t *testing.T) {
	km := DefaultKeyMap()
	require.NotContains(t, km.Yes.Keys(), "ctrl+c")
	require.Contains(t, km.No.Keys(), "ctrl+c")
	require.Contains(t, km.QuitYes.Keys(), "ctrl+c")
	require.Contains(t, km.Quit.Keys(), "ctrl+c")
}

func TestDisabledBindingsLeaveHelp(t *testing.T) {
	km := DefaultKeyMap()
	for _, b := range km.All() {
		b.SetEnabled(false)
	}
	km.Add.SetEnabled(true)
	km.Quit.SetEnabled(true)
	require.Equal(t, "a add • q quit", ansi.Strip(help.New().ShortHelpView(km.ShortHelp())))
}
