package control

import (
	"context"
	"errors"
	"net/http"
	"path/filepath"
	"slices"
	"strconv"
	"time"

	"jobtop/jobs"
)

// actionTimeout bounds one engine action (start, stop...) over the socket.
const actionTimeout = 30 * time.Second

// Attach connects the client's mirror: it loads every job and its output
// and keeps them current from the event stream until Close. The engine
// methods below attach on first use; call Attach first to see the error.
func (c *Client) Attach(ctx context.Context) error {
	c.mirrorOnce.Do(func() {
		var m *mirror
		m, c.mirrorErr = startMirror(ctx, c)
		c.mirror.Store(m)
	})
	return c.mirrorErr
}

func (c *Client) attached() (*mirror, error) {
	if err := c.Attach(context.Background()); err != nil {
		return nil, err
	}
	return c.mirror.Load(), nil
}

// Done is closed when the attached mirror lost the instance (or was closed).
// Before Attach, or if it failed, Done is nil.
func (c *Client) Done() <-chan struct{} {
	if m := c.mirror.Load(); m != nil {
		return m.done
	}
	return nil
}

// Err says why the mirror is not working: it could not attach (Err
// attaches first if needed), or it lost the instance. Nil while attached.
func (c *Client) Err() error {
	m := c.mirror.Load()
	if m == nil {
		return c.Attach(context.Background())
	}
	select {
	case <-m.done:
		return m.err
	default:
		return nil
	}
}

// Close stops the mirror, if attached, and ends its event streams. Jobs on
// the instance keep running.
func (c *Client) Close() error {
	if m := c.mirror.Load(); m != nil {
		m.close()
	}
	c.http.CloseIdleConnections()
	return nil
}

// List returns every job, from the mirror (no round trip).
func (c *Client) List() []jobs.Info {
	m, err := c.attached()
	if err != nil {
		return nil
	}
	return m.list()
}

// Get returns one job, from the mirror (no round trip).
func (c *Client) Get(id jobs.ID) (jobs.Info, error) {
	m, err := c.attached()
	if err != nil {
		return jobs.Info{}, err
	}
	info, _, err := m.get(id)
	return info, err
}

// Output returns the job's mirrored output; reading it never touches the
// socket.
func (c *Client) Output(id jobs.ID) (jobs.OutputReader, error) {
	m, err := c.attached()
	if err != nil {
		return nil, err
	}
	_, store, err := m.get(id)
	if err != nil {
		return nil, err
	}
	return store, nil
}

// MemoryUse adds up what the mirror holds of every job's output (nothing
// before Attach). Running counts the jobs the instance runs: the mirror
// fetches what they write.
func (c *Client) MemoryUse() jobs.MemoryUse {
	if m := c.mirror.Load(); m != nil {
		return m.memoryUse()
	}
	return jobs.MemoryUse{}
}

// MaxRunning is the instance's limit on jobs running at once (0: no
// limit, or an instance too old to tell its clients), from the mirror
// (no round trip): the events stream carries it, and its changes.
func (c *Client) MaxRunning() int {
	if m := c.mirror.Load(); m != nil {
		n, _ := m.maxRunning()
		return n
	}
	return 0
}

// MaxRunningChanged is closed when the instance's limit on jobs running
// at once next changes (jobtop parallel, a reload, from any terminal).
// Before Attach it is nil.
func (c *Client) MaxRunningChanged() <-chan struct{} {
	if m := c.mirror.Load(); m != nil {
		_, changed := m.maxRunning()
		return changed
	}
	return nil
}

// Subscribe returns a stream of the instance's job events, delivered after
// the mirror has taken them in. It is closed when the instance goes away.
func (c *Client) Subscribe() jobs.EventStream {
	m, err := c.attached()
	if err != nil {
		s := newRemoteStream(nil)
		s.end()
		return s
	}
	return m.subscribe()
}

// Start starts a job on the instance. A job with no working directory
// runs in this process's, as with jobtop run, not in the instance's, and
// with this process's environment; on a Host, where they mean nothing,
// in the instance's.
func (c *Client) Start(spec jobs.Spec) (jobs.Info, error) {
	ctx, cancel := context.WithTimeout(context.Background(), actionTimeout)
	defer cancel()
	if abs, err := filepath.Abs(spec.Dir); err == nil && c.host == nil {
		spec.Dir = abs
	}
	if c.host == nil && spec.Environ == nil {
		spec.Environ, _ = CallerEnviron() // too large: the instance's
	}
	info, err := c.StartJob(ctx, SpecRequest(spec))
	if err == nil {
		c.remember(info)
	}
	return info, err
}

// Stop asks the instance to stop a job (it returns once the signal is sent).
func (c *Client) Stop(id jobs.ID) error {
	return c.act(id, c.StopJob)
}

// Kill asks the instance to SIGKILL a job's process group.
func (c *Client) Kill(id jobs.ID) error {
	return c.act(id, c.KillJob)
}

// StopJobs asks the instance to stop several jobs as one action, as
// jobtop stop does: none of them is started by another's end. errs[i] is
// ids[i]'s.
func (c *Client) StopJobs(ids []jobs.ID) (errs []error) { return c.endJobs(ids, BulkStop, c.Stop) }

// KillJobs asks the instance to kill several jobs as one action.
func (c *Client) KillJobs(ids []jobs.ID) (errs []error) { return c.endJobs(ids, BulkKill, c.Kill) }

// endJobs ends several jobs with one bulk request. A job the instance no
// longer has is in its Failed; an older instance fails the whole request
// for it instead (nothing is done): then each is ended alone, as before.
func (c *Client) endJobs(ids []jobs.ID, verb string, one func(jobs.ID) error) (errs []error) {
	errs = make([]error, len(ids))
	refs := make([]JobRef, len(ids))
	for i, id := range ids {
		refs[i] = JobRef(strconv.FormatInt(int64(id), 10))
	}
	ctx, cancel := context.WithTimeout(context.Background(), actionTimeout)
	defer cancel()
	resp, err := c.Bulk(ctx, verb, BulkRequest{Jobs: refs}, false)
	switch {
	case IsNotFound(err):
		for i, id := range ids {
			errs[i] = one(id)
		}
		return errs
	case err != nil:
		for i := range errs {
			errs[i] = err
		}
		return errs
	}
	for _, info := range resp.Jobs {
		c.remember(info)
	}
	for _, r := range resp.Failed {
		i := slices.Index(ids, r.ID)
		switch {
		case i < 0:
		case r.State == "": // no such job: as the instance says it of one
			errs[i] = &APIError{Status: http.StatusNotFound, Message: r.Error}
		default:
			errs[i] = errors.New(r.Error)
		}
	}
	return errs
}

// Restart asks the instance for a new run of a job.
func (c *Client) Restart(id jobs.ID) (jobs.Info, error) {
	ctx, cancel := context.WithTimeout(context.Background(), actionTimeout)
	defer cancel()
	info, err := c.RestartJob(ctx, id, false)
	if err == nil {
		c.remember(info)
	}
	return info, err
}

// Remove asks the instance to forget a finished job.
func (c *Client) Remove(id jobs.ID) error {
	ctx, cancel := context.WithTimeout(context.Background(), actionTimeout)
	defer cancel()
	_, err := c.RemoveJob(ctx, id)
	if m := c.mirror.Load(); err == nil && m != nil {
		m.forget(id)
	}
	return err
}

func (c *Client) act(id jobs.ID, do func(context.Context, jobs.ID, bool) (jobs.Info, error)) error {
	ctx, cancel := context.WithTimeout(context.Background(), actionTimeout)
	defer cancel()
	info, err := do(ctx, id, false)
	if err == nil {
		c.remember(info)
	}
	return err
}

// remember puts an action's answer in the mirror at once, so a Get right
// after the action sees it.
func (c *Client) remember(info jobs.Info) {
	if m := c.mirror.Load(); m != nil {
		m.upsert(info)
	}
}
