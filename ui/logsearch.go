package ui

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"

	tea "github.com/charmbracelet/bubbletea"

	"jobtop/jobs"
)

// Searching a job's whole log file (L in a pane, ctrl+l in the / prompt):
// every line the job wrote, also what memory no longer holds. Commands
// stream the log files from disk, a chunk at a time, and report where the
// matching lines start; the pane then shows only those lines, reading
// from disk just the ones it draws. Nothing of the file is loaded.

const (
	// logScanBudget is how many bytes one scan command reads.
	logScanBudget = 8 << 20
	// maxLogMatches bounds the matches remembered (16 bytes each).
	maxLogMatches = 1_000_000
	// maxLogLine bounds how much of one log line is read back to draw.
	maxLogLine = 64 << 10
)

// logRef is where a matching line starts: which file, at which byte.
type logRef struct {
	file int
	off  int64
}

// logSearch is a pane's search of its job's log files. It is the pane's
// line source while it is on: match i (from 0) has key seqKey(i+1).
type logSearch struct {
	m     *matcher
	gen   uint64
	files []string
	refs  []logRef
	// Where the scan is: the file and offset it goes on from.
	file     int
	off      int64
	complete bool
	capped   bool   // maxLogMatches was reached
	err      string // why a file could not be read
	current  int    // the match jumped to, from 1; 0 for none
}

// logScanMsg reports one scan of the log files.
type logScanMsg struct {
	gen   uint64
	found []logRef
	file  int
	off   int64
	done  bool
	err   string
}

// scan reads on from where the last scan stopped.
func (ls *logSearch) scan() tea.Cmd {
	gen, m, files, file, off := ls.gen, ls.m, ls.files, ls.file, ls.off
	return func() tea.Msg {
		msg := logScanMsg{gen: gen, file: file, off: off}
		budget := int64(logScanBudget)
		for msg.file < len(files) && budget > 0 {
			read, found, eof, err := scanLogFile(files[msg.file], msg.off, budget, m)
			for _, o := range found {
				msg.found = append(msg.found, logRef{file: msg.file, off: o})
			}
			budget -= read
			msg.off += read
			if err != nil && !errors.Is(err, os.ErrNotExist) {
				msg.err = err.Error()
			}
			if eof || err != nil {
				msg.file, msg.off = msg.file+1, 0
			}
		}
		msg.done = msg.file >= len(files)
		return msg
	}
}

// scanLogFile reads whole lines of a file from off, up to about budget
// bytes, and returns the bytes read, the offsets of the lines that match,
// and whether it reached the end.
func scanLogFile(path string, off, budget int64, m *matcher) (int64, []int64, bool, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, nil, true, err
	}
	defer f.Close()
	// Only a file: a device or a FIFO in its place (a link to /dev/full)
	// would never end, not even its first line.
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		return 0, nil, true, fmt.Errorf("%s is not a regular file", path)
	}
	if _, err := f.Seek(off, io.SeekStart); err != nil {
		return 0, nil, true, err
	}
	r := bufio.NewReaderSize(f, 64<<10)
	var read int64
	var found []int64
	for read < budget {
		line, err := r.ReadSlice('\n')
		n, last := int64(len(line)), line
		if errors.Is(err, bufio.ErrBufferFull) {
			// A long line: its first part is matched, its rest skipped
			// (by reads that reuse the buffer line is in).
			line = bytes.Clone(line)
			for errors.Is(err, bufio.ErrBufferFull) {
				last, err = r.ReadSlice('\n')
				n += int64(len(last))
			}
		}
		if err == io.EOF && (len(last) == 0 || last[len(last)-1] != '\n') {
			return read, found, true, nil // the job may still be writing this line
		}
		if err != nil && err != io.EOF {
			return read, found, true, err
		}
		if m.matchLine(string(trimEOL(line))) {
			found = append(found, off+read)
		}
		read += n
	}
	return read, found, false, nil
}

func trimEOL(b []byte) []byte {
	for len(b) > 0 && (b[len(b)-1] == '\n' || b[len(b)-1] == '\r') {
		b = b[:len(b)-1]
	}
	return b
}

// merge takes a scan's report in; it says whether to scan on.
func (ls *logSearch) merge(msg logScanMsg) bool {
	room := maxLogMatches - len(ls.refs)
	if len(msg.found) > room {
		msg.found, ls.capped, msg.done = msg.found[:room], true, true
	}
	ls.refs = append(ls.refs, msg.found...)
	ls.file, ls.off = msg.file, msg.off
	if msg.err != "" {
		ls.err = msg.err
	}
	ls.complete = msg.done
	return !msg.done
}

// line reads match i (from 0) back from disk.
func (ls *logSearch) line(i int) viewLine {
	ref := ls.refs[i]
	text := ""
	if f, err := os.Open(ls.files[ref.file]); err == nil {
		buf := make([]byte, 4096)
		var b []byte
		for off := ref.off; len(b) < maxLogLine; off += int64(len(buf)) {
			n, err := f.ReadAt(buf, off)
			if i := indexByte(buf[:n], '\n'); i >= 0 {
				b = append(b, buf[:i]...)
				break
			}
			b = append(b, buf[:n]...)
			if err != nil {
				break
			}
		}
		f.Close()
		text = string(trimEOL(b))
	}
	return viewLine{Line: jobs.Line{Seq: uint64(i + 1), Text: text, Stream: jobs.Stdout}, key: seqKey(uint64(i + 1))}
}

func indexByte(b []byte, c byte) int {
	for i, x := range b {
		if x == c {
			return i
		}
	}
	return -1
}

// lines reads matches [from, to) back.
func (ls *logSearch) lines(from, to int) []viewLine {
	from, to = max(from, 0), min(to, len(ls.refs))
	out := make([]viewLine, 0, max(to-from, 0))
	for i := from; i < to; i++ {
		out = append(out, ls.line(i))
	}
	return out
}

// The lineSource of the matches.

func (ls *logSearch) tail(n int) []viewLine { return ls.lines(len(ls.refs)-n, len(ls.refs)) }

// index is the index of the match with key k (len(refs) past the last).
func (ls *logSearch) index(k lineKey) int {
	if k.seq > uint64(len(ls.refs)) {
		return len(ls.refs)
	}
	return int(max(k.seq, 1)) - 1
}

func (ls *logSearch) from(k lineKey, n int) []viewLine {
	i := ls.index(k)
	return ls.lines(i, i+n)
}

func (ls *logSearch) before(k lineKey, n int) []viewLine {
	i := ls.index(k)
	if k.seq == 0 {
		i = 0
	}
	return ls.lines(i-n, i)
}

func (ls *logSearch) oldest() (lineKey, bool) { return seqKey(1), len(ls.refs) > 0 }

func (ls *logSearch) countAfter(k lineKey) uint64 {
	if n := uint64(len(ls.refs)); n > k.seq {
		return n - k.seq
	}
	return 0
}

// flag is the header's "/error match 3/17 (log)".
func (ls *logSearch) flag() string {
	label := "/" + sanitize(ls.m.label(), false)
	if len([]rune(label)) > 24 {
		label = string([]rune(label)[:23]) + "…"
	}
	n, more := len(ls.refs), ""
	if !ls.complete {
		more = "…"
	}
	if ls.capped {
		more = "+"
	}
	switch {
	case n == 0 && ls.complete:
		return label + " no match (log)"
	case ls.current > 0:
		return label + " match " + strconv.Itoa(ls.current) + "/" + strconv.Itoa(n) + more + " (log)"
	}
	return label + " " + plural(n, "match") + more + " (log)"
}

// startLogSearch searches the pane's job's log files for its search's
// pattern (L, or ctrl+l in the prompt).
func (m *Model) startLogSearch(p *outputPane, mt *matcher) tea.Cmd {
	if p.kind != jobPane || !p.has || len(p.job.LogFiles) == 0 && p.job.LogPath == "" {
		m.refuse("this pane has no log file to search")
		return nil
	}
	files := p.job.LogFiles
	if len(files) == 0 {
		files = []string{p.job.LogPath}
	}
	if p.search != nil {
		p.search.jumpOnScan = 0 // the pane shows the log's matches instead
	}
	m.searchGen++
	p.logSearch = &logSearch{m: mt, gen: m.searchGen, files: append([]string(nil), files...)}
	p.follow, p.top = false, position{key: seqKey(1)}
	p.refresh()
	return p.logSearch.scan()
}

// handleLogScan takes a scan's matches into the pane that asked for them.
func (m *Model) handleLogScan(msg logScanMsg) tea.Cmd {
	for _, p := range m.allPanes() {
		ls := p.logSearch
		if ls == nil || ls.gen != msg.gen {
			continue
		}
		first := len(ls.refs) == 0
		var cmd tea.Cmd
		if ls.merge(msg) {
			cmd = ls.scan()
		}
		if first && len(ls.refs) > 0 && ls.current == 0 {
			ls.current = 1
			p.top = position{key: seqKey(1)}
		}
		if ls.err != "" {
			m.setNotice("reading the log: "+ls.err, true)
		}
		p.refresh()
		return cmd
	}
	return nil
}

// jumpLogMatch moves to the next or previous log match, wrapping.
func (m *Model) jumpLogMatch(p *outputPane, forward bool) {
	ls := p.logSearch
	n := len(ls.refs)
	if n == 0 {
		m.flash("no match for " + ls.m.label() + " in the log")
		return
	}
	switch {
	case forward && ls.current >= n:
		ls.current = 1
		m.flash("search wrapped to the first match")
	case forward:
		ls.current++
	case ls.current <= 1:
		ls.current = n
		m.flash("search wrapped to the last match")
	default:
		ls.current--
	}
	p.revealMatch(seqKey(uint64(ls.current)))
}

// toggleLogSearch turns the search of the whole log file on (for the
// pane's search) or off (back to the output in memory).
func (m *Model) toggleLogSearch(p *outputPane) tea.Cmd {
	if p.logSearch != nil {
		p.logSearch = nil
		p.follow = true
		p.refresh()
		return nil
	}
	if p.search == nil {
		m.refuse("search first (/), then L searches the whole log file")
		return nil
	}
	return m.startLogSearch(p, p.search.m)
}
