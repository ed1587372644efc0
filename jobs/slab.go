package jobs

import "unsafe"

// Slab sizes: a store's first slab is small, and each new one doubles up to
// the largest, so a quiet job costs little and a firehose few allocations.
const (
	minSlabSize = 4 << 10
	maxSlabSize = 1 << 20
)

// slab holds the bytes of many committed lines: each read is copied into
// the current slab once and its lines are substrings of it. When the last
// of its lines is evicted the slab is reused, so a job writing as fast as
// it can makes no garbage. Because slab bytes are rewritten on reuse, text
// leaves the store only as copies.
type slab struct {
	buf   []byte
	used  int
	lines int // held lines whose text lies in buf
}

// slabPool is one store's slabs: the one being filled and spares.
type slabPool struct {
	cur  *slab
	free []*slab
	next int // size of the next slab to allocate
}

// put copies p into the current slab (a new one when it does not fit) and
// returns it as a string backed by the slab, and the slab.
func (sp *slabPool) put(p []byte) (string, *slab) {
	if len(p) == 0 {
		return "", nil
	}
	if sp.cur == nil || len(sp.cur.buf)-sp.cur.used < len(p) {
		old := sp.cur
		sp.cur = sp.get(len(p))
		if old != nil && old.lines == 0 {
			sp.recycle(old)
		}
	}
	c := sp.cur
	copy(c.buf[c.used:], p)
	s := unsafe.String(&c.buf[c.used], len(p))
	c.used += len(p)
	return s, c
}

func (sp *slabPool) get(n int) *slab {
	if k := len(sp.free); k > 0 && n <= len(sp.free[k-1].buf) {
		s := sp.free[k-1]
		sp.free = sp.free[:k-1]
		return s
	}
	size := max(sp.next, minSlabSize)
	sp.next = min(size*2, maxSlabSize)
	return &slab{buf: make([]byte, max(size, n))}
}

// release notes that a line in s was evicted.
func (sp *slabPool) release(s *slab) {
	s.lines--
	if s.lines == 0 && s != sp.cur {
		sp.recycle(s)
	}
}

// recycle keeps an emptied slab of the largest size as a spare (two at
// most); others are left to the garbage collector.
func (sp *slabPool) recycle(s *slab) {
	if len(s.buf) == maxSlabSize && len(sp.free) < 2 {
		s.used = 0
		sp.free = append(sp.free, s)
	}
}
