package ui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"jobtop/jobs"
	"jobtop/keymap"
	"jobtop/styles"
)

// countingReader counts the lines a reader hands out.
type countingReader struct {
	jobs.OutputReader
	lines int
}

func (c *countingReader) ReadAfter(cursor uint64, max int) jobs.Chunk {
	ch := c.OutputReader.ReadAfter(cursor, max)
	c.lines += len(ch.Lines) + len(ch.Partial)
	return ch
}

func (c *countingReader) Tail(n int) jobs.Chunk {
	ch := c.OutputReader.Tail(n)
	c.lines += len(ch.Lines) + len(ch.Partial)
	return ch
}

// testPane is an output pane over a real store, focused, with a body of
// bodyRows rows of the given width.
func testPane(t *testing.T, store *jobs.OutputStore, width, bodyRows int) (*outputPane, *countingReader) {
	t.Helper()
	km := keymap.DefaultKeyMap()
	st := styles.New(styles.DefaultPalette(), false)
	p := newOutputPane(&km, newPalette(&st))
	p.SetFocused(true)
	p.UpdateKeys(&km)
	r := &countingReader{OutputReader: store}
	p.SetSize(width, bodyRows+1)
	p.SetJob(jobs.Info{ID: 1, Name: "t", State: jobs.StateRunning}, true, r)
	return p, r
}

func appendLines(s *jobs.OutputStore, from, to int) {
	var b strings.Builder
	for i := from; i <= to; i++ {
		fmt.Fprintf(&b, "line %d\n", i)
	}
	s.Append(jobs.Stdout, []byte(b.String()))
}

// The pane's cost per refresh is bounded by what it shows, not by the
// size of the output: it reads at most a screenful (plus the partial
// lines and one line of look-ahead) per refresh or scroll.
func TestPaneReadsOnlyWhatItShows(t *testing.T) {
	store := jobs.NewOutputStore(jobs.StoreOptions{MaxLines: 200_000, MaxBytes: 64 << 20})
	appendLines(store, 1, 150_000)
	store.Append(jobs.Stdout, []byte("50% done"))
	for _, wrap := range []bool{false, true} {
		p, r := testPane(t, store, 80, 20)
		if wrap {
			p.Update(keyMsg("w"))
		}
		budget := 3 * (20 + 3) // the bottom view (scroll bound), the lines moved over, the rows shown
		for _, k := range []string{"k", "ctrl+u", "ctrl+u", "j", "ctrl+d", "g", "j", "G", "f", "f"} {
			r.lines = 0
			p.Update(keyMsg(k))
			require.LessOrEqual(t, r.lines, budget, "wrap=%v key %q read %d lines", wrap, k, r.lines)
		}
		r.lines = 0
		p.refresh()
		require.LessOrEqual(t, r.lines, 20+2)
	}
}

func TestPaneFollowShowsPartialLineLast(t *testing.T) {
	store := jobs.NewOutputStore(jobs.StoreOptions{})
	appendLines(store, 1, 5)
	store.Append(jobs.Stdout, []byte("[##  ] 40%\r[### ] 60%"))
	p, _ := testPane(t, store, 40, 4)
	require.Equal(t, []string{"line 3", "line 4", "line 5", "[### ] 60%"}, paneRowsOf(p))

	store.Append(jobs.Stdout, []byte("\r[####] 100%\ndone\n"))
	p.refresh()
	require.Equal(t, []string{"line 5", "[####] 100%", "done"}, paneRowsOf(p)[1:])
}

func TestPanePausedKeepsItsPlaceAsOutputArrives(t *testing.T) {
	store := jobs.NewOutputStore(jobs.StoreOptions{})
	appendLines(store, 1, 50)
	p, _ := testPane(t, store, 40, 5)
	p.Update(keyMsg("k"))
	require.False(t, p.Following())
	require.Equal(t, []string{"line 45", "line 46", "line 47", "line 48", "line 49"}, paneRowsOf(p))
	appendLines(store, 51, 80)
	p.refresh()
	require.Equal(t, "line 45", paneRowsOf(p)[0], "paused: new output does not move the view")
	require.Contains(t, p.headerView(), "paused ↓31")
	p.Update(keyMsg("G"))
	require.Equal(t, "line 80", paneRowsOf(p)[4])
	require.Contains(t, p.headerView(), "following")
}

func TestPanePausedViewSurvivesEviction(t *testing.T) {
	store := jobs.NewOutputStore(jobs.StoreOptions{MaxLines: 100})
	appendLines(store, 1, 100)
	p, _ := testPane(t, store, 40, 5)
	p.Update(keyMsg("g"))
	require.Equal(t, "line 1", paneRowsOf(p)[0])
	appendLines(store, 101, 150)
	p.refresh()
	require.Equal(t, []string{"50 older lines were dropped from memory", "line 51"}, paneRowsOf(p)[:2],
		"the view moves to the oldest line still held, under the note of the lines dropped")
	require.False(t, p.Following())
}

func TestPaneWrappedScrolling(t *testing.T) {
	store := jobs.NewOutputStore(jobs.StoreOptions{})
	store.Append(jobs.Stdout, []byte("short\n"+strings.Repeat("a", 25)+"\nend\n"))
	p, _ := testPane(t, store, 10, 3)
	p.Update(keyMsg("w"))
	require.Equal(t, []string{"aaaaaaaaaa", "aaaaa", "end"}, paneRowsOf(p))
	p.Update(keyMsg("k"))
	require.Equal(t, []string{"aaaaaaaaaa", "aaaaaaaaaa", "aaaaa"}, paneRowsOf(p), "one row up, inside the wrapped line")
	p.Update(keyMsg("k"))
	p.Update(keyMsg("k"))
	require.Equal(t, []string{"short", "aaaaaaaaaa", "aaaaaaaaaa"}, paneRowsOf(p))
	p.Update(keyMsg("k"))
	require.Equal(t, "short", paneRowsOf(p)[0], "the top stops at the first line")
	p.Update(keyMsg("ctrl+d"))
	require.Equal(t, []string{"aaaaaaaaaa", "aaaaaaaaaa", "aaaaa"}, paneRowsOf(p))
	p.Update(keyMsg("j"))
	require.True(t, p.Following(), "reaching the bottom resumes follow")
}

func TestPaneShortOutputNeverPauses(t *testing.T) {
	store := jobs.NewOutputStore(jobs.StoreOptions{})
	appendLines(store, 1, 2)
	p, _ := testPane(t, store, 40, 5)
	for _, k := range []string{"k", "ctrl+u", "g"} {
		p.Update(keyMsg(k))
		require.True(t, p.Following(), "all output fits: %q does not pause", k)
	}
}

func paneRowsOf(p *outputPane) []string {
	out := make([]string, len(p.rows))
	for i, r := range p.rows {
		out[i] = strings.TrimRight(r, " ")
	}
	return out
}
