package jobs

// Slab sizes: a store's first slab is small and each new one doubles up to
// the largest, so a quiet job costs little and a firehose few allocations.
// The largest is small enough that the slab being filled, counted whole,
// is a small part of a store's bound.
const (
	minSlabSize = 4 << 10
	maxSlabSize = 64 << 10
)

// slab holds the text of consecutive committed lines, packed: only
// committed text is copied in (never raw reads, with their "\r"
// rewrites), so every byte of a slab up to used belongs to a held line
// (or is the newline between two plain lines kept in one copy:
// keepPlain), and slabs empty in the order they were filled. A slab is counted whole
// against the store's bound while any of its lines is held.
type slab struct {
	buf   []byte
	used  int
	lines int    // held lines whose text lies in buf
	id    uint32 // its place in the pool's table while it holds lines
}

// slabPool is one store's slabs: the one being filled, and one spare of
// the largest size so a store at its bound reuses memory instead of
// making garbage.
//
// Lines name their slab by its id, a place in table, not by a pointer:
// the line index then holds no pointers, and the garbage collector has
// nothing to scan in it (10,000 lines a job).
type slabPool struct {
	cur     *slab
	spare   *slab
	held    int      // bytes of the slabs holding lines, plus cur: what the bound counts
	next    int      // size of the next slab to allocate
	maxSize int      // the largest slab (maxSlabSize, less for small stores)
	table   []*slab  // by id; [0] is nil, the id of no slab
	free    []uint32 // ids of table that are free
}

func newSlabPool(maxBytes int) slabPool {
	// A store with a small bound gets slabs of a sixteenth of it, so
	// counting them whole still leaves room for lines.
	size := min(maxSlabSize, max(maxBytes/16, min(64, maxBytes)))
	return slabPool{maxSize: size, next: min(minSlabSize, size)}
}

// put copies text into the current slab (a new one when it does not fit)
// and returns the slab and the offset of the copy. The caller counts the
// line in s.lines.
func (sp *slabPool) put(text []byte) (*slab, uint32) {
	c := sp.cur
	if c == nil || len(c.buf)-c.used < len(text) {
		c = sp.fresh(len(text))
	}
	off := c.used
	c.used += copy(c.buf[off:], text)
	return c, uint32(off)
}

// fresh makes a new current slab with room for n bytes; the old one is
// let go if no line is in it.
func (sp *slabPool) fresh(n int) *slab {
	if old := sp.cur; old != nil && old.lines == 0 {
		sp.drop(old)
	}
	var s *slab
	if sp.spare != nil && n <= len(sp.spare.buf) {
		s, sp.spare = sp.spare, nil
	} else {
		size := sp.next
		sp.next = min(size*2, sp.maxSize)
		s = &slab{buf: make([]byte, max(size, n))}
	}
	sp.add(s)
	sp.cur = s
	return s
}

// add counts a new slab and gives it an id.
func (sp *slabPool) add(s *slab) {
	sp.held += len(s.buf)
	if k := len(sp.free); k > 0 {
		s.id, sp.free = sp.free[k-1], sp.free[:k-1]
	} else {
		if len(sp.table) == 0 {
			sp.table = append(sp.table, nil)
		}
		s.id = uint32(len(sp.table))
		sp.table = append(sp.table, nil)
	}
	sp.table[s.id] = s
}

// drop lets go of a slab that holds no line: it is no longer counted,
// its id is free, and it may become the spare.
func (sp *slabPool) drop(s *slab) {
	sp.held -= len(s.buf)
	sp.table[s.id] = nil
	sp.free = append(sp.free, s.id)
	s.id = 0
	sp.recycle(s)
}

// text is the bytes [off, off+n) of slab id.
func (sp *slabPool) text(id, off uint32, n int) []byte {
	return sp.table[id].buf[off : int(off)+n]
}

// release notes that a line in slab id was evicted.
func (sp *slabPool) release(id uint32) {
	s := sp.table[id]
	s.lines--
	if s.lines == 0 && s != sp.cur {
		sp.drop(s)
	}
}

// recycle keeps an emptied slab of the largest size as the spare; others
// are left to the garbage collector.
func (sp *slabPool) recycle(s *slab) {
	if sp.spare == nil && len(s.buf) == sp.maxSize {
		s.used = 0
		sp.spare = s
	}
}

// dropSpare lets the spare go, e.g. once a run has ended.
func (sp *slabPool) dropSpare() { sp.spare = nil }

// memory is every byte the slabs keep alive, the spare included.
func (sp *slabPool) memory() int {
	if sp.spare != nil {
		return sp.held + len(sp.spare.buf)
	}
	return sp.held
}
