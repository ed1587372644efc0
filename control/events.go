package control

import (
	"net/http"

	"jobtop/jobs"
)

// handleEvents streams NDJSON: first {"jobs": [...]} with every job, then
// one {"events": [...]} line per coalesced batch, until the client leaves
// or the server closes; an instance whose manager shut down (its jobs
// stopped) says so on a last line ({"shutdown": true}). The subscription is made before the snapshot, so
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
	send := ndjsonWriter[EventBatch](w)
	jobsNow := s.mgr.List()
	if !send(EventBatch{Jobs: jobsNow}) {
		return
	}
	for {
		select {
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
