package keeper

import (
	"io"
	"os"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// maxDrain bounds what the keeper appends to a run's log once jobtop is
// gone: a run writing flat out through its grace is read to the end, so
// it never blocks, but what passes this is dropped.
const maxDrain = 64 << 20

// drainWait bounds how long a keeper whose runs have all ended waits for
// the last of their output to reach their logs.
const drainWait = 2 * time.Second

// drainMarker is written to a run's log before the first output the
// keeper drains into it; fullMarker once it drained maxDrain and drops
// the rest; lostMarker when it could not take its ends of the run's
// output back (its fd table full).
const (
	drainMarker = "[jobtop] jobtop is gone: its keeper stopped this run; what the run wrote meanwhile follows\n"
	fullMarker  = "[jobtop] the keeper appended 64 MiB of this run's output: the rest of what it wrote is dropped\n"
	lostMarker  = "[jobtop] jobtop is gone: its keeper stopped this run, but could not keep its output (too many open files): what it wrote meanwhile is lost\n"
)

// hold keeps the fds after a spawn request's three (Spawn.Hold) for the
// run: in the stash where there is one, else in its held. It returns the
// fds the request came with that it does not keep.
func (k *keeper) hold(r *run, fds []int) (rest []int, held []*os.File) {
	if len(fds) == 3 {
		return fds, nil
	}
	if k.stash != nil {
		k.stash.put(r.id, fds[3:], k.live)
		r.stashed = true
		return fds[:3], nil
	}
	for _, fd := range fds[3:] {
		held = append(held, os.NewFile(uintptr(fd), "held"))
	}
	return fds[:3], held
}

// live reports whether a run has not ended.
func (k *keeper) live(id RunID) bool {
	_, ok := k.runs[id]
	return ok
}

// unhold lets a run's held output go: the run has ended.
func (k *keeper) unhold(r *run) {
	closeAll(r.held)
	r.held = nil
	if r.stashed {
		k.stash.end(r.id, k.live)
	}
}

// unstash hands every live run its held output back from the stash, and
// closes the rest: jobtop is gone, the output is to be drained.
func (k *keeper) unstash() {
	if k.stash == nil {
		return
	}
	taken, lost := k.stash.take()
	for id, fds := range taken {
		r := k.runs[id]
		if r == nil {
			closeFDs(fds)
			continue
		}
		for _, fd := range fds {
			r.held = append(r.held, os.NewFile(uintptr(fd), "held"))
		}
	}
	for _, id := range lost {
		if r := k.runs[id]; r != nil {
			l := newDrainLog(r.log)
			l.marker(lostMarker)
			l.close()
		}
	}
}

// drain reads, once jobtop is gone, the ends of the run's output jobtop
// left with the keeper (Spawn.Hold), until every process of the run has
// closed its own, and appends what it reads to the run's log file. The
// run's writes go on as before while it is stopped: they do not fail,
// nor does its terminal hang up, nor do they block on a full pipe.
func (k *keeper) drain(r *run) {
	if len(r.held) == 0 {
		return
	}
	log := newDrainLog(r.log)
	var draining atomic.Int32 // the last drain to end closes the log
	draining.Store(int32(len(r.held)))
	for _, f := range r.held {
		k.drains.Add(1)
		go func() {
			defer k.drains.Done()
			defer func() {
				if draining.Add(-1) == 0 {
					log.close()
				}
			}()
			defer f.Close()
			if log == nil {
				io.Copy(io.Discard, f) //nolint:errcheck // read to the end, whatever it ends with
				return
			}
			buf := make([]byte, 32<<10)
			for {
				n, err := f.Read(buf)
				log.write(buf[:n])
				if err != nil {
					return
				}
			}
		}()
	}
	r.held = nil
}

// drained waits for the drains to end, for at most d.
func (k *keeper) drained(d time.Duration) {
	done := make(chan struct{})
	go func() {
		k.drains.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(d):
	}
}

// drainLog is a run's log file as the keeper appends to it: opened at
// the first write, and written through that one descriptor until the
// run's drains end (close), never opened again by its name. Once jobtop
// is gone, nothing it wrote is to land in another file that took the
// name (a new instance starting fresh in the same log.dir: that waits
// for this keeper, which holds the directory's keeper lock, but a name
// is not to be trusted for that). It costs a draining run one fd more
// than the two of its output, within the limit Go raises to the hard one.
type drainLog struct {
	path    string
	mu      sync.Mutex
	f       *os.File // nil until the file opens
	started bool
	left    atomic.Int64
	full    atomic.Bool // fullMarker written
}

// newDrainLog is the log file at path; nil when there is none.
func newDrainLog(path string) *drainLog {
	if path == "" {
		return nil
	}
	l := &drainLog{path: path}
	l.left.Store(maxDrain)
	return l
}

// write appends b, after the drain marker the first time; past maxDrain
// it drops the rest, and says so once.
func (l *drainLog) write(b []byte) {
	if len(b) == 0 {
		return
	}
	if left := l.left.Add(-int64(len(b))); left < 0 {
		if fits := int64(len(b)) + left; fits > 0 { // the write that reaches maxDrain
			l.appendOutput(b[:fits])
		}
		if l.full.CompareAndSwap(false, true) {
			l.marker(fullMarker)
		}
		return
	}
	l.appendOutput(b)
}

// appendOutput appends output of the run, after the drain marker the
// first time.
func (l *drainLog) appendOutput(b []byte) {
	l.mu.Lock()
	defer l.mu.Unlock()
	var head string
	if !l.started {
		l.started, head = true, drainMarker
	}
	l.append(head, b)
}

// marker appends a line of the keeper's own.
func (l *drainLog) marker(text string) {
	if l == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.append(text, nil)
}

// append writes head (on a line of its own) and b to the file, opening
// it the first time (tried again at the next write if it did not open:
// its fds full, say). What cannot be written is lost: jobtop is gone,
// there is no one to tell.
func (l *drainLog) append(head string, b []byte) {
	if l.f == nil {
		f, err := os.OpenFile(l.path, os.O_RDWR|os.O_APPEND|syscall.O_NOFOLLOW, 0) // read: does it end a line; never through a symlink
		if err != nil {
			return
		}
		l.f = f
	}
	if head != "" && !endsLine(l.f) {
		head = "\n" + head
	}
	l.f.Write(append([]byte(head), b...)) //nolint:errcheck // as above
}

// close closes the file: the run's drains have ended.
func (l *drainLog) close() {
	if l == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f != nil {
		l.f.Close()
		l.f = nil
	}
}

// endsLine reports whether the file is empty or ends with a newline.
func endsLine(f *os.File) bool {
	st, err := f.Stat()
	if err != nil || st.Size() == 0 {
		return true
	}
	var last [1]byte
	_, err = f.ReadAt(last[:], st.Size()-1)
	return err != nil || last[0] == '\n'
}

// closeFDs closes raw fds the keeper owns.
func closeFDs(fds []int) {
	for _, fd := range fds {
		syscall.Close(fd)
	}
}
