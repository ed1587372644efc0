package jobs

// A reader of a pipe job's output reads straight into its store: into
// the free end of its stream's read slab (readRoom), and the plain lines
// of what it read are then kept where they lie (appendRead), with no
// copy. The store's lock is not held across the read; a store's two
// streams have a read slab each, and nothing else writes into a read
// slab, so the bytes a reader read stay as they are until its next read,
// and it writes them to the log file from there.

// readSlack: a read slab is left for a new one once less than a
// readSlack-th of it is free (a read into less would be a short one).
// What is left is slack, counted in the store's bound like the rest.
const readSlack = 4

// minReadSlab is the smallest largest slab (slabPool.maxSize) a store
// reads into; a store bounded so tightly that its slabs are smaller than
// that is given reads through a buffer (Append).
const minReadSlab = 64 << 10

// readRoom is where a reader reads next: buf, at off in slab.
type readRoom struct {
	slab *slab
	off  int
	buf  []byte
}

// readRoom is the free end of stream's read slab, a new one when little
// of it is free (the oldest lines go, if the new slab takes the store
// past its bound); buf is nil when the store is not read into.
func (s *OutputStore) readRoom(stream Stream) readRoom {
	s.mu.Lock()
	defer s.mu.Unlock()
	sp := &s.slabs
	if sp.maxSize < minReadSlab || s.terminal {
		return readRoom{}
	}
	r := sp.reading[stream]
	if r == nil || len(r.buf)-r.used < len(r.buf)/readSlack {
		sp.reading[stream] = nil
		if r != nil && r.lines == 0 {
			sp.drop(r)
		}
		r = sp.alloc(0)
		sp.reading[stream] = r
		for sp.held > s.opts.MaxBytes && s.n > 1 {
			s.evict()
		}
	}
	return readRoom{slab: r, off: r.used, buf: r.buf[r.used:]}
}

// appendRead stores the n bytes read into room, as Append does, and
// returns them: they stay as they are until the reader's next readRoom.
func (s *OutputStore) appendRead(stream Stream, room readRoom, n int) []byte {
	b := room.buf[:n]
	s.mu.Lock()
	defer s.mu.Unlock()
	if r := room.slab; s.slabs.reading[stream] == r && r.used == room.off {
		s.appendLocked(stream, b, r, room.off)
	} else { // the store was flushed meanwhile: room is no longer its own
		s.appendLocked(stream, b, nil, 0)
	}
	return b
}

// keepPlainAt is keepPlain for p lying in read slab r at offset off: its
// lines are kept there, and r is used up to the end of the last one.
func (s *OutputStore) keepPlainAt(stream Stream, p []byte, r *slab, off int) int {
	maxLine := s.opts.MaxLineBytes
	pos := 0
	for pos < len(p) {
		i := indexNewline(p[pos:])
		if i < 0 || i > maxLine {
			break
		}
		slot := s.plainSlot(stream, i)
		if i > 0 {
			slot.slab, slot.off = r.id, uint32(off+pos)
			r.lines++
		}
		for s.slabs.held > s.opts.MaxBytes && s.n > 1 {
			s.evict()
		}
		pos += i + 1
	}
	if pos > 0 {
		r.used = off + pos
		s.lastOpen, s.placed = false, false
	}
	return pos
}
