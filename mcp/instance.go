package mcp

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"syscall"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"jobtop/control"
	"jobtop/jobs/proc"
)

// The tools remember the instance they talked to (its pid and start), so
// that an agent holding "job 1" and a cursor hears when that instance has
// ended: a new instance on the socket numbers its jobs after that one's,
// so "job 1" names none of its jobs, and the cursor means nothing to it.

// errNoAnswerYet is the cause of an observe cut off by the answer
// timeout.
var errNoAnswerYet = errors.New("no answer within the answer timeout")

// observeWithin is observe bounded by the client's answer timeout on
// whichever connection carries it: the client bounds the first answer
// on a new connection only, and a kept-alive one to an instance stopped
// since (SIGSTOP, ^Z) waited for ever, and the agent's tool call with it.
// It is a *control.NoAnswerError when the time runs out.
func (s *Server) observeWithin(ctx context.Context) (prev, now *control.Instance, err error) {
	d := s.opts.Client.AnswerTimeout()
	if d <= 0 {
		return s.observe(ctx)
	}
	bounded, cancel := context.WithTimeoutCause(ctx, d, errNoAnswerYet)
	defer cancel()
	prev, now, err = s.observe(bounded)
	if err == nil || ctx.Err() != nil || !errors.Is(context.Cause(bounded), errNoAnswerYet) {
		return prev, now, err
	}
	e := &control.NoAnswerError{Path: s.opts.Client.Socket(), Limit: d}
	if prev != nil && s.opts.Client.Host() == nil {
		e.PID = prev.PID
		if p, perr := proc.Get(prev.PID); perr == nil {
			e.Stopped = p.Stopped
		}
	}
	return prev, nil, e
}

// stoppedCheck is how often a call under way looks whether its
// instance is stopped (cutIfStopped).
const stoppedCheck = 500 * time.Millisecond

// cutIfStopped ends a call under way (cancel) with a *NoAnswerError when
// the local instance pid, which answered before the call, has been
// stopped (SIGSTOP, ^Z) for the answer timeout: a request it took before
// it stopped (a wait_job of ten minutes, the start of a run_job) waited
// for as long as it stayed stopped. It returns what ends the watch.
func (s *Server) cutIfStopped(ctx context.Context, pid int, cancel context.CancelCauseFunc) func() {
	d := s.opts.Client.AnswerTimeout()
	if d <= 0 || pid <= 0 || s.opts.Client.Host() != nil {
		return func() {}
	}
	done := make(chan struct{})
	go func() {
		tick := time.NewTicker(stoppedCheck)
		defer tick.Stop()
		var since time.Time
		for {
			select {
			case <-done:
				return
			case <-ctx.Done():
				return
			case now := <-tick.C:
				p, err := proc.Get(pid)
				switch {
				case err != nil || !p.Stopped:
					since = time.Time{}
				case since.IsZero():
					since = now
				case now.Sub(since) >= d:
					cancel(&control.NoAnswerError{Path: s.opts.Client.Socket(), Limit: d, PID: pid, Stopped: true})
					return
				}
			}
		}
	}()
	return func() { close(done) }
}

// observe asks which instance answers on the socket now, remembers it,
// and returns the one remembered before (nil: none yet).
func (s *Server) observe(ctx context.Context) (prev, now *control.Instance, err error) {
	inst, err := s.opts.Client.Instance(ctx)
	s.instMu.Lock()
	defer s.instMu.Unlock()
	prev = s.inst
	if err != nil {
		return prev, nil, err
	}
	s.inst = &inst
	return prev, &inst, nil
}

// seen is the instance the tools talked to last (nil: none yet).
func (s *Server) seen() *control.Instance {
	s.instMu.Lock()
	defer s.instMu.Unlock()
	return s.inst
}

func sameInstance(a, b control.Instance) bool {
	return a.PID == b.PID && a.Started.Equal(b.Started)
}

// instanceEnded says the instance the tools talked to has ended, with its
// jobs.
func (s *Server) instanceEnded(old control.Instance) string {
	where := s.opts.Client.Socket()
	if h := s.opts.Client.Host(); h != nil {
		where = "host " + h.Name() // over ssh there is no socket here
	}
	return fmt.Sprintf("the jobtop instance that ran the earlier jobs (pid %d, up since %s) on %s has ended, and its jobs ended with it",
		old.PID, old.Started.Local().Format(time.DateTime), where)
}

// instanceGone is an answer cut off, or refused, because the instance
// the tools talked to has ended.
type instanceGone struct{ msg string }

func (e *instanceGone) Error() string { return e.msg }

// goneError says the instance ended and none runs now.
func (s *Server) goneError(old control.Instance) error {
	return &instanceGone{s.instanceEnded(old) + ". No instance runs there now; run_job starts a new one, whose job IDs are new and do not name the old jobs (its first job is job 1 again)."}
}

// replacedWords say that another instance answers where old did.
func (s *Server) replacedWords(old, now control.Instance) string {
	return s.instanceEnded(old) + fmt.Sprintf(". Another instance (pid %d, up since %s) answers there now: its job IDs are new and do not name the old jobs, and a cursor from before means nothing to it; list_jobs lists its jobs.",
		now.PID, now.Started.Local().Format(time.DateTime))
}

// lostError rewords an answer cut off by the instance going away (or the
// absence of the one the tools talked to): what ended, and what answers
// now; a *connectionBroke when that instance answers still. It returns
// nil when none of these happened.
func (s *Server) lostError(ctx context.Context, err error) error {
	var notRunning *control.NotRunningError
	if errors.Is(err, syscall.EACCES) || !(control.IsLost(err) || errors.As(err, &notRunning)) {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, s.opts.Client.RecheckTimeout())
	defer cancel()
	prev, now, perr := s.observe(ctx)
	switch {
	case prev == nil:
		return nil
	case perr != nil && s.opts.Client.Host() != nil && control.IsLost(err) && !control.IsEnding(err) && !errors.As(perr, &notRunning):
		// The ssh connection broke and a new one does not reach the
		// instance: the link may be down, which says nothing of the
		// instance there, nor of its jobs.
		return &connectionBroke{err: err, unreached: perr}
	case perr != nil:
		return s.goneError(*prev)
	case !sameInstance(*prev, *now):
		return &instanceGone{s.replacedWords(*prev, *now)}
	case control.IsEnding(err):
		// The same instance still answers, but said it is ending.
		return s.goneError(*prev)
	case control.IsLost(err):
		return &connectionBroke{err: err} // the same instance answers: only a connection broke
	}
	return nil
}

// connectionBroke is an answer cut off by its connection breaking (an
// ssh link that went down) while the instance the tools talked to still
// answers, its jobs running on, or while over ssh a new connection does
// not reach it (unreached: how that failed), which says nothing of it. A
// tool says so in the CLI's words (words) with what it was doing:
// wait_job and run_job's wait_for what they waited for (wait), the
// others the tool (addTool).
type connectionBroke struct{ err, unreached error }

func (e *connectionBroke) Error() string { return e.err.Error() }

func (e *connectionBroke) Unwrap() error { return e.err }

// words say what broke off while doing, as the CLI does.
func (e *connectionBroke) words(c *control.Client, doing string) error {
	if e.unreached != nil {
		return c.Unreached(doing, e.unreached)
	}
	return c.BrokeOff(doing, e.err)
}

// toolsOnNewInstance are the tools whose answer on an instance other
// than the one the tools talked to still makes sense (with a note);
// every other one names a job, which the new instance does not know.
var toolsOnNewInstance = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"run_job": true, "list_jobs": true}
})

// watchInstance notes, before each tool call, which instance answers: when
// another one than before does, a call naming a job is refused once with
// words that say so (job 1 there is another job), and run_job and
// list_jobs answer with those words first. After run_job, which may start
// a new instance, it says so too.
func (s *Server) watchInstance(next sdk.MethodHandler) sdk.MethodHandler {
	return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
		call, ok := req.(*sdk.CallToolRequest)
		if !ok || call.Params == nil {
			return next(ctx, method, req)
		}
		var note string
		prev, now, err := s.observeWithin(ctx)
		var noAnswer *control.NoAnswerError
		if errors.As(err, &noAnswer) {
			// It took the connection and said nothing for the whole
			// answer timeout: the tool's own call would wait as long
			// again (a minute, Codex's whole tool timeout, for 30 s).
			return &sdk.CallToolResult{IsError: true, Content: []sdk.Content{&sdk.TextContent{Text: err.Error()}}}, nil
		}
		if err == nil && prev != nil && !sameInstance(*prev, *now) {
			note = s.replacedWords(*prev, *now)
			if !toolsOnNewInstance()[call.Params.Name] {
				return &sdk.CallToolResult{IsError: true, Content: []sdk.Content{&sdk.TextContent{Text: note}}}, nil
			}
		}
		callCtx, cancel := context.WithCancelCause(ctx)
		defer cancel(nil)
		if now != nil {
			defer s.cutIfStopped(callCtx, now.PID, cancel)()
		}
		res, err := next(callCtx, method, req)
		if cause := context.Cause(callCtx); errors.As(cause, &noAnswer) && ctx.Err() == nil {
			// What the tool said of the cut, with why in place of
			// "context canceled" (run_job: which job it started).
			text := cause.Error()
			if r, ok := res.(*sdk.CallToolResult); ok && r != nil && len(r.Content) > 0 {
				if t, ok := r.Content[0].(*sdk.TextContent); ok {
					switch {
					case strings.Contains(t.Text, text):
						text = t.Text // the tool's error wraps the cause already
					case strings.Contains(t.Text, context.Canceled.Error()):
						text = strings.Replace(t.Text, context.Canceled.Error(), text, 1)
					}
				}
			}
			return &sdk.CallToolResult{IsError: true, Content: []sdk.Content{&sdk.TextContent{Text: text}}}, nil
		}
		r, ok := res.(*sdk.CallToolResult)
		if err != nil || !ok || r == nil || r.IsError {
			return res, err
		}
		if call.Params.Name == "run_job" && note == "" {
			if prev, now, err := s.observe(ctx); err == nil && prev != nil && !sameInstance(*prev, *now) {
				note = s.instanceEnded(*prev) + fmt.Sprintf(". This job runs on a new instance (pid %d) there: its job IDs are new and do not name the old jobs.", now.PID)
			}
		}
		if note != "" && len(r.Content) > 0 {
			if t, ok := r.Content[0].(*sdk.TextContent); ok {
				t.Text = note + "\n" + t.Text
			}
		}
		return res, err
	}
}
