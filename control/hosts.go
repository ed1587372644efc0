package control

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"jobtop/jobs"
)

// LocalHostName is the name a Hosts engine gives this machine's instance.
const LocalHostName = "local"

// Hosts is one engine over the instances of several hosts, for a TUI that
// shows them all (jobtop attach --host a --host b --local): every job
// carries its host (jobs.Info.Host, and HostID, its ID there), and every
// action goes to the job's own host. Each host's client reconnects on
// its own when its connection breaks (its jobs stay, as last seen, and
// come back up to date), so the engine never ends by itself.
//
// Jobs get IDs of the engine's own, in the order they are first seen, so
// that two hosts' job 3 are two rows; a job keeps its ID across
// reconnections of its host.
type Hosts struct {
	hosts []*hostEntry

	mu    sync.Mutex
	next  jobs.ID
	byID  map[jobs.ID]hostJob
	subs  map[*remoteStream]struct{}
	close chan struct{}
	wg    sync.WaitGroup
	once  sync.Once
}

// hostEntry is one host of a Hosts engine.
type hostEntry struct {
	name   string
	client *Client
	ids    map[jobs.ID]jobs.ID // the host's job ID -> the engine's; under Hosts.mu
}

// hostJob is where an engine job ID points.
type hostJob struct {
	host *hostEntry
	id   jobs.ID
}

// HostStatus is how one host's connection is, for the status bar, and
// its instance's limit on jobs running at once (0: none), as its events
// stream last said it.
type HostStatus struct {
	Name string
	ConnState
	MaxRunning int
}

// AttachHosts attaches a client per host (names[i] names clients[i];
// they must differ), one after another, so that ssh may ask a person for
// a passphrase on the terminal, each in turn, and returns the engine
// over them. If one cannot attach, the ones attached are closed and the
// error names the host.
func AttachHosts(ctx context.Context, names []string, clients []*Client) (*Hosts, error) {
	h := &Hosts{byID: make(map[jobs.ID]hostJob), subs: make(map[*remoteStream]struct{}), close: make(chan struct{})}
	for i, c := range clients {
		if slices.Contains(names[:i], names[i]) {
			h.closeClients()
			return nil, fmt.Errorf("host %s is given twice", names[i])
		}
		c.SetReconnect(true)
		h.hosts = append(h.hosts, &hostEntry{name: names[i], client: c, ids: make(map[jobs.ID]jobs.ID)})
		if err := c.Attach(ctx); err != nil {
			h.closeClients()
			if names[i] == LocalHostName || strings.Contains(err.Error(), names[i]) {
				return nil, err
			}
			return nil, fmt.Errorf("host %s: %w", names[i], err)
		}
		// The jobs there now get their IDs at once, in the host's order:
		// a job started through the engine before anything listed them
		// (jobtop --host H 'cmd') would take an ID before them, and come
		// first in the TUI's table.
		h.mu.Lock()
		for _, info := range c.List() {
			h.translate(h.hosts[i], info)
		}
		h.mu.Unlock()
	}
	for _, e := range h.hosts {
		stream := e.client.Subscribe()
		h.wg.Add(1)
		// The limit's channel of now: a change before the relay runs
		// wakes it too.
		go h.relay(e, stream, e.client.MaxRunningChanged())
	}
	return h, nil
}

func (h *Hosts) closeClients() {
	for _, e := range h.hosts {
		e.client.Close()
	}
}

// Close ends every host's client and the engine's streams. Jobs keep
// running on their hosts.
func (h *Hosts) Close() error {
	h.once.Do(func() {
		close(h.close)
		h.closeClients()
		h.wg.Wait()
		h.mu.Lock()
		for s := range h.subs {
			s.end()
		}
		h.mu.Unlock()
	})
	return nil
}

// MemoryUse adds up what every host's mirror holds (Client.MemoryUse).
func (h *Hosts) MemoryUse() jobs.MemoryUse {
	var u jobs.MemoryUse
	for _, e := range h.hosts {
		hu := e.client.MemoryUse()
		u.Text += hu.Text
		u.Memory += hu.Memory
		u.Running += hu.Running
	}
	return u
}

// Status says how each host's connection is, in the order given.
func (h *Hosts) Status() []HostStatus {
	out := make([]HostStatus, len(h.hosts))
	for i, e := range h.hosts {
		out[i] = HostStatus{Name: e.name, ConnState: e.client.Connection(), MaxRunning: e.client.MaxRunning()}
	}
	return out
}

// relay passes a host's events on to the engine's subscribers, with the
// engine's IDs, and wakes them when the host's connection or its limit
// on jobs running at once changes, and each second while it is down (the
// status bar counts down to the next attempt).
func (h *Hosts) relay(e *hostEntry, stream jobs.EventStream, limit <-chan struct{}) {
	defer h.wg.Done()
	defer stream.Close()
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	for {
		select {
		case batch, ok := <-stream.C():
			if !ok {
				return
			}
			h.publish(h.translateEvents(e, batch))
		case <-e.client.ConnectionChanged():
			h.publish(nil)
		case <-limit:
			limit = e.client.MaxRunningChanged()
			h.publish(nil)
		case <-tick.C:
			if !e.client.Connection().Connected {
				h.publish(nil)
			}
		case <-h.close:
			return
		}
	}
}

// publish hands events to every subscriber; none (nil) only wakes them.
func (h *Hosts) publish(events []jobs.Event) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for s := range h.subs {
		s.note(events)
		if len(events) == 0 {
			s.kick()
		}
	}
}

// translateEvents gives a host's events the engine's IDs; a removed job's
// ID is forgotten after its event.
func (h *Hosts) translateEvents(e *hostEntry, batch []jobs.Event) []jobs.Event {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := make([]jobs.Event, 0, len(batch))
	for _, ev := range batch {
		ev.Job = h.translate(e, ev.Job)
		if ev.Kind == jobs.EventRemoved {
			delete(h.byID, ev.Job.ID)
			delete(e.ids, ev.Job.HostID)
		}
		out = append(out, ev)
	}
	return out
}

// translate gives a host's job the engine's ID (a new one the first time
// it is seen) and its host. Call with h.mu held.
func (h *Hosts) translate(e *hostEntry, info jobs.Info) jobs.Info {
	id, ok := e.ids[info.ID]
	if !ok {
		h.next++
		id = h.next
		e.ids[info.ID] = id
		h.byID[id] = hostJob{host: e, id: info.ID}
	}
	info.Host, info.HostID, info.ID = e.name, info.ID, id
	return info
}

// job finds where an engine ID points.
func (h *Hosts) job(id jobs.ID) (hostJob, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	j, ok := h.byID[id]
	if !ok {
		return hostJob{}, &jobs.NotFoundError{ID: id}
	}
	return j, nil
}

// List returns every host's jobs, by the engine's IDs.
func (h *Hosts) List() []jobs.Info {
	var out []jobs.Info
	for _, e := range h.hosts {
		list := e.client.List()
		h.mu.Lock()
		for _, info := range list {
			out = append(out, h.translate(e, info))
		}
		h.mu.Unlock()
	}
	slices.SortFunc(out, func(a, b jobs.Info) int { return int(a.ID - b.ID) })
	return out
}

// Get returns one job, from its host's mirror.
func (h *Hosts) Get(id jobs.ID) (jobs.Info, error) {
	j, err := h.job(id)
	if err != nil {
		return jobs.Info{}, err
	}
	info, err := j.host.client.Get(j.id)
	if err != nil {
		return jobs.Info{}, err
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.translate(j.host, info), nil
}

// Output returns a job's mirrored output.
func (h *Hosts) Output(id jobs.ID) (jobs.OutputReader, error) {
	j, err := h.job(id)
	if err != nil {
		return nil, err
	}
	return j.host.client.Output(j.id)
}

// Start starts a job on the first host given.
func (h *Hosts) Start(spec jobs.Spec) (jobs.Info, error) {
	e := h.hosts[0]
	info, err := e.client.Start(spec)
	if err != nil {
		return jobs.Info{}, err
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.translate(e, info), nil
}

// Stop stops a job on its host.
func (h *Hosts) Stop(id jobs.ID) error {
	return h.act(id, func(c *Client, id jobs.ID) error { return c.Stop(id) })
}

// Kill kills a job on its host.
func (h *Hosts) Kill(id jobs.ID) error {
	return h.act(id, func(c *Client, id jobs.ID) error { return c.Kill(id) })
}

// StopJobs stops several jobs, as one action on each host.
func (h *Hosts) StopJobs(ids []jobs.ID) (errs []error) { return h.endJobs(ids, (*Client).StopJobs) }

// KillJobs kills several jobs, as one action on each host.
func (h *Hosts) KillJobs(ids []jobs.ID) (errs []error) { return h.endJobs(ids, (*Client).KillJobs) }

// endJobs ends several jobs with one call on each host that has some.
func (h *Hosts) endJobs(ids []jobs.ID, end func(*Client, []jobs.ID) []error) (errs []error) {
	errs = make([]error, len(ids))
	type batch struct {
		job hostJob   // one of them, for hostActionError
		at  []int     // their places in ids
		ids []jobs.ID // their IDs on the host
	}
	var batches []*batch
	byHost := make(map[*hostEntry]*batch)
	for i, id := range ids {
		j, err := h.job(id)
		if err != nil {
			errs[i] = err
			continue
		}
		b := byHost[j.host]
		if b == nil {
			b = &batch{job: j}
			byHost[j.host] = b
			batches = append(batches, b)
		}
		b.at, b.ids = append(b.at, i), append(b.ids, j.id)
	}
	for _, b := range batches {
		for k, err := range end(b.job.host.client, b.ids) {
			errs[b.at[k]] = hostActionError(b.job, err)
		}
	}
	return errs
}

// Remove removes a finished job from its host.
func (h *Hosts) Remove(id jobs.ID) error {
	return h.act(id, func(c *Client, id jobs.ID) error { return c.Remove(id) })
}

// Restart starts a new run of a job on its host.
func (h *Hosts) Restart(id jobs.ID) (jobs.Info, error) {
	j, err := h.job(id)
	if err != nil {
		return jobs.Info{}, err
	}
	info, err := j.host.client.Restart(j.id)
	if err != nil {
		return jobs.Info{}, hostActionError(j, err)
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.translate(j.host, info), nil
}

func (h *Hosts) act(id jobs.ID, do func(*Client, jobs.ID) error) error {
	j, err := h.job(id)
	if err != nil {
		return err
	}
	return hostActionError(j, do(j.host.client, j.id))
}

// hostActionError names the host in an action's error when the host was
// not reachable.
func hostActionError(j hostJob, err error) error {
	if err != nil && !j.host.client.Connection().Connected {
		return fmt.Errorf("%s is disconnected: %w", j.host.name, err)
	}
	return err
}

// MaxRunning is the limit on jobs running at once of the instance, when
// the engine holds one host (ui.RunLimiter: the status bar shows it as
// for any attached instance); 0 with several, whose limits are each
// their own host's.
func (h *Hosts) MaxRunning() int {
	if len(h.hosts) != 1 {
		return 0
	}
	return h.hosts[0].client.MaxRunning()
}

// MaxRunningChanged is closed when the one host's limit next changes
// (jobtop parallel, a reload there); nil with several hosts.
func (h *Hosts) MaxRunningChanged() <-chan struct{} {
	if len(h.hosts) != 1 {
		return nil
	}
	return h.hosts[0].client.MaxRunningChanged()
}

// Reload re-reads the job file of the first host's instance (a TUI offers
// it with one host only; see Client.Reload).
func (h *Hosts) Reload() (string, error) { return h.hosts[0].client.Reload() }

// JobFiles are the first host's job file's files (see Client.JobFiles).
func (h *Hosts) JobFiles() []string { return h.hosts[0].client.JobFiles() }

// Subscribe returns a stream of every host's events, with the engine's
// IDs; an empty batch says a host's connection changed.
func (h *Hosts) Subscribe() jobs.EventStream {
	s := newRemoteStream(func(s *remoteStream) {
		h.mu.Lock()
		delete(h.subs, s)
		h.mu.Unlock()
	})
	h.mu.Lock()
	defer h.mu.Unlock()
	select {
	case <-h.close:
		s.end()
	default:
		h.subs[s] = struct{}{}
	}
	return s
}
