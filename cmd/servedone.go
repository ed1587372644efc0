package cmd

import (
	"context"
	"errors"
	"fmt"
	"io"

	"jobtop/jobs"
)

// exitWhenDoneFlag is serve's --exit-when-done: process-compose's
// headless up (-t=false), which exits once every process has ended, and
// mprocs' on_all_finished: quit.
const exitWhenDoneFlag = "exit-when-done"

// allDone is what serve --exit-when-done ends with: the exit jobtop wait
// --all would give for the instance's jobs (nil for 0), and the job whose
// end gave it, if one did.
type allDone struct {
	exit  error
	first *jobs.Info
	jobs  int
}

// doneWhen delivers, once, when every job of the instance has ended and
// none is coming: none running, stopping or queued, none waiting out a
// restart's backoff, and at least one job there to have ended. Jobs
// never started (autostart: false) and those queued behind them are left
// out, as wait --all leaves them out: they would never end. It watches
// the manager's events from now on, so it sees the jobs as they are and
// every change after. Nil, never ready, when on is false.
func doneWhen(ctx context.Context, in *servedInstance, on bool) <-chan allDone {
	if !on {
		return nil
	}
	done := make(chan allDone, 1)
	stream := in.mgr.Subscribe() // before the first look: no end slips between
	go func() {
		defer stream.Close()
		for {
			if d, ok := everyJobDone(in.mgr); ok {
				done <- d // buffered: the only send
				return
			}
			select {
			case <-ctx.Done():
				return
			case _, ok := <-stream.C():
				if !ok {
					return
				}
			}
		}
	}()
	return done
}

// everyJobDone says whether every job of mgr that will end has ended,
// and if so how serve --exit-when-done exits.
func everyJobDone(mgr *jobs.Manager) (allDone, bool) {
	list := withoutNeverStarted(io.Discard, mgr.List())
	if len(list) == 0 {
		return allDone{}, false
	}
	results := make([]waited, len(list))
	for i, j := range list {
		if !j.State.Done() || j.RestartAt != nil {
			return allDone{}, false
		}
		results[i] = waited{job: j, ended: true}
	}
	ends, forgotten := mgr.DroppedEnds()
	dropped := droppedFailures{forgotten: forgotten}
	for _, j := range ends {
		if code, _, ok := jobEnd(j); !ok && code != 0 {
			dropped.jobs = append(dropped.jobs, j)
		}
	}
	d := allDone{exit: manyExit(results, dropped, 0), jobs: len(list)}
	for i, r := range results {
		if code, _, ok := jobEnd(r.job); !ok && code != 0 {
			d.first = &results[i].job
			break
		}
	}
	return d, true
}

// exitError is the *ExitError serve returns for d, its words already
// said: nil when every job succeeded.
func (d allDone) exitError() *ExitError {
	var exit *ExitError
	if errors.As(d.exit, &exit) {
		return &ExitError{Code: exit.Code}
	}
	return nil
}

// say is serve's line for d: "every job has ended (--exit-when-done): 1
// of 4 jobs did not succeed; ...".
func (d allDone) say() string {
	if d.exit == nil {
		return fmt.Sprintf("jobtop: every job has ended (--exit-when-done): %s succeeded: exiting", allOf(d.jobs))
	}
	return fmt.Sprintf("jobtop: every job has ended (--exit-when-done): %v: exiting", d.exit)
}

// allOf is "the job" or "all 4 jobs".
func allOf(n int) string {
	if n == 1 {
		return "the job"
	}
	return fmt.Sprintf("all %d jobs", n)
}
