package control

import (
	"net/http"
	"net/url"
	"slices"
	"strings"

	"jobtop/jobs"
)

// JobFilter narrows a job list (GET /v1/jobs?job=...&state=...&name=...)
// as a bulk action's selectors pick jobs: the jobs named (an ID, or a
// name: the newest job with it), or every job, kept when in State and
// matching Name. The zero filter keeps every job.
type JobFilter struct {
	Jobs  []string
	State string
	Name  string
	// Fields are the job fields the list keeps of each job (?fields=);
	// none: every field.
	Fields []string
}

// query is the filter as the list's query parameters.
func (f JobFilter) query() url.Values {
	q := url.Values{}
	for _, ref := range f.Jobs {
		q.Add("job", ref)
	}
	if f.State != "" {
		q.Set("state", f.State)
	}
	if f.Name != "" {
		q.Set("name", f.Name)
	}
	if len(f.Fields) > 0 {
		q.Set("fields", strings.Join(f.Fields, ","))
	}
	return q
}

// listFilter reads a list's query parameters into the bulk request that
// picks the same jobs; ok is false when it has none (every job).
func listFilter(q url.Values) (req BulkRequest, ok bool, err error) {
	for key, values := range q {
		switch key {
		case "job", "state", "name":
			if slices.Contains(values, "") {
				return req, false, badRequest("an empty %s picks nothing: give one, or leave %s out for every job", key, key)
			}
		default:
			return req, false, badRequest("unknown parameter %q: the job list takes job (an ID or a name, repeated for several), state, name (a glob) and fields", key)
		}
	}
	if len(q) == 0 {
		return req, false, nil
	}
	for _, ref := range q["job"] {
		req.Jobs = append(req.Jobs, JobRef(ref))
	}
	req.State = strings.Join(q["state"], ",")
	req.Name = strings.Join(q["name"], ",")
	if len(req.Jobs) == 0 && req.State == "" && req.Name == "" {
		return req, false, nil
	}
	return req, true, req.check()
}

func (s *Server) handleList(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	fields, err := pickJobFields(q["fields"])
	if err != nil {
		writeError(w, err)
		return
	}
	delete(q, "fields")
	req, filtered, err := listFilter(q)
	switch {
	case err != nil:
		writeError(w, err)
		return
	case !filtered:
		writeJobList(w, s.mgr.List(), fields)
		return
	}
	picked, _, err := req.pick(s.mgr.List())
	if err != nil {
		writeError(w, err)
		return
	}
	writeJobList(w, picked, fields)
}

// writeJobList answers with the list (an empty one as [], not null), each
// job with the given fields.
func writeJobList(w http.ResponseWriter, list []jobs.Info, fields []jobField) {
	writeJSONBody(w, http.StatusOK, encodeJobList(list, fields))
}
