package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"jobtop/termtext"
)

// wideText is text whose width terminals disagree on: skin-tone
// modifiers (four cells in tmux 3.3, two in a terminal that draws
// clusters), ZWJ sequences, flags, a keycap and a heart with VS16, CJK,
// and combining marks.
const wideText = "review done 👍🏽 family 👨‍👩‍👧 coder 👩🏽‍💻 flag 🇫🇷 🏳️‍🌈 key 1️⃣ heart ❤️ cjk 漢字 combining é ก่ end"

// drawnText is single code points that Unicode's width tables make
// narrower than glibc's wcwidth, and so tmux 3.3, VTE and xterm, draw
// them: the soft hyphen and the prepended concatenation marks (format
// characters, 0 cells by the tables, 1 on screen), and the circled
// numbers on black squares U+3248-U+324F (1 cell by the tables, 2 on
// screen).
const drawnText = "soft co\u00adop arabic x\u0600y\u0601\u0602\u0603\u0604\u0605\u06dd syriac \u070f arabic ext \u0890\u0891\u08e2 " +
	"kaithi \U000110bd\U000110cd circled \u3248\u3249\u324a\u324b\u324c\u324d\u324e\u324f end"

// wideScript prints rows of wideText that reach past any pane edge, one
// with a modifier right at the edge of an 80-column pane, then waits.
const wideScript = `echo "first line"
echo "$WIDE"
echo "$WIDE $WIDE $WIDE"
printf '%077d👍🏽 after the edge\n' 0
echo "$DRAWN $DRAWN $DRAWN"
printf '%077d\302\255 after the edge\n' 0
i=0; while [ $i -lt 50 ]; do printf '👍🏽'; i=$((i+1)); done; echo
exec sleep 600
`

// requireIntactFrame checks what breaks when a row wraps: the table
// header is the first row, the help the last, the status bar above it,
// and the table header, the pane header (once, text) and the first line
// of output (at most once) are not drawn twice.
func requireIntactFrame(t *testing.T, s *session, height int, what, once string) {
	t.Helper()
	s.waitFor(what+": an intact frame", func(scr []string) bool {
		return len(scr) == height && strings.HasPrefix(scr[0], "    ID NAME") &&
			strings.Contains(scr[height-1], "help") && strings.Contains(scr[height-2], "[")
	})
	scr := s.screen()
	all := strings.Join(scr, "\n")
	require.Equal(t, 1, strings.Count(all, "    ID NAME"), "%s: the table header is drawn once:\n%s", what, all)
	require.Equal(t, 1, strings.Count(all, once), "%s: %q is drawn once:\n%s", what, once, all)
	require.LessOrEqual(t, strings.Count(all, "first line"), 1, "%s: the first line is not drawn twice:\n%s", what, all)
}

// Rows of text that tmux draws wider than a grapheme count, or than
// Unicode's width tables, never reach the last column: the frame stays
// whole through resizes, wrap, the all view, the split view and an
// attached TUI; ctrl+l redraws everything.
func TestWideClustersNeverWrapTheScreen(t *testing.T) {
	bin := binary(t)
	script := filepath.Join(t.TempDir(), "wide.sh")
	require.NoError(t, os.WriteFile(script, []byte(wideScript), 0o600))
	in := startServe(t, bin)
	in.cli("run", "--name", "wide", "--env", "WIDE="+wideText, "--env", "DRAWN="+drawnText, "--", "sh "+script+" 👍🏽 🇫🇷 漢字")
	// Its last line, in the table's LAST column, holds a soft hyphen.
	in.cli("run", "--name", "other", "--", "echo other; printf 'co\\302\\255op\\n'; exec sleep 600")

	s := newSession(t, 80, 24, in.sessionEnv(), bin, "attach")
	s.waitText("00000000000", "other")
	requireIntactFrame(t, s, 24, "80x24", "job 1 wide")

	s.tmux("resize-window", "-t", s.name, "-x", "61", "-y", "20")
	requireIntactFrame(t, s, 20, "61x20", "job 1 wide")
	s.keys("Enter", "w")
	s.waitText("wrap]")
	requireIntactFrame(t, s, 20, "61x20 wrapped", "job 1 wide")
	s.tmux("resize-window", "-t", s.name, "-x", "97", "-y", "30")
	requireIntactFrame(t, s, 30, "97x30 wrapped", "job 1 wide")
	s.keys("w", "A")
	s.waitText("all jobs")
	requireIntactFrame(t, s, 30, "all view", "all jobs")
	s.keys("A", "s")
	s.waitText("split 2/2")
	s.waitFor("split view: an intact frame", func(scr []string) bool {
		return strings.HasPrefix(scr[0], "    ID NAME") && strings.Contains(scr[29], "help") && strings.Count(strings.Join(scr, "\n"), "first line") == 1
	})

	// Something else writing to the terminal spoils the screen; ctrl+l
	// draws it all again.
	tty := strings.TrimSpace(s.tmux("display-message", "-p", "-t", s.name, "#{pane_tty}"))
	f, err := os.OpenFile(tty, os.O_WRONLY, 0)
	require.NoError(t, err)
	_, err = f.WriteString("\x1b[5;1HSPOILED SPOILED SPOILED")
	require.NoError(t, err)
	require.NoError(t, f.Close())
	s.waitText("SPOILED")
	s.keys("C-l")
	s.waitFor("ctrl+l to redraw", func(scr []string) bool { return !strings.Contains(strings.Join(scr, "\n"), "SPOILED") })
	s.keys("s")
	requireIntactFrame(t, s, 30, "after ctrl+l", "job 1 wide")

	s.quit("quit? y/n")
}

// narrowText is text jobtop counts at two cells a character that tmux
// 3.3 draws in one: U+26A0 and U+2714 with VS16.
const narrowText = "warn ⚠️⚠️⚠️⚠️ check ✔️✔️ end"

// borderColumns is where tmux drew the vertical borders of a row: the
// columns of │, ┃ and ║, each rune taking the cells tmux 3.3 gives it
// (glibc's wcwidth, which termtext.RuneWidth never counts below).
func borderColumns(row string) []int {
	var cols []int
	x := 0
	for _, r := range row {
		if r == '│' || r == '┃' || r == '║' {
			cols = append(cols, x)
		}
		x += termtext.RuneWidth(r)
	}
	return cols
}

// In a split view, text tmux draws narrower than jobtop counts it ends
// its row early; it does not move the borders after it: every row of the
// panes has its borders in the same columns.
func TestNarrowTextKeepsSplitBordersInPlace(t *testing.T) {
	bin := binary(t)
	in := startServe(t, bin)
	in.cli("run", "--name", "narrow", "--env", "NARROW="+narrowText, "--", `echo "first line"; echo "$NARROW"; echo "$NARROW $NARROW"; exec sleep 600`)
	in.cli("run", "--name", "plain", "--env", "NARROW="+narrowText, "--", `echo "plain line"; echo "$NARROW"; exec sleep 600`)

	s := newSession(t, 100, 24, in.sessionEnv(), bin, "attach")
	s.waitText("plain")
	s.keys("s")
	s.waitText("split 2/2")
	scr := s.waitFor("both panes' output", func(scr []string) bool {
		all := strings.Join(scr, "\n")
		return strings.Contains(all, "first line") && strings.Contains(all, "plain line") && strings.Count(all, "check") == 5
	})
	var want []int
	rows := 0
	for _, row := range scr {
		if !strings.HasPrefix(row, "│") && !strings.HasPrefix(row, "┃") {
			continue
		}
		got := borderColumns(row)
		if want == nil {
			want = got
			require.Len(t, want, 4, "two boxes side by side: %q", row)
			require.Equal(t, 99, want[3], "the last border in the last column: %q", row)
		}
		require.Equal(t, want, got, "the borders of %q\n%s", row, strings.Join(scr, "\n"))
		rows++
	}
	require.Greater(t, rows, 5, strings.Join(scr, "\n"))

	s.quit("quit? y/n")
}

// A row tmux draws narrower than it was counted leaves nothing of the
// row drawn there before: scrolling from rows of Z up to rows of ✔️ (two
// cells counted, one drawn, so each row of them ends half way), no Z is
// left beside the ticks.
func TestNarrowRowsLeaveNoStaleCells(t *testing.T) {
	bin := binary(t)
	in := startServe(t, bin)
	in.cli("run", "--name", "ticks", "--", `i=0; while [ $i -lt 40 ]; do printf 'tick%02d ' $i; j=0; while [ $j -lt 60 ]; do printf '\342\234\224\357\270\217'; j=$((j+1)); done; echo; i=$((i+1)); done; `+
		`i=0; while [ $i -lt 40 ]; do printf 'zed%02d ' $i; printf '%0120d\n' 0 | tr 0 Z; i=$((i+1)); done; exec sleep 600`)

	s := newSession(t, 100, 24, in.sessionEnv(), bin, "attach")
	s.waitText("ticks")
	s.keys("Enter")
	s.waitText("zed39 ZZZ")
	s.keys("g")
	scr := s.waitText("tick00 ")
	rows := 0
	for _, row := range scr {
		if strings.HasPrefix(row, "tick") {
			require.NotContains(t, row, "Z", "a row of ticks keeps cells of the rows of Z before it:\n%s", strings.Join(scr, "\n"))
			rows++
		}
	}
	require.Greater(t, rows, 5, strings.Join(scr, "\n"))

	s.quit("quit? y/n")
}
