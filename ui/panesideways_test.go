package ui

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"jobtop/jobs"
	"jobtop/styles"
)

// Cut rows end with a marker in their last cell; the first cells of a
// line scrolled sideways are hidden, whatever they are.
func TestLayoutLineCutMarkAndSkip(t *testing.T) {
	lay := func(s string, f lineFormat) string { return layoutLine(nil, s, f)[0] }
	cut := lineFormat{width: 5, cutMark: true}
	require.Equal(t, "abcd…", lay("abcdefghij", cut))
	require.Equal(t, "abcde", lay("abcde", cut), "a line that fits has no marker")
	require.Equal(t, "漢字…", lay("漢字漢字", cut), "a wide character that does not fit")
	require.Equal(t, "ab漢…", lay("ab漢字", cut), "one that would reach the last cell")
	require.Equal(t, "ab漢", lay("ab漢", cut))
	require.Equal(t, "abcde", lay("abcde   ", cut), "only blanks cut off: no marker")
	require.Equal(t, "ab   ", lay("ab\t\x1b[0m  ", cut))
	require.Equal(t, "abcd…", lay("abcde  x", cut), "a character after the blanks")
	require.Equal(t, "abcde", lay("abcde\u00a0\u00a0\u3000 \u200b", cut), "no-break, ideographic and zero-width spaces are blanks too")
	require.Equal(t, "abcd…", lay("abcde\u00a0é", cut))
	require.Equal(t, "abcde", lay("abcde\u2800\u3164", cut), "braille blank and Hangul filler pad too")
	require.Equal(t, "abcd…", lay("abcde\u1680", cut), "the Ogham space mark is drawn")
	bar := lineFormat{width: 5, cutMark: true, keepSGR: true}
	require.Equal(t, "\x1b[41m     \x1b[0m", lay("\x1b[41m"+strings.Repeat(" ", 200)+"\x1b[0m", bar),
		"a bar drawn to a wider terminal's edge")

	skip := func(n int) lineFormat { f := cut; f.width, f.skip = 10, n; return f }
	require.Equal(t, "cdefghij", lay("abcdefghij", skip(2)))
	require.Equal(t, " 字漢字", lay("漢字漢字", skip(1)), "the right half of a wide character is a blank")
	require.Equal(t, "     b", lay("a\tb", skip(3)), "tab stops count from the line's start")
	require.Equal(t, "", lay("abc", skip(5)), "scrolled past the end")

	colour := lineFormat{width: 4, cutMark: true, skip: 2, keepSGR: true}
	require.Equal(t, "\x1b[31mcde…\x1b[0m", lay("\x1b[31mabcdefgh", colour), "colours set in the hidden part still apply")

	mark := styles.Seq{Open: "<", Close: ">"}
	marked := lineFormat{width: 10, skip: 4, marks: []span{{2, 8}}, mark: mark}
	require.Equal(t, "<edle"+sgrReset+"xx", lay("xxneedlexx", marked), "a match cut by the left edge stays marked")
}

// sidewaysPane is a pane 20 cells wide, wrap off, over lines of known
// widths.
func sidewaysPane(t *testing.T, text string) *outputPane {
	t.Helper()
	store := jobs.NewOutputStore(jobs.StoreOptions{})
	store.Append(jobs.Stdout, []byte(text))
	p, _ := testPane(t, store, 20, 4)
	return p
}

func TestPaneScrollsSidewaysLikeLessS(t *testing.T) {
	long := "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWX" // 50 cells
	p := sidewaysPane(t, "short\n"+long+"\n")
	require.Equal(t, []string{"short", long[:19] + "…"}, paneRowsOf(p))
	p.UpdateKeys(p.km)
	require.False(t, p.km.ScrollLeft.Enabled(), "nothing to the left yet")
	require.True(t, p.km.ScrollRight.Enabled())

	p.Update(keyMsg("right"))
	require.Equal(t, []string{"", long[10:29] + "…"}, paneRowsOf(p), "half the width to the right")
	require.Contains(t, p.headerView(), "col 11")
	p.UpdateKeys(p.km)
	require.True(t, p.km.ScrollLeft.Enabled())

	p.Update(keyMsg("l"))
	p.Update(keyMsg("l"))
	p.Update(keyMsg("l"))
	require.Equal(t, 30, p.xoff, "no further than the widest line's end")
	require.Equal(t, []string{"", long[30:]}, paneRowsOf(p), "the end of the line, no marker")

	p.UpdateKeys(p.km)
	require.False(t, p.km.ScrollRight.Enabled(), "nothing cut on the right any more")
	p.Update(keyMsg("h"))
	require.Equal(t, 20, p.xoff)
	p.Update(keyMsg("left"))
	p.Update(keyMsg("left"))
	p.Update(keyMsg("left"))
	require.Zero(t, p.xoff)
	require.NotContains(t, p.headerView(), "col ")

	p.Update(keyMsg("l"))
	p.Update(keyMsg("w"))
	require.Zero(t, p.xoff, "wrap on: nothing is cut, nothing to scroll")
	p.UpdateKeys(p.km)
	require.False(t, p.km.ScrollRight.Enabled())
	require.False(t, p.km.ScrollLeft.Enabled())
}

// With nothing cut there is nothing to scroll to, and help does not
// offer it.
func TestNothingCutNothingToScroll(t *testing.T) {
	p := sidewaysPane(t, "short\nfits in twenty cells\n")
	p.UpdateKeys(p.km)
	require.False(t, p.km.ScrollRight.Enabled())
	require.False(t, p.km.ScrollLeft.Enabled())
}

// n and N bring a match that is off to a side into view.
func TestSearchRevealsMatchesSideways(t *testing.T) {
	m := newSizedModel(t, newManager(t), Config{}, 40, 20)
	mgr := m.engine.(*jobs.Manager)
	start(t, mgr, "wide", "printf 'needle at the start\\n%0100d needle far right\\nplain\\n' 0")
	pumpUntil(t, m, "the output", func() bool { return m.liveJobs() == 0 && m.table.Len() == 1 })
	press(t, m, "enter")
	search(t, m, "needle")
	p := m.single
	require.True(t, p.search.complete)
	require.Contains(t, p.headerView(), "match 2/2", "the newest match first")
	require.Greater(t, p.xoff, 60)
	require.Contains(t, strings.Join(paneRows(m), "\n"), "needle far right", "the match is on screen")

	press(t, m, "N")
	require.Contains(t, p.headerView(), "match 1/2")
	require.Zero(t, p.xoff, "back to the start of the line for a match there")
	require.Equal(t, "needle at the start", paneRows(m)[0])

	press(t, m, "n")
	require.Greater(t, p.xoff, 60)
}

// The "all" view keeps its name prefix in place and scrolls the text.
func TestAllViewScrollsSidewaysBehindItsPrefix(t *testing.T) {
	mgr := newManager(t)
	start(t, mgr, "wide", "printf 'abcdefghijklmnopqrstuvwxyz%.0s\\n' 1 2 3")
	m := newSizedModel(t, mgr, Config{}, 30, 20)
	pumpUntil(t, m, "the job", func() bool { return m.liveJobs() == 0 && m.table.Len() == 1 })
	press(t, m, "A", "enter")
	require.Equal(t, "wide │ abcdefghijklmnopqrstuv…", paneText(m.all)[0])
	press(t, m, "l")
	require.Equal(t, "wide │ defghijklmnopqrstuvwxyz", paneText(m.all)[0], "as far as the end of the widest line")
}

// The table's OUTPUT cell of a line padded with blanks past the cell (a
// line padded to a wider terminal's width) ends with no "…"; one whose
// text goes on past it does.
func TestOutputCellCutsOnlyText(t *testing.T) {
	cell := func(s string) string { return fit(sanitizeCut(s, 20), 20, false) }
	require.Equal(t, "done padded         ", cell("done padded"+strings.Repeat(" ", 150)))
	require.Equal(t, "done padded        …", cell("done padded"+strings.Repeat(" ", 150)+"x"))
	require.Equal(t, strings.Repeat(" ", 20), cell("\x1b[44m"+strings.Repeat(" ", 200)+"\x1b[0m"))
}
