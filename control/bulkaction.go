package control

import (
	"context"
	"errors"
	"net/http"
	"slices"

	"jobtop/jobs"
)

// handleBulk answers POST /v1/jobs/{verb}: it acts on every job the
// request picks, and with wait=true answers once each action has taken
// effect (stopped and killed jobs have ended, restarted ones have a new
// run; a signal is sent, and answered at once). A job named in the
// request that the action does not apply to, or that does not exist, is
// listed in Failed (the others are acted on all the same); one picked by
// a selector is listed in Skipped.
func (s *Server) handleBulk(verb string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if verb == BulkRestart && s.shuttingDown() {
			writeError(w, errShuttingDown)
			return
		}
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
		sig, err := signalParam(r)
		switch {
		case err != nil:
		case verb == BulkStop:
			sig, err = stopSignalParam(r, "POST /v1/jobs/signal")
		case verb == BulkSignal:
			sig, err = requiredSignalParam(r)
			wait = false // a signal is sent, and that is all
		case sig != 0:
			err = badRequest("signal: only a stop or a signal takes a signal, not a %s", verb)
		}
		if err != nil {
			writeError(w, err)
			return
		}
		picked, named, missing, err := req.pickNamed(s.mgr.List(), fileJobs(s.currentReloader())...)
		if err != nil {
			writeError(w, err)
			return
		}
		ctx, cancel := s.requestContext(r, 0)
		defer cancel()
		var events *bulkEvents
		if verb != BulkRemove {
			// Before the first action, so no new run and no removal of a
			// job acted on is missed.
			sub := s.mgr.Subscribe()
			defer sub.Close()
			events = &bulkEvents{sub: sub, removed: make(map[jobs.ID]jobs.Info)}
		}
		resp := BulkResponse{Jobs: []jobs.Info{}, Skipped: []BulkRefusal{}, Failed: []BulkRefusal{}, Removed: []jobs.ID{}}
		for _, m := range missing {
			resp.Failed = append(resp.Failed, s.missingRefusal(m))
		}
		var acted []jobs.Info
		lasts, errs := s.bulkAct(verb, picked, sig)
		if verb == BulkRemove && !named && req.Name == "" && (req.All || req.State == "ended") {
			// Every ended job cleaned away: the cap's failed ones too
			// (a wait for every job counted them for ever, rev54).
			s.mgr.ForgetDroppedEnds()
		}
		for i, j := range picked {
			last, err := lasts[i], errs[i]
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
			if resp.Jobs, resp.Removed, err = s.bulkOutcome(ctx, verb, acted, wait, events); err != nil {
				writeError(w, err)
				return
			}
		}
		writeJSON(w, http.StatusOK, resp)
	}
}

// missingRefusal is a job named that does not exist, as Failed lists
// it: its ID (or, named by name, the name given) and the error a request
// for that job alone gets, in the manager's words (an ID an earlier
// instance gave says so).
func (s *Server) missingRefusal(m missingJob) BulkRefusal {
	r := BulkRefusal{Error: m.err.Error()}
	var notFound *jobs.NotFoundError
	if !errors.As(m.err, &notFound) {
		r.Name = string(m.ref)
		return r
	}
	r.ID = notFound.ID
	if _, err := s.mgr.Get(notFound.ID); errors.As(err, &notFound) {
		r.Error = err.Error()
	}
	return r
}

// bulkAct does the action on each picked job; last[i] is picked[i] as it
// was just before. Stops and kills are one action of the manager's
// (StopJobs, KillJobs): no job is started because another ended, only to
// be stopped by the same request. sig, when not 0, is a stop's signal
// in place of each job's own, or the signal a BulkSignal sends.
func (s *Server) bulkAct(verb string, picked []jobs.Info, sig jobs.Signal) (last []jobs.Info, errs []error) {
	last, errs = make([]jobs.Info, len(picked)), make([]error, len(picked))
	var ending []jobs.ID
	var at []int // ending[k] is picked[at[k]]
	for i, j := range picked {
		if last[i], errs[i] = s.mgr.Get(j.ID); errs[i] != nil {
			continue
		}
		switch verb {
		case BulkStop, BulkKill, BulkSignal:
			ending, at = append(ending, j.ID), append(at, i)
		case BulkRestart:
			_, errs[i] = s.mgr.Restart(j.ID)
		case BulkRemove:
			errs[i] = s.mgr.Remove(j.ID)
		}
	}
	var ended []error
	switch verb {
	case BulkStop:
		ended = s.mgr.StopJobsWith(ending, sig)
	case BulkKill:
		ended = s.mgr.KillJobs(ending)
	case BulkSignal:
		ended = s.mgr.SignalJobs(ending, sig)
	}
	for k, err := range ended {
		errs[at[k]] = err
	}
	return last, errs
}

// bulkOutcome is the jobs acted on as they are now or, with wait, once
// the action has taken effect on each. A job removed meanwhile (by the
// cap on finished jobs, once a stop ended it) is there as it was last;
// removed are those gone by the answer.
func (s *Server) bulkOutcome(ctx context.Context, verb string, acted []jobs.Info, wait bool, events *bulkEvents) (out []jobs.Info, removed []jobs.ID, err error) {
	if wait && verb == BulkRestart {
		if err := waitRestarted(ctx, s.mgr, events, acted); err != nil {
			return nil, nil, err
		}
	}
	out, removed = make([]jobs.Info, 0, len(acted)), []jobs.ID{}
	for _, j := range acted {
		var info jobs.Info
		var err error
		if wait && verb != BulkRestart {
			info, err = events.until(ctx, s.mgr, j.ID, endedSince(j))
		} else {
			info, err = s.mgr.Get(j.ID)
		}
		var notFound *jobs.NotFoundError
		switch {
		case errors.As(err, &notFound):
			last, ok := events.last(ctx, j.ID)
			if !ok {
				continue // jobtop is shutting down
			}
			info = last
			removed = append(removed, j.ID)
		case err != nil:
			return nil, nil, err
		}
		out = append(out, info)
	}
	// Those a later one's end pushed past the cap on finished jobs.
	for _, j := range out {
		var notFound *jobs.NotFoundError
		if _, err := s.mgr.Get(j.ID); errors.As(err, &notFound) && !slices.Contains(removed, j.ID) {
			removed = append(removed, j.ID)
		}
	}
	slices.Sort(removed)
	return out, removed, nil
}

// bulkEvents is the events since a bulk action began, read as it waits,
// with the jobs removed meanwhile as they were last.
type bulkEvents struct {
	sub     jobs.EventStream
	removed map[jobs.ID]jobs.Info
}

// next reads the next batch of events.
func (e *bulkEvents) next(ctx context.Context) error {
	select {
	case batch, ok := <-e.sub.C():
		if !ok {
			return errStreamClosed
		}
		for _, ev := range batch {
			if ev.Kind == jobs.EventRemoved {
				e.removed[ev.Job.ID] = ev.Job
			}
		}
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// until returns job id's snapshot once cond holds for it, reading the
// events as it waits (so removals are noted).
func (e *bulkEvents) until(ctx context.Context, m manager, id jobs.ID, cond func(jobs.Info) bool) (jobs.Info, error) {
	for {
		info, err := m.Get(id)
		if err != nil || cond(info) {
			return info, err
		}
		if err := e.next(ctx); err != nil {
			return info, err
		}
	}
}

// last is a job that was removed since the action began, as it was then:
// its removal is on the way if it is not read yet.
func (e *bulkEvents) last(ctx context.Context, id jobs.ID) (jobs.Info, bool) {
	for {
		if info, ok := e.removed[id]; ok {
			return info, true
		}
		if e.next(ctx) != nil {
			return jobs.Info{}, false
		}
	}
}

// waitRestarted returns once each job has started a new run since its
// snapshot in before (or waits for a slot for one, or could not get one,
// or was removed).
func waitRestarted(ctx context.Context, m manager, events *bulkEvents, before []jobs.Info) error {
	pending := make(map[jobs.ID]jobs.Info, len(before))
	for _, j := range before {
		pending[j.ID] = j
	}
	for {
		for id, was := range pending {
			info, err := m.Get(id)
			started := info.Runs > was.Runs && info.Reason != jobs.ReasonStarting
			queued := info.State == jobs.StateQueued && info.Reason != jobs.ReasonStarting
			if err != nil || started || queued || endedWithoutRun(was, info) {
				delete(pending, id)
			}
		}
		if len(pending) == 0 {
			return nil
		}
		if err := events.next(ctx); err != nil {
			return err
		}
	}
}

// endedWithoutRun reports whether a restarted job ended again with no new
// run since its snapshot before: it was queued and failed at once, its
// dependency no longer able to be met. No run is coming to wait for.
func endedWithoutRun(before, now jobs.Info) bool {
	return now.State.Done() && now.Runs == before.Runs && now.Ended != nil &&
		(before.Ended == nil || now.Ended.After(*before.Ended))
}
