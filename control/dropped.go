package control

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"

	"jobtop/jobs"
)

// DroppedEnds is the answer of GET /v1/dropped: how the jobs the cap on
// finished jobs removed (--keep-finished) ended, for those that did not
// succeed, so that "did every job pass" counts every job the instance
// ran. Jobs holds those the instance still remembers (the last 10,000
// removed jobs), in ID order, with their id, name, state, exit_code,
// signal and error; Forgotten counts those it no longer remembers.
type DroppedEnds struct {
	Jobs      []jobs.Info `json:"jobs"`
	Forgotten int         `json:"forgotten"`
}

// droppedFields are the fields DroppedEnds has of each job: what says how
// it ended.
var droppedFields = []string{"id,name,state,exit_code,signal,error"}

// handleDropped answers GET /v1/dropped, with ?state= and ?name= to pick
// as the job list does (a job named by ID is asked after on its own:
// GET /v1/jobs/{id}/wait).
func (s *Server) handleDropped(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	if _, ok := q["job"]; ok {
		writeError(w, badRequest("the dropped ends are picked by state and name; ask after one job with GET /v1/jobs/{id}/wait"))
		return
	}
	req, filtered, err := listFilter(q)
	if err != nil {
		writeError(w, err)
		return
	}
	ends, forgotten := s.mgr.DroppedEnds()
	if filtered {
		ends, _, _ = req.pick(ends)
		if req.State != "" || req.Name != "" {
			forgotten = 0 // not known to match
		}
	}
	fields, _ := pickJobFields(droppedFields)
	writeJSON(w, http.StatusOK, struct {
		Jobs      json.RawMessage `json:"jobs"`
		Forgotten int             `json:"forgotten"`
	}{encodeJobList(ends, fields), forgotten})
}

// DroppedEnds asks how the jobs the cap on finished jobs removed ended,
// those that did not succeed, picked by f's State and Name.
func (c *Client) DroppedEnds(ctx context.Context, f JobFilter) (DroppedEnds, error) {
	q := url.Values{}
	if f.State != "" {
		q.Set("state", f.State)
	}
	if f.Name != "" {
		q.Set("name", f.Name)
	}
	var d DroppedEnds
	err := c.call(ctx, http.MethodGet, "/v1/dropped", q, nil, &d)
	return d, err
}
