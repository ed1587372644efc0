package control

import (
	"context"
	"errors"
	"net/http"

	"jobtop/jobs"
)

// handleBulk answers POST /v1/jobs/{verb}: it acts on every job the
// request picks, and with wait=true answers once each action has taken
// effect (stopped and killed jobs have ended, restarted ones have a new
// run). A job named in the request that the action does not apply to is
// listed in Failed; one picked by a selector is listed in Skipped.
func (s *Server) handleBulk(verb string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		r.Body = http.MaxBytesReader(w, r.Body, MaxBodyBytes)
		req, err := decodeBulkRequest(r.Body)
		if err != nil {
			writeError(w, err)
			return
		}
		wait, err := boolParam(r, "wait")
		if err != nil {
			writeError(w, err)
			return
		}
		picked, named, err := req.pick(s.mgr.List())
		if err != nil {
			writeError(w, err)
			return
		}
		ctx, cancel := s.requestContext(r, 0)
		defer cancel()
		var sub jobs.EventStream
		if wait && verb == BulkRestart {
			// Before the first restart, so no new run is missed.
			sub = s.mgr.Subscribe()
			defer sub.Close()
		}
		resp := BulkResponse{Jobs: []jobs.Info{}, Skipped: []BulkRefusal{}, Failed: []BulkRefusal{}}
		var acted []jobs.Info
		for _, j := range picked {
			last, err := s.bulkAct(verb, j.ID)
			var invalid *jobs.InvalidActionError
			var notFound *jobs.NotFoundError
			switch {
			case err == nil:
				if verb == BulkRemove {
					resp.Jobs = append(resp.Jobs, last)
				}
				acted = append(acted, j)
			case errors.As(err, &invalid), errors.As(err, &notFound):
				refusal := BulkRefusal{ID: j.ID, Name: j.Name, State: last.State, Error: err.Error()}
				if named {
					resp.Failed = append(resp.Failed, refusal)
				} else {
					resp.Skipped = append(resp.Skipped, refusal)
				}
			default:
				writeError(w, err)
				return
			}
		}
		if verb != BulkRemove {
			if resp.Jobs, err = s.bulkOutcome(ctx, verb, acted, wait, sub); err != nil {
				writeError(w, err)
				return
			}
		}
		writeJSON(w, http.StatusOK, resp)
	}
}

// bulkAct does one job's action; last is the job as it was just before.
func (s *Server) bulkAct(verb string, id jobs.ID) (last jobs.Info, err error) {
	if last, err = s.mgr.Get(id); err != nil {
		return last, err
	}
	switch verb {
	case BulkStop:
		err = s.mgr.Stop(id)
	case BulkKill:
		err = s.mgr.Kill(id)
	case BulkRestart:
		_, err = s.mgr.Restart(id)
	case BulkRemove:
		err = s.mgr.Remove(id)
	}
	return last, err
}

// bulkOutcome is the jobs acted on as they are now or, with wait, once
// the action has taken effect on each. A job removed meanwhile is left
// out.
func (s *Server) bulkOutcome(ctx context.Context, verb string, acted []jobs.Info, wait bool, sub jobs.EventStream) ([]jobs.Info, error) {
	if wait && verb == BulkRestart {
		if err := waitRestarted(ctx, s.mgr, sub, acted); err != nil {
			return nil, err
		}
	}
	out := make([]jobs.Info, 0, len(acted))
	for _, j := range acted {
		var info jobs.Info
		var err error
		if wait && verb != BulkRestart {
			info, err = s.mgr.Wait(ctx, j.ID)
		} else {
			info, err = s.mgr.Get(j.ID)
		}
		var notFound *jobs.NotFoundError
		switch {
		case errors.As(err, &notFound):
			continue
		case err != nil:
			return nil, err
		}
		out = append(out, info)
	}
	return out, nil
}

// waitRestarted returns once each job has started a new run since its
// snapshot in before (or is queued for one, or was removed).
func waitRestarted(ctx context.Context, m manager, sub jobs.EventStream, before []jobs.Info) error {
	pending := make(map[jobs.ID]int, len(before))
	for _, j := range before {
		pending[j.ID] = j.Runs
	}
	for {
		for id, runs := range pending {
			info, err := m.Get(id)
			if err != nil || info.Runs > runs || info.State == jobs.StateQueued {
				delete(pending, id)
			}
		}
		if len(pending) == 0 {
			return nil
		}
		select {
		case _, ok := <-sub.C():
			if !ok {
				return errStreamClosed
			}
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}
