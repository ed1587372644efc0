package jobs

import (
	"errors"
	"fmt"
	"os"
	"time"
)

// inputTimeout bounds how long Input waits for a job to take its input: a
// job that does not read its terminal or stdin fills the kernel's buffer
// (4 KiB for a terminal, 1 MiB for a pipe), and a caller must not hang
// on it.
const inputTimeout = 5 * time.Second

// Input writes b to the job's terminal (a TTY job: as if typed, so
// "\x03" is ctrl+c and "\r" is enter) or to its stdin pipe (a job
// started with Stdin: StdinPipe). It is an *InvalidActionError for a
// job that does not run or reads no input, and for a job that has not
// taken the bytes within a few seconds (the error says how many it took).
func (m *Manager) Input(id ID, b []byte) error {
	m.mu.Lock()
	j, ok := m.jobs[id]
	if !ok {
		m.mu.Unlock()
		return m.notFound(id)
	}
	m.awaitLaunchLocked(j)
	f, err := inputFileLocked(j)
	p := j.proc
	m.mu.Unlock()
	if err != nil {
		return err
	}
	if len(b) == 0 {
		return nil
	}
	if p.term != nil {
		keys := terminalKeys(f)
		if p.typedLine.overflow(b, keys) {
			return &InvalidActionError{ID: id, Action: "send input to",
				Why: fmt.Sprintf("its terminal is in line mode now (the program reads a line at a time, or is busy and not reading it raw) and keeps at most %d bytes of a line, and this would make a longer one (the terminal would drop its end, and the program read it cut): nothing was sent; send shorter lines, send it once the program reads its terminal raw again (a REPL back at its prompt), or start the job on pipes with stdin: pipe", canonicalLineMax)}
		}
		p.typedLine.add(b, keys)
	}
	j.typedAt.Store(time.Now().UnixNano())
	// The other jobs' output waits a moment while j echoes.
	m.HoldOutput()
	f.SetWriteDeadline(time.Now().Add(inputTimeout)) //nolint:errcheck // a pipe or terminal takes deadlines
	n, err := f.Write(b)
	switch {
	case err == nil:
		return nil
	case errors.Is(err, os.ErrDeadlineExceeded):
		return &InvalidActionError{ID: id, Action: "send input to",
			Why: fmt.Sprintf("it did not read its input within %v (%d of %d bytes were sent)", inputTimeout, n, len(b))}
	case errors.Is(err, os.ErrClosed):
		return &InvalidActionError{ID: id, Action: "send input to", Why: "its input was closed (it ended, or its stdin got EOF)"}
	}
	return &InvalidActionError{ID: id, Action: "send input to",
		Why: fmt.Sprintf("writing its input failed after %d of %d bytes: %v", n, len(b), err)}
}

// inputFileLocked is what Input writes to, or why there is nothing.
func inputFileLocked(j *job) (*os.File, error) {
	p := j.proc
	if p == nil || !p.spawned || p.exited || !j.state.Active() {
		return nil, &InvalidActionError{ID: j.id, State: j.state, Action: "send input to"}
	}
	if p.input == nil {
		return nil, &InvalidActionError{ID: j.id, State: j.state, Action: "send input to",
			Why: "it runs on pipes with stdin on /dev/null; start it with a terminal (tty) or with stdin: pipe"}
	}
	return p.input, nil
}

// CloseInput ends a job's input: a pipe job's stdin pipe is closed, so it
// reads EOF; a TTY job is sent the end-of-file character (ctrl+d, which
// ends input at the start of a line). Input after it is refused for a
// pipe job.
func (m *Manager) CloseInput(id ID) error {
	m.mu.Lock()
	j, ok := m.jobs[id]
	if !ok {
		m.mu.Unlock()
		return m.notFound(id)
	}
	m.awaitLaunchLocked(j)
	f, err := inputFileLocked(j)
	p := j.proc
	tty := p != nil && p.term != nil
	m.mu.Unlock()
	switch {
	case err != nil:
		return err
	case tty && midLine(p, f):
		// The first ctrl+d only hands the line typed so far to the
		// program; the second, on an empty line, is the end of input.
		return m.Input(id, []byte{4, 4})
	case tty:
		return m.Input(id, []byte{4})
	}
	if err := f.Close(); err != nil && !errors.Is(err, os.ErrClosed) {
		return err
	}
	return nil
}

// midLine reports whether a TTY job's terminal has a line typed but not
// yet ended, in canonical mode (where ctrl+d ends input only at the start
// of a line).
func midLine(p *process, term *os.File) bool {
	return p.typedLine.pending() && terminalKeys(term).canonical
}

// Resize sets a TTY job's terminal size: its programs get SIGWINCH and
// see the new size. A job that does not run keeps the size for its next
// run. It is an *InvalidActionError for a job on pipes.
func (m *Manager) Resize(id ID, cols, rows int) error {
	if err := checkTermSize(cols, rows); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	j, ok := m.jobs[id]
	if !ok {
		return m.notFound(id)
	}
	if !j.spec.TTY {
		return &InvalidActionError{ID: id, State: j.state, Action: "resize",
			Why: "it runs on pipes, not on a terminal"}
	}
	j.cols, j.rows = cols, rows
	p := j.proc
	if p == nil || !p.spec.TTY || (p.cols == cols && p.rows == rows) {
		return nil
	}
	p.cols, p.rows = cols, rows
	j.store.SetTerminal(true, cols)
	if p.term != nil {
		p.term.resize(cols, rows)
	}
	if !p.spawned || p.input == nil {
		return nil // it starts at the new size
	}
	// An ioctl, not slow work: fine under the lock. A terminal closed
	// meanwhile (the run is ending) is no error.
	if err := setWinsize(p.input, cols, rows); err != nil && !errors.Is(err, os.ErrClosed) {
		return err
	}
	m.hub.publish(j.id, EventState, Info{})
	return nil
}

// termSize is the size the job's next run starts at.
func (j *job) termSize() (cols, rows int) {
	if j.cols == 0 {
		return DefaultCols, DefaultRows
	}
	return j.cols, j.rows
}
