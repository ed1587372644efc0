package control

import (
	"context"
	"errors"
	"sync"
	"time"

	"jobtop/jobs"
)

// mirrorFetchLines is the most output lines the mirror fetches for one
// job at once. A job that wrote more since the last fetch is read from
// its tail instead (a firehose costs at most this per frame).
const mirrorFetchLines = 4096

// mirror is a Client's local copy of an instance: every job's snapshot and
// output. One goroutine reads the event stream and queues what changed; a
// second applies it, fetches new output in bulk, and only then tells the
// subscribers, so a subscriber that reads a job's output after an event
// finds the lines there.
type mirror struct {
	client *Client
	ctx    context.Context // ends when the mirror is closed
	cancel context.CancelFunc
	done   chan struct{} // closed when the mirror stops
	err    error         // why it stopped; set before done closes

	mu     sync.Mutex
	infos  map[jobs.ID]jobs.Info
	order  []jobs.ID
	stores map[jobs.ID]*mirrorStore
	subs   map[*remoteStream]struct{}

	screens screenCache // screens of jobs in screen mode (screencache.go)

	// The instance's limit on jobs running at once, as its event stream
	// last said it (0 also when it is too old to say); limitChanged is
	// closed when it changes.
	limit        int
	limitChanged chan struct{}

	// Backfill of older output (mirrorbackfill.go).
	backfillWake chan struct{}
	backfillDone chan struct{}

	pendMu  sync.Mutex
	pending []Event
	wake    chan struct{}

	// The instance attached to, told from a new one when connecting
	// again (reconnect.go), and how the connection is.
	inst        Instance
	replaced    int // reconnections that found another instance
	conn        ConnState
	connChanged chan struct{}
	streamStop  context.CancelFunc // ends the current events stream
	resumed     time.Time          // when resume last connected again
}

// startMirror opens the event stream, loads every job and its output, and
// starts keeping them current.
func startMirror(ctx context.Context, c *Client) (*mirror, error) {
	streamCtx, cancel := context.WithCancel(context.Background())
	stop := context.AfterFunc(ctx, cancel) // ctx bounds only the start
	if c.dialer != nil {
		c.dialer.mirrorStarts.Store(true)
	}
	// Connecting again (reconnect, resume) must tell the same instance
	// from a new one.
	inst, err := c.Instance(startsFarInstance(streamCtx))
	var events *EventReader
	eventsCtx, streamStop := context.WithCancel(streamCtx)
	if err == nil {
		events, err = c.Events(startsFarInstance(eventsCtx))
	}
	if !stop() || err != nil {
		streamStop()
		cancel()
		if err == nil {
			err = ctx.Err()
		}
		return nil, err
	}
	m := &mirror{
		client:      c,
		ctx:         streamCtx,
		cancel:      cancel,
		done:        make(chan struct{}),
		infos:       make(map[jobs.ID]jobs.Info),
		stores:      make(map[jobs.ID]*mirrorStore),
		subs:        make(map[*remoteStream]struct{}),
		wake:        make(chan struct{}, 1),
		inst:        inst,
		conn:        ConnState{Connected: true, Instance: inst},
		connChanged: make(chan struct{}, 1),
		streamStop:  streamStop,

		backfillWake: make(chan struct{}, 1),
		backfillDone: make(chan struct{}),

		limitChanged: make(chan struct{}),
	}
	initial := make([]Event, len(events.Snapshot))
	for i, info := range events.Snapshot {
		initial[i] = Event{Kind: jobs.EventAdded.String(), Job: info}
	}
	m.apply(streamCtx, initial)
	m.setLimit(events.MaxRunning)
	readerDone := make(chan error, 1)
	go func() { readerDone <- m.read(events) }()
	go m.work(streamCtx, readerDone)
	go m.backfill()
	return m, nil
}

// read queues event batches until the stream ends.
func (m *mirror) read(events *EventReader) error {
	defer events.Close()
	for {
		batch, err := events.Next()
		if err != nil {
			return err
		}
		m.setLimit(events.MaxRunning)
		m.pendMu.Lock()
		m.pending = append(m.pending, batch...)
		m.pendMu.Unlock()
		select {
		case m.wake <- struct{}{}:
		default:
		}
	}
}

// setLimit records the instance's limit on jobs running at once, as the
// event stream says it (nil: it does not), and wakes whoever waits for
// it to change.
func (m *mirror) setLimit(n *int) {
	limit := 0
	if n != nil {
		limit = *n
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if limit != m.limit {
		m.limit = limit
		close(m.limitChanged)
		m.limitChanged = make(chan struct{})
	}
}

// maxRunning is the instance's limit and a channel closed when it next
// changes.
func (m *mirror) maxRunning() (int, <-chan struct{}) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.limit, m.limitChanged
}

// work applies queued events until the reader stops, then ends every
// subscriber's stream.
func (m *mirror) work(ctx context.Context, readerDone <-chan error) {
	var err error
	for readerDone != nil {
		err = m.drain(ctx, readerDone)
		readerDone = nil
		// An instance that said it shut down is not called back: over
		// --host the reconnection would start a new one, undoing the
		// shutdown someone asked for.
		if ctx.Err() == nil && !errors.Is(err, errShutDown) {
			if m.client.reconnect {
				readerDone = m.reconnect(ctx, err)
			} else {
				readerDone = m.resume(ctx)
			}
		}
	}
	switch {
	case ctx.Err() != nil:
		err = &NotRunningError{Path: m.client.socket, Err: ctx.Err()}
	case errors.Is(err, errShutDown):
		var sd shutDownSignal
		errors.As(err, &sd)
		err = &ShutDownError{Where: m.client.where(), Reason: sd.reason}
	default:
		err = &InstanceLostError{Where: m.client.where(), Err: err}
	}
	m.setConn(ConnState{Err: err}) // a host's status says why it ended
	m.mu.Lock()
	m.err = err
	for s := range m.subs {
		s.end()
	}
	close(m.done)
	m.mu.Unlock()
}

// drain applies queued events until the reader stops, and returns why it
// stopped.
func (m *mirror) drain(ctx context.Context, readerDone <-chan error) error {
	var err error
	for running := true; running; {
		select {
		case <-m.wake:
		case err = <-readerDone:
			running = false
		}
		m.pendMu.Lock()
		batch := m.pending
		m.pending = nil
		m.pendMu.Unlock()
		if len(batch) > 0 {
			m.apply(ctx, batch)
		}
	}
	return err
}

// apply records a batch of events, fetches the output they announce, and
// then passes them on to subscribers.
func (m *mirror) apply(ctx context.Context, batch []Event) {
	out := make([]jobs.Event, 0, len(batch))
	fetch := make(map[jobs.ID]bool)
	for _, ev := range batch {
		kind := eventKind(ev.Kind)
		if kind == 0 {
			continue
		}
		if kind == jobs.EventRemoved {
			m.forget(ev.Job.ID)
		} else {
			// A snapshot (attaching, connecting again) announces output
			// by its count alone: lines the mirror does not hold, or
			// bytes it did not count, on a line still being built (a
			// prompt) when no whole line came after it.
			store, wrote := m.upsert(ev.Job)
			if kind == jobs.EventOutput || ev.Job.Lines > store.last() || wrote {
				fetch[ev.Job.ID] = true
			}
		}
		out = append(out, jobs.Event{Kind: kind, Job: ev.Job})
	}
	for id := range fetch {
		m.fetch(ctx, id)
		if info, _, err := m.get(id); err == nil && info.Screen {
			m.fetchScreen(id) //nolint:errcheck // a screen that cannot be read is read again on the next look
		}
	}
	m.publish(out)
	m.wakeBackfill()
}

// fetch brings a job's mirror up to the server: the lines after the newest
// held, or the server's tail when that is too far behind.
func (m *mirror) fetch(ctx context.Context, id jobs.ID) {
	m.mu.Lock()
	store, ok := m.stores[id]
	info := m.infos[id]
	m.mu.Unlock()
	if !ok {
		return
	}
	cursor := store.last()
	q := OutputQuery{Cursor: cursor, Max: mirrorFetchLines}
	if info.Lines > cursor+mirrorFetchLines {
		q = OutputQuery{Tail: mirrorFetchLines}
	}
	// An answer may stop short of the lines asked for (its byte bound):
	// the rest is fetched at once.
	for fetched := 0; fetched < mirrorFetchLines; {
		resp, err := m.client.ReadOutput(ctx, id, q)
		if err != nil {
			return // removed meanwhile, or the stream is ending
		}
		store.apply(resp)
		fetched += len(resp.Lines)
		if !resp.More || len(resp.Lines) == 0 {
			return
		}
		q = OutputQuery{Cursor: resp.NextCursor, Max: mirrorFetchLines - fetched}
	}
}

// upsert records a job's snapshot; wrote says its output's byte count
// is not the one the mirror last had (a new job's: 0).
func (m *mirror) upsert(info jobs.Info) (store *mirrorStore, wrote bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	store, ok := m.stores[info.ID]
	if !ok {
		store = newMirrorStore()
		m.stores[info.ID] = store
		m.order = append(m.order, info.ID)
	}
	wrote = info.Bytes != m.infos[info.ID].Bytes
	m.infos[info.ID] = info
	store.setInfo(info)
	return store, wrote
}

func (m *mirror) forget(id jobs.ID) {
	m.screens.forget(id)
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.stores[id]; !ok {
		return
	}
	delete(m.stores, id)
	delete(m.infos, id)
	for i, o := range m.order {
		if o == id {
			m.order = append(m.order[:i], m.order[i+1:]...)
			break
		}
	}
}

func (m *mirror) publish(events []jobs.Event) {
	if len(events) == 0 {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	for s := range m.subs {
		s.note(events)
	}
}

func (m *mirror) subscribe() *remoteStream {
	s := newRemoteStream(func(s *remoteStream) {
		m.mu.Lock()
		delete(m.subs, s)
		m.mu.Unlock()
	})
	m.mu.Lock()
	defer m.mu.Unlock()
	m.subs[s] = struct{}{}
	select {
	case <-m.done:
		s.end()
	default:
	}
	return s
}

func (m *mirror) list() []jobs.Info {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([]jobs.Info, 0, len(m.order))
	for _, id := range m.order {
		out = append(out, m.infos[id])
	}
	return out
}

func (m *mirror) get(id jobs.ID) (jobs.Info, *mirrorStore, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	info, ok := m.infos[id]
	if !ok {
		return jobs.Info{}, nil, &jobs.NotFoundError{ID: id}
	}
	return info, m.stores[id], nil
}

// memoryUse adds up what the mirror's stores hold, as
// jobs.Manager.MemoryUse does for an instance's.
func (m *mirror) memoryUse() jobs.MemoryUse {
	m.mu.Lock()
	defer m.mu.Unlock()
	var u jobs.MemoryUse
	for id, store := range m.stores {
		text, memory := store.memory()
		u.Text += text
		u.Memory += memory
		if m.infos[id].State.Active() {
			u.Running++
		}
	}
	return u
}

func (m *mirror) close() {
	m.cancel()
	<-m.done
	<-m.backfillDone
	m.screens.wg.Wait()
}
