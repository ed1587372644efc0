package jobs

import (
	"sync"
	"sync/atomic"

	"jobtop/vtscreen"
)

// maxScreenBacklog bounds the bytes waiting for a job's terminal
// emulator: about twenty full redraws of a 200x50 screen in colour. Past
// it the waiting bytes are dropped and the emulator catches up.
const maxScreenBacklog = 1 << 20

// screenFeed hands a screen-mode job's output to its terminal emulator,
// off the job's read path: push copies and queues, never waits; one
// goroutine writes to the emulator. When the emulator falls behind by
// more than maxScreenBacklog, what waits is dropped, the emulator is reset
// ("catching up"), and once it has caught up the job is asked to redraw
// (redraw: SIGWINCH to its processes, which a full-screen program answers
// with a full frame).
type screenFeed struct {
	screen *vtscreen.Screen
	redraw func()
	// changed is called when catchingUp changes, on either goroutine.
	changed func()

	mu     sync.Mutex
	queue  [][]byte
	queued int
	lost   bool // bytes were dropped since the last write
	alt    bool // the program is on the alternate screen (for a reset)
	closed bool

	catchingUp atomic.Bool
	wake       chan struct{}
	done       chan struct{}
}

func newScreenFeed(cols, rows int, redraw, changed func()) *screenFeed {
	f := &screenFeed{screen: vtscreen.New(cols, rows), redraw: redraw, changed: changed,
		wake: make(chan struct{}, 1), done: make(chan struct{})}
	go f.run()
	return f
}

// push queues a copy of b for the emulator; it never blocks.
func (f *screenFeed) push(b []byte) {
	if len(b) == 0 {
		return
	}
	f.mu.Lock()
	if f.closed {
		f.mu.Unlock()
		return
	}
	dropped := false
	if f.queued+len(b) > maxScreenBacklog {
		f.queue, f.queued, f.lost = nil, 0, true
		dropped = !f.catchingUp.Swap(true)
	}
	if len(b) <= maxScreenBacklog {
		f.queue = append(f.queue, append([]byte(nil), b...))
		f.queued += len(b)
	}
	f.mu.Unlock()
	if dropped {
		f.changed()
	}
	select {
	case f.wake <- struct{}{}:
	default:
	}
}

// setAlt records that the program is on the alternate screen, so that a
// reset puts the emulator back on it.
func (f *screenFeed) setAlt(on bool) {
	f.mu.Lock()
	f.alt = on
	f.mu.Unlock()
}

// close stops the feed and releases the emulator; it waits for the
// writing goroutine.
func (f *screenFeed) close() {
	f.mu.Lock()
	if f.closed {
		f.mu.Unlock()
		return
	}
	f.closed = true
	f.mu.Unlock()
	select {
	case f.wake <- struct{}{}:
	default:
	}
	<-f.done
	f.screen.Close()
}

func (f *screenFeed) run() {
	defer close(f.done)
	for range f.wake {
		f.mu.Lock()
		batch, lost, alt, closed := f.queue, f.lost, f.alt, f.closed
		f.queue, f.queued, f.lost = nil, 0, false
		f.mu.Unlock()
		if closed {
			return
		}
		if lost {
			// What it drew is stale and what came between is gone:
			// start from a blank terminal in the right screen.
			f.screen.Write([]byte("\x1bc"))
			if alt {
				f.screen.Write([]byte("\x1b[?1049h"))
			}
		}
		for _, b := range batch {
			f.screen.Write(b)
		}
		f.mu.Lock()
		idle := f.queued == 0 && !f.lost
		f.mu.Unlock()
		if idle && f.catchingUp.Load() {
			f.catchingUp.Store(false)
			f.redraw()
			f.changed()
		}
	}
}
