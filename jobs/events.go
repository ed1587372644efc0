package jobs

import (
	"sync"
	"sync/atomic"
	"time"
)

// DefaultFrameInterval is the shortest time between two event batches sent
// to one subscriber: about 60 a second.
const DefaultFrameInterval = time.Second / 60

// EventKind says what happened to a job.
type EventKind uint8

// The kinds of events.
const (
	EventAdded   EventKind = iota + 1 // a job was created
	EventState                        // its state or run changed
	EventOutput                       // it wrote output
	EventRemoved                      // it was removed
)

func (k EventKind) String() string {
	switch k {
	case EventAdded:
		return "added"
	case EventState:
		return "state"
	case EventOutput:
		return "output"
	case EventRemoved:
		return "removed"
	}
	return "unknown"
}

// Event tells a subscriber that a job changed. Job is a snapshot taken when
// the batch was assembled (for EventRemoved, the last one before removal).
type Event struct {
	Kind EventKind
	Job  Info
}

// EventStream delivers batches of job events until closed.
// *Subscription implements it.
type EventStream interface {
	// C is the channel of batches; it is closed when the stream is.
	C() <-chan []Event
	// Close ends the stream; safe to call more than once.
	Close()
}

// Subscription delivers batches of coalesced events. Within one batch each
// job appears at most once per kind. A subscriber that reads slowly gets
// fewer, larger batches; one that stops reading costs a bounded amount of
// memory (one pending entry per job) and never blocks a job.
type Subscription struct {
	out      chan []Event
	wake     chan struct{}
	urgent   chan struct{} // hub.hurry: end the frame's wait now
	hurries  atomic.Int64  // hub.hurry calls, counted before urgent is sent
	final    atomic.Bool   // closed by the hub (the manager shut down): flushFinal
	done     chan struct{}
	stopped  chan struct{}
	once     sync.Once
	interval time.Duration
	snapshot func(ID) (Info, bool)
	hub      *hub

	mu      sync.Mutex
	pending []pendingEvents
	index   map[ID]int
}

type pendingEvents struct {
	id                         ID
	added, state, output, gone bool
	last                       Info // snapshot kept for removed jobs
}

// C is the channel of event batches. It is closed when the subscription is.
func (s *Subscription) C() <-chan []Event { return s.out }

// Close ends the subscription and waits for its goroutine to finish.
// It is safe to call more than once.
func (s *Subscription) Close() {
	s.stop()
	<-s.stopped
}

// stop ends the subscription without waiting for its pump.
func (s *Subscription) stop() {
	s.once.Do(func() {
		s.hub.remove(s)
		close(s.done)
	})
}

func (s *Subscription) note(id ID, kind EventKind, last Info) {
	s.mu.Lock()
	i, ok := s.index[id]
	if !ok {
		i = len(s.pending)
		s.pending = append(s.pending, pendingEvents{id: id})
		s.index[id] = i
	}
	p := &s.pending[i]
	switch kind {
	case EventAdded:
		p.added = true
	case EventState:
		p.state = true
	case EventOutput:
		p.output = true
	case EventRemoved:
		p.gone = true
		p.last = last
	}
	s.mu.Unlock()
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

func (s *Subscription) take() []Event {
	s.mu.Lock()
	pending := s.pending
	s.pending = nil
	clear(s.index)
	s.mu.Unlock()
	var batch []Event
	for _, p := range pending {
		info, ok := s.snapshot(p.id)
		if !ok {
			info = p.last
		}
		if p.added {
			batch = append(batch, Event{Kind: EventAdded, Job: info})
		}
		if p.gone || !ok {
			if p.gone {
				batch = append(batch, Event{Kind: EventRemoved, Job: info})
			}
			continue
		}
		if p.state {
			batch = append(batch, Event{Kind: EventState, Job: info})
		}
		if p.output {
			batch = append(batch, Event{Kind: EventOutput, Job: info})
		}
	}
	return batch
}

func (s *Subscription) pump() {
	defer close(s.stopped)
	defer close(s.out)
	timer := time.NewTimer(0)
	defer timer.Stop()
	for {
		select {
		case <-s.wake:
		case <-s.done:
			s.flushFinal()
			return
		}
		hurries := s.hurries.Load()
		batch := s.take()
		if len(batch) == 0 {
			continue
		}
		select {
		case s.out <- batch:
		case <-s.done:
			s.flushFinal()
			return
		}
		// Hold the next batch back for a frame, so fast writers are
		// coalesced into at most one batch per frame; an echo (hurry)
		// cuts the wait short. A hurry from before this batch was taken
		// is spent; one since (the subscriber may have typed and had the
		// echo while the batch went out) ends the wait before it begins.
		select {
		case <-s.urgent:
		default:
		}
		if s.hurries.Load() != hurries {
			continue
		}
		timer.Reset(s.interval)
		select {
		case <-timer.C:
		case <-s.urgent:
			timer.Stop() // Go 1.23 timers: nothing stale is left in C
		case <-s.done:
			s.flushFinal()
			return
		}
	}
}

// finalFlushWait bounds how long a subscription that the manager closes
// (it shut down) waits for its subscriber to take the last batch.
const finalFlushWait = 500 * time.Millisecond

// flushFinal hands the subscriber what is pending when the manager closed
// the subscription: the jobs' last states (killed, as the shutdown left
// them) would otherwise never reach a client, which showed them stopping
// for ever.
func (s *Subscription) flushFinal() {
	if !s.final.Load() {
		return // the subscriber closed it: it reads no more
	}
	batch := s.take()
	if len(batch) == 0 {
		return
	}
	t := time.NewTimer(finalFlushWait)
	defer t.Stop()
	select {
	case s.out <- batch:
	case <-t.C:
	}
}

// echoWindow is how long after input to a job its output is news that
// cannot wait for the frame: the echo of a key, the answer to a prompt.
const echoWindow = 500 * time.Millisecond

// publishOutput tells subscribers that the job wrote output. Output soon
// after input to the job (an echo) ends their frame's wait, so a key
// typed into a job shows as soon as the job echoes it, even while other
// jobs' output keeps the batches a frame apart.
func (m *Manager) publishOutput(j *job) {
	m.hub.publish(j.id, EventOutput, Info{})
	if typed := j.typedAt.Load(); typed != 0 && time.Since(time.Unix(0, typed)) < echoWindow {
		m.hub.hurry()
	}
}

// hub fans job changes out to subscriptions.
type hub struct {
	mu   sync.RWMutex
	subs map[*Subscription]struct{}
}

func (h *hub) subscribe(interval time.Duration, snapshot func(ID) (Info, bool)) *Subscription {
	s := &Subscription{
		out:      make(chan []Event),
		wake:     make(chan struct{}, 1),
		urgent:   make(chan struct{}, 1),
		done:     make(chan struct{}),
		stopped:  make(chan struct{}),
		interval: interval,
		snapshot: snapshot,
		hub:      h,
		index:    make(map[ID]int),
	}
	h.mu.Lock()
	if h.subs == nil {
		h.subs = make(map[*Subscription]struct{})
	}
	h.subs[s] = struct{}{}
	h.mu.Unlock()
	go s.pump()
	return s
}

func (h *hub) remove(s *Subscription) {
	h.mu.Lock()
	delete(h.subs, s)
	h.mu.Unlock()
}

func (h *hub) publish(id ID, kind EventKind, last Info) {
	h.mu.RLock()
	defer h.mu.RUnlock()
	for s := range h.subs {
		s.note(id, kind, last)
	}
}

// hurry ends every subscription's wait for the next frame: the changes
// noted so far go out at once.
func (h *hub) hurry() {
	h.mu.RLock()
	defer h.mu.RUnlock()
	for s := range h.subs {
		s.hurries.Add(1)
		select {
		case s.urgent <- struct{}{}:
		default:
		}
	}
}

func (h *hub) closeAll() {
	h.mu.RLock()
	subs := make([]*Subscription, 0, len(h.subs))
	for s := range h.subs {
		subs = append(subs, s)
	}
	h.mu.RUnlock()
	// All at once, then wait: each may wait finalFlushWait for its
	// subscriber, and the shutdown waits that once, not once a client.
	for _, s := range subs {
		s.final.Store(true)
		s.stop()
	}
	for _, s := range subs {
		<-s.stopped
	}
}
