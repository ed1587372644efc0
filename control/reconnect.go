package control

import (
	"context"
	"errors"
	"fmt"
	"time"

	"jobtop/jobs"
)

// ReconnectDelay is how long a mirror that lost its instance waits before
// each attempt to connect again.
const ReconnectDelay = 2 * time.Second

// reconnectTimeout bounds one attempt: connecting (ssh included) and
// reading the instance and the events snapshot.
const reconnectTimeout = 30 * time.Second

// ConnState is how an attached client's connection is.
type ConnState struct {
	// Connected: the events stream is open.
	Connected bool
	// RetryAt is when the next attempt to connect is due, while not
	// connected; zero while an attempt is under way.
	RetryAt time.Time
	// Err is why the connection was lost, or why the last attempt failed.
	Err error
	// Replaced counts the reconnections that found another instance
	// than the one before (another PID or start: the old one ended, and
	// its jobs with it; over ssh, dial-stdio may have started the new
	// one). Instance is the one connected to last.
	Replaced int
	Instance Instance
}

// Connection says how the attached mirror's connection is (see
// SetReconnect). Before Attach, it is not connected.
func (c *Client) Connection() ConnState {
	m := c.mirror.Load()
	if m == nil {
		return ConnState{}
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.conn
}

// ConnectionChanged receives a value after the connection's state
// changed (one value may stand for several changes); nil before Attach.
func (c *Client) ConnectionChanged() <-chan struct{} {
	if m := c.mirror.Load(); m != nil {
		return m.connChanged
	}
	return nil
}

func (m *mirror) setConn(s ConnState) {
	m.mu.Lock()
	s.Replaced, s.Instance = m.replaced, m.inst
	m.conn = s
	m.mu.Unlock()
	select {
	case m.connChanged <- struct{}{}:
	default:
	}
}

// reconnect waits ReconnectDelay and connects again, over and over until
// it succeeds (then it brings the mirror up to the instance and returns
// the new reader's end) or ctx ends (then nil). With SetReconnectSame it
// starts no far instance, and gives up (nil) once none or another one
// answers: the instance attached to is gone.
func (m *mirror) reconnect(ctx context.Context, lost error) <-chan error {
	m.streamStop()
	for {
		m.setConn(ConnState{RetryAt: time.Now().Add(ReconnectDelay), Err: lost})
		select {
		case <-time.After(ReconnectDelay):
		case <-ctx.Done():
			return nil
		}
		m.setConn(ConnState{Err: lost}) // an attempt is under way
		connectCtx := startsFarInstance(ctx)
		if m.client.sameOnly {
			connectCtx = ctx
		}
		inst, events, stop, err := m.connect(connectCtx)
		if m.client.sameOnly && errors.As(err, new(*NotRunningError)) {
			return nil
		}
		if err != nil {
			lost = err
			continue
		}
		if m.client.sameOnly && !m.same(inst) {
			events.Close()
			stop()
			return nil
		}
		return m.follow(ctx, inst, events, stop)
	}
}

// same reports whether inst is the instance the mirror is attached to.
func (m *mirror) same(inst Instance) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return inst.PID == m.inst.PID && inst.Started.Equal(m.inst.Started)
}

// resume connects again at once, for a client without SetReconnect whose
// events stream ended while its instance may still be there: an instance
// ends the stream of a reader that took nothing for StreamWriteTimeout
// (an attached TUI stopped by ctrl+z or SIGSTOP for a while), and that
// TUI is not to say the instance went away. Only the same instance is
// resumed, at most once every ReconnectDelay; nil when it is gone or
// another one serves the socket (its jobs are not the mirror's).
func (m *mirror) resume(ctx context.Context) <-chan error {
	m.streamStop()
	if wait := time.Until(m.resumed.Add(ReconnectDelay)); wait > 0 {
		select {
		case <-time.After(wait):
		case <-ctx.Done():
			return nil
		}
	}
	m.resumed = time.Now()
	inst, events, stop, err := m.connect(ctx)
	if err != nil {
		return nil
	}
	if !m.same(inst) {
		events.Close()
		stop()
		return nil
	}
	return m.follow(ctx, inst, events, stop)
}

// follow brings the mirror up to a new events stream's snapshot and reads
// the stream on; its end is sent on the channel returned.
func (m *mirror) follow(ctx context.Context, inst Instance, events *EventReader, stop context.CancelFunc) <-chan error {
	m.streamStop = stop
	m.resync(ctx, inst, events.Snapshot)
	m.setLimit(events.MaxRunning)
	m.setConn(ConnState{Connected: true})
	readerDone := make(chan error, 1)
	go func() { readerDone <- m.read(events) }()
	return readerDone
}

// connect asks who serves the socket now and opens the events stream,
// within reconnectTimeout; stop ends the stream. Over ssh, it starts a
// far instance when none runs only if ctx says so (startsFarInstance):
// resume finds the same instance or none.
func (m *mirror) connect(ctx context.Context) (Instance, *EventReader, context.CancelFunc, error) {
	streamCtx, stop := context.WithCancel(ctx)
	timer := time.AfterFunc(reconnectTimeout, stop)
	inst, err := m.client.Instance(streamCtx)
	var events *EventReader
	if err == nil {
		events, err = m.client.Events(streamCtx)
	}
	if !timer.Stop() && err == nil {
		events.Close()
		err = fmt.Errorf("no answer within %v", reconnectTimeout)
	}
	if err != nil {
		stop()
		return Instance{}, nil, nil, err
	}
	return inst, events, stop, nil
}

// resync brings the mirror up to a snapshot taken after a reconnection:
// jobs gone meanwhile are removed, the others updated (their output is
// fetched from where the mirror stopped). A different instance (another
// PID or start) has other jobs under the same IDs: every job held is
// removed first.
func (m *mirror) resync(ctx context.Context, inst Instance, snapshot []jobs.Info) {
	m.mu.Lock()
	same := inst.PID == m.inst.PID && inst.Started.Equal(m.inst.Started)
	if !same {
		m.replaced++
	}
	m.inst = inst
	inSnapshot := make(map[jobs.ID]bool, len(snapshot))
	for _, info := range snapshot {
		inSnapshot[info.ID] = true
	}
	var batch []Event
	held := make(map[jobs.ID]bool, len(m.order))
	for _, id := range m.order {
		if !same || !inSnapshot[id] {
			batch = append(batch, Event{Kind: jobs.EventRemoved.String(), Job: m.infos[id]})
			continue
		}
		held[id] = true
	}
	m.mu.Unlock()
	for _, info := range snapshot {
		kind := jobs.EventAdded
		if held[info.ID] {
			kind = jobs.EventState
		}
		batch = append(batch, Event{Kind: kind.String(), Job: info})
	}
	m.apply(ctx, batch)
}
