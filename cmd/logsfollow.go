package cmd

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"jobtop/control"
	"jobtop/jobs"
	"jobtop/termtext"
)

// partialPrinter prints what `logs --follow` receives, lines still being
// written included, as tail -f does: a prompt ("Continue? [y/N] ") shows
// at once, not only after its newline. It prints each partial line as
// soon as an answer brings it (the server sends one whenever the partial
// changes): a delay would only hide a prompt longer, and text that only
// grows is never printed twice, so nothing is gained by waiting.
//
// When a shown partial grows, only the new text is printed; when it is
// completed, the rest of it and the newline. A line redrawn with "\r" (a
// progress bar: the server marks it Redrawn) or changed other than by
// growing (a terminal job's line edited) is drawn over in place on a
// terminal: back to the line's start, cleared, its latest state, and the
// next line starts below once it is complete. Off a terminal (a pipe, a
// file) nothing can be drawn over: such a line is not printed until it
// is complete, then whole, on its own line (a piece shown before it
// changed is ended with a newline); a bar redrawn ten times a second
// would otherwise print a line per redraw, and its first frame would
// stay as a line of its own. A line of the other stream that comes
// while a partial is shown starts on a new line; the partial's rest,
// when it comes, goes on its own line (never again what was shown).
type partialPrinter struct {
	text textOut
	// shown is what was printed of each stream's partial line (as
	// printed: sanitised on a terminal); changed marks a partial that
	// changed other than by growing, not shown until complete.
	shown   [2]string
	changed [2]bool
	// open is set while the output ends in the middle of a line: the
	// partial of stream openOn.
	open   bool
	openOn jobs.Stream
	// cols is the width of the terminal printed to, read at each
	// redraw (it may be resized); nil when the output is no terminal:
	// then nothing is drawn over.
	cols func() int
}

// newPartialPrinter is a printer for w.
func newPartialPrinter(w io.Writer, text textOut) *partialPrinter {
	p := &partialPrinter{text: text}
	if isTerminal(w) {
		p.cols = func() int { return terminalColumns(w) }
	}
	return p
}

// print prints one answer's lines and, when the answer is the last of a
// burst (not More: the next one follows at once), its partial lines.
func (p *partialPrinter) print(w io.Writer, r control.OutputResponse) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	if r.Dropped > 0 {
		// The completion of a shown partial may be among the lines
		// gone: start afresh.
		p.endLine(bw)
		p.shown, p.changed = [2]string{}, [2]bool{}
	}
	for _, l := range r.Lines {
		p.line(bw, l)
	}
	if !r.More {
		for _, l := range r.Partial {
			p.partial(bw, l)
		}
	}
	if r.Ended {
		p.endLine(bw)
	}
	return bw.Flush()
}

// line prints a complete line: what of it was not shown yet.
func (p *partialPrinter) line(w *bufio.Writer, l jobs.Line) {
	s := p.text.line(l.Text)
	if l.Stream == jobs.Stdout || l.Stream == jobs.Stderr {
		st := l.Stream
		shown, changed := p.shown[st], p.changed[st]
		p.shown[st], p.changed[st] = "", false
		switch {
		case shown != "" && !changed && strings.HasPrefix(s, shown):
			if p.open && p.openOn != st {
				p.endLine(w) // the rest goes alone: its start is above
			}
			s = s[len(shown):]
			p.open = false
		case p.cols != nil && p.open && p.openOn == st:
			p.eraseShown(w, shown) // drawn over, complete
			p.open = false
		}
	}
	p.endLine(w)
	w.WriteString(s)  //nolint:errcheck // Flush reports it
	w.WriteByte('\n') //nolint:errcheck // as above
}

// partial prints what is new of a line still being written.
func (p *partialPrinter) partial(w *bufio.Writer, l jobs.Line) {
	st := l.Stream
	if st > jobs.Stderr {
		return
	}
	s := p.text.line(completeEscapes(l.Text))
	if p.cols != nil {
		p.redraw(w, st, s)
		return
	}
	if p.changed[st] {
		return // shown again once complete
	}
	shown := p.shown[st]
	if l.Redrawn || !strings.HasPrefix(s, shown) {
		// Redrawn, not grown: end the shown piece, wait for the newline.
		if p.open && p.openOn == l.Stream {
			p.endLine(w)
		}
		p.changed[st] = true
		return
	}
	if len(s) == len(shown) {
		return
	}
	if p.open && p.openOn != l.Stream {
		p.endLine(w)
	}
	w.WriteString(s[len(shown):]) //nolint:errcheck // Flush reports it
	p.shown[st] = s
	p.open, p.openOn = true, l.Stream
}

// redraw shows a stream's partial line s on a terminal: what is new of
// it when it grew; else, when it is the line the cursor is on, the line
// drawn over with s; else s on a line of its own.
func (p *partialPrinter) redraw(w *bufio.Writer, st jobs.Stream, s string) {
	shown := p.shown[st]
	if p.open && p.openOn == st {
		if strings.HasPrefix(s, shown) {
			w.WriteString(s[len(shown):]) //nolint:errcheck // Flush reports it
		} else {
			p.eraseShown(w, shown)
			w.WriteString(s) //nolint:errcheck // as above
		}
	} else {
		if s == shown && !p.changed[st] {
			return // seen (--tail 0), or shown before
		}
		p.endLine(w)
		w.WriteString(s) //nolint:errcheck // as above
	}
	p.shown[st], p.changed[st] = s, false
	p.open, p.openOn = true, st
}

// eraseShown takes the cursor back to the start of the partial line
// shown, the rows it wrapped to included, and clears it and what is
// below it.
func (p *partialPrinter) eraseShown(w *bufio.Writer, shown string) {
	w.WriteByte('\r') //nolint:errcheck // Flush reports it
	if cols, width := p.cols(), termtext.Width(shown); cols > 0 && width > cols {
		fmt.Fprintf(w, "\x1b[%dA", (width-1)/cols) //nolint:errcheck // as above
	}
	w.WriteString("\x1b[J") //nolint:errcheck // as above
}

// seen takes an answer's partial lines as shown without printing them:
// --tail 0 --follow prints only what is written after it started.
func (p *partialPrinter) seen(r control.OutputResponse) {
	for _, l := range r.Partial {
		if l.Stream > jobs.Stderr {
			continue
		}
		p.shown[l.Stream] = p.text.line(completeEscapes(l.Text))
	}
}

// endLine ends a line left open by a partial.
func (p *partialPrinter) endLine(w *bufio.Writer) {
	if p.open {
		w.WriteByte('\n') //nolint:errcheck // Flush reports it
		p.open = false
	}
}

// completeEscapes is s without an escape sequence it ends in the middle
// of: printed now and completed later, its pieces would each be shown
// (sanitised) or sent as nonsense. Nor does it end in U+FFFD: a
// character whose first bytes came without the rest is sent as one
// (the answer is JSON), and the line completed would not start with it.
func completeEscapes(s string) string {
	s = strings.TrimRight(s, "\uFFFD")
	i := strings.LastIndexByte(s, '\x1b')
	if i < 0 {
		return s
	}
	seq := s[i+1:]
	switch {
	case seq == "":
		return s[:i]
	case seq[0] == '[':
		for j := 1; j < len(seq); j++ {
			if seq[j] >= 0x40 && seq[j] <= 0x7e {
				return s
			}
		}
		return s[:i]
	case seq[0] == ']':
		if strings.ContainsRune(seq, '\a') {
			return s
		}
		return s[:i] // its ST would be a later ESC
	}
	return s
}
