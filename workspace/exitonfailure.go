package workspace

import (
	"slices"

	"jobtop/jobfile"
	"jobtop/jobs"
)

// ExitRequest says a job with exit_on_failure failed (or one with
// exit_on_end ended, or one with exit_on_skipped could not start): jobtop
// is to stop every job and exit with Code.
type ExitRequest struct {
	Job  string // its name in the file
	ID   jobs.ID
	Code int
	// Signal is the signal that killed the job, when one did (Code is
	// then 128 + its number, as a shell reports it); 0 for an exit.
	Signal jobs.Signal
	// Why is the setting that asked for it: "" for exit_on_failure,
	// else "exit_on_end" or "exit_on_skipped".
	Why string
	// Reason is why the job could not start (exit_on_skipped, or
	// exit_on_end: a job that could not start has ended too).
	Reason string
	// Asked says how an end someone asked for came (exit_on_end):
	// "stopped" (a stop or kill) or "timed out"; "" for any other end.
	Asked string
}

// endsJobtop says whether a job asks jobtop to exit on some end.
func endsJobtop(j jobfile.Job) bool { return j.ExitOnFailure || j.ExitOnEnd || j.ExitOnSkipped }

// ExitRequests delivers at most one request: the first time a file job
// marked ExitOnFailure (process-compose's restart: exit_on_failure) ends
// failed, with a non-zero exit code, or killed by a signal jobtop was not
// asked to send (a crash, a kill from outside). It is never closed.
func (w *Workspace) ExitRequests() <-chan ExitRequest { return w.exits }

// watchFailuresLocked starts watchFailures the first time a plan has a job
// marked ExitOnFailure.
func (w *Workspace) watchFailuresLocked(plan *jobfile.Plan) {
	if w.watching || !slices.ContainsFunc(plan.Jobs, endsJobtop) {
		return
	}
	w.watching = true
	w.removals.Add(1)
	// Subscribed before any job of the plan starts: a job that could not
	// start ends in its Start, and a subscription made on the goroutine
	// missed it now and then (serve with exit_on_end ran on, rev53).
	stream := w.mgr.Subscribe()
	go func() {
		defer w.removals.Done()
		w.watchFailures(stream)
	}()
}

// watchFailures sends an ExitRequest when a job marked ExitOnFailure (in
// the plan as it stands, reloads included) fails, the jobs as they are
// first (a reload's plan may mark one that has ended), then as they
// change. It ends with Close.
func (w *Workspace) watchFailures(stream jobs.EventStream) {
	defer stream.Close()
	for _, info := range w.mgr.List() {
		if req, ok := w.exitRequest(info); ok {
			w.exits <- req // buffered: the only send
			return
		}
	}
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
// exit, or a signal that came from outside, for exit_on_failure; any end
// with no run coming for exit_on_end, a stop or kill someone asked for
// included (as process-compose's onProcessEnd), and a job that could not
// start (with 1, as for exit_on_skipped: process-compose, which has no
// such state, exits once every process has ended; jobtop runs on, and a
// CI run's last job that could not start would leave it running for
// ever), but not jobtop's own shutdown (nor a reload's removal: the job
// is no longer the file's).
func (w *Workspace) exitRequest(info jobs.Info) (ExitRequest, bool) {
	var req ExitRequest
	failed := true
	switch {
	case info.ShuttingDown:
		return ExitRequest{}, false
	case info.State == jobs.StateFailed && info.ExitCode != nil:
		req.Code = *info.ExitCode
	case info.State == jobs.StateKilled && info.Signal != 0 && !info.EndRequested:
		req.Code, req.Signal = 128+int(info.Signal), info.Signal
	case info.State == jobs.StateSucceeded && !info.EndRequested:
		failed = false // exit_on_end: 0, whatever success code it had
	case (info.State == jobs.StateKilled || info.State == jobs.StateTimedOut) && info.EndRequested:
		// A stop, a kill or a timeout: exit_on_end only, with the code
		// the run exited with, else 128 + the signal that ended it.
		failed = false
		req.Asked = "stopped"
		if info.State == jobs.StateTimedOut {
			req.Asked = "timed out"
		}
		switch {
		case info.ExitCode != nil:
			req.Code = *info.ExitCode
		case info.Signal != 0:
			req.Code, req.Signal = 128+int(info.Signal), info.Signal
		default:
			req.Code = 1
		}
	case info.State == jobs.StateError:
		req.Code, req.Reason = 1, info.Error
		failed = false
	default:
		return ExitRequest{}, false
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, j := range w.plan.Jobs {
		if w.ids[j.Name] != info.ID {
			continue
		}
		req.Job, req.ID = j.Name, info.ID
		switch {
		case info.State == jobs.StateError:
			switch {
			case j.ExitOnSkipped:
				req.Why = "exit_on_skipped"
				return req, true
			case j.ExitOnEnd:
				req.Why = "exit_on_end"
				return req, true
			}
		case j.ExitOnFailure && failed:
			return req, true
		case j.ExitOnEnd && info.RestartAt == nil:
			// ended with no restart coming (on_failure may run it again)
			req.Why = "exit_on_end"
			return req, true
		}
		return ExitRequest{}, false
	}
	return ExitRequest{}, false
}

// ExitRequestAmong is the request the first of ended (in their order)
// makes by how it ended, if one does: what ExitRequests delivers once
// that job's end is seen, for a caller that must know now.
func (w *Workspace) ExitRequestAmong(ended []jobs.Info) (ExitRequest, bool) {
	for _, info := range ended {
		if req, ok := w.exitRequest(info); ok {
			return req, true
		}
	}
	return ExitRequest{}, false
}
