package control

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"time"
	"unicode"

	"jobtop/jobs"
)

// MaxBodyBytes bounds a request body.
const MaxBodyBytes = 1 << 20

// StartRequest is the body of POST /v1/jobs: a jobs.Spec with durations
// written as strings ("30s", "5m", "0.5") or numbers of seconds (Duration).
type StartRequest struct {
	Name    string            `json:"name,omitempty"`
	Command string            `json:"command,omitempty"`
	Argv    []string          `json:"argv,omitempty"`
	Cwd     string            `json:"cwd,omitempty"`
	Env     map[string]string `json:"env,omitempty"`
	// Environ is the environment the job starts from instead of the
	// instance's ("NAME=value" entries; jobs.Spec.Environ): jobtop run
	// sends its own. Env goes on top.
	Environ     []string          `json:"environ,omitempty"`
	Timeout     Duration          `json:"timeout,omitempty"`
	StopSignal  string            `json:"stop_signal,omitempty"`
	Grace       Duration          `json:"grace,omitempty"`
	Restart     *RestartRequest   `json:"restart,omitempty"`
	Ready       *ReadyRequest     `json:"ready,omitempty"`
	Health      *HealthRequest    `json:"health,omitempty"`
	DependsOn   map[string]string `json:"depends_on,omitempty"`
	Description string            `json:"description,omitempty"`
	// Origin and Client say who starts the job: "mcp" and the MCP
	// client's name for a coding agent's jobs.
	Origin string `json:"origin,omitempty"`
	Client string `json:"client,omitempty"`
	// TTY runs the job on a terminal (jobs.Spec.TTY); Stdin "pipe" gives a
	// pipe job a stdin that POST /v1/jobs/{id}/input writes to.
	TTY   bool   `json:"tty,omitempty"`
	Stdin string `json:"stdin,omitempty"`
	// After are jobs the new one starts after once each has succeeded
	// (jobs.Spec.After): IDs, or names, each the newest job with it when
	// the request is answered.
	After AfterRefs `json:"after,omitempty"`
}

// RestartRequest is a jobs.RestartPolicy on the wire, written as a job
// file writes it: what is left out takes the engine's default, and max 0
// means no limit. Policy is the job file's name for when it restarts;
// Mode, its older name here, is read as well (both given must agree) and
// is what SpecRequest writes, so that instances older than policy read it.
type RestartRequest struct {
	Policy     string   `json:"policy,omitempty"`
	Mode       string   `json:"mode,omitempty"`
	Backoff    Duration `json:"backoff,omitempty"`
	MaxBackoff Duration `json:"max_backoff,omitempty"`
	Max        *int     `json:"max,omitempty"`
}

// HealthRequest is a jobs.ProbeCheck for health checks on the wire: a
// probe, as in ready. It is a type of its own so that an unknown field
// in it is named as health's (see decodeObject).
type HealthRequest struct {
	ProbeRequest
}

// ReadyRequest is a jobs.ReadyCheck on the wire: log_pattern, after, or
// a probe (http, tcp or exec, with its timing).
type ReadyRequest struct {
	LogPattern string   `json:"log_pattern,omitempty"`
	After      Duration `json:"after,omitempty"`
	ProbeRequest
}

// Instance describes a running jobtop instance.
type Instance struct {
	PID     int       `json:"pid"`
	Kind    string    `json:"kind"` // "serve", "tui" or "demo" (jobtop demo --socket)
	Socket  string    `json:"socket"`
	Started time.Time `json:"started_at"`
	LogDir  string    `json:"log_dir"`
	// JobFile is the instance's job file (absolute); "" when it has none.
	JobFile string `json:"job_file,omitempty"`
	// JobFiles are the files the job file is merged from (absolute, in
	// merge order: a process-compose file's extends:, override file, more
	// -f files), when there are several.
	JobFiles []string `json:"job_files,omitempty"`
	// FileJobs are the names of the jobs the job file runs (as last
	// read), whether or not the instance has each now: a name among them
	// that no job has was removed since, and a reload brings it back.
	FileJobs []string `json:"file_jobs,omitempty"`
	// APIVersion is the API the instance speaks (see APIVersion); 0 from
	// an instance older than versions.
	APIVersion int `json:"api_version"`
	// MaxRunning is how many jobs it runs at once, 0 for no limit:
	// --max-running or the job file's max_parallel at first, then what
	// PUT /v1/parallel (jobtop parallel N) set.
	MaxRunning int `json:"max_running"`
	// Loading is the job file the instance is still loading (then
	// starting its jobs), "" once it serves: until then it answers
	// GET /v1/instance at once, with PID, Kind, Socket, Started,
	// APIVersion and this (the rest zero), and holds every other request until its jobs are in
	// place (see NewLoadingServer).
	Loading string `json:"loading,omitempty"`
	// Ending says the instance is shutting down (jobtop shutdown, its
	// TUI quitting, a signal): it stops its jobs and takes no new ones.
	Ending bool `json:"ending,omitempty"`
	// PreviousEnd is there when the instance on this socket before this
	// one ended without shutting down (killed, a crash): its jobs were
	// stopped when this one started, by its keeper or by this one.
	PreviousEnd *PreviousEnd `json:"previous_end,omitempty"`
}

// PreviousEnd describes an instance that ended without shutting down, as
// the next one on its socket found it.
type PreviousEnd struct {
	// PID is its process; 0 when it was too old to record it.
	PID int `json:"pid,omitempty"`
	// Jobs is how many of its jobs were running when it ended.
	Jobs int `json:"jobs"`
	// Stopped is how many processes its jobs left running that the new
	// instance stopped, its keeper having died too; 0 when the keeper
	// stopped them all.
	Stopped int `json:"stopped,omitempty"`
	// Queued is how many of its jobs waited in its queue (for a slot, or
	// a job to run after): they never started, and no instance runs
	// them now.
	Queued int `json:"queued,omitempty"`
}

// OutputResponse answers an output read. Lines are the committed lines
// after the cursor (in the asked stream only, when filtered); NextCursor is
// what to pass next time; More says the answer stopped at its bounds
// (lines, MaxOutputBytes) and more lines follow at once; Dropped counts
// lines the server no longer holds between the cursor and Lines[0];
// Partial holds lines still being built, not covered by the cursor. Ended
// says the job had ended (and no restart was pending) before the read, and
// every line was returned, so no more lines will follow.
type OutputResponse struct {
	Lines      []jobs.Line `json:"lines"`
	NextCursor uint64      `json:"next_cursor"`
	More       bool        `json:"more"`
	Dropped    uint64      `json:"dropped"`
	Partial    []jobs.Line `json:"partial"`
	// Cursor is the column of the cursor on the line being built on
	// stdout (where a terminal's line editing left it), with such a
	// line; CursorHidden says the job's program hid its cursor
	// (ESC[?25l, a progress bar). An attached TUI draws the cursor in
	// input mode from them. Older instances leave both out.
	Cursor       *int       `json:"partial_cursor,omitempty"`
	CursorHidden bool       `json:"cursor_hidden,omitempty"`
	State        jobs.State `json:"state"`
	Ended        bool       `json:"ended"`
	// ShutDown, with Ended, says the instance ended the job as it shut
	// down (jobtop shutdown, its TUI quit, a signal): it has no end of
	// its own. FollowOutput makes it an error (IsEnding).
	ShutDown bool `json:"shut_down,omitempty"`
	// Error ends a stream that could not go on (the job was removed).
	Error string `json:"error,omitempty"`
}

// WaitResponse answers a wait: the job, and whether it ended before the
// wait's timeout. A wait for readiness (ready=true) that ends with Ended
// false and Job.Ready true found the job ready.
type WaitResponse struct {
	Job   jobs.Info `json:"job"`
	Ended bool      `json:"ended"`
}

// EndAnswer answers a stop or kill of one job: the job, as it is once
// the action took effect (with wait) or once asked. Removed says the job
// ended and was removed before the answer (by the instance's cap on
// finished jobs, --keep-finished, or by another client): the job is as
// it was last.
type EndAnswer struct {
	jobs.Info
	Removed bool `json:"removed,omitempty"`
}

// MarshalJSON writes the job object (jobs.Info.MarshalJSON, which the
// embedded Info would otherwise stand in for alone) with "removed":
// true after its fields when the job was removed.
func (a EndAnswer) MarshalJSON() ([]byte, error) {
	b, err := a.Info.MarshalJSON()
	if err != nil || !a.Removed {
		return b, err
	}
	return append(b[:len(b)-1], `,"removed":true}`...), nil
}

// EventBatch is one line of the /v1/events stream: the first line is the
// snapshot, with Jobs holding every job; later lines hold Events.
type EventBatch struct {
	Jobs   []jobs.Info `json:"jobs,omitempty"`
	Events []Event     `json:"events,omitempty"`
	// MaxRunning is the instance's limit on jobs running at once (0: no
	// limit), on the snapshot and on a line of its own (no events) each
	// time it changes (jobtop parallel, a reload), with "events": []:
	// an attached TUI shows it as the local one does. Older instances
	// leave it out; older clients read that line as a batch of no events.
	MaxRunning *int `json:"max_running,omitempty"`
	// Shutdown is the last line of a stream whose instance is shutting
	// down on purpose (its owner quit, jobtop shutdown, SIGTERM), after
	// its jobs were stopped. A stream that ends without it lost its
	// instance (killed, crashed) or its connection.
	Shutdown bool `json:"shutdown,omitempty"`
	// Reason, with Shutdown, says why when no one asked for it (a job's
	// exit_on_failure).
	Reason string `json:"reason,omitempty"`
}

// Event is a jobs.Event on the wire; Kind is "added", "state", "output" or
// "removed".
type Event struct {
	Kind string    `json:"kind"`
	Job  jobs.Info `json:"job"`
}

type errorResponse struct {
	Error string `json:"error"`
	// Problems lists a job file's problems (POST /v1/reload).
	Problems []string `json:"problems,omitempty"`
}

func errorBody(msg string) []byte {
	b, _ := json.Marshal(errorResponse{Error: msg})
	return b
}

// RequestError is a client mistake in a request; the server answers 400
// (or Status when set) with its message.
type RequestError struct {
	Status int
	Msg    string
}

func (e *RequestError) Error() string { return e.Msg }

func badRequest(format string, args ...any) error {
	return &RequestError{Msg: fmt.Sprintf(format, args...)}
}

// AfterRefs are the jobs a new job starts after (StartRequest.After): IDs
// (numbers) or names (strings).
type AfterRefs []JobRef

// UnmarshalJSON reads an array of numbers and strings.
func (a *AfterRefs) UnmarshalJSON(b []byte) error {
	var raw []json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		return badRequest(`"after": give an array of job IDs (numbers) or names (strings), not %s`, b)
	}
	refs := make(AfterRefs, 0, len(raw))
	for _, r := range raw {
		ref, err := parseJobRef(r, "after")
		if err != nil {
			return err
		}
		refs = append(refs, ref)
	}
	*a = refs
	return nil
}

// DecodeStartRequest reads a StartRequest from r (at most MaxBodyBytes
// when r is a request body), and turns it into a checked jobs.Spec.
// Unknown fields, trailing data and bad durations are errors, and so is
// a name in after (see StartRequest.Spec).
func DecodeStartRequest(r io.Reader) (jobs.Spec, error) {
	return decodeStartRequest(r, nil)
}

// decodeStartRequest is DecodeStartRequest with the names in after
// resolved by resolve (StartRequest.SpecFor).
func decodeStartRequest(r io.Reader, resolve func(name string) (jobs.ID, error)) (jobs.Spec, error) {
	var req StartRequest
	dec, err := strictDecoder(r)
	if err != nil {
		return jobs.Spec{}, jsonError(err, req)
	}
	if err := dec.Decode(&req); err != nil {
		return jobs.Spec{}, jsonError(err, req)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return jobs.Spec{}, badRequest("malformed JSON: the body must hold one job object and nothing after it")
	}
	return req.SpecFor(resolve)
}

// jsonError turns a decoding error into a message a person can act on;
// body is what was decoded into (its fields are the known ones).
func jsonError(err error, body any) error {
	var syntax *json.SyntaxError
	var typ *json.UnmarshalTypeError
	var tooBig *http.MaxBytesError
	var nested *unknownFieldError
	var told *RequestError
	switch {
	case errors.As(err, &told):
		return told
	case errors.As(err, &tooBig):
		return &RequestError{Status: http.StatusRequestEntityTooLarge, Msg: fmt.Sprintf("request body is larger than %d bytes", tooBig.Limit)}
	case errors.Is(err, io.EOF):
		if e, ok := body.(interface{ emptyBody() string }); ok {
			return badRequest("empty body: %s", e.emptyBody())
		}
		return badRequest("empty body: send a job as JSON, e.g. {\"command\": \"make\"}")
	case errors.Is(err, io.ErrUnexpectedEOF):
		return badRequest("malformed JSON: the body ends in the middle of a value")
	case errors.As(err, &syntax):
		return badRequest("malformed JSON at byte %d: %v", syntax.Offset, err)
	case errors.As(err, &typ):
		field := typ.Field
		if field == "" {
			return badRequest("the body must be a JSON object, not %s", withArticle(typ.Value))
		}
		want, got := typeName(typ.Type), withArticle(typ.Value)
		if n, ok := strings.CutPrefix(typ.Value, "number "); ok {
			got = n // a number that does not fit: 1.5 or 1e40 for a whole number
		}
		// The path names embedded structs by their Go names
		// ("ready.ProbeRequest.headers"), and a map, not its key.
		path := strings.Split(field, ".")
		field = strings.Join(slices.DeleteFunc(slices.Clone(path), func(p string) bool {
			return p != "" && unicode.IsUpper(rune(p[0]))
		}), ".")
		if ft := fieldType(reflect.TypeOf(body), path); ft != nil && (ft.Kind() == reflect.Map || ft.Kind() == reflect.Slice) && ft.Elem() == typ.Type {
			return badRequest("field %q must be %s, not one holding %s", field, typeName(ft), got)
		}
		if want == "a whole number" && got != "" && strings.Trim(strings.TrimPrefix(got, "-"), "0123456789") == "" {
			return badRequest("field %q is too large: %s", field, got) // a whole number, past 64 bits
		}
		return badRequest("field %q must be %s, not %s", field, want, got)
	case errors.As(err, &nested):
		return badRequest("%v", nested)
	}
	if u, ok := unknownField(err, "", body); ok {
		return badRequest("%v", u)
	}
	return badRequest("malformed JSON: %v", err)
}

// fieldType is the type of the field at path in struct t: each name a
// field's JSON name, or an embedded struct's Go name; nil if there is
// none.
func fieldType(t reflect.Type, path []string) reflect.Type {
	for _, name := range path {
		for t != nil && t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
		if t == nil || t.Kind() != reflect.Struct {
			return nil
		}
		var next reflect.Type
		for i := range t.NumField() {
			f := t.Field(i)
			tag, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if tag == name || tag == "" && f.Name == name {
				next = f.Type
				break
			}
		}
		t = next
	}
	return t
}

func typeName(t reflect.Type) string {
	switch t {
	case reflect.TypeFor[JobRef]():
		return "a job ID (a number) or name (a string)"
	case reflect.TypeFor[Duration]():
		return "a duration: a string (\"30s\", \"5m\") or a number of seconds"
	case reflect.TypeFor[[]JobRef]():
		return "an array of job IDs (numbers) or names (strings)"
	}
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "a whole number"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Slice, reflect.Array:
		elem := typeName(t.Elem())
		if elem == "true or false" {
			return "an array of true or false"
		}
		return "an array of " + strings.TrimPrefix(strings.TrimPrefix(elem, "an "), "a ") + "s"
	case reflect.Map:
		return "an object of " + strings.TrimPrefix(strings.TrimPrefix(typeName(t.Elem()), "an "), "a ") + "s"
	case reflect.Pointer:
		return typeName(t.Elem())
	}
	return "an object"
}

// withArticle is a JSON value's kind as encoding/json names it ("bool",
// "array", "number"), with its article: "a bool" reads "true or false".
func withArticle(kind string) string {
	kind, _, _ = strings.Cut(kind, " ")
	switch kind {
	case "bool":
		return "true or false"
	case "array", "object":
		return "an " + kind
	}
	return "a " + kind
}

// Spec checks the request and turns it into a jobs.Spec: durations parsed,
// cwd absolute, then jobs.Spec.Validate. It does not look at the file
// system, nor at the instance's jobs: a job's name in After is refused
// (SpecFor resolves them).
func (r StartRequest) Spec() (jobs.Spec, error) { return r.SpecFor(nil) }

// SpecFor is Spec with each job named in After (by name, not ID) turned
// into its ID by resolve; nil refuses names. IDs are kept as they are:
// the engine refuses one that names no job.
func (r StartRequest) SpecFor(resolve func(name string) (jobs.ID, error)) (jobs.Spec, error) {
	spec := jobs.Spec{
		Name:        r.Name,
		Command:     r.Command,
		Argv:        r.Argv,
		Dir:         r.Cwd,
		Env:         r.Env,
		Environ:     r.Environ,
		Description: r.Description,
		Origin:      r.Origin,
		Client:      r.Client,
		TTY:         r.TTY,
	}
	var err error
	if spec.Stdin, err = jobs.ParseStdin(r.Stdin); err != nil {
		return jobs.Spec{}, badRequest("%v", err)
	}

	if spec.Timeout, err = parseDuration("timeout", r.Timeout); err != nil {
		return jobs.Spec{}, err
	}
	if spec.Grace, err = parseDuration("grace", r.Grace); err != nil {
		return jobs.Spec{}, err
	}
	if r.StopSignal != "" {
		if spec.StopSignal, err = jobs.ParseSignal(r.StopSignal); err != nil {
			return jobs.Spec{}, badRequest("stop_signal: %v", err)
		}
	}
	if r.Restart != nil {
		mode, err := r.Restart.mode()
		if err != nil {
			return jobs.Spec{}, err
		}
		spec.Restart = jobs.RestartPolicy{Mode: mode}
		if m := r.Restart.Max; m != nil {
			switch {
			case *m < 0:
				return jobs.Spec{}, badRequest("restart.max %d is negative: give a count, or 0 for no limit", *m)
			case *m == 0:
				spec.Restart.Max = jobs.NoRestartLimit
			default:
				spec.Restart.Max = *m
			}
		}
		if spec.Restart.Backoff, err = parseDuration("restart.backoff", r.Restart.Backoff); err != nil {
			return jobs.Spec{}, err
		}
		if spec.Restart.MaxBackoff, err = parseDuration("restart.max_backoff", r.Restart.MaxBackoff); err != nil {
			return jobs.Spec{}, err
		}
		// A zero wait given is refused, as a job file refuses it: the
		// spec's 0 means "the default", which "0s" silently got.
		if r.Restart.Backoff != "" && spec.Restart.Backoff == 0 {
			return jobs.Spec{}, badRequest("restart.backoff %s: must be more than 0 (left out, %v, doubled on each restart in a row)", r.Restart.Backoff, jobs.DefaultRestartBackoff)
		}
		if r.Restart.MaxBackoff != "" && spec.Restart.MaxBackoff == 0 {
			return jobs.Spec{}, badRequest("restart.max_backoff %s: must be more than 0 (left out, %v)", r.Restart.MaxBackoff, jobs.DefaultRestartMaxBackoff)
		}
		first := spec.Restart.Backoff
		if first == 0 {
			first = jobs.DefaultRestartBackoff
		}
		if r.Restart.MaxBackoff != "" && spec.Restart.MaxBackoff < first {
			// As a job file says it: the backoff would start past its cap.
			return jobs.Spec{}, badRequest("restart.max_backoff %v is less than backoff %v", spec.Restart.MaxBackoff, first)
		}
	}
	if r.Ready != nil {
		if r.Ready.LogPattern == "" && r.Ready.After == "" && !r.Ready.given() {
			return jobs.Spec{}, badRequest("ready: nothing to wait for: give log_pattern, after, or a probe (http, tcp or exec); leave ready out for a job that is ready once it runs")
		}
		spec.Ready.LogPattern = r.Ready.LogPattern
		if spec.Ready.After, err = parseDuration("ready.after", r.Ready.After); err != nil {
			return jobs.Spec{}, err
		}
		if r.Ready.given() {
			if spec.Ready.Probe, err = r.Ready.check("ready"); err != nil {
				return jobs.Spec{}, err
			}
		}
	}
	if r.Health != nil {
		if spec.Health, err = r.Health.check("health"); err != nil {
			return jobs.Spec{}, err
		}
	}
	if len(r.DependsOn) > 0 {
		spec.DependsOn = make(map[string]jobs.Condition, len(r.DependsOn))
		for name, cond := range r.DependsOn {
			spec.DependsOn[name] = jobs.Condition(cond)
		}
	}
	for _, ref := range r.After {
		id, err := jobs.ParseID(string(ref))
		if err != nil {
			if resolve == nil {
				return jobs.Spec{}, badRequest("after: %q is a job's name: give its ID", string(ref))
			}
			if id, err = resolve(string(ref)); err != nil {
				return jobs.Spec{}, err
			}
		}
		if !slices.Contains(spec.After, id) {
			spec.After = append(spec.After, id)
		}
	}
	if spec.Dir != "" && !filepath.IsAbs(spec.Dir) {
		return jobs.Spec{}, badRequest("cwd %q is relative: give an absolute path (the server's working directory is not yours)", spec.Dir)
	}
	if err := spec.Validate(); err != nil {
		return jobs.Spec{}, badRequest("%v", err)
	}
	if err := spec.CheckSelfDependency(); err != nil {
		return jobs.Spec{}, badRequest("%v", err)
	}
	return spec, nil
}

// mode is the restart policy asked for, by its job file's name (policy)
// or its older one (mode).
func (r RestartRequest) mode() (jobs.RestartMode, error) {
	switch {
	case r.Policy == "":
		return jobs.RestartMode(r.Mode), nil
	case r.Mode == "" || r.Mode == r.Policy:
		return jobs.RestartMode(r.Policy), nil
	}
	return "", badRequest("restart.policy %q and restart.mode %q differ: give one (mode is policy's older name)", r.Policy, r.Mode)
}

// Duration is a duration in a request body as it was given: a string
// with a unit ("30s", "1h30m") or of a number of seconds ("30", "0.5"),
// or a JSON number of seconds (30, 0.5), as jobtop takes a duration
// everywhere (jobs.ParseDuration). The request's checks read it.
type Duration string

// UnmarshalJSON takes a string, or a number as its text.
func (d *Duration) UnmarshalJSON(b []byte) error {
	switch {
	case string(b) == "null":
		return nil
	case b[0] == '"':
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		*d = Duration(s)
		return nil
	case b[0] == '-' || b[0] >= '0' && b[0] <= '9':
		*d = Duration(b)
		return nil
	}
	kind := map[byte]string{'t': "bool", 'f': "bool", '[': "array", '{': "object"}[b[0]]
	return &json.UnmarshalTypeError{Value: kind, Type: reflect.TypeFor[Duration]()}
}

// parseDuration reads a duration field or parameter: empty is zero,
// negative is refused.
func parseDuration[S ~string](field string, text S) (time.Duration, error) {
	s := string(text)
	if s == "" {
		return 0, nil
	}
	d, err := jobs.ParseDuration(s)
	if errors.Is(err, jobs.ErrDurationTooLarge) {
		return 0, badRequest("%s %q is too large: at most %s", field, s, jobs.MaxDurationText)
	}
	if err != nil {
		return 0, badRequest("%s %q is not a duration: write a number of seconds (30, 0.5) or a number with a unit, like 30s, 5m or 1h30m", field, s)
	}
	if d < 0 {
		return 0, badRequest("%s %s is negative", field, s)
	}
	return d, nil
}

// maxEnviron bounds the environment a request carries (CallerEnviron),
// within MaxBodyBytes with room for the rest of the job.
const maxEnviron = 512 << 10

// CallerEnviron is this process's environment for a job it starts on an
// instance (StartRequest.Environ), without jobtop's own variables
// (JOBTOP_*), which the instance sets for each job (a jobtop run inside a
// job would hand the new job its parent's), and without entries that are
// no NAME=value (a program may put any string there). When it is larger
// than a request carries (maxEnviron), its largest variables are left
// out until it fits (the job keeps PATH and the rest), and left names
// them.
func CallerEnviron() (env, left []string) {
	for _, kv := range os.Environ() {
		if k, _, ok := strings.Cut(kv, "="); !ok || k == "" || strings.HasPrefix(kv, "JOBTOP_") || strings.ContainsRune(kv, 0) {
			continue
		}
		env = append(env, kv)
	}
	// As the request carries it: JSON writes some bytes as \u0026.
	size := func(kv string) int { b, _ := json.Marshal(kv); return len(b) + 1 }
	total := 2
	for _, kv := range env {
		total += size(kv)
	}
	if total <= maxEnviron {
		return env, nil
	}
	// The largest first, but the ones a job cannot do without last (a
	// long PATH of Nix or conda is the largest, and the job's program
	// was then not found).
	bySize := slices.Clone(env)
	slices.SortStableFunc(bySize, func(a, b string) int {
		if ka, kb := keptLast(a), keptLast(b); ka != kb {
			if ka {
				return 1
			}
			return -1
		}
		return size(b) - size(a)
	})
	drop := make(map[string]bool)
	for _, kv := range bySize {
		if total <= maxEnviron {
			break
		}
		total -= size(kv)
		drop[kv] = true
		name, _, _ := strings.Cut(kv, "=")
		left = append(left, name)
	}
	env = slices.DeleteFunc(env, func(kv string) bool { return drop[kv] })
	return env, left
}

// keptLast says kv is a variable CallerEnviron leaves out last: what
// finds and runs a job's program and its language's packages.
func keptLast(kv string) bool {
	name, _, _ := strings.Cut(kv, "=")
	switch name {
	case "PATH", "HOME", "USER", "SHELL", "LANG", "TERM", "VIRTUAL_ENV", "CONDA_PREFIX", "GOPATH", "NODE_PATH", "PYTHONPATH":
		return true
	}
	return false
}

// SpecRequest turns a jobs.Spec into the request that starts it.
func SpecRequest(s jobs.Spec) StartRequest {
	req := StartRequest{
		Name: s.Name, Command: s.Command, Argv: s.Argv, Cwd: s.Dir, Env: s.Env, Environ: s.Environ,
		Description: s.Description,
		Origin:      s.Origin,
		Client:      s.Client,
		TTY:         s.TTY,
		Stdin:       string(s.Stdin),
		Timeout:     formatDuration(s.Timeout),
		Grace:       formatDuration(s.Grace),
	}
	if s.StopSignal != 0 {
		req.StopSignal = s.StopSignal.String()
	}
	if s.Restart != (jobs.RestartPolicy{}) {
		req.Restart = &RestartRequest{
			Mode: string(s.Restart.Mode), Max: restartMax(s.Restart.Max),
			Backoff:    formatDuration(s.Restart.Backoff),
			MaxBackoff: formatDuration(s.Restart.MaxBackoff),
		}
	}
	if s.Ready != (jobs.ReadyCheck{}) {
		req.Ready = &ReadyRequest{LogPattern: s.Ready.LogPattern, After: formatDuration(s.Ready.After),
			ProbeRequest: probeRequest(s.Ready.Probe)}
	}
	if h := probeRequest(s.Health); h.given() {
		req.Health = &HealthRequest{h}
	}
	for _, id := range s.After {
		req.After = append(req.After, JobRef(id.String()))
	}
	if len(s.DependsOn) > 0 {
		req.DependsOn = make(map[string]string, len(s.DependsOn))
		for name, cond := range s.DependsOn {
			req.DependsOn[name] = string(cond)
		}
	}
	return req
}

// restartMax writes a policy's Max as a request does: nil for the
// default, 0 for no limit.
func restartMax(n int) *int {
	switch n {
	case 0:
		return nil
	case jobs.NoRestartLimit:
		n = 0
	}
	return &n
}

func formatDuration(d time.Duration) Duration {
	if d == 0 {
		return ""
	}
	return Duration(d.String())
}

// encodeJSON is json.Marshal without HTML escaping, plus a newline.
// ndjsonWriter starts an NDJSON answer on w and returns the function that
// writes one value as a line and flushes it; false means the client went.
func ndjsonWriter[T any](w http.ResponseWriter) func(T) bool {
	w.Header().Set("Content-Type", "application/x-ndjson")
	w.WriteHeader(http.StatusOK)
	flusher, _ := w.(http.Flusher)
	return func(v T) bool {
		streamWriteDeadline(w)
		defer streamWriteDone(w)
		if _, err := w.Write(encodeJSON(v)); err != nil {
			return false
		}
		if flusher != nil {
			streamWriteDeadline(w)
			flusher.Flush()
		}
		return true
	}
}

// encodeJSON is v as one line of JSON, HTML characters unescaped.
// (segmentio's encoder, which decodes answers twice as fast, encoded the
// list of 1,000 jobs no faster: BenchmarkListJobs1000.)
func encodeJSON(v any) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return append(errorBody("cannot encode the answer: "+err.Error()), '\n')
	}
	return buf.Bytes()
}
