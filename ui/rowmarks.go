package ui

import "jobtop/jobs"

// attention is what happened to a job that was not on screen.
type attention uint8

const (
	unseenOutput attention = 1 << iota // it wrote output
	unseenEnd                          // it ended
)

// Marked returns the jobs marked for the split view, in ID order.
func (t *jobTable) Marked() []jobs.ID {
	var ids []jobs.ID
	for _, j := range t.jobs {
		if t.marked[j.ID] {
			ids = append(ids, j.ID)
		}
	}
	return ids
}

// Note marks what happened to a job that was not on screen.
func (t *jobTable) Note(id jobs.ID, a attention) {
	if _, ok := t.index[id]; ok {
		t.unseen[id] |= a
	}
}

// Seen clears a job's marks of what was not seen.
func (t *jobTable) Seen(id jobs.ID) { delete(t.unseen, id) }

// SeenAll clears every job's marks of what was not seen.
func (t *jobTable) SeenAll() { clear(t.unseen) }

// Unseen is what happened to a job that was not seen.
func (t *jobTable) Unseen(id jobs.ID) attention { return t.unseen[id] }
