package control

import (
	"context"
	"errors"

	"jobtop/jobs"
)

// errStreamClosed says the manager closed its subscriptions (shutdown).
var errStreamClosed = errors.New("the job manager has shut down")

// jobWatch wakes a waiter when one job changes, from the manager's event
// subscription. Create it before the first look at the job, so no change
// between that look and the wait is missed.
type jobWatch struct {
	id  jobs.ID
	sub jobs.EventStream
}

func (s *Server) watch(id jobs.ID) *jobWatch {
	return &jobWatch{id: id, sub: s.mgr.Subscribe()}
}

func (w *jobWatch) close() { w.sub.Close() }

// next blocks until an event batch names the job (any kind), or ctx ends.
func (w *jobWatch) next(ctx context.Context) error {
	for {
		select {
		case batch, ok := <-w.sub.C():
			if !ok {
				return errStreamClosed
			}
			for _, ev := range batch {
				if ev.Job.ID == w.id {
					return nil
				}
			}
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// until returns the job's snapshot once cond holds for it.
func (w *jobWatch) until(ctx context.Context, m manager, cond func(jobs.Info) bool) (jobs.Info, error) {
	for {
		info, err := m.Get(w.id)
		if err != nil {
			return info, err
		}
		if cond(info) {
			return info, nil
		}
		if err := w.next(ctx); err != nil {
			return info, err
		}
	}
}

// settled reports whether the job has ended with no restart on its way,
// with its snapshot, without blocking.
func settled(m manager, id jobs.ID) (jobs.Info, bool, error) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	info, err := m.Wait(ctx, id)
	if errors.Is(err, context.Canceled) {
		return info, false, nil
	}
	return info, err == nil, err
}
