package control

import (
	"net/http"

	"jobtop/jobs"
)

// handleEvents streams NDJSON: first {"jobs": [...], "max_running": N}
// with every job ("jobs": [] when there is none) and the limit on jobs
// running at once, then one {"events": [...]} line per coalesced batch,
// and a {"events": [], "max_running": N} line when the limit changes (a
// client that knows only jobs and events reads a batch of no events),
// until the client leaves
// or the server closes; an instance whose manager shut down (its jobs
// stopped) says so on a last line ({"shutdown": true}). The subscription
// (and the wait for the limit to change) is made before the snapshot, so
// no change is missed (some may be told twice).
func (s *Server) handleEvents(w http.ResponseWriter, r *http.Request) {
	release, err := s.openStream()
	if err != nil {
		writeError(w, err)
		return
	}
	defer release()
	sub := s.mgr.Subscribe()
	defer sub.Close()
	ctx, cancel := s.requestContext(r, 0)
	defer cancel()
	send := ndjsonWriter[any](w)
	limitChanged := s.mgr.MaxRunningChanged()
	limit := s.mgr.MaxRunning()
	jobsNow := s.mgr.List()
	if jobsNow == nil {
		jobsNow = []jobs.Info{}
	}
	if !send(snapshotLine{Jobs: jobsNow, MaxRunning: &limit}) {
		return
	}
	for {
		select {
		case <-limitChanged:
			limitChanged = s.mgr.MaxRunningChanged()
			if n := s.mgr.MaxRunning(); n != limit {
				limit = n
				if !send(limitLine{Events: []Event{}, MaxRunning: &n}) {
					return
				}
			}
		case batch, ok := <-sub.C():
			if !ok { // the manager shut down: its jobs were stopped
				send(EventBatch{Shutdown: true, Reason: s.shutdownReason()})
				return
			}
			if !send(EventBatch{Events: wireEvents(batch)}) {
				return
			}
		case <-ctx.Done(): // the client left, or the server closes
			// An instance's manager shuts down before its server closes:
			// when both are ready, what the subscription still holds,
			// and its end, come first. A server that closed alone said
			// nothing: a client may find it again.
			for {
				select {
				case batch, ok := <-sub.C():
					if !ok {
						send(EventBatch{Shutdown: true, Reason: s.shutdownReason()})
						return
					}
					if !send(EventBatch{Events: wireEvents(batch)}) {
						return
					}
				default:
					return
				}
			}
		}
	}
}

// snapshotLine and limitLine are the stream's first line and a line that
// says the limit changed, as EventBatch reads them back: EventBatch omits
// an empty "jobs" or "events", these always give it, so the shapes
// README.md documents hold (a first line has "jobs", a later one "events").
type snapshotLine struct {
	Jobs       []jobs.Info `json:"jobs"`
	MaxRunning *int        `json:"max_running"`
}

type limitLine struct {
	Events     []Event `json:"events"`
	MaxRunning *int    `json:"max_running"`
}

func wireEvents(batch []jobs.Event) []Event {
	out := make([]Event, len(batch))
	for i, ev := range batch {
		out[i] = Event{Kind: ev.Kind.String(), Job: ev.Job}
	}
	return out
}

// eventKind reads a wire event kind back; 0 for an unknown one.
func eventKind(name string) jobs.EventKind {
	for _, k := range []jobs.EventKind{jobs.EventAdded, jobs.EventState, jobs.EventOutput, jobs.EventRemoved} {
		if k.String() == name {
			return k
		}
	}
	return 0
}
