package control

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	fastjson "github.com/segmentio/encoding/json"

	"jobtop/jobs"
)

// Client talks to one jobtop instance over its socket. Its methods with a
// context are the API one call each, for the CLI; its engine methods (List,
// Get, Output, Start, Stop, Kill, Restart, Remove, Subscribe; see attach.go)
// let a TUI drive the instance as if it were in-process.
type Client struct {
	socket string
	host   *Host // nil: the instance on this machine's socket
	http   *http.Client
	dialer *hostDialer // a host's connections; nil on this machine
	// reconnect keeps an attached mirror trying again when its events
	// stream breaks (see SetReconnect).
	reconnect bool
	// sameOnly keeps those attempts to the instance attached to (see
	// SetReconnectSame).
	sameOnly bool

	mirrorOnce sync.Once
	mirror     atomic.Pointer[mirror]
	mirrorErr  error // set once by Attach

	answered atomic.Bool // an instance has answered a request (Answered)

	// answerTimeout bounds the wait for the instance's first answer on
	// a new connection (SetAnswerTimeout), as a time.Duration.
	answerTimeout atomic.Int64

	loadingNote func(Instance) // SetLoadingNote; nil: none
}

// Answered reports whether an instance has answered one of this client's
// requests: a call that finds none listening afterwards (a
// *NotRunningError) means the one that answered went away.
func (c *Client) Answered() bool { return c.answered.Load() }

// NewClient makes a client for the instance on socket. It does not connect
// until a call needs it, and then only to a socket it trusts: in a
// directory of this user's that no one else may write to, served by a process of this
// user's (else calls fail with an *UntrustedSocketError).
func NewClient(socket string) *Client {
	c := &Client{socket: socket}
	transport := &http.Transport{
		DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
			return dialAnswered(ctx, socket, time.Duration(c.answerTimeout.Load()), c.loadingNote)
		},
		MaxIdleConns:    4,
		IdleConnTimeout: 30 * time.Second,
	}
	c.http = &http.Client{Transport: transport}
	return c
}

// Socket is the path the client connects to (on the far side, for a
// client of a Host; "" there means its default).
func (c *Client) Socket() string { return c.socket }

// Host is the host the client reaches over ssh; nil for this machine's
// instance.
func (c *Client) Host() *Host { return c.host }

// where names the instance in messages: its socket, or its host.
func (c *Client) where() string {
	if c.host != nil {
		return "host " + c.host.Name()
	}
	return c.socket
}

// NotRunningError says no instance answers on the socket.
type NotRunningError struct {
	Path string
	Err  error
	// Start says how to start one when that is not `jobtop serve` here
	// (on another host, where jobtop --host serve is refused).
	Start string
}

func (e *NotRunningError) Error() string {
	if errors.Is(e.Err, syscall.EACCES) {
		return fmt.Sprintf("cannot connect to %s: permission denied (is it another user's?)", e.Path)
	}
	start := e.Start
	if start == "" {
		start = "start one with `jobtop serve`; `jobtop run` starts one for you"
	}
	return fmt.Sprintf("no jobtop is listening on %s (%s)", e.Path, start)
}

func (e *NotRunningError) Unwrap() error { return e.Err }

// LostError says the connection to the instance broke off before its
// answer was whole: the instance ended (killed, crashed) while it
// answered, or the link to its host went down. Err says how.
type LostError struct {
	Err error
}

func (e *LostError) Error() string { return e.Err.Error() }

func (e *LostError) Unwrap() error { return e.Err }

// BrokeOff says the connection to the instance broke off while doing
// (e.g. "waiting for job 3"), err saying how, when the instance that
// answered before answers still: only the link (ssh's) broke, and the
// jobs run on. The CLI and the MCP tools say it in these words. Over
// ssh, how it broke is the ssh connection's end, which err only tells
// in the HTTP client's words ("Get \"http://jobtop/v1/...\": unexpected
// EOF"): they are left out.
func (c *Client) BrokeOff(doing string, err error) error {
	if c.host != nil {
		return fmt.Errorf("the ssh connection to the jobtop instance on %s broke off while %s; the instance still runs there, and its jobs with it", c.where(), doing)
	}
	return fmt.Errorf("the connection to the jobtop instance on %s broke off while %s (%v); the instance still runs", c.where(), doing, err)
}

// Unreached says the ssh connection to a host's instance broke off while
// doing, and a new one (perr its failure) did not reach the instance:
// the link may be down, which says nothing of the instance there. The
// CLI and the MCP tools say it in these words.
func (c *Client) Unreached(doing string, perr error) error {
	said := ""
	if why := Unreachable(perr); why != "" {
		said = " (" + why + ")"
	}
	check := ""
	if c.host != nil {
		check = "; `" + c.host.CheckCommand() + "` says whether it answers"
	}
	return fmt.Errorf("the ssh connection to the jobtop instance on %s broke off while %s, and a new one did not reach it%s: the instance there may still run, and its jobs with it%s",
		c.where(), doing, said, check)
}

// RecheckTimeout is how long a look at whether the instance still answers,
// after a connection broke off, may take: over ssh a new connection logs
// in first, and gets as long as a first answer from the host does.
func (c *Client) RecheckTimeout() time.Duration {
	if c.host == nil {
		return 5 * time.Second
	}
	if c.host.AnswerTimeout > 0 {
		return c.host.AnswerTimeout
	}
	return DefaultAnswerTimeout
}

// IsLost reports whether err is an answer cut off by the instance going
// away: a connection that broke off (*LostError), or a wait the instance
// cut off because it is ending itself (IsEnding).
func IsLost(err error) bool {
	var lost *LostError
	return errors.As(err, &lost) || IsEnding(err)
}

// IsEnding reports whether err is the instance's answer that it is
// ending (its server closing), which cut a wait off.
func IsEnding(err error) bool {
	var apiErr *APIError
	return errors.As(err, &apiErr) && apiErr.Status == http.StatusServiceUnavailable && strings.HasPrefix(apiErr.Message, instanceEndingText)
}

// IsStoppedByShutdown reports whether err says the instance ended the job
// (or jobs) waited for or followed as it shut down: IsEnding, with that
// cause.
func IsStoppedByShutdown(err error) bool {
	return IsEnding(err) && strings.Contains(err.Error(), shutDownCause)
}

// APIError is an error answer from the server.
type APIError struct {
	Status  int
	Message string
	// Problems lists a job file's problems, when a reload found some.
	Problems []string
}

func (e *APIError) Error() string { return e.Message }

// JobFileProblems lists a job file's problems (the TUI shows them all).
func (e *APIError) JobFileProblems() []string { return e.Problems }

// IsNotFound reports whether err is the server saying a job does not exist.
func IsNotFound(err error) bool {
	var apiErr *APIError
	return errors.As(err, &apiErr) && apiErr.Status == http.StatusNotFound
}

// IsBadRequest reports whether err is the API refusing a request it
// cannot read (HTTP 400).
func IsBadRequest(err error) bool {
	var apiErr *APIError
	return errors.As(err, &apiErr) && apiErr.Status == http.StatusBadRequest
}

// Instance asks who serves the socket.
func (c *Client) Instance(ctx context.Context) (Instance, error) {
	var inst Instance
	err := c.call(ctx, http.MethodGet, "/v1/instance", nil, nil, &inst)
	return inst, err
}

// LoadedInstance is Instance once the instance has loaded its job file
// and its jobs are in place (Instance.Loading says it is still at it):
// it waits for that as long as ctx lets it.
func (c *Client) LoadedInstance(ctx context.Context) (Instance, error) {
	var inst Instance
	err := c.call(ctx, http.MethodGet, "/v1/instance", url.Values{"loaded": {"1"}}, nil, &inst)
	return inst, err
}

// Jobs lists every job.
func (c *Client) Jobs(ctx context.Context) ([]jobs.Info, error) {
	return JobsAs[jobs.Info](ctx, c, JobFilter{})
}

// JobsAs gets the job list decoded into T: jobs.Info, or a struct with
// only the fields of it the caller needs, under the same JSON names.
// For such a T it asks for those fields alone (?fields=; f.Fields unless
// given): for what jobtop ls prints, the instance encodes, sends and the
// client reads a third of the bytes. f narrows the list (JobFilter).
func JobsAs[T any](ctx context.Context, c *Client, f JobFilter) ([]T, error) {
	if _, whole := any((*T)(nil)).(*jobs.Info); !whole && f.Fields == nil {
		f.Fields = jsonFields(reflect.TypeFor[T]())
	}
	b, err := c.JobsJSON(ctx, f)
	if err != nil {
		return nil, err
	}
	// Its capacity at once: growing it by doubling copied each job (936
	// bytes of jobs.Info) about twice.
	list := make([]T, 0, bytes.Count(b, []byte(`{"id":`)))
	if err := fastjson.Unmarshal(b, &list); err != nil {
		return nil, fmt.Errorf("unreadable answer from %s: %w", c.where(), err)
	}
	return list, nil
}

// JobsJSON gets the job list as the instance encoded it, a JSON array of
// job objects, for a caller that passes it on (decoding and encoding it
// again was two thirds of what `jobtop ls --json` took with 1,000 jobs)
// or decodes it its own way (JobsAs). The caller checks that it is JSON.
// f narrows the list (JobFilter).
func (c *Client) JobsJSON(ctx context.Context, f JobFilter) ([]byte, error) {
	body, err := c.open(ctx, http.MethodGet, "/v1/jobs", f.query(), nil)
	var refused *APIError
	if len(f.Fields) > 0 && errors.As(err, &refused) && strings.HasPrefix(refused.Message, `unknown parameter "fields"`) {
		// An instance older than ?fields= sends every field.
		f.Fields = nil
		body, err = c.open(ctx, http.MethodGet, "/v1/jobs", f.query(), nil)
	}
	if err != nil {
		return nil, err
	}
	defer body.Close()
	b, err := readAnswer(body)
	if err != nil {
		return nil, fmt.Errorf("unreadable answer from %s: %w", c.where(), err)
	}
	return b, nil
}

// Job gets one job.
func (c *Client) Job(ctx context.Context, id jobs.ID) (jobs.Info, error) {
	var info jobs.Info
	err := c.call(ctx, http.MethodGet, jobPath(id, ""), nil, nil, &info)
	return info, err
}

// StartJob starts a job.
func (c *Client) StartJob(ctx context.Context, req StartRequest) (jobs.Info, error) {
	var info jobs.Info
	err := c.call(ctx, http.MethodPost, "/v1/jobs", nil, req, &info)
	return info, err
}

// StopJob stops a job with its grace rules; with wait, returns once it
// has ended.
func (c *Client) StopJob(ctx context.Context, id jobs.ID, wait bool) (jobs.Info, error) {
	answer, err := c.EndJob(ctx, id, "stop", wait)
	return answer.Info, err
}

// KillJob SIGKILLs a job's process group; with wait, returns once it has
// ended.
func (c *Client) KillJob(ctx context.Context, id jobs.ID, wait bool) (jobs.Info, error) {
	answer, err := c.EndJob(ctx, id, "kill", wait)
	return answer.Info, err
}

// EndJob stops (verb "stop") or kills ("kill") a job; with wait, returns
// once it has ended. Removed says it ended and was removed before the
// answer: the job is as it was last.
func (c *Client) EndJob(ctx context.Context, id jobs.ID, verb string, wait bool) (EndAnswer, error) {
	var answer EndAnswer
	err := c.call(ctx, http.MethodPost, jobPath(id, verb), actionQuery(wait), nil, &answer)
	return answer, err
}

// StopJobWith stops a job as EndJob's "stop" does, with sig (INT, SIGINT
// or 2) in place of its stop signal for this stop; "" is its own.
func (c *Client) StopJobWith(ctx context.Context, id jobs.ID, sig string, wait bool) (EndAnswer, error) {
	var answer EndAnswer
	err := c.call(ctx, http.MethodPost, jobPath(id, "stop"), withSignal(actionQuery(wait), sig), nil, &answer)
	return answer, err
}

// SignalJob sends sig (USR1, SIGUSR1 or 10) to every process of a job
// and does nothing else: no stop, no SIGKILL. It returns the job as it
// is then.
func (c *Client) SignalJob(ctx context.Context, id jobs.ID, sig string) (jobs.Info, error) {
	var info jobs.Info
	err := c.call(ctx, http.MethodPost, jobPath(id, "signal"), withSignal(nil, sig), nil, &info)
	return info, err
}

// withSignal is q with signal=sig, unless sig is "".
func withSignal(q url.Values, sig string) url.Values {
	if sig == "" {
		return q
	}
	if q == nil {
		q = url.Values{}
	}
	q.Set("signal", sig)
	return q
}

// RestartJob starts a new run of a job; with wait, returns once the new
// run has started (or is queued).
func (c *Client) RestartJob(ctx context.Context, id jobs.ID, wait bool) (jobs.Info, error) {
	return c.action(ctx, id, "restart", wait)
}

func (c *Client) action(ctx context.Context, id jobs.ID, verb string, wait bool) (jobs.Info, error) {
	var info jobs.Info
	err := c.call(ctx, http.MethodPost, jobPath(id, verb), actionQuery(wait), nil, &info)
	return info, err
}

// actionQuery is the query of an action on one job: wait=true with wait.
func actionQuery(wait bool) url.Values {
	if wait {
		return url.Values{"wait": {"true"}}
	}
	return nil
}

// RemoveJob forgets a finished job and returns its last snapshot.
func (c *Client) RemoveJob(ctx context.Context, id jobs.ID) (jobs.Info, error) {
	var info jobs.Info
	err := c.call(ctx, http.MethodDelete, jobPath(id, ""), nil, nil, &info)
	return info, err
}

// WaitJob blocks until the job ends, or timeout (> 0) passes: then Ended is
// false.
func (c *Client) WaitJob(ctx context.Context, id jobs.ID, timeout time.Duration) (WaitResponse, error) {
	var q url.Values
	if timeout > 0 {
		q = url.Values{"timeout": {timeout.String()}}
	}
	var resp WaitResponse
	err := c.call(ctx, http.MethodGet, jobPath(id, "wait"), q, nil, &resp)
	return resp, err
}

// WaitReady blocks until the job is ready (Job.Ready), or has ended
// (Ended), or timeout (> 0) passes (neither).
func (c *Client) WaitReady(ctx context.Context, id jobs.ID, timeout time.Duration) (WaitResponse, error) {
	q := url.Values{"ready": {"true"}}
	if timeout > 0 {
		q.Set("timeout", timeout.String())
	}
	var resp WaitResponse
	err := c.call(ctx, http.MethodGet, jobPath(id, "wait"), q, nil, &resp)
	return resp, err
}

// ReadOutput reads a job's output once (q.Follow is ignored).
func (c *Client) ReadOutput(ctx context.Context, id jobs.ID, q OutputQuery) (OutputResponse, error) {
	q.Follow = false
	var resp OutputResponse
	err := c.call(ctx, http.MethodGet, jobPath(id, "output"), q.Values(), nil, &resp)
	return resp, err
}

// FollowOutput streams a job's output: fn gets each answer, the first read
// and then every change, until the job ends (the answer with Ended), fn
// returns an error (returned as is), or ctx ends.
func (c *Client) FollowOutput(ctx context.Context, id jobs.ID, q OutputQuery, fn func(OutputResponse) error) error {
	q.Follow = true
	body, err := c.open(ctx, http.MethodGet, jobPath(id, "output"), q.Values(), nil)
	if err != nil {
		return err
	}
	defer body.Close()
	dec := json.NewDecoder(body)
	over := false // an answer said the job had ended
	for {
		var resp OutputResponse
		if err := dec.Decode(&resp); err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return streamBroke(fmt.Sprintf("output stream of job %d", id), err)
		}
		if resp.Error != "" && over {
			// Removed once it ended, by an instance that ends the
			// stream so (older ones): its end was said.
			return nil
		}
		if resp.Error != "" {
			return &APIError{Status: http.StatusNotFound, Message: resp.Error}
		}
		over = resp.State.Done() && resp.State != jobs.StateCreated
		if err := fn(resp); err != nil {
			return err
		}
		if resp.Ended && resp.ShutDown {
			return errStoppedByShutdown(id)
		}
		if resp.Ended {
			return nil
		}
	}
}

// EventReader reads the /v1/events stream.
type EventReader struct {
	body io.ReadCloser
	dec  *json.Decoder
	// Snapshot holds every job as the stream started.
	Snapshot []jobs.Info
	// MaxRunning is the instance's limit on jobs running at once as the
	// stream last said it (the snapshot, then each change Next reads);
	// nil from an instance too old to say.
	MaxRunning *int
}

// Events opens the event stream and reads its snapshot.
func (c *Client) Events(ctx context.Context) (*EventReader, error) {
	body, err := c.open(ctx, http.MethodGet, "/v1/events", nil, nil)
	if err != nil {
		return nil, err
	}
	r := &EventReader{body: body, dec: json.NewDecoder(body)}
	var first EventBatch
	if err := r.dec.Decode(&first); err != nil {
		body.Close()
		return nil, fmt.Errorf("event stream: %w", err)
	}
	r.Snapshot, r.MaxRunning = first.Jobs, first.MaxRunning
	return r, nil
}

// Next blocks for the next batch of events (none on a line that only
// says the limit changed: MaxRunning has it). It returns errShutDown
// when the instance said it is shutting down.
func (r *EventReader) Next() ([]Event, error) {
	var b EventBatch
	if err := r.dec.Decode(&b); err != nil {
		return nil, err
	}
	if b.MaxRunning != nil {
		r.MaxRunning = b.MaxRunning
	}
	if b.Shutdown {
		return b.Events, shutDownSignal{reason: b.Reason}
	}
	return b.Events, nil
}

// errShutDown ends an events stream whose instance shut down on purpose
// (as a shutDownSignal, which carries the reason it gave, if any).
var errShutDown = errors.New("the instance shut down")

// shutDownSignal is errShutDown with the reason the instance gave.
type shutDownSignal struct{ reason string }

func (e shutDownSignal) Error() string        { return errShutDown.Error() }
func (e shutDownSignal) Is(target error) bool { return target == errShutDown }

// ShutDownError says the attached instance shut down on purpose (its
// owner quit, jobtop shutdown, SIGTERM): its jobs were stopped first.
type ShutDownError struct {
	// Where names the instance: its socket, or "host H".
	Where string
	// Reason is why, when no one asked for it ("job api failed (exit
	// 4) and its restart policy is exit_on_failure"); else "".
	Reason string
}

func (e *ShutDownError) Error() string {
	if e.Reason != "" {
		return fmt.Sprintf("the jobtop instance on %s shut down: %s (its jobs were stopped)", e.Where, e.Reason)
	}
	return fmt.Sprintf("the jobtop instance on %s shut down (its jobs were stopped)", e.Where)
}

// InstanceLostError says an attached instance's events stream ended
// without the instance saying it shut down: it was killed or crashed, or
// the connection to it broke.
type InstanceLostError struct {
	Where string
	Err   error
}

func (e *InstanceLostError) Error() string {
	msg := fmt.Sprintf("lost the jobtop instance on %s: it went away without shutting down (killed, or crashed?)", e.Where)
	if e.Err != nil && !errors.Is(e.Err, io.EOF) && !errors.Is(e.Err, io.ErrUnexpectedEOF) {
		msg += ": " + e.Err.Error()
	}
	return msg
}

func (e *InstanceLostError) Unwrap() error { return e.Err }

// Close ends the stream.
func (r *EventReader) Close() error { return r.body.Close() }

func jobPath(id jobs.ID, verb string) string {
	p := "/v1/jobs/" + id.String()
	if verb != "" {
		p += "/" + verb
	}
	return p
}

// call does one request and decodes the JSON answer into out.
func (c *Client) call(ctx context.Context, method, path string, q url.Values, in, out any) error {
	body, err := c.open(ctx, method, path, q, in)
	if err != nil {
		return err
	}
	defer body.Close()
	// Read whole, then decoded by segmentio's decoder (encoding/json's
	// behaviour, 1.5-2x as fast): the list of 1,000 jobs is what
	// `jobtop ls` spends most of its time on.
	b, err := readAnswer(body)
	if err != nil && ctx.Err() == nil {
		return &LostError{Err: fmt.Errorf("the answer from %s broke off: %w", c.where(), err)}
	}
	if err == nil {
		err = fastjson.Unmarshal(b, out)
	}
	if err != nil {
		return fmt.Errorf("unreadable answer from %s: %w", c.where(), err)
	}
	return nil
}

// streamBroke is the error of a stream of answers that ended before it
// should: a lost instance (a *LostError), unless what came was garbled.
func streamBroke(what string, err error) error {
	err = fmt.Errorf("%s broke off: %w", what, err)
	var syntax *json.SyntaxError
	var badType *json.UnmarshalTypeError
	if errors.As(err, &syntax) || errors.As(err, &badType) {
		return err // a garbled answer, not a lost one
	}
	return &LostError{Err: err}
}

// answer is the body of an answer and its length, -1 when unknown.
type answer struct {
	io.ReadCloser
	size int64
}

// maxPresized bounds the buffer an answer's stated length makes
// readAnswer take at once; past it the buffer grows as bytes arrive.
const maxPresized = 64 << 20

// readAnswer reads a body whole: into one buffer of its size, when the
// answer said it (growing one by doubling was most of the time it took
// to read 1,000 jobs).
func readAnswer(body io.Reader) ([]byte, error) {
	if a, ok := body.(answer); ok && a.size > 0 && a.size <= maxPresized {
		b := make([]byte, a.size)
		_, err := io.ReadFull(a, b)
		return b, err
	}
	return io.ReadAll(body)
}

// open sends a request and returns the body of a 2xx answer; other answers
// become an *APIError, connection failures a *NotRunningError.
func (c *Client) open(ctx context.Context, method, path string, q url.Values, in any) (io.ReadCloser, error) {
	u := "http://jobtop" + path
	if len(q) > 0 {
		u += "?" + q.Encode()
	}
	var reqBody io.Reader
	if in != nil {
		b, err := json.Marshal(in)
		if err != nil {
			return nil, err
		}
		reqBody = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, u, reqBody)
	if err != nil {
		return nil, err
	}
	if in != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := c.http.Do(req)
	if err != nil {
		if known := dialFailure(err); known != nil {
			return nil, known
		}
		var opErr *net.OpError
		if errors.As(err, &opErr) && opErr.Op == "dial" {
			notRunning := &NotRunningError{Path: c.socket, Err: err}
			if socketDirMissing(c.socket) {
				// jobtop run would refuse it too: no "run starts one".
				notRunning.Start = missingDirHint(c.socket)
			}
			return nil, notRunning
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		var ended *EndedLoadingError
		if errors.As(err, &ended) {
			return nil, &LostError{Err: ended}
		}
		return nil, &LostError{Err: fmt.Errorf("talking to %s: %w", c.where(), err)}
	}
	c.answered.Store(true)
	if resp.StatusCode/100 == 2 {
		return answer{resp.Body, resp.ContentLength}, nil
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	var e errorResponse
	if json.Unmarshal(b, &e) != nil || e.Error == "" {
		e.Error = fmt.Sprintf("%s %s: %s", method, path, strings.TrimSpace(resp.Status+" "+string(b)))
	}
	if unknownToIt(resp.StatusCode, e.Error) && path != "/v1/instance" {
		e.Error += c.olderInstance(ctx)
	}
	return nil, &APIError{Status: resp.StatusCode, Message: e.Error, Problems: e.Problems}
}

// unknownToIt says whether an answer refuses an endpoint or a field the
// instance does not know: what an instance older than its client says.
func unknownToIt(status int, msg string) bool {
	return status == http.StatusNotFound && strings.HasPrefix(msg, "no endpoint ") ||
		status == http.StatusBadRequest && strings.Contains(msg, "unknown field ") ||
		status == http.StatusBadRequest && strings.HasPrefix(msg, "stream applies to one job's output") // GET /v1/output?stream= before it took one
}

// olderInstance says, after an answer that did not know what was asked,
// when the instance speaks an older API than this client (it was started
// by an older jobtop, and still runs): "" otherwise.
func (c *Client) olderInstance(ctx context.Context) string {
	inst, err := c.Instance(ctx)
	if err != nil || inst.APIVersion >= APIVersion {
		return ""
	}
	return fmt.Sprintf(" (the jobtop instance there, pid %d, is older than this jobtop: it speaks API version %d, this one %d; an instance started again by this jobtop has it, but `jobtop shutdown` stops every job it runs: leave that to the person whose jobs they are)", inst.PID, inst.APIVersion, APIVersion)
}
