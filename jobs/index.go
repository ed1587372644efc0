package jobs

import (
	"cmp"
	"container/heap"
	"slices"
	"strconv"
	"strings"
)

// The manager's indexes of its jobs, so that a job's start, end and
// removal cost the same beside ten jobs or ten thousand: the jobs by
// name (a name made unique, a dependency found by name) and the jobs that
// run after each job (Spec.After). indexLocked and unindexLocked keep
// them, wherever a job is added, renamed or removed; the finished jobs in
// end order are retention.go's.

// indexLocked notes j's name and what it runs after.
func (m *Manager) indexLocked(j *job) {
	m.names.add(j)
	for _, id := range j.spec.After {
		if m.runAfter[id] == nil {
			m.runAfter[id] = make(map[*job]struct{})
		}
		m.runAfter[id][j] = struct{}{}
	}
}

// unindexLocked forgets what indexLocked noted of j, as j goes or before
// its spec changes.
func (m *Manager) unindexLocked(j *job) {
	m.names.remove(j)
	for _, id := range j.spec.After {
		if set := m.runAfter[id]; set != nil {
			delete(set, j)
			if len(set) == 0 {
				delete(m.runAfter, id)
			}
		}
	}
}

// nameIndex is the jobs by name.
type nameIndex struct {
	// byName holds the jobs with each name, in ID order (names given
	// by hand may repeat).
	byName map[string][]*job
	// suffixed holds, for a base, the k of the names base-k jobs have
	// (what uniqueNameLocked counts: k >= 2, without leading zeros).
	suffixed map[string]*suffixes
}

// maxSuffixDigits bounds the k of a name base-k the index counts: a
// bigger k is never the smallest free one (that would take a billion
// jobs), so it takes no part in making a name unique.
const maxSuffixDigits = 9

// splitSuffix splits a name base-k into base and k, as uniqueNameLocked
// counts them: k a number of at most maxSuffixDigits digits, without
// leading zeros, 2 or more. ok is false for any other name.
func splitSuffix(name string) (base string, k int, ok bool) {
	i := strings.LastIndexByte(name, '-')
	if i < 0 {
		return "", 0, false
	}
	digits := name[i+1:]
	if digits == "" || digits[0] == '0' || len(digits) > maxSuffixDigits {
		return "", 0, false
	}
	for _, c := range digits {
		if c < '0' || c > '9' {
			return "", 0, false
		}
		k = k*10 + int(c-'0')
	}
	if k < 2 {
		return "", 0, false
	}
	return name[:i], k, true
}

func (x *nameIndex) add(j *job) {
	if x.byName == nil {
		x.byName, x.suffixed = make(map[string][]*job), make(map[string]*suffixes)
	}
	name := j.spec.Name
	js := x.byName[name]
	at, _ := slices.BinarySearchFunc(js, j.id, func(k *job, id ID) int { return cmp.Compare(k.id, id) })
	x.byName[name] = slices.Insert(js, at, j)
	if base, k, ok := splitSuffix(name); ok {
		s := x.suffixed[base]
		if s == nil {
			s = &suffixes{held: make(map[int]int), next: 2}
			x.suffixed[base] = s
		}
		s.held[k]++
	}
}

func (x *nameIndex) remove(j *job) {
	name := j.spec.Name
	js := x.byName[name]
	at, found := slices.BinarySearchFunc(js, j.id, func(k *job, id ID) int { return cmp.Compare(k.id, id) })
	if !found || js[at] != j {
		return
	}
	if len(js) == 1 {
		delete(x.byName, name)
	} else {
		x.byName[name] = slices.Delete(js, at, at+1)
	}
	if base, k, ok := splitSuffix(name); ok {
		if s := x.suffixed[base]; s != nil {
			s.let(k)
			if len(s.held) == 0 {
				delete(x.suffixed, base)
			}
		}
	}
}

// unique is base when no job has that name, else base-k with the
// smallest k >= 2 no job has.
func (x *nameIndex) unique(base string) string {
	if len(x.byName[base]) == 0 {
		return base
	}
	k := 2
	if s := x.suffixed[base]; s != nil {
		k = s.smallestFree()
	}
	return base + "-" + strconv.Itoa(k)
}

// newest is the newest job other than self with that name; nil if none.
func (x *nameIndex) newest(name string, self *job) *job {
	js := x.byName[name]
	for i := len(js) - 1; i >= 0; i-- {
		if js[i] != self {
			return js[i]
		}
	}
	return nil
}

// suffixes are the k of the names base-k of one base that jobs have, and
// the smallest k free, found in time that does not grow with the jobs.
type suffixes struct {
	held map[int]int // jobs with base-k, by k
	// next: every k from 2 to next-1 is held, or in free.
	next int
	// free are k below next let go (some may be held again since: they
	// are dropped when they come to the top); inFree says which k it
	// holds, once each.
	free   intHeap
	inFree map[int]bool
}

// let notes that a job with base-k has gone (or been renamed).
func (s *suffixes) let(k int) {
	if s.held[k]--; s.held[k] > 0 {
		return
	}
	delete(s.held, k)
	if k < s.next && !s.inFree[k] {
		if s.inFree == nil {
			s.inFree = make(map[int]bool)
		}
		s.inFree[k] = true
		heap.Push(&s.free, k)
	}
}

func (s *suffixes) smallestFree() int {
	for len(s.free) > 0 && s.held[s.free[0]] > 0 {
		delete(s.inFree, heap.Pop(&s.free).(int))
	}
	if len(s.free) > 0 {
		return s.free[0]
	}
	for s.held[s.next] > 0 {
		s.next++
	}
	return s.next
}

// intHeap is a min-heap of ints (container/heap).
type intHeap []int

func (h intHeap) Len() int           { return len(h) }
func (h intHeap) Less(a, b int) bool { return h[a] < h[b] }
func (h intHeap) Swap(a, b int)      { h[a], h[b] = h[b], h[a] }
func (h *intHeap) Push(x any)        { *h = append(*h, x.(int)) }
func (h *intHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}
