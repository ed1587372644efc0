package control

import (
	"sync"

	"jobtop/jobs"
)

// remoteStream is a jobs.EventStream fed by a Client's mirror. Like a
// jobs.Subscription it coalesces: a subscriber that reads slowly gets
// fewer, larger batches, holding at most one pending event per job and
// kind, and never blocks the mirror.
type remoteStream struct {
	out     chan []jobs.Event
	wake    chan struct{}
	done    chan struct{}
	stopped chan struct{}
	once    sync.Once
	detach  func(*remoteStream)

	mu      sync.Mutex
	pending []jobs.Event
	index   map[eventKey]int
	ended   bool // the source is gone: deliver what is pending, then close
	kicked  bool // deliver a batch even if it is empty (see kick)
}

type eventKey struct {
	id   jobs.ID
	kind jobs.EventKind
}

func newRemoteStream(detach func(*remoteStream)) *remoteStream {
	s := &remoteStream{
		out:     make(chan []jobs.Event),
		wake:    make(chan struct{}, 1),
		done:    make(chan struct{}),
		stopped: make(chan struct{}),
		detach:  detach,
		index:   make(map[eventKey]int),
	}
	go s.pump()
	return s
}

// C is the channel of event batches; closed when the stream ends.
func (s *remoteStream) C() <-chan []jobs.Event { return s.out }

// Close ends the stream; safe to call more than once.
func (s *remoteStream) Close() {
	s.once.Do(func() {
		if s.detach != nil {
			s.detach(s)
		}
		close(s.done)
	})
	<-s.stopped
}

// note queues events, replacing an older pending one of the same job and
// kind with the newer snapshot.
func (s *remoteStream) note(events []jobs.Event) {
	s.mu.Lock()
	for _, ev := range events {
		k := eventKey{ev.Job.ID, ev.Kind}
		if i, ok := s.index[k]; ok {
			s.pending[i] = ev
			continue
		}
		s.index[k] = len(s.pending)
		s.pending = append(s.pending, ev)
	}
	s.mu.Unlock()
	s.poke()
}

// kick makes the stream deliver a batch soon even with no event in it:
// the subscriber looks again at what is not an event (a host's
// connection).
func (s *remoteStream) kick() {
	s.mu.Lock()
	s.kicked = true
	s.mu.Unlock()
	s.poke()
}

// end tells the stream its source is gone.
func (s *remoteStream) end() {
	s.mu.Lock()
	s.ended = true
	s.mu.Unlock()
	s.poke()
}

func (s *remoteStream) poke() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

func (s *remoteStream) pump() {
	defer close(s.stopped)
	defer close(s.out)
	for {
		select {
		case <-s.wake:
		case <-s.done:
			return
		}
		s.mu.Lock()
		batch, ended, kicked := s.pending, s.ended, s.kicked
		s.pending, s.kicked = nil, false
		clear(s.index)
		s.mu.Unlock()
		if kicked && batch == nil {
			batch = []jobs.Event{}
		}
		if len(batch) > 0 || kicked {
			select {
			case s.out <- batch:
			case <-s.done:
				return
			}
		}
		if ended {
			return
		}
	}
}
