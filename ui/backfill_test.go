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

// backfilledReader is a job's output whose older lines can appear before
// the oldest held, as an attached TUI's mirror fetches them behind the
// newest: it holds "line N" for N in first..last.
type backfilledReader struct{ first, last uint64 }

func (r *backfilledReader) line(seq uint64) jobs.Line {
	return jobs.Line{Seq: seq, Text: fmt.Sprint("line ", seq), Stream: jobs.Stdout}
}

func (r *backfilledReader) ReadAfter(cursor uint64, max int) jobs.Chunk {
	c := jobs.Chunk{Next: cursor}
	start := cursor + 1
	if start < r.first {
		c.Dropped, start = r.first-start, r.first
		c.Next = start - 1
	}
	end := r.last
	if max > 0 && start+uint64(max)-1 < end {
		end = start + uint64(max) - 1
	}
	for seq := start; seq <= end; seq++ {
		c.Lines = append(c.Lines, r.line(seq))
		c.Next = seq
	}
	return c
}

func (r *backfilledReader) Tail(n int) jobs.Chunk {
	start := r.first
	if n > 0 && r.last-r.first+1 > uint64(n) {
		start = r.last - uint64(n) + 1
	}
	c := r.ReadAfter(start-1, 0)
	c.Dropped = 0
	return c
}

func (r *backfilledReader) Stats() jobs.StoreStats {
	return jobs.StoreStats{First: r.first, Last: r.last, Dropped: r.first - 1, Retained: int(r.last - r.first + 1)}
}

func (r *backfilledReader) LastLine() string { return r.line(r.last).Text }

// backfilledPane is a focused pane of 10 rows over r.
func backfilledPane(r *backfilledReader) *outputPane {
	km := keymap.DefaultKeyMap()
	st := styles.New(styles.DefaultPalette(), false)
	p := newOutputPane(&km, newPalette(&st))
	p.SetFocused(true)
	p.UpdateKeys(&km)
	p.SetSize(40, 11)
	p.SetJob(jobs.Info{ID: 1, Name: "t", State: jobs.StateSucceeded}, true, r)
	return p
}

// A pane whose job's older lines appear before its oldest keeps what it
// shows (no jump, no line twice); the top (g) then shows the oldest.
func TestPaneKeepsItsViewWhenOlderLinesAppear(t *testing.T) {
	r := &backfilledReader{first: 501, last: 1000}
	following := backfilledPane(r)
	paused := backfilledPane(r)
	top := backfilledPane(r)
	paused.Update(keyMsg("g"))
	for range 20 {
		paused.Update(keyMsg("j"))
	}
	top.Update(keyMsg("g"))
	require.Contains(t, top.View(), "500 older lines")
	views := []string{following.View(), paused.View()}
	require.Contains(t, views[1], "line 520")

	r.first = 1
	for _, p := range []*outputPane{following, paused, top} {
		p.refresh()
	}
	require.Equal(t, views, []string{following.View(), paused.View()})
	topView := top.View()
	require.NotContains(t, topView, "older lines")
	require.Equal(t, 1, strings.Count(topView, "line 501\n"), topView)
	require.Contains(t, topView, "line 500\n", "in the note's place")
	top.Update(keyMsg("k"))
	require.Contains(t, top.View(), "line 499\n")
	top.Update(keyMsg("g"))
	require.Contains(t, top.View(), "line 1\n")
	require.Contains(t, top.View(), "line 9\n")
}

// runScans runs a pane search's scans until it has searched everything.
func runScans(t *testing.T, p *outputPane) {
	t.Helper()
	for cmd := p.search.scan(p.base); cmd != nil; {
		msg, ok := cmd().(scanDoneMsg)
		require.True(t, ok)
		cmd = nil
		if p.search.merge(msg, p.base) {
			cmd = p.search.scan(p.base)
		}
	}
}

// A search finds matches in older lines that appear after it searched:
// an attached TUI's mirror fetches them behind the newest, also after a
// gap it jumped over.
func TestSearchFindsOlderLinesThatAppearLater(t *testing.T) {
	matches := func(from, to uint64) []uint64 {
		var out []uint64
		for seq := from; seq <= to; seq++ {
			if strings.Contains(fmt.Sprint(seq), "7") {
				out = append(out, seq)
			}
		}
		return out
	}
	found := func(p *outputPane) []uint64 {
		var out []uint64
		for _, ref := range p.search.index {
			out = append(out, ref.key.seq)
		}
		return out
	}
	r := &backfilledReader{first: 501, last: 1000}
	p := backfilledPane(r)
	mt, err := newMatcher("7", false)
	require.NoError(t, err)
	p.search = newPaneSearch(mt, 1)
	runScans(t, p)
	require.Equal(t, matches(501, 1000), found(p))

	r.first = 201 // a page of older lines
	runScans(t, p)
	require.Equal(t, matches(201, 1000), found(p))
	r.first, r.last = 1, 1100 // the rest, and new lines
	runScans(t, p)
	require.Equal(t, matches(1, 1100), found(p))

	// The mirror jumps to a tail (lines 1101..2000 gone unsearched), then
	// fetches them behind it.
	r.first, r.last = 2001, 3000
	runScans(t, p)
	require.Equal(t, matches(2001, 3000), found(p))
	r.first = 1501
	runScans(t, p)
	require.Equal(t, matches(1501, 3000), found(p))
}
