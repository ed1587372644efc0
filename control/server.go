package control

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"path"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"jobtop/jobs"
	"jobtop/vtscreen"
)

// manager is what the server needs of a *jobs.Manager.
type manager interface {
	Start(jobs.Spec) (jobs.Info, error)
	List() []jobs.Info
	Get(jobs.ID) (jobs.Info, error)
	Lookup(name string) (jobs.ID, bool)
	Output(jobs.ID) (jobs.OutputReader, error)
	Subscribe() jobs.EventStream
	Stop(jobs.ID) error
	StopWith(jobs.ID, jobs.Signal) error
	Kill(jobs.ID) error
	StopJobs([]jobs.ID) []error
	StopJobsWith([]jobs.ID, jobs.Signal) []error
	KillJobs([]jobs.ID) []error
	SignalJobs([]jobs.ID, jobs.Signal) []error
	Restart(jobs.ID) (jobs.Info, error)
	Remove(jobs.ID) error
	Wait(context.Context, jobs.ID) (jobs.Info, error)
	LogDir() string
	Arrivals() uint64
	RemovedOutputAfter(arrival uint64) []jobs.RemovedOutput
	Input(jobs.ID, []byte) error
	CloseInput(jobs.ID) error
	Resize(id jobs.ID, cols, rows int) error
	Screen(jobs.ID) (vtscreen.Snapshot, error)
	MaxRunning() int
	SetMaxRunning(int) error
	MaxRunningChanged() <-chan struct{}
	DroppedEnds() ([]jobs.Info, int)
	ForgetDroppedEnds()
}

// Server serves one jobs.Manager over HTTP+JSON. Create it with NewServer,
// run it with Serve on a listener from Listen, end it with Close.
type Server struct {
	mgr  manager
	inst Instance
	mux  *http.ServeMux
	http *http.Server
	// errors is what net/http logs, filtered (serverLog).
	errors *serverLog

	base      context.Context // cancelled by Close: ends streams and waits
	cancel    context.CancelFunc
	closeOnce sync.Once

	// params are the query parameters each endpoint takes, by its
	// pattern (route).
	params map[string][]string

	reloadMu sync.Mutex
	reloader Reloader // nil: the instance has no job file

	shutdownAsked chan struct{} // closed by POST /v1/shutdown
	shutdownOnce  sync.Once
	quitting      atomic.Bool            // Quitting
	shutdownWhy   atomic.Pointer[string] // SetShutdownReason
	streams       chan struct{}          // one token per open stream; MaxStreams at most
	conns         connCounter
	// bodyReadTimeout is BodyReadTimeout (a field for the tests).
	bodyReadTimeout time.Duration

	// The loading phase (NewLoadingServer): opened is closed by Open
	// (mgr set, every request served) or by Fail (failed set, every
	// request refused); loadingInst answers GET /v1/instance until
	// then.
	opened      chan struct{}
	openOnce    sync.Once
	failed      string
	loadingInst Instance
}

// SetShutdownReason says why the instance is about to shut down when no
// one asked for it (a job's exit_on_failure): the events stream's last
// line carries it, and an attached TUI says it.
func (s *Server) SetShutdownReason(why string) { s.shutdownWhy.Store(&why) }

// SetPreviousEnd says, before Open, that the instance before this one on
// the socket ended without shutting down (GET /v1/instance).
func (s *Server) SetPreviousEnd(e *PreviousEnd) { s.inst.PreviousEnd = e }

// shutdownReason is what SetShutdownReason said, "" if nothing.
func (s *Server) shutdownReason() string {
	if why := s.shutdownWhy.Load(); why != nil {
		return *why
	}
	return ""
}

// NewServer makes a server for m. inst describes this instance to clients
// (GET /v1/instance); its PID and Started default to this process and now.
func NewServer(m *jobs.Manager, inst Instance) *Server {
	s := newLoadingServer(inst, "")
	s.Open(m)
	return s
}

func newServer(m manager, inst Instance) *Server {
	s := newLoadingServer(inst, "")
	s.open(m)
	return s
}

// NewLoadingServer makes the server of an instance that is still loading
// its job file (loading names it; "" for none) and has no manager yet:
// served (Serve) on the socket it claimed, it answers GET /v1/instance at
// once, saying who it is and what it loads, and holds every other request
// until Open gives it the manager, once every job of the file is in
// place (a client never sees half a file), or Fail says why there will
// be none. Close before either fails it as ending.
func NewLoadingServer(inst Instance, loading string) *Server {
	return newLoadingServer(inst, loading)
}

func newLoadingServer(inst Instance, loading string) *Server {
	if inst.PID == 0 {
		inst.PID = os.Getpid()
	}
	if inst.Started.IsZero() {
		inst.Started = time.Now()
	}
	inst.APIVersion = APIVersion
	s := &Server{inst: inst, mux: http.NewServeMux(), shutdownAsked: make(chan struct{}), streams: make(chan struct{}, MaxStreams), opened: make(chan struct{}), bodyReadTimeout: BodyReadTimeout}
	s.loadingInst = inst
	s.loadingInst.Loading = loading
	s.base, s.cancel = context.WithCancel(context.Background())
	s.routes()
	// HTTP/1.1 for local clients and curl; HTTP/2 without TLS (prior
	// knowledge) for clients over ssh, which multiplex on one channel.
	protocols := new(http.Protocols)
	protocols.SetHTTP1(true)
	protocols.SetUnencryptedHTTP2(true)
	// Errors are answered to clients; what no client hears of is logged
	// where LogTo says (a TUI owns the terminal: nowhere).
	s.errors = &serverLog{w: io.Discard}
	s.http = &http.Server{
		Protocols:         protocols,
		Handler:           s.Handler(),
		ReadHeaderTimeout: ReadHeaderTimeout,
		IdleTimeout:       IdleTimeout,
		ConnState:         s.conns.track,
		ErrorLog:          log.New(s.errors, "", 0),
	}
	return s
}

// LogTo has the errors no client is told of (a connection that could not
// be accepted, a handler's panic) written to w; before Serve.
func (s *Server) LogTo(w io.Writer) {
	s.errors.mu.Lock()
	defer s.errors.mu.Unlock()
	s.errors.w = w
}

// Open ends the loading phase (NewLoadingServer): from now on the server
// serves m, and the requests it held are served. Call it once the
// instance's jobs are in place.
func (s *Server) Open(m *jobs.Manager) { s.open(m) }

func (s *Server) open(m manager) {
	s.openOnce.Do(func() {
		s.mgr = m
		if s.inst.LogDir == "" {
			s.inst.LogDir = m.LogDir()
		}
		close(s.opened)
	})
}

// Fail ends the loading phase without a manager: the requests held, and
// any after, are refused with why (the job file's problems, say), as the
// instance on this socket that stopped before it served.
func (s *Server) Fail(why string) {
	s.openOnce.Do(func() {
		s.failed = fmt.Sprintf("the jobtop instance on %s (pid %d) stopped before it served: %s", s.inst.Socket, s.inst.PID, why)
		close(s.opened)
	})
}

// Stopped ends the loading phase as Fail does, for an instance stopped
// (how: "by SIGTERM") before it served: the requests held are refused
// saying so.
func (s *Server) Stopped(how string) {
	s.openOnce.Do(func() {
		s.failed = fmt.Sprintf("the jobtop instance on %s (pid %d) was stopped %s before it served", s.inst.Socket, s.inst.PID, how)
		close(s.opened)
	})
}

// awaitOpen holds a request until the loading phase ends (at once after
// it); it answers GET /v1/instance itself meanwhile. It reports whether
// the request is to be served.
func (s *Server) awaitOpen(w http.ResponseWriter, r *http.Request) bool {
	select {
	case <-s.opened:
	default:
		if r.Method == http.MethodGet && r.URL.Path == "/v1/instance" && !r.URL.Query().Has("loaded") {
			writeJSON(w, http.StatusOK, s.loadingInst)
			return false
		}
		if r.Method == http.MethodPost && r.URL.Path == "/v1/shutdown" {
			// Passed on at once (ShutdownRequested), so that the owner
			// can call the start of a big job file off rather than first
			// start every job only to stop them all; answered, as ever,
			// once the server opens and the jobs have ended.
			s.askShutdown()
		}
		select {
		case <-s.opened:
		case <-r.Context().Done():
			return false
		}
	}
	if s.failed != "" {
		writeError(w, &RequestError{Status: http.StatusServiceUnavailable, Msg: s.failed})
		return false
	}
	return true
}

func (s *Server) routes() {
	s.params = make(map[string][]string)
	s.route("GET /v1/instance", s.handleInstance, "loaded")
	s.route("GET /v1/jobs", s.handleList, "job", "state", "name", "fields")
	s.route("POST /v1/jobs", s.handleStart)
	s.route("GET /v1/jobs/{id}", s.handleGet)
	s.route("DELETE /v1/jobs/{id}", s.handleRemove)
	s.route("POST /v1/jobs/{id}/stop", s.handleStop, "wait", "signal")
	s.route("POST /v1/jobs/{id}/kill", s.handleKill, "wait", "signal") // signal: to say a kill is SIGKILL
	s.route("POST /v1/jobs/{id}/signal", s.handleSignal, "signal")
	s.route("POST /v1/jobs/{id}/restart", s.handleRestart, "wait")
	s.route("GET /v1/jobs/{id}/wait", s.handleWait, "timeout", "ready")
	s.route("GET /v1/jobs/{id}/output", s.handleOutput, outputParams...)
	s.route("POST /v1/jobs/{id}/input", s.handleInput)
	s.route("POST /v1/jobs/{id}/resize", s.handleResize)
	s.route("GET /v1/jobs/{id}/screen", s.handleScreen, "ansi")
	s.route("GET /v1/events", s.handleEvents)
	s.route("POST /v1/reload", s.handleReload)
	s.route("GET /v1/output", s.handleAllOutput, outputParams...)       // wait: to say it is one job's
	s.route("GET /v1/dropped", s.handleDropped, "job", "state", "name") // job: to say how to ask after one
	s.route("GET /v1/parallel", s.handleGetParallel)
	s.route("PUT /v1/parallel", s.handleSetParallel)
	for _, verb := range []string{BulkStop, BulkKill, BulkRestart, BulkRemove, BulkSignal} {
		s.route("POST /v1/jobs/"+verb, s.handleBulk(verb), "wait", "signal")
	}
	s.route("POST /v1/shutdown", s.handleShutdown)
}

// outputParams are the query parameters of an output read (OutputQuery).
var outputParams = []string{"cursor", "max", "tail", "stream", "wait", "follow", "timeout"}

// route serves pattern with h, which takes the query parameters params:
// the Handler refuses any other (400), as a body's unknown field is, so
// a misspelt one (timout=, since=) is not silently a request without it.
func (s *Server) route(pattern string, h http.HandlerFunc, params ...string) {
	s.mux.HandleFunc(pattern, h)
	s.params[pattern] = params
}

// unknownParam refuses a query parameter the endpoint at pattern does
// not take, naming those it takes; nil when there is none.
func (s *Server) unknownParam(r *http.Request, pattern string) error {
	known := s.params[pattern]
	var unknown []string
	for name := range r.URL.Query() {
		if !slices.Contains(known, name) {
			unknown = append(unknown, name)
		}
	}
	if len(unknown) == 0 {
		return nil
	}
	slices.Sort(unknown)
	takes := "it takes none"
	if len(known) > 0 {
		takes = "it takes " + strings.Join(known, ", ")
	}
	return badRequest("unknown parameter %q for %s; %s", unknown[0], pattern, takes)
}

// Handler is the API as an http.Handler (for tests with httptest).
// Requests that match no endpoint get a JSON 404 or 405.
func (s *Server) Handler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !s.readBody(w, r) {
			return
		}
		if p := r.URL.EscapedPath(); p != cleanPath(p) {
			// The mux would redirect to the clean path, and a client
			// that follows turns POST /v1/jobs//stop (an empty ID) into
			// the bulk stop: a path is taken as it is, or refused.
			writeError(w, &RequestError{Status: http.StatusNotFound, Msg: "no endpoint " + r.Method + " " + p +
				": a path has no empty, \".\" or \"..\" part (an empty job ID?); the API lives under /v1/ (see GET /v1/jobs)"})
			return
		}
		if !s.awaitOpen(w, r) {
			return
		}
		if _, pattern := s.mux.Handler(r); pattern != "" {
			if err := s.unknownParam(r, pattern); err != nil {
				writeError(w, err)
				return
			}
			s.mux.ServeHTTP(w, r)
			return
		}
		// Let the mux decide between 404 and 405 (and the Allow
		// header), then answer in JSON.
		rec := &statusRecorder{header: make(http.Header)}
		s.mux.ServeHTTP(rec, r)
		if allow := rec.header.Get("Allow"); allow != "" {
			w.Header().Set("Allow", allow)
		}
		if rec.status == http.StatusMethodNotAllowed {
			writeError(w, &RequestError{Status: rec.status, Msg: r.Method + " is not allowed on " + r.URL.Path + "; allowed: " + rec.header.Get("Allow")})
			return
		}
		writeError(w, &RequestError{Status: http.StatusNotFound, Msg: "no endpoint " + r.Method + " " + r.URL.Path + "; the API lives under /v1/ (see GET /v1/jobs)"})
	})
}

// cleanPath is p as the mux cleans it: no empty, "." or ".." segment,
// a trailing slash kept.
func cleanPath(p string) string {
	if p == "" {
		return p
	}
	c := path.Clean(p)
	if strings.HasSuffix(p, "/") && c != "/" {
		c += "/"
	}
	return c
}

// Serve answers connections on l until Close. It returns nil after Close.
func (s *Server) Serve(l net.Listener) error {
	err := s.http.Serve(l)
	if errors.Is(err, http.ErrServerClosed) {
		return nil
	}
	return err
}

// Close ends open streams and waits, closes the listeners and connections.
// Jobs keep running: shutting the manager down is its owner's call.
func (s *Server) Close() error {
	var err error
	s.closeOnce.Do(func() {
		s.Fail(instanceEndingText)
		s.cancel()
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		if err = s.http.Shutdown(ctx); err != nil {
			err = s.http.Close()
		}
	})
	return err
}

// requestContext ends with the request, with Close, or after timeout (>0).
func (s *Server) requestContext(r *http.Request, timeout time.Duration) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(r.Context())
	stop := context.AfterFunc(s.base, cancel)
	if timeout > 0 {
		var cancelT context.CancelFunc
		ctx, cancelT = context.WithTimeout(ctx, timeout)
		return ctx, func() { cancelT(); stop(); cancel() }
	}
	return ctx, func() { stop(); cancel() }
}

// ListenAndServe is the usual way to run an instance: it listens on path
// (see Listen) and serves m in a new goroutine until the returned server is
// closed. Every job m starts should have been given SocketEnv=path through
// jobs.Options.Env.
func ListenAndServe(m *jobs.Manager, path string, inst Instance) (*Server, error) {
	l, err := Listen(path)
	if err != nil {
		return nil, err
	}
	inst.Socket = path
	s := NewServer(m, inst)
	go s.Serve(l) //nolint:errcheck // ends with Close
	return s, nil
}

type statusRecorder struct {
	header http.Header
	status int
}

func (r *statusRecorder) Header() http.Header         { return r.header }
func (r *statusRecorder) Write(b []byte) (int, error) { return len(b), nil }
func (r *statusRecorder) WriteHeader(status int)      { r.status = status }
