package keeper

import (
	"net"
	"sync"
)

// outbox holds the keeper's messages to jobtop until its writer has sent
// them, in order. A jobtop that is stopped (SIGSTOP, ^Z) reads nothing,
// and once the socket's buffer is full a send waits until it reads
// again: the keeper's loop must not wait with it (it reaps, and stops
// runs). A heartbeat is put in only when nothing waits to be sent nor is
// being sent: one that could not go at once would say nothing the
// messages before it will not say when they arrive. Nothing else is
// ever dropped.
type outbox struct {
	conn    *net.UnixConn
	mu      sync.Mutex
	queue   []event
	sending bool          // the writer is sending what it took
	wake    chan struct{} // capacity 1
}

func newOutbox(conn *net.UnixConn) *outbox {
	o := &outbox{conn: conn, wake: make(chan struct{}, 1)}
	go o.write(conn)
	return o
}

// put sends ev to jobtop: at once, on the caller's goroutine, when
// nothing waits nor is being sent and the socket takes it without
// waiting; else it queues it for the writer. Sent at once, an answer
// (a run's start, which jobtop waits for) costs no handoff to the writer
// and no wake-up of a thread to run it. Only the keeper's loop calls put
// and beat, so nothing is queued while it sends.
func (o *outbox) put(ev event) {
	o.mu.Lock()
	idle := !o.sending && len(o.queue) == 0
	o.mu.Unlock()
	if idle && sendNow(o.conn, ev) {
		return
	}
	o.mu.Lock()
	o.queue = append(o.queue, ev)
	o.mu.Unlock()
	o.poke()
}

// beat queues a heartbeat, unless the writer is busy or has messages
// waiting.
func (o *outbox) beat() {
	o.mu.Lock()
	idle := !o.sending && len(o.queue) == 0
	if idle {
		o.queue = append(o.queue, event{Ev: evAlive})
	}
	o.mu.Unlock()
	if idle {
		o.poke()
	}
}

func (o *outbox) poke() {
	select {
	case o.wake <- struct{}{}:
	default:
	}
}

// write sends what is queued, for as long as the keeper lives; a send to
// a jobtop that is gone fails, and the lifeline's end says so.
func (o *outbox) write(conn *net.UnixConn) {
	for range o.wake {
		for {
			o.mu.Lock()
			batch := o.queue
			o.queue = nil
			o.sending = len(batch) > 0
			o.mu.Unlock()
			if len(batch) == 0 {
				break
			}
			for _, ev := range batch {
				send(conn, ev) //nolint:errcheck // jobtop gone: the lifeline says so
			}
		}
	}
}
