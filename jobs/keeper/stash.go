//go:build linux || freebsd

package keeper

import (
	"encoding/binary"
	"errors"
	"maps"

	"golang.org/x/sys/unix"
)

// A stash keeps files open without taking fds in the keeper's table:
// they ride, in flight, in messages the keeper sends itself over a
// socket pair and leaves unread until it needs them (SCM_RIGHTS: a file
// in flight stays open). Each fork copies the fd table, and each exec
// closes the copy: held in the table, two files a run would slow every
// start by about 0.1 ms per hundred runs.
//
// A message is one or more runs' files: for each run, its ID (8 bytes)
// and how many files follow (1 byte) in the payload, the files in order
// in the rights. New runs' files wait in the table until stashBatch of
// them go as one message (a message a run, and the repacks they call
// for, cost more than the table does). Runs that ended are dropped at
// the next repack.
type stash struct {
	w, r    int             // the pair's ends
	msgs    int             // messages in flight
	runs    map[RunID]int   // runs with files in flight
	ended   int             // of those, runs that have ended
	lost    []RunID         // live runs whose files a repack could not keep
	pending map[RunID][]int // new runs' files, in the table until a batch is full
}

// Bounds on the stash: a connected SEQPACKET pair queues as many messages
// as its send buffer takes (about 90 full ones by default: some 9,000
// runs; past that a run's files stay in the keeper's table), and a
// message carries at most 253 files (SCM_MAX_FD).
const (
	stashRunsPerMessage = 100
	stashMaxMessages    = 100
	stashEntry          = 9
	stashEndedRepack    = 8
	stashBatch          = 16
)

// newStash makes a stash; nil where it cannot (the keeper then keeps the
// files in its table).
func newStash() *stash {
	fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_SEQPACKET|unix.SOCK_CLOEXEC|unix.SOCK_NONBLOCK, 0)
	if err != nil {
		return nil
	}
	return &stash{w: fds[0], r: fds[1], runs: make(map[RunID]int), pending: make(map[RunID][]int)}
}

// put takes a run's files: the stash owns the fds from then on. A full
// batch goes in flight, after a repack when the stash is full; a batch
// the socket refuses stays in the table.
func (s *stash) put(run RunID, fds []int, live func(RunID) bool) {
	s.pending[run] = fds
	if len(s.pending) < stashBatch {
		return
	}
	if s.msgs >= stashMaxMessages { // ended runs are repacked as they end (end)
		s.repack(live)
	}
	s.flushPending(live)
}

// flushPending sends the waiting runs' files, a message of at most
// stashRunsPerMessage runs at a time (each goes whole or not at all), and
// closes the table's copies of what went; what the socket refuses, after
// a repack too, stays waiting.
func (s *stash) flushPending(live func(RunID) bool) {
	for len(s.pending) > 0 {
		batch := make(map[RunID][]int, min(len(s.pending), stashRunsPerMessage))
		for run, fds := range s.pending {
			if len(batch) == stashRunsPerMessage {
				break
			}
			batch[run] = fds
		}
		err := s.send(batch)
		if errors.Is(err, unix.EAGAIN) || errors.Is(err, unix.ENOBUFS) {
			s.repack(live)
			err = s.send(batch)
		}
		if err != nil {
			for run := range batch {
				delete(s.runs, run)
			}
			return
		}
		for run, fds := range batch {
			closeFDs(fds)
			delete(s.pending, run)
		}
	}
}

// end notes that a run ended: its files go at the next repack, which is
// now once a few have ended or a quarter of those in flight have (a
// terminal's master held keeps its pty allocated).
func (s *stash) end(run RunID, live func(RunID) bool) {
	if fds, ok := s.pending[run]; ok {
		closeFDs(fds)
		delete(s.pending, run)
		return
	}
	if _, ok := s.runs[run]; ok {
		s.ended++
	}
	if s.ended >= max(stashEndedRepack, len(s.runs)/4) {
		s.repack(live)
	}
}

// send stashes the files of the given runs in as many messages as it
// takes.
func (s *stash) send(files map[RunID][]int) error {
	var payload []byte
	var rights []int
	flush := func() error {
		if len(payload) == 0 {
			return nil
		}
		err := unix.Sendmsg(s.w, payload, unix.UnixRights(rights...), nil, unix.MSG_DONTWAIT)
		if err == nil {
			s.msgs++
		}
		payload, rights = payload[:0], rights[:0]
		return err
	}
	for run, fds := range files {
		payload = binary.BigEndian.AppendUint64(payload, uint64(run))
		payload = append(payload, byte(len(fds)))
		rights = append(rights, fds...)
		if len(payload) == stashRunsPerMessage*stashEntry {
			if err := flush(); err != nil {
				return err
			}
		}
		s.runs[run] = len(fds)
	}
	return flush()
}

// take reads every message back: the files in flight, by run, as fds
// the caller owns (close-on-exec), and the runs whose files were lost
// (the kernel could not place them in a full fd table, now or at a
// repack). The stash is empty after.
func (s *stash) take() (files map[RunID][]int, lost []RunID) {
	files = make(map[RunID][]int)
	for {
		got, gone, ok := s.takeOne()
		if !ok {
			break
		}
		maps.Copy(files, got)
		lost = append(lost, gone...)
	}
	lost = append(lost, s.lost...)
	maps.Copy(files, s.pending)
	s.msgs, s.ended, s.lost = 0, 0, nil
	clear(s.runs)
	clear(s.pending)
	return files, lost
}

// takeOne reads one message back: its runs' files, and the runs whose
// files the kernel could not place (it closed them); ok is false when
// none was in flight.
func (s *stash) takeOne() (files map[RunID][]int, lost []RunID, ok bool) {
	buf := make([]byte, stashRunsPerMessage*stashEntry)
	oob := make([]byte, unix.CmsgSpace(4*2*stashRunsPerMessage))
	n, oobn, _, _, err := unix.Recvmsg(s.r, buf, oob, unix.MSG_DONTWAIT|unix.MSG_CMSG_CLOEXEC)
	if err != nil || n == 0 {
		return nil, nil, false
	}
	var fds []int
	if msgs, err := unix.ParseSocketControlMessage(oob[:oobn]); err == nil {
		for _, m := range msgs {
			if got, err := unix.ParseUnixRights(&m); err == nil {
				fds = append(fds, got...)
			}
		}
	}
	files = make(map[RunID][]int)
	for p := buf[:n]; len(p) >= stashEntry; p = p[stashEntry:] {
		run, k := RunID(binary.BigEndian.Uint64(p)), int(p[8])
		if k > len(fds) {
			lost = append(lost, run)
			closeFDs(fds)
			fds = nil
			continue
		}
		files[run] = append(files[run], fds[:k]...)
		fds = fds[k:]
	}
	closeFDs(fds) // a message that does not add up
	return files, lost, true
}

// repack stashes again, packed, the files of the runs still live, and
// closes the others'. It goes a message at a time, so it never holds more
// than two messages' files in the table. A live run whose files it loses
// (the table full, or a send refused) is remembered, for take to name.
func (s *stash) repack(live func(RunID) bool) {
	n := s.msgs
	s.msgs, s.ended = 0, 0
	clear(s.runs)
	pending := map[RunID][]int{}
	flush := func() {
		if err := s.send(pending); err != nil {
			for run := range pending {
				delete(s.runs, run)
				s.lost = append(s.lost, run)
			}
		}
		for _, fds := range pending { // in flight again (or lost): these copies go
			closeFDs(fds)
		}
		clear(pending)
	}
	for range n { // the messages sent before: not those sent again meanwhile
		files, lost, ok := s.takeOne()
		if !ok {
			break
		}
		for _, run := range lost {
			if live(run) {
				s.lost = append(s.lost, run)
			}
		}
		for run, fds := range files {
			if !live(run) {
				closeFDs(fds)
				continue
			}
			pending[run] = fds
			if len(pending) == stashRunsPerMessage {
				flush()
			}
		}
	}
	flush()
}
