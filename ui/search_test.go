package ui

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"jobtop/jobs"
)

func TestMatcher(t *testing.T) {
	for _, c := range []struct {
		input string
		regex bool
		text  string
		want  []span // nil: no match
	}{
		{"error", false, "an Error and an ERROR", []span{{3, 8}, {16, 21}}}, // smart case: lower-case ignores case
		{"Error", false, "an Error and an ERROR", []span{{3, 8}}},           // an upper-case letter makes case matter
		{"a.c", false, "abc a.c", []span{{4, 7}}},                           // plain text: "." is a dot
		{"re:a.c", false, "abc a.c", []span{{0, 3}, {4, 7}}},                // re: makes it a regex
		{"a.c", true, "abc", []span{{0, 3}}},                                // so does the toggle
		{`re:\d+ms`, false, "took 35ms, 120MS", []span{{5, 9}, {11, 16}}},   // \d is no upper-case letter
		{`re:\D`, false, "1a2", []span{{1, 2}}},                             // nor is \D
		{"red", false, "\x1b[31mred\x1b[0m alert", []span{{0, 3}}},          // matched as drawn, without colours
		{"a b", false, "a\tb a b", []span{{10, 13}}},                        // tabs are spaces up to the stop
		{"straße", false, "STRASSE Straße", []span{{8, 15}}},                // non-ASCII, case ignored
		{"zzz", false, "nothing here", nil},
	} {
		m, err := newMatcher(c.input, c.regex)
		require.NoError(t, err, c.input)
		plain := plainText(c.text)
		got := m.find(plain, nil)
		if c.want == nil {
			require.Empty(t, got, c.input)
			require.False(t, m.matchLine(c.text), c.input)
			continue
		}
		require.Equal(t, c.want, got, "%q in %q", c.input, plain)
		require.True(t, m.matchLine(c.text), c.input)
	}
}

func TestMatcherErrors(t *testing.T) {
	_, err := newMatcher("re:(unclosed", false)
	require.EqualError(t, err, "bad regex: missing closing ): `(unclosed`")
	_, err = newMatcher("[", true)
	require.ErrorContains(t, err, "bad regex: missing closing ]")
	_, err = newMatcher("", false)
	require.EqualError(t, err, "type something to search for")
	_, err = newMatcher("re:", false)
	require.Error(t, err)
}

// searchModel is a model over one finished job of n numbered lines, its
// output focused, at 100x30.
func searchModel(t *testing.T, n int, cfg Config) *Model {
	t.Helper()
	mgr := newManager(t)
	start(t, mgr, "counter", fmt.Sprintf("for i in $(seq 1 %d); do if [ $((i %% 100)) = 0 ]; then echo \"line $i HIT\"; else echo \"line $i\"; fi; done", n))
	m := newSizedModel(t, mgr, cfg, 100, 30)
	pumpUntil(t, m, "the job to end", func() bool { return m.stateCountForTest(jobs.StateSucceeded) == 1 })
	press(t, m, "enter")
	return m
}

// search types a search into the focused pane and applies it, running
// the scans it starts.
func search(t *testing.T, m *Model, text string) {
	t.Helper()
	press(t, m, "/")
	typeText(t, m, text)
	press(t, m, "enter")
}

func TestSearchNextPrevAcrossTheWholeOutput(t *testing.T) {
	m := searchModel(t, 1000, Config{})
	p := m.single
	search(t, m, "hit")
	require.Nil(t, m.find, "enter closes the prompt")
	require.True(t, p.search.complete)
	require.Len(t, p.search.index, 10)
	// Following: the search starts at the newest match, on screen, and
	// holds the view there.
	require.Contains(t, p.headerView(), "/hit match 10/10")
	require.False(t, p.Following())

	press(t, m, "N")
	require.Contains(t, p.headerView(), "match 9/10")
	require.False(t, p.Following(), "the match is off screen: the view moves to it")
	rows := paneText(p)
	require.Equal(t, "line 900 HIT", rows[p.bodyHeight()/3], "a third of the way down")

	press(t, m, "N", "N", "N", "N", "N", "N", "N", "N")
	require.Contains(t, p.headerView(), "match 1/10")
	require.Contains(t, paneText(p), "line 100 HIT")
	press(t, m, "N")
	require.Contains(t, p.headerView(), "match 10/10")
	require.Equal(t, "search wrapped to the last match", m.notice.text)
	press(t, m, "n")
	require.Contains(t, p.headerView(), "match 1/10")
	require.Equal(t, "search wrapped to the first match", m.notice.text)
	press(t, m, "n")
	require.Contains(t, p.headerView(), "match 2/10")
	require.Contains(t, paneText(p), "line 200 HIT")

	press(t, m, "esc")
	require.Nil(t, p.search, "esc clears the search")
	require.NotContains(t, p.headerView(), "match")
	require.Equal(t, focusOutput, m.focus, "the first esc only clears the search")
	press(t, m, "esc")
	require.Equal(t, focusTable, m.focus)
}

func TestSearchFromAPausedViewStartsAtItsTop(t *testing.T) {
	m := searchModel(t, 1000, Config{})
	press(t, m, "g", "ctrl+d", "ctrl+d", "ctrl+d", "ctrl+d", "ctrl+d", "ctrl+d", "ctrl+d", "ctrl+d")
	require.False(t, m.single.Following())
	rows := paneText(m.single)
	require.Equal(t, "line 97", rows[0])
	require.Contains(t, rows, "line 100 HIT")
	search(t, m, "HIT")
	require.Contains(t, m.single.headerView(), "/HIT match 1/10", "the first match from the top of the view")
	require.Equal(t, rows, paneText(m.single), "it is on screen: the view stays")
	require.False(t, m.single.Following())
}

func TestSearchHighlightsMatches(t *testing.T) {
	st := colourStyles(t)
	mgr := newManager(t)
	start(t, mgr, "marks", `seq 1 20 | sed 's/5$/5 HIT/'`)
	m := newSizedModel(t, mgr, Config{Styles: st}, 100, 30)
	pumpUntil(t, m, "the job", func() bool { return m.stateCountForTest(jobs.StateSucceeded) == 1 })
	press(t, m, "enter")
	search(t, m, "hit")
	cur, other := m.pal.matchCurrent.Open, m.pal.match.Open
	require.NotEmpty(t, cur)
	require.NotEqual(t, cur, other)
	rows := m.single.rows
	require.Len(t, rows, 20)
	require.Equal(t, "5 "+other+"HIT"+sgrReset, rows[4])
	require.Equal(t, "15 "+cur+"HIT"+sgrReset, rows[14], "the match jumped to (the newest)")
	for i, r := range rows {
		if i != 4 && i != 14 {
			require.NotContains(t, r, "\x1b", "lines without a match are not marked")
		}
	}
	press(t, m, "n")
	require.Equal(t, "5 "+cur+"HIT"+sgrReset, m.single.rows[4])
	require.Equal(t, "15 "+other+"HIT"+sgrReset, m.single.rows[14])
}

func TestHighlightKeepsJobColoursAndWraps(t *testing.T) {
	st := colourStyles(t)
	mgr := newManager(t)
	start(t, mgr, "colours", `printf '\033[32mgreen needle green\033[0m and a needle\n'`)
	m := newSizedModel(t, mgr, Config{Styles: st}, 80, 20)
	pumpUntil(t, m, "the job", func() bool { return m.stateCountForTest(jobs.StateSucceeded) == 1 })
	press(t, m, "enter")
	search(t, m, "needle")
	hl := m.pal.matchCurrent.Open
	require.Equal(t, "\x1b[32mgreen "+hl+"needle"+sgrReset+"\x1b[32m green\x1b[0m and a "+hl+"needle"+sgrReset, m.single.rows[0])

	// Wrapped across rows, each row re-opens the job's colours and the
	// mark.
	m.Update(resize(14, 20))
	press(t, m, "w")
	require.Equal(t, []string{
		"\x1b[32mgreen " + hl + "needle" + sgrReset + "\x1b[32m g" + sgrReset,
		"\x1b[32mreen\x1b[0m and a " + hl + "nee" + sgrReset,
		hl + "dle" + sgrReset,
	}, m.single.rows)
}

func TestSearchFilterShowsOnlyMatchesLive(t *testing.T) {
	mgr := newManager(t)
	first, second := mkfifo(t, "first"), mkfifo(t, "second")
	start(t, mgr, "feed", "cat "+first+"; cat "+second+"; exec sleep 60")
	m := newSizedModel(t, mgr, Config{}, 100, 30)
	writeFifo(t, first, "alpha 1\nbeta 1\nalpha 2\n")
	pumpUntil(t, m, "three lines", func() bool { info, _ := m.table.Get(1); return info.Lines == 3 })
	press(t, m, "enter")
	search(t, m, "alpha")
	press(t, m, "&")
	p := m.single
	require.Equal(t, []string{"alpha 1", "alpha 2"}, paneText(p))
	require.Contains(t, p.headerView(), "filter")

	writeFifo(t, second, "beta 2\nalpha 3\n")
	pumpUntil(t, m, "the new match to show", func() bool {
		runPendingScans(t, m)
		return len(p.rows) == 3
	})
	require.Equal(t, []string{"alpha 1", "alpha 2", "alpha 3"}, paneText(p))
	require.Contains(t, p.headerView(), "/alpha match 2/3", "the match jumped to, of all there are now")

	press(t, m, "&")
	require.Len(t, p.rows, 5, "the filter off shows every line again")
}

func TestBadRegexIsAnInlineError(t *testing.T) {
	m := searchModel(t, 10, Config{})
	press(t, m, "/", "ctrl+r")
	typeText(t, m, "line (")
	require.Contains(t, m.View(), "✗ bad regex: missing closing )", "said as it is typed")
	press(t, m, "enter")
	require.NotNil(t, m.find, "a bad regex is not applied")
	require.Nil(t, m.single.search)
	press(t, m, "backspace", "backspace")
	typeText(t, m, ` \d0$`)
	require.NotContains(t, m.View(), "bad regex")
	press(t, m, "enter")
	require.Nil(t, m.find)
	require.Contains(t, m.single.headerView(), `/re:line \d0$ match 1/1`)
}

// "/" reopened after a regex search made with ctrl+r shows it as a regex
// again, so enter applies the same search, not its text as plain text.
func TestSearchReopenedKeepsCtrlRRegex(t *testing.T) {
	m := searchModel(t, 10, Config{})
	press(t, m, "/", "ctrl+r")
	typeText(t, m, `line \d0$`)
	press(t, m, "enter")
	require.Contains(t, m.single.headerView(), `/re:line \d0$ match 1/1`)
	press(t, m, "/")
	require.Contains(t, m.View(), "[regex]", "the prompt says it is a regex")
	press(t, m, "enter")
	require.Contains(t, m.single.headerView(), `/re:line \d0$ match 1/1`, "the same search again")
}

func TestSearchNoMatch(t *testing.T) {
	m := searchModel(t, 10, Config{})
	search(t, m, "absent")
	require.Contains(t, m.single.headerView(), "/absent no match")
	press(t, m, "n")
	require.Equal(t, "no match for absent", m.notice.text)
	press(t, m, "&")
	require.Contains(t, m.View(), "(no line matches absent)")
}

func TestTableFilter(t *testing.T) {
	mgr := newManager(t)
	start(t, mgr, "web", "exec sleep 60")
	start(t, mgr, "worker", "exec sleep 60")
	start(t, mgr, "db", "echo migrating; exit 3")
	m := newSizedModel(t, mgr, Config{}, 100, 30)
	pumpUntil(t, m, "states", func() bool {
		return m.stateCountForTest(jobs.StateRunning) == 2 && m.stateCountForTest(jobs.StateFailed) == 1
	})
	press(t, m, "/")
	require.Contains(t, m.helpView(), "enter filter")
	typeText(t, m, "w")
	require.Equal(t, 2, m.table.Len(), "filtered as it is typed")
	typeText(t, m, "e")
	require.Equal(t, 1, m.table.Len())
	sel, _ := m.table.Selected()
	require.Equal(t, "web", sel.Name)
	press(t, m, "enter")
	require.Contains(t, m.View(), "/we 1/3")

	press(t, m, "/", "backspace", "backspace")
	typeText(t, m, "failed")
	require.Equal(t, 1, m.table.Len(), "by state")
	sel, _ = m.table.Selected()
	require.Equal(t, "db", sel.Name, "the selection moves to a job shown")
	press(t, m, "esc")
	require.Equal(t, "we", m.table.Filter(), "esc in the prompt restores the filter")

	press(t, m, "/", "backspace", "backspace")
	typeText(t, m, "sleep")
	require.Equal(t, 2, m.table.Len(), "by command")
	typeText(t, m, "x")
	require.Contains(t, m.View(), "no job matches /sleepx — esc shows every job")
	press(t, m, "enter", "esc")
	require.Equal(t, 3, m.table.Len(), "esc clears the filter")
}

// runPendingScans runs the scans of new output that batches of job events
// started (pumpUntil drops the commands Update returns, so they are
// started again here).
func runPendingScans(t *testing.T, m *Model) {
	t.Helper()
	for _, p := range m.allPanes() {
		if s := p.search; s != nil {
			s.scanning = false
			runCmd(t, m, s.scan(p.base))
		}
	}
}

// n or N onto a match holds the view there, whichever match it is (the
// last one too, at the bottom, which once followed again), as less
// does: lines that arrive next do not scroll it away, until G or f.
func TestSearchJumpHoldsTheViewAsOutputArrives(t *testing.T) {
	mgr := newManager(t)
	fifo := mkfifo(t, "more")
	start(t, mgr, "server", "seq 1 49; echo needle one; seq 51 97; echo needle two; seq 99 100; cat "+fifo)
	m := newSizedModel(t, mgr, Config{}, 100, 30)
	pumpUntil(t, m, "the output", func() bool { return strings.Contains(m.View(), "100") })
	press(t, m, "enter")
	p := m.single
	require.True(t, p.Following())

	press(t, m, "g")
	search(t, m, "needle")
	require.Contains(t, p.headerView(), "/needle match 1/2")
	press(t, m, "n")
	require.Contains(t, p.headerView(), "match 2/2")
	require.Contains(t, paneText(p), "needle two")
	require.False(t, p.Following(), "n onto the last match, at the bottom, holds the view")
	press(t, m, "n", "N")
	require.Contains(t, p.headerView(), "match 2/2")
	require.False(t, p.Following(), "N wrapped onto the last match: still held")

	writeFifo(t, fifo, strings.Repeat("more output\n", 60))
	pumpUntil(t, m, "the new lines", func() bool { return strings.Contains(p.headerView(), "↓") })
	require.Contains(t, paneText(p), "needle two", "the match stays in view as lines arrive")

	press(t, m, "G")
	require.True(t, p.Following(), "G follows again")
	require.NotContains(t, paneText(p), "needle two")
	require.Equal(t, "more output", paneText(p)[p.bodyHeight()-1])
}

// The first jump, the one enter on a search makes, holds the view on its
// match as n and N do: searched while following, the newest match (at
// the bottom) once kept the pane following, and the lines that came next
// scrolled it away.
func TestSearchFirstJumpHoldsTheViewAsOutputArrives(t *testing.T) {
	mgr := newManager(t)
	fifo := mkfifo(t, "more")
	start(t, mgr, "server", "seq 1 40; echo nee''dle here; seq 42 45; cat "+fifo) // the header shows no match
	m := newSizedModel(t, mgr, Config{}, 100, 30)
	pumpUntil(t, m, "the job", func() bool { return m.table.Len() == 1 })
	press(t, m, "enter")
	p := m.single
	pumpUntil(t, m, "the output", func() bool { return slices.Contains(paneText(p), "45") })
	require.True(t, p.Following())

	search(t, m, "needle")
	require.Contains(t, p.headerView(), "/needle match 1/1")
	require.Contains(t, paneText(p), "needle here")
	require.False(t, p.Following(), "the match jumped to holds the view")

	writeFifo(t, fifo, strings.Repeat("more output\n", 60))
	pumpUntil(t, m, "the new lines", func() bool { return strings.Contains(p.headerView(), "↓") })
	require.Contains(t, m.View(), "needle here", "the match stays in view as lines arrive")

	press(t, m, "G")
	require.True(t, p.Following(), "G follows again")
	require.NotContains(t, m.View(), "needle here")
}
