package ui

import (
	"slices"
	"strconv"
	"strings"

	"jobtop/jobs"
)

// noteKind marks a row jobtop adds to a pane's lines: not output, never
// searched, drawn in its own style.
type noteKind uint8

const (
	noteNone    noteKind = iota
	noteDropped          // the first row: older lines are only in the log file
	noteError            // the last row: why the job could not start
)

// notedSource is a pane's lines with jobtop's notes around them: first a
// row saying how many older lines memory no longer holds (they are in
// the log file, which o opens), last, for a job that could not start, a
// row saying why. The notes are lines like the others, so scrolling,
// follow and the row counts need no special case: the dropped note sorts
// just before the oldest line held, the error note after every line.
type notedSource struct {
	lineSource
	head, foot *viewLine
}

// footKey sorts after every key of a job's output.
var footKey = lineKey{arrival: ^uint64(0)}

func (s notedSource) tail(n int) []viewLine {
	lines := s.lineSource.tail(n)
	all := len(lines) < n // the source returned all it holds
	if s.foot != nil {
		lines = append(lines, *s.foot)
		if len(lines) > n {
			lines = lines[len(lines)-n:]
		}
	}
	if s.head != nil && all && len(lines) < n {
		lines = append([]viewLine{*s.head}, lines...)
	}
	return lines
}

func (s notedSource) from(key lineKey, n int) []viewLine {
	var out []viewLine
	if s.head != nil && !s.head.key.less(key) {
		out = append(out, *s.head)
	}
	if s.foot != nil && !key.less(s.foot.key) {
		// At the foot: the source's keys (sequence numbers) say nothing
		// of a key past them all.
		if key == s.foot.key && len(out) < n {
			out = append(out, *s.foot)
		}
		return out
	}
	if want := n - len(out); want > 0 {
		lines := s.lineSource.from(key, want)
		out = append(out, lines...)
		if s.foot != nil && len(lines) < want {
			out = append(out, *s.foot)
		}
	}
	return out
}

func (s notedSource) before(key lineKey, n int) []viewLine {
	pastFoot := s.foot != nil && s.foot.key.less(key)
	want := n
	if pastFoot {
		want--
	}
	var lines []viewLine
	if want > 0 {
		if s.foot != nil && !key.less(s.foot.key) {
			// Every line of the source is before the foot.
			lines = s.lineSource.tail(want)
			if len(lines) > want {
				lines = lines[len(lines)-want:]
			}
		} else {
			lines = s.lineSource.before(key, want)
		}
	}
	if s.head != nil && s.head.key.less(key) && len(lines) < want {
		lines = append([]viewLine{*s.head}, lines...)
	}
	if pastFoot {
		lines = append(lines, *s.foot)
	}
	return lines
}

func (s notedSource) oldest() (lineKey, bool) {
	if s.head != nil {
		return s.head.key, true
	}
	if k, ok := s.lineSource.oldest(); ok {
		return k, true
	}
	if s.foot != nil {
		return s.foot.key, true
	}
	return lineKey{}, false
}

func (s notedSource) countAfter(key lineKey) uint64 {
	n := s.lineSource.countAfter(key)
	if s.foot != nil && key.less(s.foot.key) {
		n++
	}
	return n
}

// olderInLog reports whether the pane's job has lines memory no longer
// holds that its log file does: a search of memory is not all of it.
func (p *outputPane) olderInLog() bool {
	if p.kind != jobPane || p.job.LogPath == "" {
		return false
	}
	r := p.base.readerOf(p.job.ID)
	return r != nil && r.Stats().First > 1
}

// noted adds the pane's notes to its source, when it has any.
func (p *outputPane) noted(src searchableSource) lineSource {
	s := notedSource{lineSource: src}
	switch p.kind {
	case jobPane:
		if r := src.readerOf(p.job.ID); r != nil {
			if st := r.Stats(); st.First > 1 {
				text := droppedText(st.First-1, p.job.LogPath != "", "the log file — o opens it")
				if p.job.LogPath != "" && p.job.LogDropped > 0 {
					text = droppedText(st.First-1, false, "") + "; the log file missed some output (a full disk?) — o opens it"
				}
				s.head = &viewLine{Line: jobs.Line{Text: text, Stream: jobs.Meta}, key: seqKey(st.First - 1), job: p.job.ID, note: noteDropped}
			}
		}
		if p.job.State == jobs.StateError && p.job.Error != "" {
			s.foot = &viewLine{Line: jobs.Line{Text: "could not start: " + p.job.Error, Stream: jobs.Meta}, key: footKey, job: p.job.ID, note: noteError}
		}
	case allPane:
		if all, ok := src.(*allSource); ok {
			s.head = p.allDroppedNote(all)
		}
	}
	if s.head == nil && s.foot == nil {
		return src
	}
	return s
}

// allDroppedNote is the "all" view's first row when jobs' older lines
// are no longer in memory: how many, and whose.
func (p *outputPane) allDroppedNote(src *allSource) *viewLine {
	type count struct {
		id jobs.ID
		n  uint64
	}
	var counts []count
	var total uint64
	for _, id := range src.ids {
		if st := src.readers[id].Stats(); st.First > 1 {
			counts = append(counts, count{id, st.First - 1})
			total += st.First - 1
		}
	}
	if total == 0 {
		return nil
	}
	slices.SortStableFunc(counts, func(a, b count) int {
		switch {
		case a.n > b.n:
			return -1
		case a.n < b.n:
			return 1
		}
		return 0
	})
	var who, lost []string
	for _, c := range counts {
		name := "job " + c.id.String()
		if p.names != nil && p.names.names[c.id] != "" {
			name = label(p.names.names[c.id])
		}
		who = append(who, name+" "+groupDigits(c.n))
		if p.names != nil && p.names.logLost[c.id] {
			lost = append(lost, name)
		}
	}
	// o here pages this view's own lines: a job's log is A, then o.
	text := droppedText(total, true, "the log files — A then o opens the selected job's") + " (" + strings.Join(who, ", ") + ")"
	if len(lost) > 0 {
		// Not "in the log files", for those: some may be nowhere.
		files := lost[0] + "'s log file"
		if len(lost) > 1 {
			files = "the log files of " + strings.Join(lost, ", ")
		}
		rest := ""
		if len(lost) < len(counts) {
			rest = "; the others' are in their log files"
		}
		text = droppedText(total, false, "") + " (" + strings.Join(who, ", ") + "); " +
			files + " missed some output (a full disk?)" + rest + " — A then o opens the selected job's"
	}
	key := lineKey{}
	if k, ok := src.oldest(); ok && k.seq > 0 {
		key = lineKey{k.arrival, k.seq - 1}
	}
	return &viewLine{Line: jobs.Line{Text: text, Stream: jobs.Meta}, key: key, note: noteDropped}
}

// droppedText says that n older lines are no longer in memory: that
// they are in the log file (where), or without one that they were
// dropped.
func droppedText(n uint64, inLog bool, where string) string {
	lines, are, were := groupDigits(n)+" older lines", " are", " were"
	if n == 1 {
		lines, are, were = "1 older line", " is", " was"
	}
	if !inLog {
		return lines + were + " dropped from memory"
	}
	return lines + are + " in " + where
}

// groupDigits writes n with thousands separators: 16,649.
func groupDigits(n uint64) string {
	s := strconv.FormatUint(n, 10)
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// layoutNote lays out a note: the whole width, in its own style, never
// searched.
func (p *outputPane) layoutNote(o *laidOut, l viewLine, maxRows int) {
	f := lineFormat{width: max(p.width, 1), wrap: p.wrap, maxRows: maxRows, widths: &o.widths, base: p.pal.muted, cutMark: !p.wrap, cuts: &o.cuts}
	if l.note == noteError {
		f.base = p.pal.errText
	}
	first := len(o.rows)
	o.rows = layoutLine(o.rows, l.Text, f)
	for range o.rows[first:] {
		o.keys = append(o.keys, l.key)
	}
}
