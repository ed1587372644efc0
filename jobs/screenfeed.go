package jobs

import (
	"sync"
	"sync/atomic"
	"time"

	"jobtop/vtscreen"
)

// maxScreenBacklog bounds the bytes waiting for a job's terminal
// emulator: about twenty full redraws of a 200x50 screen in colour. Past
// it the waiting bytes are dropped but for the newest catchUpTail, and
// the emulator catches up from those.
const maxScreenBacklog = 1 << 20

// catchUpTail is what is kept of a backlog that overflowed: more than a
// screen of scrolling lines, or a full redraw, of a 200x50 terminal.
const catchUpTail = 64 << 10

// The emulator may use at most about a quarter of a core per screen-mode
// job (x/vt scrolls at a few hundred KB/s): it takes at most
// emulatorBatch bytes at once, written emulatorPiece at a time (a closed
// feed stops between two), then rests emulatorRest times as long as the
// batch took, up to maxEmulatorRest, while what comes meanwhile waits
// (and overflows into catching up). A batch under emulatorRestFrom (a
// key's echo, a status line) never rests: it took wall time only when
// the machine was busy, and resting then would hold the next echo back.
const (
	emulatorRestFrom = 4 << 10
	emulatorBatch    = 64 << 10
	emulatorPiece    = 8 << 10
	emulatorRest     = 3
	maxEmulatorRest  = 500 * time.Millisecond
)

// minRedrawInterval spaces the redraws asked of a job that keeps
// overflowing its emulator: each one costs a look at the process table.
const minRedrawInterval = time.Second

// screenFeed hands a screen-mode job's output to its terminal emulator,
// off the job's read path: push copies and queues, never waits; one
// goroutine writes to the emulator. When the emulator falls behind by
// more than maxScreenBacklog, what waits is dropped, the emulator is reset
// ("catching up"), and once it has caught up the job is asked to redraw
// (redraw: SIGWINCH to its processes, which a full-screen program answers
// with a full frame).
type screenFeed struct {
	screen Emulator
	redraw func()
	// changed is called when catchingUp changes, on either goroutine.
	changed func()
	// drew is called on the writing goroutine after each batch is drawn:
	// the output event that announced the bytes came before the frame.
	drew func()

	mu      sync.Mutex
	queue   [][]byte
	queued  int
	lost    bool                // bytes were dropped since the last write
	alt     bool                // the program is on the alternate screen (for a reset)
	modes   vtscreen.InputModes // the input modes it asked for (for a reset)
	closed  bool
	writing bool // run is drawing a batch taken from the queue

	catchingUp atomic.Bool
	draining   atomic.Bool // drain waits for the writer: it does not rest
	wake       chan struct{}
	done       chan struct{}
	lastRedraw time.Time // the writing goroutine's
}

func newScreenFeed(screen Emulator, redraw, changed, drew func()) *screenFeed {
	f := &screenFeed{screen: screen, redraw: redraw, changed: changed, drew: drew,
		wake: make(chan struct{}, 1), done: make(chan struct{})}
	go f.run()
	return f
}

// wakeAt is how much may wait for the emulator before push wakes its
// writer: a program's frame comes in pieces of a few KB, read back to
// back, and waking the writer for each costs a thread's wake-up (most of
// jobtop's CPU while a program redraws all the time); the reader wakes it
// (flush) when it has read all there is.
const wakeAt = 32 << 10

// push queues a copy of b for the emulator; it never blocks. The writer
// is woken when enough waits, or by flush.
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
		f.keepTail(b)
		f.lost = true
		dropped = !f.catchingUp.Swap(true)
	} else {
		f.queue = append(f.queue, append([]byte(nil), b...))
		f.queued += len(b)
	}
	wake := f.queued >= wakeAt
	f.mu.Unlock()
	if dropped {
		f.changed()
	}
	if wake || dropped {
		f.flush()
	}
}

// flush wakes the writer for what was pushed: the reader calls it when
// it has read all there is for now.
func (f *screenFeed) flush() {
	select {
	case f.wake <- struct{}{}:
	default:
	}
}

// keepTail replaces the backlog with the newest catchUpTail bytes of it
// and b.
func (f *screenFeed) keepTail(b []byte) {
	tail := make([]byte, 0, catchUpTail)
	if len(b) < catchUpTail {
		need := catchUpTail - len(b)
		var older [][]byte
		for i := len(f.queue) - 1; i >= 0 && need > 0; i-- {
			c := f.queue[i]
			if len(c) > need {
				c = c[len(c)-need:]
			}
			older = append(older, c)
			need -= len(c)
		}
		for i := len(older) - 1; i >= 0; i-- {
			tail = append(tail, older[i]...)
		}
	}
	tail = append(tail, b[max(0, len(b)-catchUpTail):]...)
	f.queue, f.queued = [][]byte{tail}, len(tail)
}

// setAlt records that the program is on the alternate screen, so that a
// reset puts the emulator back on it.
func (f *screenFeed) setAlt(on bool) {
	f.mu.Lock()
	f.alt = on
	f.mu.Unlock()
}

// setModes records the input modes the program asked for, so that a
// reset keeps them: a program asks for the mouse or bracketed paste once,
// as it starts, and a redraw does not ask again.
func (f *screenFeed) setModes(m vtscreen.InputModes) {
	f.mu.Lock()
	f.modes = m
	f.mu.Unlock()
}

// onAlt reports whether the program is on the alternate screen.
func (f *screenFeed) onAlt() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.alt
}

// drain waits until the emulator has drawn everything queued, or for at
// most d.
func (f *screenFeed) drain(d time.Duration) {
	f.draining.Store(true)
	defer f.draining.Store(false)
	deadline := time.Now().Add(d)
	for time.Now().Before(deadline) {
		f.mu.Lock()
		done := f.queued == 0 && !f.lost && !f.writing
		f.mu.Unlock()
		if done {
			return
		}
		f.flush() // the writer waits for a batch, or for the reader, or rests: wake it
		time.Sleep(time.Millisecond)
	}
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
	for {
		f.mu.Lock()
		batch, lost, alt, modes, closed := f.take(), f.lost, f.alt, f.modes, f.closed
		f.lost = false
		f.writing = len(batch) > 0 || lost
		f.mu.Unlock()
		if closed {
			return
		}
		if len(batch) == 0 && !lost {
			<-f.wake
			continue
		}
		began, size := time.Now(), len(batch)
		if lost {
			// What it drew is stale and what came between is gone:
			// start from a blank terminal in the right screen, with
			// the modes the program asked for.
			f.screen.Write([]byte("\x1bc"))
			if alt {
				f.screen.Write([]byte("\x1b[?1049h"))
			}
			f.screen.Write(modes.Sequence())
		}
		for len(batch) > 0 && !f.isClosed() {
			n := min(len(batch), emulatorPiece)
			f.screen.Write(batch[:n])
			batch = batch[n:]
		}
		f.mu.Lock()
		f.writing = false
		f.mu.Unlock()
		f.drew()
		if size >= emulatorRestFrom {
			f.rest(time.Since(began))
		}
		f.mu.Lock()
		idle := f.queued == 0 && !f.lost
		f.mu.Unlock()
		if idle && f.catchingUp.Load() {
			f.catchingUp.Store(false)
			if time.Since(f.lastRedraw) >= minRedrawInterval {
				f.lastRedraw = time.Now()
				f.redraw()
			}
			f.changed()
		}
	}
}

// take removes up to emulatorBatch bytes from the front of the queue.
func (f *screenFeed) take() []byte {
	var out []byte
	for len(f.queue) > 0 && len(out) < emulatorBatch {
		c := f.queue[0]
		n := min(len(c), emulatorBatch-len(out))
		if out == nil && n == len(c) {
			out = c // the whole first chunk: no copy
		} else {
			out = append(out, c[:n]...)
		}
		if n == len(c) {
			f.queue = f.queue[1:]
		} else {
			f.queue[0] = c[n:]
		}
		f.queued -= n
	}
	return out
}

func (f *screenFeed) isClosed() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.closed
}

// rest waits after a batch for emulatorRest times what it took, or
// until the feed is closed. Pushes meanwhile only queue.
func (f *screenFeed) rest(took time.Duration) {
	d := min(took*emulatorRest, maxEmulatorRest)
	if d < time.Millisecond {
		return
	}
	t := time.NewTimer(d)
	defer t.Stop()
	for {
		select {
		case <-t.C:
			return
		case <-f.wake:
			f.mu.Lock()
			closed := f.closed
			f.mu.Unlock()
			if closed || f.draining.Load() {
				return
			}
		}
	}
}
