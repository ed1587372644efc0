package control

import (
	"context"
	"net/http"
)

// Parallel is the body of PUT /v1/parallel and the answer of GET and PUT
// /v1/parallel: how many jobs the instance runs at once (0: no limit),
// as pueue's parallel sets it. MaxRunning is a pointer in a request so
// that a body without it is refused rather than read as 0.
type Parallel struct {
	MaxRunning *int `json:"max_running"`
}

func (Parallel) emptyBody() string {
	return `send the limit as JSON, e.g. {"max_running": 4} (0: no limit)`
}

func (s *Server) handleGetParallel(w http.ResponseWriter, r *http.Request) {
	n := s.mgr.MaxRunning()
	writeJSON(w, http.StatusOK, Parallel{MaxRunning: &n})
}

// handleSetParallel changes the limit at run time: a higher one starts
// queued jobs at once, a lower one stops nothing (jobs.Manager.SetMaxRunning).
func (s *Server) handleSetParallel(w http.ResponseWriter, r *http.Request) {
	req, err := decodeBody[Parallel](w, r, MaxBodyBytes)
	if err != nil {
		writeError(w, err)
		return
	}
	switch {
	case req.MaxRunning == nil:
		writeError(w, badRequest(`give the limit as {"max_running": N}: at most N jobs run at once, 0 for no limit`))
		return
	case *req.MaxRunning < 0:
		writeError(w, badRequest("max_running %d is negative: give a number of jobs, or 0 for no limit", *req.MaxRunning))
		return
	}
	if err := s.mgr.SetMaxRunning(*req.MaxRunning); err != nil {
		writeError(w, err)
		return
	}
	s.handleGetParallel(w, r)
}

// Parallel is the instance's limit on jobs running at once; 0: no limit.
func (c *Client) Parallel(ctx context.Context) (int, error) {
	var p Parallel
	if err := c.call(ctx, http.MethodGet, "/v1/parallel", nil, nil, &p); err != nil {
		return 0, err
	}
	if p.MaxRunning == nil {
		return 0, nil
	}
	return *p.MaxRunning, nil
}

// SetParallel sets the instance's limit on jobs running at once (0: no
// limit) and returns it as the instance has it.
func (c *Client) SetParallel(ctx context.Context, n int) (int, error) {
	var p Parallel
	if err := c.call(ctx, http.MethodPut, "/v1/parallel", nil, Parallel{MaxRunning: &n}, &p); err != nil {
		return 0, err
	}
	if p.MaxRunning == nil {
		return 0, nil
	}
	return *p.MaxRunning, nil
}
