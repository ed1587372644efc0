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
	Code int
}

// ExitRequests delivers at most one request: the first time a file job
// marked ExitOnFailure (process-compose's restart: exit_on_failure) ends
// failed, with a non-zero exit code. It is never closed.
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

func (w *Workspace) exitRequest(info jobs.Info) (ExitRequest, bool) {
	if info.State != jobs.StateFailed || info.ExitCode == nil {
		return ExitRequest{}, false
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, j := range w.plan.Jobs {
		if j.ExitOnFailure && w.ids[j.Name] == info.ID {
			return ExitRequest{Job: j.Name, Code: *info.ExitCode}, true
		}
	}
	return ExitRequest{}, false
}
