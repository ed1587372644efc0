package ui

import (
	"errors"
	"fmt"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"jobtop/jobs"
	"jobtop/vtscreen"
)

// TerminalEngine is an Engine whose jobs can run on a terminal (TTY jobs):
// the UI types into them and keeps their terminal the size of the pane
// that shows them. *jobs.Manager and the control client implement it.
type TerminalEngine interface {
	// Input writes bytes to a job's terminal, as if typed.
	Input(id jobs.ID, b []byte) error
	// Resize sets a TTY job's terminal size.
	Resize(id jobs.ID, cols, rows int) error
}

// ScreenEngine is an Engine that can show the screen of a job in screen
// mode (a full-screen program on a TTY).
type ScreenEngine interface {
	Screen(id jobs.ID) (vtscreen.Snapshot, error)
}

// ttyQueueLen bounds the input and resizes waiting for the engine: a job
// that does not read its terminal makes keys wait, then be dropped.
const ttyQueueLen = 512

// maxInputChunk is the most bytes sent in one Input call: a long paste
// goes in pieces (the API takes 64 KiB at most).
const maxInputChunk = 32 << 10

// ttyReq is one thing for a job's terminal: input, or a size.
type ttyReq struct {
	id         jobs.ID
	input      []byte
	cols, rows int
	done       chan error // input only: its outcome
}

// ttyWriter hands input and sizes to the engine in the order the UI made
// them, on a goroutine of its own, so that Update never waits on a job
// and keys never overtake each other. It starts with the first request.
type ttyWriter struct {
	engine TerminalEngine
	reqs   chan ttyReq
	ended  chan struct{} // closed by close: what is still queued is dropped
	exited chan struct{} // closed when the goroutine has returned
	closed bool
}

// errTTYClosed is the outcome of input dropped when the UI ended.
var errTTYClosed = errors.New("the screen closed before the input was sent")

// ttyInputErrMsg reports input a job did not get.
type ttyInputErrMsg struct {
	id  jobs.ID
	err error
}

func (w *ttyWriter) start() {
	if w.reqs != nil {
		return
	}
	w.reqs, w.ended, w.exited = make(chan ttyReq, ttyQueueLen), make(chan struct{}), make(chan struct{})
	go func(reqs <-chan ttyReq, ended <-chan struct{}, exited chan<- struct{}, e TerminalEngine) {
		defer close(exited)
		for r := range reqs {
			select {
			case <-ended:
				// The UI is gone: a job that does not read its input
				// would hold each of these for seconds.
				if r.done != nil {
					r.done <- errTTYClosed
				}
				continue
			default:
			}
			if r.done != nil {
				r.done <- e.Input(r.id, r.input)
				continue
			}
			_ = e.Resize(r.id, r.cols, r.rows) // a job that ended keeps no size
		}
	}(w.reqs, w.ended, w.exited, w.engine)
}

// input queues bytes for a job; the command it returns reports an error
// if the job did not get them.
func (w *ttyWriter) input(id jobs.ID, b []byte) tea.Cmd {
	if w.closed || w.engine == nil || len(b) == 0 {
		return nil
	}
	w.start()
	var waits []chan error
	for len(b) > 0 {
		n := min(len(b), maxInputChunk)
		r := ttyReq{id: id, input: b[:n], done: make(chan error, 1)}
		b = b[n:]
		select {
		case w.reqs <- r:
			waits = append(waits, r.done)
		default:
			err := fmt.Errorf("job %s is not reading its input: keys dropped", id)
			return func() tea.Msg { return ttyInputErrMsg{id: id, err: err} }
		}
	}
	return func() tea.Msg {
		for _, c := range waits {
			if err := <-c; err != nil {
				return ttyInputErrMsg{id: id, err: err}
			}
		}
		return nil
	}
}

// resize queues a terminal size for a job; it reports whether it was
// queued (a full queue drops it; the next layout change sends it again).
func (w *ttyWriter) resize(id jobs.ID, cols, rows int) bool {
	if w.closed || w.engine == nil {
		return false
	}
	w.start()
	select {
	case w.reqs <- ttyReq{id: id, cols: cols, rows: rows}:
		return true
	default:
		return false
	}
}

// wait waits, at most d, for the goroutine to end after close: the
// input or size it was sending when closed has reached the engine.
func (w *ttyWriter) wait(d time.Duration) {
	if w.exited == nil {
		return
	}
	select {
	case <-w.exited:
	case <-time.After(d):
	}
}

// close ends the goroutine; what is still queued is dropped.
func (w *ttyWriter) close() {
	if !w.closed && w.reqs != nil {
		close(w.ended)
		close(w.reqs)
	}
	w.closed = true
}
