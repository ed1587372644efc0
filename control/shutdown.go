package control

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"jobtop/jobs"
)

// ShutdownResponse answers POST /v1/shutdown once every job has ended.
type ShutdownResponse struct {
	// Instance is the instance that is shutting down.
	Instance Instance `json:"instance"`
	// Stopped counts the jobs that were running or stopping when the
	// shutdown was asked for.
	Stopped int `json:"stopped"`
	// Queued counts the jobs that were queued then: they never start.
	Queued int `json:"queued"`
	// Jobs are every job, as they ended.
	Jobs []jobs.Info `json:"jobs"`
}

// ShutdownRequested is closed when a client asks the instance to shut
// down (POST /v1/shutdown), at once even while the instance still loads
// (the request is held until Open then). The instance's owner watches
// it: it stops every job with its grace rules, as on SIGTERM, then
// closes the server and ends; while loading, it opens the server first,
// or the request is refused. The request is answered once the jobs have
// ended.
func (s *Server) ShutdownRequested() <-chan struct{} { return s.shutdownAsked }

// askShutdown closes ShutdownRequested, once.
func (s *Server) askShutdown() { s.shutdownOnce.Do(func() { close(s.shutdownAsked) }) }

// shuttingDown reports whether a shutdown was asked for, or the
// instance's TUI is quitting (Quitting).
func (s *Server) shuttingDown() bool {
	if s.quitting.Load() {
		return true
	}
	select {
	case <-s.shutdownAsked:
		return true
	default:
		return false
	}
}

// Quitting says the instance is ending (its TUI stops every job to quit,
// or its terminal closed): from now on it refuses new jobs, as after
// jobtop shutdown, and GET /v1/instance says "ending", so a plain jobtop
// started meanwhile waits for it to end rather than attach to it.
func (s *Server) Quitting() { s.quitting.Store(true) }

// instanceEndingText begins the answer to a wait that the instance cut
// off because its server is closing: a client tells it from the job's own
// end (IsLost).
const instanceEndingText = "this jobtop instance is ending"

// errInstanceEnding answers a wait the closing server cut off.
var errInstanceEnding = &RequestError{Status: http.StatusServiceUnavailable, Msg: instanceEndingText + ", and its jobs end with it: the wait is cut off"}

// errStoppedByShutdown answers a wait for a job the instance ended as it
// shut down (jobtop shutdown, its TUI quit, a signal): the job has no
// outcome of its own, as when the wait is cut off (a client tells it
// from the job's own end by IsEnding).
func errStoppedByShutdown(id jobs.ID) *APIError {
	return &APIError{Status: http.StatusServiceUnavailable, Message: instanceEndingText + ": " + shutDownText(fmt.Sprintf("job %d", id))}
}

// shutDownCause is what IsStoppedByShutdown looks for.
const shutDownCause = "as it shut down"

// shutDownText says the instance stopped what (a job) as it shut down.
func shutDownText(what string) string {
	return fmt.Sprintf("it stopped %s %s (jobtop shutdown, its TUI quit, or a signal), and its jobs end with it", what, shutDownCause)
}

// errShuttingDown refuses new jobs once a shutdown was asked for.
var errShuttingDown = &RequestError{Status: http.StatusServiceUnavailable, Msg: "this jobtop is shutting down (stopping its jobs): it starts no job and no run now, and its jobs end with it"}

func (s *Server) handleShutdown(w http.ResponseWriter, r *http.Request) {
	stopped, queued := 0, 0
	for _, j := range s.mgr.List() {
		switch {
		case j.State == jobs.StateQueued && j.Reason != jobs.ReasonStarting:
			queued++ // waits: it never starts
		case j.State.Active() || j.State == jobs.StateQueued:
			stopped++
		}
	}
	// As it was when asked: the limit it had, not what ending leaves.
	limit := s.mgr.MaxRunning()
	s.askShutdown()
	// Not the server's base context: Close cancels that, and the owner
	// closes the server once the jobs have ended, which is when this
	// answer is due.
	ctx := r.Context()
	for _, j := range s.mgr.List() {
		_, err := s.mgr.Wait(ctx, j.ID)
		var notFound *jobs.NotFoundError
		if err != nil && !errors.As(err, &notFound) {
			writeError(w, err)
			return
		}
	}
	inst := s.instanceNow()
	inst.MaxRunning = limit
	writeJSON(w, http.StatusOK, ShutdownResponse{Instance: inst, Stopped: stopped, Queued: queued, Jobs: s.mgr.List()})
}

// Shutdown asks the instance to stop every job and end; it returns once
// the jobs have ended (the instance ends right after).
func (c *Client) Shutdown(ctx context.Context) (ShutdownResponse, error) {
	var resp ShutdownResponse
	err := c.call(ctx, http.MethodPost, "/v1/shutdown", nil, nil, &resp)
	return resp, err
}

// AwaitEnd waits until the instance inst, which said it is ending
// (Instance.Ending), has let the socket go: none answers there, or
// another does. It is false when that has not happened within limit, or
// ctx ended first.
func (c *Client) AwaitEnd(ctx context.Context, inst Instance, limit time.Duration) bool {
	for deadline := time.Now().Add(limit); time.Now().Before(deadline); {
		ask, cancel := context.WithTimeout(ctx, time.Second)
		now, err := c.Instance(ask)
		cancel()
		var notRunning *NotRunningError
		if errors.As(err, &notRunning) || err == nil && now.PID != inst.PID {
			return true
		}
		select {
		case <-ctx.Done():
			return false
		case <-time.After(100 * time.Millisecond):
		}
	}
	return false
}
