package ui

import (
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/stretchr/testify/require"
)

// Each cluster counts at the most any terminal draws it: tmux 3.3 draws
// a skin-tone modifier as a second wide character, a terminal that
// draws clusters draws 👨‍👩‍👧 in two cells and xterm in six.
func TestTextWidthCountsClustersAtTheirWidest(t *testing.T) {
	for _, c := range []struct {
		text  string
		cells int
	}{
		{"plain", 5},
		{"👍", 2},
		{"👍🏽", 4},                 // modifier: 2 + 2 rune by rune
		{"👨‍👩‍👧", 6},              // ZWJ sequence: 2 + 0 + 2 + 0 + 2
		{"🇫🇷", 4},                 // two regional indicators
		{"❤️", 2},                 // VS16: emoji presentation, wide as a cluster
		{"#️⃣", 2},                // keycap on an ASCII base
		{"漢字", 4},                 // CJK
		{"é", 1},                  // e and a combining acute
		{"ก่", 1},                 // Thai and a combining tone mark
		{"\x1b[31mred\x1b[0m", 3}, // escapes take no cell
	} {
		require.Equal(t, c.cells, textWidth(c.text), "%q", c.text)
	}
}

func TestTruncateTextCutsWholeClustersAndKeepsEscapes(t *testing.T) {
	require.Equal(t, "ab…", truncateText("abcdef", 3, "…"))
	require.Equal(t, "abcdef", truncateText("abcdef", 6, "…"))
	require.Equal(t, "ab…", truncateText("ab👍🏽", 4, "…"), "the modifier's four cells do not fit in three")
	require.Equal(t, "ab👍🏽", truncateText("ab👍🏽", 6, "…"))
	require.Equal(t, "\x1b[1mab…\x1b[0m", truncateText("\x1b[1mabcd\x1b[0m", 3, "…"), "the reset after the cut is kept")
	require.Equal(t, "", truncateText("👍🏽", 1, "…x"), "no room even for the tail")
}

// A line of output is cut or wrapped where the widest drawing of its
// clusters ends, so no row is wider than the pane on any terminal.
func TestLayoutLineMeasuresClustersAtTheirWidest(t *testing.T) {
	rows := layoutLine(nil, strings.Repeat("x", 77)+"👍🏽 after", lineFormat{width: 80})
	require.Equal(t, []string{strings.Repeat("x", 77)}, rows, "the modifier would reach column 81 in tmux")

	rows = layoutLine(nil, strings.Repeat("👍🏽", 30), lineFormat{width: 30, wrap: true})
	require.Len(t, rows, 5, "seven of four cells a row")
	for _, r := range rows {
		require.LessOrEqual(t, textWidth(r), 30)
	}
	require.Equal(t, []string{"é", "x"}, layoutLine(nil, "éx", lineFormat{width: 1, wrap: true}), "the combining mark stays with its letter")
	require.Equal(t, []string{"a", "#️⃣"}, layoutLine(nil, "a#️⃣", lineFormat{width: 2, wrap: true}), "a keycap on an ASCII base is two cells")
}

// ctrl+l redraws the whole screen, wherever the focus is.
func TestCtrlLRedraws(t *testing.T) {
	mgr := newManager(t)
	start(t, mgr, "web", "exec sleep 60")
	m := newSizedModel(t, mgr, Config{}, 100, 20)
	pumpUntil(t, m, "running", func() bool { return m.liveJobs() == 1 })
	for _, keys := range [][]string{nil, {"enter"}, {"a"}, {"esc", "/"}, {"esc", "q"}} {
		press(t, m, keys...)
		_, cmd := m.Update(keyMsg("ctrl+l"))
		require.NotNil(t, cmd, "after %v", keys)
		require.Equal(t, tea.ClearScreen(), cmd(), "after %v", keys)
	}
}

// BenchmarkTextWidth measures a table row with styles and marks, against
// x/ansi's grapheme width measured in the same run (x-ansi below 1:
// counting clusters at their widest costs nothing over it).
func BenchmarkTextWidth(b *testing.B) {
	row := "\x1b[1m▸◆• \x1b[0m  12 build-server     \x1b[32m● running\x1b[0m       12345   3m05s        2.5  120M   1234 " +
		strings.Repeat("compiling internal/config ", 3)
	const n = 20000
	start := time.Now()
	for i := 0; i < n; i++ {
		_ = ansi.StringWidth(row)
	}
	baseline := float64(time.Since(start).Nanoseconds()) / n
	count := 0
	start = time.Now()
	for b.Loop() {
		_ = textWidth(row)
		count++
	}
	per := float64(time.Since(start).Nanoseconds()) / float64(count)
	b.ReportMetric(per/baseline, "x-ansi")
}
