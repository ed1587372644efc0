package ui

import (
	"fmt"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/stretchr/testify/require"

	"jobtop/jobs"
)

// tinyPaneKeys are the output pane's keys, pressed in a terminal too
// small to show the pane's body: moving, following, wrapping, sideways,
// searching (for a line that is there), selecting.
var tinyPaneKeys = []string{
	"k", "up", "g", "home", "j", "down", "ctrl+u", "pgup", "ctrl+d", "pgdown", "G", "end",
	"g", "f", "k", "f", "w", "k", "k", "g", "j", "ctrl+d", "G", "w",
	"l", "right", "h", "left",
	"/", "1", "enter", "n", "N", "n", "&", "k", "g", "N", "&", "esc",
	"v", "k", "j", "g", "G", "esc",
}

// In a terminal 1 to 8 rows high and 1 to 30 columns wide, every key of
// the output pane works without a panic (3 to 5 rows once panicked on
// k and g: the pane had no body row to scroll), in short and wrapped
// output, and the frame keeps to the terminal.
func TestTinyTerminalPaneKeysNeverPanic(t *testing.T) {
	mgr := newManager(t)
	start(t, mgr, "long", "seq 1 40; printf '%0100d\\n' 7; seq 41 60")
	m := newSizedModel(t, mgr, Config{}, 80, 24)
	pumpUntil(t, m, "the job's output", func() bool {
		info, ok := m.table.Get(1)
		return ok && info.State == jobs.StateSucceeded && info.Lines >= 61
	})
	for h := 1; h <= 8; h++ {
		for w := 1; w <= 30; w++ {
			label := fmt.Sprintf("%dx%d", w, h)
			m := newSizedModel(t, mgr, Config{}, w, h)
			pumpUntil(t, m, label+": the job", func() bool { _, ok := m.table.Get(1); return ok })
			press(t, m, "enter")
			for i, k := range tinyPaneKeys {
				require.NotPanics(t, func() {
					press(t, m, k)
					requireFits(t, m.View(), w, h, fmt.Sprintf("%s after key %d %q", label, i, k))
				}, "%s: key %d %q", label, i, k)
			}
			m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
			requireFits(t, m.View(), 80, 24, label+" grown back")
		}
	}
}
