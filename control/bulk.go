package control

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"path"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"jobtop/jobs"
)

// The bulk actions: POST /v1/jobs/{verb} with a BulkRequest.
const (
	BulkStop    = "stop"
	BulkKill    = "kill"
	BulkRestart = "restart"
	BulkRemove  = "remove"
	// BulkSignal sends ?signal= to each job and does nothing else.
	BulkSignal = "signal"
)

// BulkRequest picks the jobs of a bulk action. Jobs names them one by
// one; without Jobs, All (or State, or Name) picks from every job. State
// and Name then keep only the jobs that match both.
type BulkRequest struct {
	// Jobs are job IDs or names (a name means the newest job with it).
	Jobs []JobRef `json:"jobs,omitempty"`
	// All picks every job.
	All bool `json:"all,omitempty"`
	// State keeps the jobs in one of these states, comma-separated
	// ("failed,timed_out"); "ended" stands for every state of a job that
	// ran and is over (succeeded, failed, killed, timed_out, error).
	State string `json:"state,omitempty"`
	// Name keeps the jobs whose name matches one of these globs,
	// comma-separated ("web-*,api-*"; * ? and [...] as in shell patterns,
	// * matching a namespace's "/" too). A name holds no comma.
	Name string `json:"name,omitempty"`
}

// JobRef is a job as a client names it: its ID, or its name. On the wire
// it is a number or a string.
type JobRef string

// UnmarshalJSON reads a number or a string.
func (r *JobRef) UnmarshalJSON(b []byte) error {
	ref, err := parseJobRef(b, "jobs")
	*r = ref
	return err
}

// parseJobRef reads a job in the JSON field named field: a number or a
// string.
func parseJobRef(b []byte, field string) (JobRef, error) {
	var n json.Number
	if err := json.Unmarshal(b, &n); err == nil && n != "" {
		if _, err := strconv.ParseUint(n.String(), 10, 64); err != nil {
			switch msg := jobs.BadID(n.String()); {
			case strings.HasPrefix(msg, "no job"):
				return JobRef(n.String()), nil // a whole number too large: no such job, a 404 as any other
			case msg != "":
				return "", badRequest(`%q: %s`, field, msg)
			}
			return "", badRequest(`%q: a job ID is a whole number, not %s`, field, n)
		}
		return JobRef(n.String()), nil
	}
	var s string
	if err := json.Unmarshal(b, &s); err != nil || string(b) == "null" {
		return "", badRequest(`%q: a job is an ID (a number) or a name (a string), not %s`, field, b)
	}
	if s == "" {
		return "", badRequest(`%q: a job's name is not empty`, field)
	}
	return JobRef(s), nil
}

// BulkResponse answers a bulk action.
type BulkResponse struct {
	// Jobs are the jobs acted on, in ID order, as they are after the
	// action (with wait=true, once it has taken effect); a removed job
	// as it was last.
	Jobs []jobs.Info `json:"jobs"`
	// Skipped are jobs picked by All, State or Name that the action does
	// not apply to (stopping a job that has ended); not an error.
	Skipped []BulkRefusal `json:"skipped"`
	// Failed are jobs named in Jobs that the action does not apply to.
	Failed []BulkRefusal `json:"failed"`
	// Removed are the jobs of Jobs (stop, kill or restart) that were
	// removed once the action ended them: by another client, or by the
	// instance's cap on finished jobs (--keep-finished). Jobs has each as
	// it was last.
	Removed []jobs.ID `json:"removed"`
}

// BulkRefusal is a job a bulk action left alone, and why.
type BulkRefusal struct {
	ID    jobs.ID    `json:"id"`
	Name  string     `json:"name"`
	State jobs.State `json:"state"`
	Error string     `json:"error"`
}

// decodeBulkRequest reads and checks a BulkRequest.
func decodeBulkRequest(r io.Reader) (BulkRequest, error) {
	var req BulkRequest
	dec, err := strictDecoder(r)
	if err != nil {
		return req, jsonError(err, req)
	}
	if err := dec.Decode(&req); err != nil {
		if errors.Is(err, io.EOF) {
			return req, badRequest(`empty body: say which jobs, e.g. {"jobs": [3, "web"]}, {"all": true}, {"state": "failed"} or {"name": "web-*"}`)
		}
		return req, jsonError(err, req)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return req, badRequest("malformed JSON: the body must hold one object and nothing after it")
	}
	return req, req.check()
}

// check refuses a request that picks no jobs, or whose selectors cannot
// be read.
func (req BulkRequest) check() error {
	switch {
	case len(req.Jobs) > 0 && req.All:
		return badRequest("give job IDs or names, or all, not both")
	case len(req.Jobs) == 0 && !req.All && req.State == "" && req.Name == "":
		return badRequest("say which jobs: job IDs or names, all, a state or a name pattern")
	}
	if _, err := parseStates(req.State); err != nil {
		return err
	}
	for _, glob := range strings.Split(req.Name, ",") {
		if req.Name != "" && strings.TrimSpace(glob) == "" {
			return badRequest("name pattern %q has an empty pattern in its list", req.Name)
		}
		if !ValidNamePattern(glob) {
			return badRequest("name pattern %q is not valid: use *, ? and [...] as in shell patterns", glob)
		}
	}
	return nil
}

// NameMatches reports whether name matches one of globs, comma-separated
// (an empty glob matches nothing). A * or ? stands for a namespace's "/"
// too ("api*" matches "api/web"): a job's name is no path.
func NameMatches(globs, name string) bool {
	const slash = "\x00"
	name = strings.ReplaceAll(name, "/", slash)
	for _, glob := range strings.Split(globs, ",") {
		if ok, _ := path.Match(strings.ReplaceAll(shellPattern(glob), "/", slash), name); ok && glob != "" {
			return true
		}
	}
	return false
}

// ValidNamePattern reports whether glob is a pattern NameMatches takes.
func ValidNamePattern(glob string) bool {
	_, err := path.Match(shellPattern(glob), "")
	return err == nil
}

// shellPattern is glob as path.Match reads it: a shell's "[!...]", a
// class of what does not match, is Go's "[^...]" (to path.Match, "!" is
// one more character in the class: "[!w]*" picked the names it should
// have left), and a "]" first in a class, or a "-" first or last, is one
// of its characters, as in a shell (path.Match refuses them unescaped).
func shellPattern(glob string) string {
	var b strings.Builder
	for i := 0; i < len(glob); i++ {
		c := glob[i]
		b.WriteByte(c)
		switch c {
		case '\\':
			if i+1 < len(glob) {
				i++
				b.WriteByte(glob[i])
			}
		case '[':
			if i+1 < len(glob) && (glob[i+1] == '!' || glob[i+1] == '^') {
				i++
				b.WriteByte('^')
			}
			first := true
			if i+1 < len(glob) && glob[i+1] == ']' {
				i++
				b.WriteString(`\]`)
				first = false
			}
			// On to the class's end: a "[" or "!" in it is a character,
			// and so is a "-" first or last (path.Match refuses those).
			inRange, afterRange := false, false // a "-" right after a range is one too
			for i+1 < len(glob) && glob[i+1] != ']' {
				i++
				switch c := glob[i]; {
				case c == '-' && (first || afterRange || i+1 < len(glob) && glob[i+1] == ']'):
					b.WriteString(`\-`)
					afterRange = false
				case c == '-':
					b.WriteByte(c)
					inRange = true
				case c == '\\' && i+1 < len(glob):
					i++
					b.WriteByte(c)
					b.WriteByte(glob[i])
					afterRange, inRange = inRange, false
				default:
					b.WriteByte(c)
					afterRange, inRange = inRange, false
				}
				first = false
			}
		}
	}
	return b.String()
}

// stateSelectors are the states a bulk request can pick, "ended" included.
var stateSelectors = []jobs.State{
	jobs.StateQueued, jobs.StateRunning, jobs.StateStopping, jobs.StateSucceeded, jobs.StateFailed,
	jobs.StateKilled, jobs.StateTimedOut, jobs.StateError, jobs.StateCreated,
}

// parseStates reads a comma-separated list of states; nil means any.
func parseStates(list string) (func(jobs.State) bool, error) {
	if strings.TrimSpace(list) == "" {
		return nil, nil
	}
	var want []jobs.State
	ended := false
	for _, s := range strings.Split(list, ",") {
		s = strings.TrimSpace(s)
		switch {
		case s == "ended":
			ended = true
		case slices.Contains(stateSelectors, jobs.State(s)):
			want = append(want, jobs.State(s))
		default:
			names := make([]string, 0, len(stateSelectors)+1)
			for _, st := range stateSelectors {
				names = append(names, string(st))
			}
			return nil, badRequest("state %q is not one of %s, ended", s, strings.Join(names, ", "))
		}
	}
	return func(s jobs.State) bool { return ended && s.Ended() || slices.Contains(want, s) }, nil
}

// pick resolves the request against the jobs: the jobs it names (an
// unknown one is an error) or every job, narrowed by State and Name, in
// ID order. named says the jobs were named one by one. fileJobs are the
// names of the job file's jobs, for the error.
func (req BulkRequest) pick(list []jobs.Info, fileJobs ...string) (picked []jobs.Info, named bool, err error) {
	picked, named, missing, err := req.pickNamed(list, fileJobs...)
	if err == nil && len(missing) > 0 {
		err = missing[0].err
	}
	return picked, named, err
}

// missingJob is a job a request named that no job is: the reference as
// given, and the error that says so (a 404).
type missingJob struct {
	ref JobRef
	err error
}

// pickNamed is pick that goes on past the jobs named that no job is:
// missing has each of them once, in the order named (a bulk action acts
// on the others, as kill(1) does). err is for a reference that can be no
// job (0, -1: a 400).
func (req BulkRequest) pickNamed(list []jobs.Info, fileJobs ...string) (picked []jobs.Info, named bool, missing []missingJob, err error) {
	inState, _ := parseStates(req.State)
	keep := func(j jobs.Info) bool {
		if inState != nil && !inState(j.State) {
			return false
		}
		if req.Name != "" && !NameMatches(req.Name, j.Name) {
			return false
		}
		return true
	}
	if len(req.Jobs) == 0 {
		for _, j := range list {
			if keep(j) {
				picked = append(picked, j)
			}
		}
		return picked, false, nil, nil
	}
	seen := make(map[jobs.ID]bool)
	said := make(map[string]bool) // each missing job once: 4 and 04 are one
	for _, ref := range req.Jobs {
		j, err := findJob(list, string(ref), fileJobs)
		named := []jobs.Info{j}
		if err != nil {
			// overmind's "restart web": a formation's instances
			if named = FormationInstances(string(ref), list, fileJobs); len(named) == 0 {
				if !isNotFound(err) {
					return nil, true, nil, err
				}
				if !said[err.Error()] {
					said[err.Error()] = true
					missing = append(missing, missingJob{ref: ref, err: err})
				}
				continue
			}
		}
		for _, j := range named {
			if !seen[j.ID] && keep(j) {
				seen[j.ID] = true
				picked = append(picked, j)
			}
		}
	}
	slices.SortFunc(picked, func(a, b jobs.Info) int { return int(a.ID - b.ID) })
	return picked, true, missing, nil
}

// isNotFound says whether err, from findJob, is a job that does not
// exist (a 404), not a reference that can be no job.
func isNotFound(err error) bool {
	var notFound *jobs.NotFoundError
	var reqErr *RequestError
	return errors.As(err, &notFound) || errors.As(err, &reqErr) && reqErr.Status == http.StatusNotFound
}

// findJob finds a job by ID, or by name (the newest job with it).
func findJob(list []jobs.Info, ref string, fileJobs []string) (jobs.Info, error) {
	if id, err := jobs.ParseID(ref); err == nil {
		for _, j := range list {
			if j.ID == id {
				return j, nil
			}
		}
		return jobs.Info{}, &jobs.NotFoundError{ID: id}
	}
	if err := badJobRef(ref); err != nil {
		return jobs.Info{}, err
	}
	for i := len(list) - 1; i >= 0; i-- {
		if list[i].Name == ref {
			return list[i], nil
		}
	}
	return jobs.Info{}, UnknownJobName(ref, list, fileJobs...)
}

// isFileJob says whether ref names one of the job file's jobs, or the
// process a formation runs as several of them (clock for clock.1).
func isFileJob(ref string, fileJobs []string) bool {
	for _, name := range fileJobs {
		n, ok := strings.CutPrefix(name, ref)
		if ok && (n == "" || n[0] == '.' && len(n) > 1 && strings.Trim(n[1:], "0123456789") == "") {
			return true
		}
	}
	return false
}

// FormationInstances are the jobs a name stands for that no job has,
// when a Procfile's formation (-m web=2) runs it as several: web.1,
// web.2..., the newest job of each name, in ID order. Only the job
// file's jobs (fileJobs, Instance.FileJobs) count: a job run by hand as
// web.7, or api.2, is no instance of a formation (rev58: stop api stopped
// it). None for any other name (web-2 is no instance of web: the TUI
// names a second job so).
func FormationInstances(ref string, list []jobs.Info, fileJobs []string) []jobs.Info {
	if ref == "" || len(fileJobs) == 0 {
		return nil
	}
	var out []jobs.Info
	seen := make(map[string]bool)
	for i := len(list) - 1; i >= 0; i-- {
		j := list[i]
		n, ok := strings.CutPrefix(j.Name, ref+".")
		if !ok || n == "" || strings.Trim(n, "0123456789") != "" || seen[j.Name] || !slices.Contains(fileJobs, j.Name) {
			continue
		}
		seen[j.Name] = true
		out = append(out, j)
	}
	slices.Reverse(out)
	return out
}

// badJobRef refuses a job reference that is no ID and can be no name
// (0, -1, a number too big: jobs.BadID).
func badJobRef(ref string) error {
	msg := jobs.BadID(ref)
	if msg == "" {
		return nil
	}
	status := http.StatusBadRequest // 0 or -1: no ID at all
	if strings.HasPrefix(msg, "no job") {
		status = http.StatusNotFound
	}
	return &RequestError{Status: status, Msg: msg}
}

// UnknownJobName says that no job of list has the name ref; when a job of
// a namespace is named ref in it ("bg/worker" for "worker"), it names
// that one; when a formation runs ref as several (web.1, web.2), them;
// when it is one of fileJobs, the job file's jobs (Instance.FileJobs),
// that a reload brings it back.
func UnknownJobName(ref string, list []jobs.Info, fileJobs ...string) error {
	shown := CutForMessage(ref)
	var namespaced []string
	for _, j := range list {
		if strings.HasSuffix(j.Name, "/"+ref) && !slices.Contains(namespaced, j.Name) {
			namespaced = append(namespaced, j.Name)
		}
	}
	if len(namespaced) > 0 {
		return &RequestError{Status: http.StatusNotFound,
			Msg: fmt.Sprintf("no job %q: a job of a namespace is named with it: %s; "+ListJobsHint, shown, strings.Join(namespaced[:min(len(namespaced), 3)], ", "))}
	}
	if instances := FormationInstances(ref, list, fileJobs); len(instances) > 0 {
		names := make([]string, 0, 4)
		for _, j := range instances[:min(len(instances), 3)] {
			names = append(names, j.Name)
		}
		if len(instances) > 3 {
			names = append(names, "...")
		}
		return &RequestError{Status: http.StatusNotFound,
			Msg: fmt.Sprintf("no job %q: a formation runs it as %s: name one of them (stop, kill, restart and rm take %q for them all); "+ListJobsHint,
				shown, strings.Join(names, ", "), shown)}
	}
	if isFileJob(ref, fileJobs) {
		return &RequestError{Status: http.StatusNotFound,
			Msg: fmt.Sprintf("no job %q: the job file's %s was removed (jobtop clean or rm); jobtop reload brings it back; "+ListJobsHint, shown, shown)}
	}
	return &RequestError{Status: http.StatusNotFound,
		Msg: fmt.Sprintf("no job %q: give a job ID (a number) or a job's name; "+ListJobsHint, shown)}
}

// messageTextMax is how many characters of a name or pattern a message
// echoes.
const messageTextMax = 60

// CutForMessage is s (a job name or pattern as given) as a message
// echoes it: its first 60 characters and "..." when longer, so that a
// 10,000-character argument does not fill the terminal.
func CutForMessage(s string) string {
	if utf8.RuneCountInString(s) <= messageTextMax {
		return s
	}
	return string([]rune(s)[:messageTextMax]) + "..."
}

// ListJobsHint ends the API's message for an unknown job name; a client
// with its own words for listing jobs (the CLI's `jobtop ls`) puts them
// in its place.
const ListJobsHint = "GET /v1/jobs lists them"

// Bulk does a bulk action (BulkStop, BulkKill, BulkRestart, BulkRemove)
// on the jobs req picks; with wait, it returns once the action has taken
// effect on each.
func (c *Client) Bulk(ctx context.Context, verb string, req BulkRequest, wait bool) (BulkResponse, error) {
	return c.BulkWith(ctx, verb, req, wait, "")
}

// BulkWith is Bulk with a stop's signal (INT, SIGINT or 2) in place of
// each job's stop signal ("" is each one's own), or the signal a
// BulkSignal sends. Only those two take one.
func (c *Client) BulkWith(ctx context.Context, verb string, req BulkRequest, wait bool, sig string) (BulkResponse, error) {
	var q url.Values
	if wait {
		q = url.Values{"wait": {"true"}}
	}
	var resp BulkResponse
	err := c.call(ctx, http.MethodPost, "/v1/jobs/"+verb, withSignal(q, sig), req, &resp)
	return resp, err
}
