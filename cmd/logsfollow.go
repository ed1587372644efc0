package cmd

import (
	"bufio"
	"io"
	"strings"

	"jobtop/control"
	"jobtop/jobs"
)

// partialPrinter prints what `logs --follow` receives, lines still being
// written included, as tail -f does: a prompt ("Continue? [y/N] ") shows
// at once, not only after its newline. It prints each partial line as
// soon as an answer brings it (the server sends one whenever the partial
// changes): a delay would only hide a prompt longer, and text that only
// grows is never printed twice, so nothing is gained by waiting.
//
// When a shown partial grows, only the new text is printed; when it is
// completed, the rest of it and the newline. When it changes other than
// by growing (a \r progress bar redrawn, a terminal job's line edited),
// the shown piece is ended with a newline and that line is not shown again
// until it is complete, then whole, on its own line: a bar redrawn ten
// times a second would otherwise print a line per redraw. A line of the
// other stream that comes while a partial is shown starts on a new line;
// the partial's rest, when it comes, goes on its own line (never again
// what was shown).
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
		if shown != "" && !changed && strings.HasPrefix(s, shown) {
			if p.open && p.openOn != st {
				p.endLine(w) // the rest goes alone: its start is above
			}
			s = s[len(shown):]
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
	if p.changed[st] {
		return // shown again once complete
	}
	s := p.text.line(completeEscapes(l.Text))
	shown := p.shown[st]
	if !strings.HasPrefix(s, shown) {
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
