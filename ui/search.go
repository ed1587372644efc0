package ui

import (
	"slices"
	"sort"

	tea "github.com/charmbracelet/bubbletea"

	"jobtop/jobs"
)

// Scanning a pane's output for a search happens off the Update goroutine,
// in commands that read the output stores in chunks (ReadAfter) and
// report the matches found; new output is scanned the same way as it
// arrives, one scan at a time per search. Update only merges the matches
// in. A match is a line, remembered by key and sequence number, never by
// its text.

const (
	// scanChunk is how many lines one read of a scan takes.
	scanChunk = 4096
	// scanBudget bounds the lines one scan command reads; a longer output
	// takes several commands in a row.
	scanBudget = 64 * 1024
)

// matchRef is a line that matches: its key in the pane's source (whose
// seq is the line's sequence number) and the job to read it back from.
// A partial match is a line still being written (a prompt), keyed as
// the pane keys it (after the newest committed line): each scan finds
// it anew, and once complete it is found as a committed line.
type matchRef struct {
	key     lineKey
	job     jobs.ID
	partial bool
}

// scanTarget is one job's output to search, after a cursor (up to upTo,
// when not 0: older lines that appeared before the ones searched).
type scanTarget struct {
	job    jobs.ID
	reader jobs.OutputReader
	after  uint64
	upTo   uint64
	// byArrival keys matches by arrival (the "all" view), not by sequence.
	byArrival bool
}

// scanDoneMsg reports one scan: the matches found after the cursors, the
// cursors reached, the oldest lines searched from (floors) and whether
// more is left to scan.
type scanDoneMsg struct {
	gen     uint64
	found   []matchRef
	cursors map[jobs.ID]uint64
	floors  map[jobs.ID]uint64
	more    bool
}

// scanCmd searches the targets, at most scanBudget lines in all (and
// the older lines of targets with upTo, which a store bounds).
func scanCmd(gen uint64, m *matcher, targets []scanTarget) tea.Cmd {
	return func() tea.Msg {
		msg := scanDoneMsg{gen: gen, cursors: make(map[jobs.ID]uint64, len(targets)), floors: make(map[jobs.ID]uint64)}
		budget := scanBudget
		for _, t := range targets {
			cur := t.after
			for {
				n := min(scanChunk, budget)
				if t.upTo > 0 {
					n = int(min(uint64(scanChunk), t.upTo-min(cur, t.upTo)))
				} else if budget <= 0 {
					msg.more = true
					break
				}
				if n <= 0 {
					break
				}
				c := t.reader.ReadAfter(cur, n)
				if t.upTo == 0 && (cur == 0 || c.Dropped > 0) {
					// The oldest line searched: the oldest held, or the
					// first after lines gone unsearched.
					msg.floors[t.job] = cur + c.Dropped + 1
				}
				for _, l := range c.Lines {
					if t.upTo > 0 && l.Seq > t.upTo {
						break // searched already
					}
					if m.matchLine(l.Text) {
						key := seqKey(l.Seq)
						if t.byArrival {
							key = lineKeyOf(l)
						}
						msg.found = append(msg.found, matchRef{key: key, job: t.job})
					}
				}
				budget -= len(c.Lines)
				cur = c.Next
				if t.upTo == 0 && !t.byArrival && !c.More {
					// At the end: the lines being written too.
					for i, l := range c.Partial {
						if m.matchLine(l.Text) {
							msg.found = append(msg.found, matchRef{key: seqKey(c.Next + 1 + uint64(i)), job: t.job, partial: true})
						}
					}
					break
				}
				if len(c.Lines) == 0 {
					break
				}
			}
			if t.upTo > 0 {
				msg.floors[t.job] = t.after + 1
			} else {
				msg.cursors[t.job] = cur
			}
		}
		return msg
	}
}

// paneSearch is a pane's search: the pattern, the matches found so far
// in the output held in memory, the match jumped to, and whether only
// matching lines are shown.
type paneSearch struct {
	m       *matcher
	gen     uint64
	index   []matchRef // by key
	cursors map[jobs.ID]uint64
	// floors are, per job, the oldest line searched: older lines that
	// appear later (an attached TUI's mirror fetches them behind the
	// newest) are searched too.
	floors map[jobs.ID]uint64

	scanning bool // a scan command is out
	pending  bool // output arrived while it was: scan again
	complete bool // the output held when the search began has been scanned

	current    lineKey // key of the match jumped to
	hasCurrent bool
	jumpOnScan int // +1/-1: jump forward/backward once the first scan is in

	filter bool
}

func newPaneSearch(m *matcher, gen uint64) *paneSearch {
	return &paneSearch{m: m, gen: gen, cursors: make(map[jobs.ID]uint64), floors: make(map[jobs.ID]uint64)}
}

// scan starts a scan of what has not been searched yet, unless one is
// out (then it runs once that one is in).
func (s *paneSearch) scan(src searchableSource) tea.Cmd {
	if s.scanning {
		s.pending = true
		return nil
	}
	s.scanning, s.pending = true, false
	return scanCmd(s.gen, s.m, s.withOlder(src.scanTargets(s.cursors)))
}

// withOlder adds to targets the lines that appeared before the oldest
// searched of each job, searched first.
func (s *paneSearch) withOlder(targets []scanTarget) []scanTarget {
	var older []scanTarget
	for _, t := range targets {
		if f := s.floors[t.job]; f > 1 {
			if first := t.reader.Stats().First; first < f {
				o := t
				o.after, o.upTo = first-1, f-1
				older = append(older, o)
			}
		}
	}
	return append(older, targets...)
}

// merge takes a scan's report in, forgets matches the stores no longer
// hold, and says whether to scan again.
func (s *paneSearch) merge(msg scanDoneMsg, src searchableSource) (again bool) {
	s.scanning = false
	for id, c := range msg.cursors {
		s.cursors[id] = c
	}
	for id, f := range msg.floors {
		s.floors[id] = f
	}
	// A line being written matched as it was then; this scan says how
	// it is now.
	s.index = slices.DeleteFunc(s.index, func(r matchRef) bool { return r.partial })
	if len(msg.found) > 0 {
		slices.SortFunc(msg.found, func(a, b matchRef) int { return a.key.compare(b.key) })
		if len(s.index) == 0 || s.index[len(s.index)-1].key.less(msg.found[0].key) {
			s.index = append(s.index, msg.found...)
		} else {
			merged := make([]matchRef, 0, len(s.index)+len(msg.found))
			i, j := 0, 0
			for i < len(s.index) || j < len(msg.found) {
				if j == len(msg.found) || (i < len(s.index) && !msg.found[j].key.less(s.index[i].key)) {
					if j < len(msg.found) && msg.found[j].key == s.index[i].key {
						j++ // found again: older lines searched after a gap
					}
					merged = append(merged, s.index[i])
					i++
				} else {
					merged = append(merged, msg.found[j])
					j++
				}
			}
			s.index = merged
		}
	}
	s.forgetDropped(src)
	if !msg.more {
		s.complete = true
	}
	return msg.more || s.pending
}

// forgetDropped removes matches whose lines the stores no longer hold
// (and those of jobs no longer read).
func (s *paneSearch) forgetDropped(src searchableSource) {
	first := make(map[jobs.ID]uint64)
	out := s.index[:0]
	for _, ref := range s.index {
		f, ok := first[ref.job]
		if !ok {
			if r := src.readerOf(ref.job); r != nil {
				f = r.Stats().First
			} else {
				f = ^uint64(0)
			}
			first[ref.job] = f
		}
		if ref.key.seq >= f {
			out = append(out, ref)
		}
	}
	clear(s.index[len(out):])
	s.index = out
}

// at is the position of the first match with a key of at least key.
func (s *paneSearch) at(key lineKey) int {
	return sort.Search(len(s.index), func(i int) bool { return !s.index[i].key.less(key) })
}

// after is the position of the first match with a key above key.
func (s *paneSearch) after(key lineKey) int {
	return sort.Search(len(s.index), func(i int) bool { return key.less(s.index[i].key) })
}

// currentIndex is the 1-based position of the match jumped to (0: none,
// or no longer held).
func (s *paneSearch) currentIndex() int {
	if !s.hasCurrent {
		return 0
	}
	if i := s.at(s.current); i < len(s.index) && s.index[i].key == s.current {
		return i + 1
	}
	return 0
}

// step picks the match after (forward) or before from, or at from too
// when inclusive, wrapping around the ends; it reports the match and
// whether it wrapped.
func (s *paneSearch) step(from lineKey, forward, inclusive bool) (matchRef, bool, bool) {
	n := len(s.index)
	if n == 0 {
		return matchRef{}, false, false
	}
	if forward {
		i := s.after(from)
		if inclusive {
			i = s.at(from)
		}
		if i == n {
			return s.index[0], true, true
		}
		return s.index[i], false, true
	}
	i := s.at(from) - 1
	if inclusive {
		i = s.after(from) - 1
	}
	if i < 0 {
		return s.index[n-1], true, true
	}
	return s.index[i], false, true
}

// filteredSource shows only the lines of a search's matches.
type filteredSource struct {
	s   *paneSearch
	src searchableSource
}

func (f filteredSource) read(refs []matchRef) []viewLine {
	out := make([]viewLine, 0, len(refs))
	for _, ref := range refs {
		r := f.src.readerOf(ref.job)
		if r == nil {
			continue
		}
		c := r.ReadAfter(ref.key.seq-1, 1)
		switch {
		case len(c.Lines) == 1 && c.Lines[0].Seq == ref.key.seq:
			out = append(out, viewLine{Line: c.Lines[0], key: ref.key, job: ref.job})
		case ref.partial && len(c.Lines) == 0 && ref.key.seq > c.Next && ref.key.seq-c.Next <= uint64(len(c.Partial)):
			out = append(out, viewLine{Line: c.Partial[ref.key.seq-c.Next-1], key: ref.key, job: ref.job})
		}
	}
	return out
}

func (f filteredSource) tail(n int) []viewLine {
	idx := f.s.index
	return f.read(idx[max(len(idx)-n, 0):])
}

func (f filteredSource) from(key lineKey, n int) []viewLine {
	i := f.s.at(key)
	return f.read(f.s.index[i:min(i+n, len(f.s.index))])
}

func (f filteredSource) before(key lineKey, n int) []viewLine {
	i := f.s.at(key)
	return f.read(f.s.index[max(i-n, 0):i])
}

func (f filteredSource) oldest() (lineKey, bool) {
	if len(f.s.index) == 0 {
		return lineKey{}, false
	}
	return f.s.index[0].key, true
}

func (f filteredSource) countAfter(key lineKey) uint64 {
	return uint64(len(f.s.index) - f.s.after(key))
}
