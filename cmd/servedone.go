package cmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"

	"jobtop/jobs"
	"jobtop/workspace"
)

// exitWhenDoneFlag is serve's --exit-when-done: process-compose's
// headless up (-t=false), which exits once every process has ended, and
// mprocs' on_all_finished: quit.
const exitWhenDoneFlag = "exit-when-done"

// allDone is what serve --exit-when-done ends with: the exit jobtop wait
// --all would give for the instance's jobs (nil for 0), and what it said.
type allDone struct {
	exit error
	// tail is the job whose end gave the exit, when one of the jobs
	// listed did (not one the cap on finished jobs removed).
	tail    *jobs.Info
	dropped droppedFailures
	// counted are the jobs counted, all the jobs the instance had.
	counted   int
	succeeded int
	all       []jobs.Info
}

// doneWhen delivers, once, when every job of the instance that will end
// has ended: none running, stopping or queued, none waiting out a
// restart's backoff. Jobs never started (autostart: false) and those
// queued behind them are left out, as wait --all leaves them out (they
// would never end), and so are jobs a reload is removing. With no job at
// all it waits for one (jobtop run). It looks again after each event
// that changes a job's state, from the jobs as they are now on. Nil,
// never ready, when on is false.
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
			for changed := false; !changed; {
				select {
				case <-ctx.Done():
					return
				case batch, ok := <-stream.C():
					if !ok {
						return
					}
					// Output changes no state: a job writing flat out
					// would have every job listed 60 times a second.
					changed = slices.ContainsFunc(batch, func(ev jobs.Event) bool { return ev.Kind != jobs.EventOutput })
				}
			}
		}
	}()
	return done
}

// everyJobDone says whether every job of mgr that will end has ended,
// and if so how serve --exit-when-done exits.
func everyJobDone(mgr *jobs.Manager) (allDone, bool) {
	all := mgr.List()
	if len(all) == 0 {
		return allDone{}, false
	}
	kept := slices.DeleteFunc(slices.Clone(all), func(j jobs.Info) bool { return j.Removing != "" })
	list := withoutNeverStarted(io.Discard, kept)
	results := make([]waited, len(list))
	d := allDone{counted: len(list), all: all}
	for i, j := range list {
		if !j.State.Done() || j.RestartAt != nil {
			return allDone{}, false
		}
		results[i] = waited{job: j, ended: true}
		if _, _, ok := jobEnd(j); ok {
			d.succeeded++
		}
	}
	ends, forgotten := mgr.DroppedEnds()
	d.dropped = droppedFailures{forgotten: forgotten}
	for _, j := range ends {
		if code, _, ok := jobEnd(j); !ok && code != 0 {
			d.dropped.jobs = append(d.dropped.jobs, j)
		}
	}
	d.exit = manyExit(results, d.dropped, 0)
	for i, r := range results {
		if code, _, ok := jobEnd(r.job); !ok && code != 0 {
			// The exit is this job's unless a job the cap removed came
			// first (manyExit's rule): then there is no tail to show.
			if d.dropped.count() == 0 || d.dropped.forgotten == 0 && r.job.ID < d.dropped.jobs[0].ID {
				d.tail = &results[i].job
			}
			break
		}
	}
	return d, true
}

// exitError is the *ExitError serve returns for d, its words already
// said: nil when no job failed.
func (d allDone) exitError() *ExitError {
	var exit *ExitError
	if errors.As(d.exit, &exit) {
		return &ExitError{Code: exit.Code}
	}
	return nil
}

// say tells w how the jobs ended: the jobs the cap on finished jobs
// removed that did not succeed, as wait --all counts them, then "every
// job has ended (--exit-when-done): 1 of 4 jobs did not succeed; ...".
func (d allDone) say(w io.Writer) {
	d.dropped.say(w)
	switch {
	case d.exit != nil:
		fmt.Fprintf(w, "jobtop: every job has ended (--exit-when-done): %v: exiting\n", d.exit)
	case d.counted == 0:
		fmt.Fprintln(w, "jobtop: no job will end by itself (--exit-when-done; those never started are left out): exiting")
	case d.succeeded == d.counted:
		fmt.Fprintf(w, "jobtop: every job has ended (--exit-when-done): %s succeeded: exiting\n", allOf(d.counted))
	default:
		fmt.Fprintf(w, "jobtop: every job has ended (--exit-when-done): %d of %s succeeded, none failed (stopped, they exited 0): exiting\n",
			d.succeeded, plural(d.counted, "job"))
	}
}

// allOf is "the job" or "all 4 jobs".
func allOf(n int) string {
	if n == 1 {
		return "the job"
	}
	return fmt.Sprintf("all %d jobs", n)
}

// notDone is serve --exit-when-done's exit when something stopped the
// jobs before they had all ended: code (128 + a signal's number, or 1
// for jobtop shutdown), never 0, which says every job succeeded.
func notDone(code int) *ExitError {
	return &ExitError{Code: code}
}

// exitRequestAmong is the exit request one of ended makes by its end
// (exit_on_end, exit_on_failure), if the instance has a job file.
func (in *servedInstance) exitRequestAmong(ended []jobs.Info) (workspace.ExitRequest, bool) {
	if in.ws == nil {
		return workspace.ExitRequest{}, false
	}
	return in.ws.ExitRequestAmong(ended)
}
