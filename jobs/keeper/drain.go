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
// keeper drains into it.
const drainMarker = "[jobtop] jobtop is gone: its keeper stopped this run; what the run wrote meanwhile follows\n"

// hold keeps the files after a spawn request's three (Spawn.Hold) for
// the run: in the stash where there is one, else in its held. It returns
// the files the request came with that it does not keep.
func (k *keeper) hold(r *run, files []*os.File) (rest, held []*os.File) {
	rest, held = files[:3], files[3:]
	if k.stash == nil || len(held) == 0 {
		return rest, held
	}
	fds := make([]int, 0, len(held))
	for _, f := range held {
		rc, err := f.SyscallConn()
		if err != nil {
			return rest, held
		}
		rc.Control(func(fd uintptr) { fds = append(fds, int(fd)) }) //nolint:errcheck // open: it came with the request
	}
	if k.stash.put(r.id, fds, k.live) != nil {
		return rest, held
	}
	r.stashed = true
	return files, nil // in flight: the request's copies are closed
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
		k.stash.end(r.id)
	}
}

// unstash hands every live run its held output back from the stash, and
// closes the rest: jobtop is gone, the output is to be drained.
func (k *keeper) unstash() {
	if k.stash == nil {
		return
	}
	for id, fds := range k.stash.take() {
		r := k.runs[id]
		if r == nil {
			closeFDs(fds)
			continue
		}
		for _, fd := range fds {
			r.held = append(r.held, os.NewFile(uintptr(fd), "held"))
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
	log := openDrainLog(r.log)
	var wg sync.WaitGroup
	for _, f := range r.held {
		wg.Add(1)
		k.drains.Add(1)
		go func() {
			defer k.drains.Done()
			defer wg.Done()
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
	if log != nil {
		go func() {
			wg.Wait()
			log.f.Close()
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

// drainLog is a run's log file as the keeper appends to it.
type drainLog struct {
	f       *os.File
	mu      sync.Mutex
	started bool
	left    atomic.Int64
}

// openDrainLog opens the log file at path for appending; nil when there
// is none.
func openDrainLog(path string) *drainLog {
	if path == "" {
		return nil
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_APPEND, 0) // read: does it end a line
	if err != nil {
		return nil
	}
	l := &drainLog{f: f}
	l.left.Store(maxDrain)
	return l
}

// write appends b, after the marker the first time; past maxDrain it
// drops it.
func (l *drainLog) write(b []byte) {
	if len(b) == 0 || l.left.Add(-int64(len(b))) < 0 {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.started {
		l.started = true
		marker := drainMarker
		if !endsLine(l.f) {
			marker = "\n" + marker
		}
		l.f.WriteString(marker) //nolint:errcheck // as the output below
	}
	l.f.Write(b) //nolint:errcheck // a log that cannot be written loses it: jobtop is gone, no one to tell
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
