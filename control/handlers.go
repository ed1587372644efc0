package control

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"

	"jobtop/jobs"
)

func (s *Server) handleInstance(w http.ResponseWriter, r *http.Request) {
	inst := s.instanceNow()
	inst.Ending = s.shuttingDown()
	writeJSON(w, http.StatusOK, inst)
}

// instanceNow is the instance as GET /v1/instance says it: its job file
// as last read and its limit on jobs running at once now.
func (s *Server) instanceNow() Instance {
	inst := s.inst
	if rl := s.currentReloader(); rl != nil {
		describeJobFile(&inst, rl)
	}
	inst.MaxRunning = s.mgr.MaxRunning()
	return inst
}

func (s *Server) handleStart(w http.ResponseWriter, r *http.Request) {
	if s.shuttingDown() {
		writeError(w, errShuttingDown)
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, MaxBodyBytes)
	spec, err := decodeStartRequest(r.Body, func(name string) (jobs.ID, error) {
		id, err := s.jobRef(name)
		if err != nil {
			return 0, fmt.Errorf("after: %w", err)
		}
		return id, nil
	})
	if err != nil {
		writeError(w, err)
		return
	}
	if err := checkDir(spec.Dir); err != nil {
		writeError(w, err)
		return
	}
	if spec.Dir == "" {
		// It runs in the instance's directory: its job object says which
		// (left out only if that directory is gone, where none can say).
		spec.Dir, _ = os.Getwd()
	}
	info, err := s.mgr.Start(spec)
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusCreated, info)
}

// checkDir refuses a working directory that is missing or not a directory,
// so the client hears about it rather than getting a job in state "error".
func checkDir(dir string) error {
	if dir == "" {
		return nil
	}
	st, err := os.Stat(dir)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return badRequest("cwd %q does not exist", dir)
	case err != nil:
		return badRequest("cwd %q cannot be used: %v", dir, err)
	case !st.IsDir():
		return badRequest("cwd %q is not a directory", dir)
	}
	return nil
}

func (s *Server) handleGet(w http.ResponseWriter, r *http.Request) {
	id, err := s.pathID(r)
	if err != nil {
		writeError(w, err)
		return
	}
	info, err := s.mgr.Get(id)
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, info)
}

func (s *Server) handleRemove(w http.ResponseWriter, r *http.Request) {
	id, err := s.pathID(r)
	if err != nil {
		writeError(w, err)
		return
	}
	info, err := s.mgr.Get(id)
	if err == nil {
		err = s.mgr.Remove(id)
	}
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, info)
}

// handleStop stops a job with its stop signal, or with the signal
// ?signal= names for this stop (INT, SIGINT or 2, as stop_signal; as
// pueue's kill -s).
func (s *Server) handleStop(w http.ResponseWriter, r *http.Request) {
	sig, err := stopSignalParam(r, "POST /v1/jobs/"+r.PathValue("id")+"/signal")
	if err != nil {
		writeError(w, err)
		return
	}
	s.handleEnd(w, r, func(id jobs.ID) error { return s.mgr.StopWith(id, sig) })
}

func (s *Server) handleKill(w http.ResponseWriter, r *http.Request) {
	if r.URL.Query().Has("signal") {
		writeError(w, badRequest("signal: a kill is SIGKILL; a stop takes a signal (POST .../stop?signal=INT)"))
		return
	}
	s.handleEnd(w, r, s.mgr.Kill)
}

// handleSignal sends the signal ?signal= names to every process of the
// job, and does nothing else (Manager.SignalJobs): no stop, no SIGKILL.
// It answers the job as it is then.
func (s *Server) handleSignal(w http.ResponseWriter, r *http.Request) {
	id, err := s.pathID(r)
	if err != nil {
		writeError(w, err)
		return
	}
	sig, err := requiredSignalParam(r)
	if err != nil {
		writeError(w, err)
		return
	}
	if err := s.mgr.SignalJobs([]jobs.ID{id}, sig)[0]; err != nil {
		writeError(w, err)
		return
	}
	info, err := s.mgr.Get(id)
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, info)
}

// requiredSignalParam is the signal ?signal= names, which a signal
// request must have.
func requiredSignalParam(r *http.Request) (jobs.Signal, error) {
	sig, err := signalParam(r)
	if err == nil && sig == 0 {
		err = badRequest("signal: say which signal to send (?signal=USR1, SIGUSR1 or 10)")
	}
	return sig, err
}

// signalParam is the signal ?signal= names; 0 without one.
func signalParam(r *http.Request) (jobs.Signal, error) {
	v := r.URL.Query().Get("signal")
	if v == "" {
		return 0, nil
	}
	sig, err := jobs.ParseSignal(v)
	if err != nil {
		return 0, badRequest("signal: %v", err)
	}
	return sig, nil
}

// stopSignalParam is signalParam for a stop: a signal that does not end
// a process (SIGSTOP, SIGCONT, SIGWINCH...) is refused, pointing at path,
// the endpoint that sends it alone.
func stopSignalParam(r *http.Request, path string) (jobs.Signal, error) {
	sig, err := signalParam(r)
	if err != nil {
		return 0, err
	}
	if err := sig.KeepsError(path + "?signal=" + strings.TrimPrefix(sig.String(), "SIG")); err != nil {
		return 0, badRequest("signal: %v", err)
	}
	return sig, nil
}

// handleEnd stops or kills a job; with wait=true it answers once the job
// has ended. A job removed before the answer (its end pushed it past the
// cap on finished jobs, or another client removed it) is answered as it
// was last, with Removed, as a bulk stop or kill answers for it.
func (s *Server) handleEnd(w http.ResponseWriter, r *http.Request, end func(jobs.ID) error) {
	id, wait, err := s.actionParams(r)
	if err != nil {
		writeError(w, err)
		return
	}
	before, err := s.mgr.Get(id)
	if err != nil {
		writeError(w, err)
		return
	}
	// Before the action: neither its end nor its removal is missed.
	sub := s.mgr.Subscribe()
	defer sub.Close()
	events := &bulkEvents{sub: sub, removed: make(map[jobs.ID]jobs.Info)}
	if err := end(id); err != nil {
		writeError(w, err)
		return
	}
	ctx, cancel := s.requestContext(r, 0)
	defer cancel()
	var answer EndAnswer
	if wait {
		answer.Info, err = events.until(ctx, s.mgr, id, endedSince(before))
	} else {
		answer.Info, err = s.mgr.Get(id)
	}
	var notFound *jobs.NotFoundError
	if errors.As(err, &notFound) {
		if last, ok := events.last(ctx, id); ok {
			answer.Info, answer.Removed, err = last, true, nil
		}
	}
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, answer)
}

// endedSince says whether a stop or kill of the job as it was (before)
// has taken effect: the job has ended, with no restart of its policy to
// come, or it ended since and was run or queued again meanwhile (a wait
// for it to be over would wait for the new run, for ever for a server).
func endedSince(before jobs.Info) func(jobs.Info) bool {
	return func(i jobs.Info) bool {
		return i.State.Done() && i.RestartAt == nil || i.Ends > before.Ends
	}
}

// handleRestart starts a new run; with wait=true it answers once the new
// run has started (or is queued, or failed to start).
func (s *Server) handleRestart(w http.ResponseWriter, r *http.Request) {
	if s.shuttingDown() { // a new run would hold its quit up
		writeError(w, errShuttingDown)
		return
	}
	id, wait, err := s.actionParams(r)
	if err != nil {
		writeError(w, err)
		return
	}
	before, err := s.mgr.Get(id)
	if err != nil {
		writeError(w, err)
		return
	}
	ctx, cancel := s.requestContext(r, 0)
	defer cancel()
	watch := s.watch(id)
	defer watch.close()
	info, err := s.mgr.Restart(id)
	if err == nil && wait {
		info, err = watch.until(ctx, s.mgr, func(i jobs.Info) bool {
			// Started, failed to, or waiting in the queue (not merely
			// on its way to the keeper).
			starting := i.State == jobs.StateQueued && i.Reason == jobs.ReasonStarting
			return (i.Runs > before.Runs || i.State == jobs.StateQueued) && !starting || endedWithoutRun(before, i)
		})
	}
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, info)
}

func (s *Server) handleWait(w http.ResponseWriter, r *http.Request) {
	id, err := s.pathID(r)
	if err != nil {
		writeError(w, err)
		return
	}
	timeout, err := durationParam(r, "timeout")
	if err != nil {
		writeError(w, err)
		return
	}
	ready, err := boolParam(r, "ready")
	if err != nil {
		writeError(w, err)
		return
	}
	ctx, cancel := s.requestContext(r, timeout)
	defer cancel()
	if ready {
		s.waitReady(ctx, w, id)
		return
	}
	info, err := s.mgr.Wait(ctx, id)
	switch {
	case err == nil && info.ShutDown:
		writeError(w, &RequestError{Status: http.StatusServiceUnavailable, Msg: errStoppedByShutdown(id).Message})
	case err == nil:
		writeJSON(w, http.StatusOK, WaitResponse{Job: info, Ended: true})
	case s.base.Err() != nil:
		writeError(w, errInstanceEnding)
	case errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled):
		writeJSON(w, http.StatusOK, WaitResponse{Job: info, Ended: false})
	default:
		writeError(w, err)
	}
}

// waitReady answers once the job is ready while it runs (Ended false,
// Job.Ready true), or has ended with no restart on its way (Ended true),
// or ctx ends (neither). A job that succeeded is Ready, but it ended:
// whether it was ready first is the client's to tell (LastRunWasReady).
// One that succeeded and waits out its restart's backoff has not ended,
// and is ready as a job that depends on it takes it (Ended false).
func (s *Server) waitReady(ctx context.Context, w http.ResponseWriter, id jobs.ID) {
	watch := s.watch(id)
	defer watch.close()
	ended := false
	info, err := watch.until(ctx, s.mgr, func(i jobs.Info) bool {
		if i.Ready && i.State.Active() {
			return true
		}
		_, ended, _ = settled(s.mgr, id)
		return ended || (i.Ready && i.State == jobs.StateSucceeded)
	})
	switch {
	case err == nil && ended && info.ShutDown:
		writeError(w, &RequestError{Status: http.StatusServiceUnavailable, Msg: errStoppedByShutdown(id).Message})
	case err == nil:
		writeJSON(w, http.StatusOK, WaitResponse{Job: info, Ended: ended})
	case s.base.Err() != nil:
		writeError(w, errInstanceEnding)
	case errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled):
		writeJSON(w, http.StatusOK, WaitResponse{Job: info})
	default:
		writeError(w, err)
	}
}

// pathID reads the job of a /v1/jobs/{id} path: an ID, or a job's name
// (the newest job with it), as the CLI and bulk actions take them; names
// are never bare numbers (jobs.CheckName).
func (s *Server) pathID(r *http.Request) (jobs.ID, error) {
	return s.jobRef(r.PathValue("id"))
}

// jobRef reads a job named in a request: an ID as it is (whether that
// job exists is for the action to say), or a job's name, the newest job
// with it, looked up without a snapshot of every job (with a thousand
// jobs, `jobtop kill web` built one each time).
func (s *Server) jobRef(ref string) (jobs.ID, error) {
	if id, err := jobs.ParseID(ref); err == nil {
		return id, nil
	}
	if err := badJobRef(ref); err != nil {
		return 0, err
	}
	if id, ok := s.mgr.Lookup(ref); ok {
		return id, nil
	}
	return 0, UnknownJobName(ref, s.mgr.List(), fileJobs(s.currentReloader())...)
}

func (s *Server) actionParams(r *http.Request) (jobs.ID, bool, error) {
	id, err := s.pathID(r)
	if err != nil {
		return 0, false, err
	}
	wait, err := boolParam(r, "wait")
	return id, wait, err
}

func boolParam(r *http.Request, name string) (bool, error) {
	v := r.URL.Query().Get(name)
	if v == "" {
		return false, nil
	}
	b, err := strconv.ParseBool(v)
	if err != nil {
		return false, badRequest("%s=%q: use true or false", name, v)
	}
	return b, nil
}

func durationParam(r *http.Request, name string) (time.Duration, error) {
	return parseDuration(name, r.URL.Query().Get(name))
}

// writeError answers with the status the error calls for and
// {"error": message}.
func writeError(w http.ResponseWriter, err error) {
	status := http.StatusInternalServerError
	var reqErr *RequestError
	var reloadErr *ReloadError
	var notFound *jobs.NotFoundError
	var invalid *jobs.InvalidActionError
	var problems []string
	switch {
	case errors.As(err, &reloadErr):
		status = http.StatusUnprocessableEntity
		problems = reloadErr.Problems
	case errors.As(err, &reqErr):
		status = http.StatusBadRequest
		if reqErr.Status != 0 {
			status = reqErr.Status
		}
	case errors.As(err, &notFound):
		status = http.StatusNotFound
	case errors.As(err, &invalid):
		status = http.StatusConflict
	case errors.Is(err, jobs.ErrShutdown):
		status = http.StatusServiceUnavailable
	case errors.Is(err, context.Canceled), errors.Is(err, errStreamClosed):
		status = http.StatusServiceUnavailable
		err = errors.New("the wait was cut short: this jobtop is closing")
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(encodeJSON(errorResponse{Error: err.Error(), Problems: problems})) //nolint:errcheck // the client may be gone
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	writeJSONBody(w, status, encodeJSON(v))
}

// writeJSONBody answers with b, JSON already encoded.
func writeJSONBody(w http.ResponseWriter, status int, b []byte) {
	w.Header().Set("Content-Type", "application/json")
	// With its length, the answer goes whole rather than in chunks, and
	// the client reads it into one buffer of the right size.
	w.Header().Set("Content-Length", strconv.Itoa(len(b)))
	w.WriteHeader(status)
	w.Write(b) //nolint:errcheck // the client may be gone
}
