package control

import (
	"context"
	"time"

	"jobtop/jobs"
)

// mirrorBackfillLines is the most older lines a backfill reads in one
// request.
const mirrorBackfillLines = 1024

// mirrorBackfillQuiet is how long after a job's mirror jumped to its tail
// (the job outran it) backfill waits before reading the job's older lines.
const mirrorBackfillQuiet = 100 * time.Millisecond

// A mirror fetches new output from each job's tail (mirror.fetch), so a
// client attached after a job wrote more than mirrorFetchLines, or one a
// job briefly outran, holds fewer lines than the instance does. Backfill
// reads the older lines the instance still holds, a page at a time, newest
// first, and prepends them (mirrorStore.prepend), filling only the room
// the mirror's bounds leave.
//
// It runs in a goroutine of its own with one request out at a time, so the
// goroutine that applies events (and fetches a firehose's tail) never
// waits on it. Each apply round wakes it; it goes over the jobs, a page
// each per pass, until a pass adds nothing. A job whose mirror just
// jumped to its tail waits until it has not for mirrorBackfillQuiet: a
// firehose would make it jump again and drop the page read for nothing.
// A job removed meanwhile is
// left alone: its lines go into a store nobody holds any more, and no
// event is published for it.
func (m *mirror) backfill() {
	defer close(m.backfillDone)
	var later <-chan time.Time
	for {
		select {
		case <-m.backfillWake:
		case <-later:
		case <-m.ctx.Done():
			return
		}
		later = nil
		for {
			added, wait := m.backfillPass(m.ctx)
			if added {
				continue
			}
			if wait > 0 {
				later = time.After(wait)
			}
			break
		}
	}
}

// wakeBackfill tells the backfill there may be older lines to read.
func (m *mirror) wakeBackfill() {
	select {
	case m.backfillWake <- struct{}{}:
	default:
	}
}

// backfillPass reads a page of older lines for each job that has room
// for them, and reports whether any was added, and how soon to look
// again at jobs that must wait (0: none must).
func (m *mirror) backfillPass(ctx context.Context) (added bool, wait time.Duration) {
	m.mu.Lock()
	ids := append([]jobs.ID(nil), m.order...)
	m.mu.Unlock()
	for _, id := range ids {
		if ctx.Err() != nil {
			return false, 0
		}
		a, w := m.backfillPage(ctx, id)
		added = added || a
		if w > 0 && (wait == 0 || w < wait) {
			wait = w
		}
	}
	return added, wait
}

// backfillPage reads one page of a job's older lines and prepends it;
// it reports whether lines were added, or how long to wait before trying.
func (m *mirror) backfillPage(ctx context.Context, id jobs.ID) (bool, time.Duration) {
	m.mu.Lock()
	store, ok := m.stores[id]
	info := m.infos[id]
	m.mu.Unlock()
	if !ok {
		return false, 0
	}
	cursor, max, wait := store.backfillPage(info.Dropped+1, mirrorBackfillLines, time.Now())
	if max == 0 {
		return false, wait
	}
	for {
		resp, err := m.client.ReadOutput(ctx, id, OutputQuery{Cursor: cursor, Max: max})
		if err != nil {
			return false, 0 // removed meanwhile, or the stream is ending
		}
		if n := len(resp.Lines); resp.More && n > 0 && n < max {
			// Cut short by the answer's byte bound: ask for as many
			// lines, ending where the page does.
			cursor, max = cursor+uint64(max-n), n
			continue
		}
		if store.prepend(resp.Lines) == 0 {
			return false, 0
		}
		break
	}
	// Panes showing the job draw the older lines; the snapshot is the
	// one held, so nothing counts as new output.
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.stores[id] != store {
		return false, 0 // removed (or replaced) meanwhile: no event brings it back
	}
	ev := []jobs.Event{{Kind: jobs.EventOutput, Job: m.infos[id]}}
	for s := range m.subs {
		s.note(ev)
	}
	return true, 0
}
