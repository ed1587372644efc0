package control

import (
	"context"
	"sync"
	"time"

	"jobtop/jobs"
	"jobtop/vtscreen"
)

// screenFetchTimeout bounds one screen fetch of the mirror.
const screenFetchTimeout = 5 * time.Second

// screenCache holds the newest screen fetched of each job in screen mode,
// so that an attached TUI reads screens without a request on its Update
// goroutine: Client.Screen answers from it and asks for a newer one in
// the background, and a newer one found is announced as an output event.
// The mirror also fetches a screen-mode job's screen with the output an
// event announces, before passing the event on.
type screenCache struct {
	mu      sync.Mutex
	entries map[jobs.ID]*screenEntry
	wg      sync.WaitGroup // background fetches
}

type screenEntry struct {
	snap     vtscreen.Snapshot
	have     bool
	fetching bool // a background fetch is under way
}

func (c *screenCache) entry(id jobs.ID) *screenEntry {
	if c.entries == nil {
		c.entries = make(map[jobs.ID]*screenEntry)
	}
	e := c.entries[id]
	if e == nil {
		e = &screenEntry{}
		c.entries[id] = e
	}
	return e
}

func (c *screenCache) forget(id jobs.ID) {
	c.mu.Lock()
	delete(c.entries, id)
	c.mu.Unlock()
}

// screen answers from the cache, and refreshes it in the background; the
// first read of a job waits for its fetch.
func (m *mirror) screen(id jobs.ID) (vtscreen.Snapshot, error) {
	c := &m.screens
	c.mu.Lock()
	e := c.entry(id)
	if e.have {
		snap := e.snap
		if !e.fetching && m.ctx.Err() == nil {
			e.fetching = true
			c.wg.Add(1)
			go m.refreshScreen(id)
		}
		c.mu.Unlock()
		return snap, nil
	}
	c.mu.Unlock()
	snap, _, err := m.fetchScreen(id)
	return snap, err
}

// fetchScreen reads the job's screen from the instance into the cache and
// reports whether it changed.
func (m *mirror) fetchScreen(id jobs.ID) (vtscreen.Snapshot, bool, error) {
	ctx, cancel := context.WithTimeout(m.ctx, screenFetchTimeout)
	defer cancel()
	resp, err := m.client.ReadScreen(ctx, id, true)
	if err != nil {
		return vtscreen.Snapshot{}, false, err
	}
	snap := resp.Snapshot()
	c := &m.screens
	c.mu.Lock()
	defer c.mu.Unlock()
	e := c.entry(id)
	changed := !e.have || e.snap.Seq != snap.Seq || e.snap.Cols != snap.Cols || e.snap.Rows != snap.Rows
	e.snap, e.have = snap, true
	return snap, changed, nil
}

// refreshScreen fetches a newer screen and, when it changed, tells the
// subscribers (as output of the job) so they read it.
func (m *mirror) refreshScreen(id jobs.ID) {
	defer m.screens.wg.Done()
	_, changed, err := m.fetchScreen(id)
	m.screens.mu.Lock()
	m.screens.entry(id).fetching = false
	m.screens.mu.Unlock()
	if err != nil || !changed {
		return
	}
	if info, _, err := m.get(id); err == nil {
		m.publish([]jobs.Event{{Kind: jobs.EventOutput, Job: info}})
	}
}
