package workspace

import (
	"slices"

	"jobtop/jobfile"
	"jobtop/jobs"
)

// ExitRequest says a job with exit_on_failure failed: jobtop is to stop
// every job and exit with Code.
type ExitRequest struct {
	Job  string // its name in the file
	ID   jobs.ID
	Code int
	// Signal is the signal that killed the job, when one did (Code is
	// then 128 + its number, as a shell reports it); 0 for an exit.
	Signal jobs.Signal
}

// ExitRequests delivers at most one request: the first time a file job
// marked ExitOnFailure (process-compose's restart: exit_on_failure) ends
// failed, with a non-zero exit code, or killed by a signal jobtop was not
// asked to send (a crash, a kill from outside). It is never closed.
func (w *Workspace) ExitRequests() <-chan ExitRequest { return w.exits }

// watchFailuresLocked starts watchFailures the first time a plan has a job
// marked ExitOnFailure.
func (w *Workspace) watchFailuresLocked(plan *jobfile.Plan) {
	if w.watching || !slices.ContainsFunc(plan.Jobs, func(j jobfile.Job) bool { return j.ExitOnFailure }) {
		return
	}
	w.watching = true
	w.removals.Add(1)
	go func() {
		defer w.removals.Done()
		w.watchFailures()
	}()
}

// watchFailures sends an ExitRequest when a job marked ExitOnFailure (in
// the plan as it stands, reloads included) fails. It ends with Close.
func (w *Workspace) watchFailures() {
	stream := w.mgr.Subscribe()
	defer stream.Close()
	for {
		select {
		case <-w.ctx.Done():
			return
		case batch, ok := <-stream.C():
			if !ok {
				return
			}
			for _, ev := range batch {
				if req, ok := w.exitRequest(ev.Job); ok {
					w.exits <- req // buffered: the only send
					return
				}
			}
		}
	}
}

// exitRequest is the request a job's snapshot makes, if any: a failed
// exit, or a signal that came from outside; never a stop or kill someone
// asked jobtop for.
func (w *Workspace) exitRequest(info jobs.Info) (ExitRequest, bool) {
	var req ExitRequest
	switch {
	case info.State == jobs.StateFailed && info.ExitCode != nil:
		req.Code = *info.ExitCode
	case info.State == jobs.StateKilled && info.Signal != 0 && !info.EndRequested:
		req.Code, req.Signal = 128+int(info.Signal), info.Signal
	default:
		return ExitRequest{}, false
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, j := range w.plan.Jobs {
		if j.ExitOnFailure && w.ids[j.Name] == info.ID {
			req.Job, req.ID = j.Name, info.ID
			return req, true
		}
	}
	return ExitRequest{}, false
}
