package jobs

import (
	"os"
	"runtime"
	"sync"
	"syscall"
)

const (
	// readBufSize is the most read from a pipe at once.
	readBufSize = 256 << 10
	// pipeSize asks the kernel for larger pipes (the unprivileged maximum),
	// so a fast writer blocks less often between our reads.
	pipeSize = 1 << 20
	// yieldEvery is how much a reader reads back to back before it
	// yields its P. A terminal hands out at most 4 KB a read, and a yield
	// wakes another thread (most of jobtop's CPU following a flood, when
	// it yielded after every read); a pipe's read of 64 KB or more (up
	// to readBufSize) yields each time, as before.
	yieldEvery = 64 << 10
)

// readBufs lends read buffers to readers only while they hold data, so
// an idle job costs no buffer.
var readBufs = sync.Pool{New: func() any { b := make([]byte, readBufSize); return &b }}

// readStream copies one pipe into the log file and the store until EOF,
// or until finishAfterDrain sets a read deadline.
func (m *Manager) readStream(j *job, p *process, f *os.File, stream Stream) {
	defer p.readers.Done()
	rc, err := f.SyscallConn()
	if err != nil {
		return
	}
	unyielded := 0 // bytes read since the reader last gave up its P
	for {
		m.waitHold(j)
		var buf *[]byte
		var n int
		var rerr error
		inSlot := false
		err := rc.Read(func(fd uintptr) bool {
			m.ingest <- struct{}{} // see ingestOutput
			inSlot = true
			for {
				buf = readBufs.Get().(*[]byte)
				n, rerr = syscall.Read(int(fd), *buf)
				if rerr != syscall.EINTR {
					break
				}
				readBufs.Put(buf)
			}
			if rerr == syscall.EAGAIN {
				readBufs.Put(buf)
				buf = nil
				<-m.ingest
				inSlot = false
				unyielded = 0 // it gives its P up to wait
				// Writing what it read to the log file: a disk that is
				// behind keeps the drain waiting, as storing does.
				p.storing.Add(1)
				p.readAll(j)
				p.storing.Add(-1)
				return false // wait in the poller
			}
			return true
		})
		if n > 0 {
			p.storing.Add(1)
			p.read.Add(int64(n))
			m.ingestOutput(j, p, stream, (*buf)[:n])
			inSlot = false
			p.storing.Add(-1)
			if unyielded += n; unyielded >= yieldEvery {
				// A reader of a job that writes as fast as it can is
				// always runnable: yielding keeps it from holding a P
				// for a whole time slice, so the UI stays responsive
				// while such jobs run (see e2e PerfKeyLatency).
				unyielded = 0
				runtime.Gosched()
			}
		}
		if inSlot {
			<-m.ingest
		}
		if buf != nil {
			readBufs.Put(buf)
		}
		if err != nil || rerr != nil || n <= 0 {
			p.readAll(j)
			return
		}
	}
}

// ingestSlots is how many readers may read and store output at once: a
// core's fewer than GOMAXPROCS, so that firehose jobs leave the UI and
// API a core, but two where GOMAXPROCS is 2 (one where it is 1): there
// no core is kept for them. With one slot on 2 cores, under 100 writers
// the machine sat a fifth idle, a reader's read and store waiting on the
// one before it while that reader's log write held up a P.
// BenchmarkThroughput100 (synced), one slot against two, alternated: a
// median of 1.54 against 1.39x the same writers into `cat > file` (17
// runs each), 1.53 against 1.36x (rev38, 12 pairs), though jobtop's own
// time moved only 2-5% (the baseline moved too). Key latency with 1,000
// jobs, 100 of them writing, was no worse (p95 medians 59 against 56 ms,
// and 81 against 63 ms, the bare tmux pane's 44-60 ms).
func ingestSlots() int {
	procs := runtime.GOMAXPROCS(0)
	return max(min(2, procs), procs-1)
}

// ingestOutput stores a chunk read, in the reader's ingest slot (taken
// before the read), gives the slot up, and writes the chunk to the log
// file.
//
// Reading and storing output is the CPU-heavy part. Every reader storing
// at once, firehose jobs left nothing for the UI or API goroutines (key
// latency p95 70-110 ms with three yes jobs on 2 cores, when readers did
// not yet yield every yieldEvery bytes). The read is in the slot too:
// with 100 jobs writing flat out, 100 readers woken at once each read a
// chunk, and wrote it to the log, before waiting for the slot, and a key
// waited behind all of them (p95 107 ms, a bare tmux pane 46 ms under
// the same writers). The log write is not in the slot: a disk that is
// behind must hold up only its own job.
func (m *Manager) ingestOutput(j *job, p *process, stream Stream, b []byte) {
	if p.term != nil {
		m.storeTerminal(j, p, b)
	} else {
		j.store.Append(stream, b)
	}
	<-m.ingest
	if p.term != nil {
		p.term.logLater(j.log, b)
	} else {
		j.log.Write(b)
	}
	m.publishOutput(j)
	m.checkReadyLine(j, p)
}
