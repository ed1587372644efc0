package cmd

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"jobtop/control"
	"jobtop/jobs"
)

// maxWaits caps the waits (one request, so one connection, each) open at
// once; a job past it is waited for once one of those has ended, and a
// line for it may come after that of a job that ended later.
const maxWaits = 64

// waited is how the wait for one job of several came out.
type waited struct {
	job     jobs.Info // as it ended, or is when the wait gave up
	ended   bool
	removed bool  // removed while waited for
	err     error // the wait itself failed (the instance went away)
}

// waitMany waits for every job the arguments and selectors pick (see the
// command's help): one line on stdout per job as it ends; exit 0 if all
// succeeded, else the one-job wait's exit for the first job by ID that
// did not. ID order, not the order they ended: the exit does not depend
// on which of two failing jobs the instance reaped first.
func waitMany(cmd *cobra.Command, args []string, sel selectOptions, o waitOptions) error {
	if o.until != "" || o.ready {
		flag := "--until watches one job's output"
		if o.ready {
			flag = "--ready waits for one job"
		}
		if len(args) == 0 && !sel.selecting() {
			return usageErrorf("%s: give its ID or name", flag)
		}
		picked := strings.TrimSuffix(describeSelection(sel, args), " (there are no jobs)")
		return usageErrorf("%s: give one job ID or name, not %s", flag, picked)
	}
	req, err := sel.request(cmd.Name(), args)
	if err != nil {
		return err
	}
	filter := control.JobFilter{State: req.State, Name: req.Name}
	for _, ref := range req.Jobs {
		filter.Jobs = append(filter.Jobs, string(ref))
	}
	began := time.Now()
	c := newClient(cmd)
	picked, err := control.JobsAs[jobs.Info](cmd.Context(), c, filter)
	if control.IsNotFound(err) && filter.State == "" && filter.Name == "" {
		picked, err = pickedWithRemoved(cmd.Context(), c, filter.Jobs, err)
	}
	if err != nil {
		if err, gone := instanceGone(cmd.Context(), c, "listing the jobs to wait for", 0, began, err); gone {
			return &ExitError{Code: exitInstanceGone, Err: err}
		}
		return selectionError(err)
	}
	var dropped droppedFailures
	if len(filter.Jobs) == 0 {
		// Every job the instance ran counts, those the cap on finished
		// jobs removed too: asked after the list, so that none dropped
		// in between is missed (one listed is left out).
		if dropped, err = droppedFailuresOf(cmd.Context(), c, filter, picked); err != nil {
			if err, gone := instanceGone(cmd.Context(), c, "listing the jobs to wait for", 0, began, err); gone {
				return &ExitError{Code: exitInstanceGone, Err: err}
			}
			return err
		}
		dropped.say(cmd.ErrOrStderr())
	}
	if len(picked) == 0 && dropped.count() == 0 {
		fmt.Fprintf(cmd.ErrOrStderr(), "jobtop: no job matches %s\n", describeSelection(sel, args))
		return nil
	}
	if self, ok := callerJob(cmd.Context(), c); ok {
		if len(filter.Jobs) > 0 {
			// Named: a script asked for that very job, which cannot be.
			if at := slices.IndexFunc(picked, func(j jobs.Info) bool { return j.ID == self }); at >= 0 {
				return errWaitForSelf(self, picked[at].Name)
			}
		} else if picked = withoutCaller(cmd.ErrOrStderr(), picked, self); len(picked) == 0 {
			return manyExit(nil, dropped, o.timeout)
		}
	}
	if sel.all && len(args) == 0 && len(sel.states) == 0 && len(sel.names) == 0 {
		picked = withoutNeverStarted(cmd.ErrOrStderr(), picked)
		if len(picked) == 0 {
			return manyExit(nil, dropped, o.timeout)
		}
	}
	results, err := waitEach(cmd, c, picked, o.timeout, began)
	if err != nil {
		left := 0 // the jobs it was still waiting for
		for _, r := range results {
			if !r.ended && !r.removed {
				left++
			}
		}
		doing := "waiting for " + plural(max(left, 1), "job")
		if err, gone := instanceGone(cmd.Context(), c, doing, 0, began, err); gone {
			return &ExitError{Code: exitInstanceGone, Err: err}
		}
		return err
	}
	return manyExit(results, dropped, o.timeout)
}

// pickedWithRemoved is the jobs refs name, for a wait on jobs named by
// ID when the list did not have one (notFound): a job that ended and was
// removed since (retention, rm, a reload) is waited for as it ended,
// which the instance remembers (jobs.Manager.Wait), as a wait for it
// alone is. A ref that is neither is not found, as the list says.
func pickedWithRemoved(ctx context.Context, c *control.Client, refs []string, notFound error) ([]jobs.Info, error) {
	var listed []string
	var removed []jobs.Info
	for _, ref := range refs {
		id, err := jobs.ParseID(ref)
		if err != nil {
			listed = append(listed, ref)
			continue
		}
		if _, err := c.Job(ctx, id); err == nil || !control.IsNotFound(err) {
			listed = append(listed, ref) // there, or the instance said more than "no such job"
			continue
		}
		resp, err := c.WaitJob(ctx, id, time.Millisecond)
		if err != nil || !resp.Ended { // no job with that ID, remembered or not: as the list says it
			_, err = control.JobsAs[jobs.Info](ctx, c, control.JobFilter{Jobs: []string{ref}})
			return nil, cmp.Or(err, notFound)
		}
		if !slices.ContainsFunc(removed, func(j jobs.Info) bool { return j.ID == id }) {
			removed = append(removed, resp.Job)
		}
	}
	var picked []jobs.Info
	if len(listed) > 0 {
		var err error
		if picked, err = control.JobsAs[jobs.Info](ctx, c, control.JobFilter{Jobs: listed}); err != nil {
			return nil, err
		}
	}
	picked = append(picked, removed...)
	slices.SortFunc(picked, func(a, b jobs.Info) int { return cmp.Compare(a.ID, b.ID) })
	return picked, nil
}

// withoutNeverStarted drops, from the jobs --all picked, those never
// started (autostart: false, waiting for someone to start them), and
// those queued behind one (depends_on or --after, however far down a
// chain): they would never end, so `wait --all` on a job file with such
// jobs could never return. Each is said on w, as stop and rm say the
// jobs they skip. A job named, or picked by --state or --name, is waited
// for anyway: a script asked for that very job.
func withoutNeverStarted(w io.Writer, picked []jobs.Info) []jobs.Info {
	stuck := map[string]jobs.Info{} // what will not start, by name and as "job N (name)"
	skip := map[jobs.ID]bool{}
	note := func(j jobs.Info) {
		stuck[j.Name] = j
		stuck[fmt.Sprintf("job %d (%s)", j.ID, j.Name)] = j
		skip[j.ID] = true
	}
	for _, j := range picked {
		if j.State == jobs.StateCreated {
			note(j)
			fmt.Fprintf(w, "jobtop: not waiting for job %d (%s): it was never started (jobtop restart %d starts it)\n", j.ID, j.Name, j.ID)
		}
	}
	for grew := true; grew; {
		grew = false
		for _, j := range picked {
			if skip[j.ID] || j.State != jobs.StateQueued {
				continue
			}
			if d, ok := stuck[waitedFor(j.Reason)]; ok {
				note(j)
				fmt.Fprintf(w, "jobtop: not waiting for job %d (%s): it waits for job %d (%s), which will not start by itself\n", j.ID, j.Name, d.ID, d.Name)
				grew = true
			}
		}
	}
	return slices.DeleteFunc(picked, func(j jobs.Info) bool { return skip[j.ID] })
}

// waitedFor is the job a queued job's reason says it waits for: "db" of
// "waiting for db: ready" (depends_on), "job 3 (build)" of "waiting for
// job 3 (build) to succeed" (--after); "" for any other reason.
func waitedFor(reason string) string {
	rest, ok := strings.CutPrefix(reason, "waiting for ")
	switch {
	case !ok || strings.HasPrefix(rest, "a free slot"):
		return ""
	case strings.HasSuffix(rest, " to succeed"):
		return strings.TrimSuffix(rest, " to succeed")
	}
	name, _, _ := strings.Cut(rest, ": ")
	return name
}

// waitEach waits for each job at once (at most maxWaits at a time) until
// it ends, until timeout (> 0) has passed since began, or until a wait
// fails (the first failure is err; the other waits are cut short then);
// it prints a line for each job as it ends. The results are in the order
// of list.
func waitEach(cmd *cobra.Command, c *control.Client, list []jobs.Info, timeout time.Duration, began time.Time) (_ []waited, err error) {
	ctx, cancel := context.WithCancel(cmd.Context())
	defer cancel()
	results := make([]waited, len(list))
	done := make(chan int)
	slots := make(chan struct{}, maxWaits)
	for i, j := range list {
		go func() {
			defer func() { done <- i }()
			select {
			case slots <- struct{}{}:
				defer func() { <-slots }()
			case <-ctx.Done():
				results[i] = waited{job: j, err: ctx.Err()}
				return
			}
			var left time.Duration
			if timeout > 0 {
				// At least a moment: 0 would wait as long as it takes.
				left = max(time.Until(began.Add(timeout)), time.Millisecond)
			}
			resp, err := c.WaitJob(ctx, j.ID, left)
			switch {
			case control.IsNotFound(err):
				results[i] = waited{job: j, removed: true}
			case err != nil:
				results[i] = waited{job: j, err: err}
			default:
				results[i] = waited{job: resp.Job, ended: resp.Ended}
			}
		}()
	}
	out := cmd.OutOrStdout()
	// The jobs that had ended when listed answer at once, in whatever
	// order their waits happen to run: their lines are held until all
	// of them are in, and come first, in ID order (then those of jobs
	// that ended since, as they ended).
	endedBefore, wasEnded := map[int]bool{}, map[int]bool{}
	for i, j := range list {
		if j.State.Ended() && j.RestartAt == nil {
			endedBefore[i], wasEnded[i] = true, true
		}
	}
	var held []int
	for range list {
		i := <-done
		r := results[i]
		switch {
		case r.err != nil && err == nil:
			err = r.err
			cancel() // the instance went away: the others' waits fail too
		case r.err != nil: // cut short after the first failure
		case len(endedBefore) > 0:
			held = append(held, i)
		default:
			printWaited(out, r)
		}
		delete(endedBefore, i)
		if len(endedBefore) == 0 && held != nil {
			slices.SortStableFunc(held, func(a, b int) int {
				switch {
				case wasEnded[a] && wasEnded[b]:
					return cmp.Compare(list[a].ID, list[b].ID)
				case wasEnded[a]:
					return -1
				case wasEnded[b]:
					return 1
				}
				return 0 // ended since: as they ended
			})
			for _, h := range held {
				printWaited(out, results[h])
			}
			held = nil
		}
	}
	return results, err
}

// printWaited prints the line of a job waited for that has ended (or was
// removed); nothing for one that has not.
func printWaited(out io.Writer, r waited) {
	switch {
	case r.removed:
		fmt.Fprintf(out, "job %d (%s) was removed while waited for\n", r.job.ID, truncate(r.job.Name, 40))
	case r.ended:
		_, why, _ := jobEnd(r.job)
		fmt.Fprintf(out, "job %d (%s) %s\n", r.job.ID, truncate(r.job.Name, 40), why)
	}
}

// manyExit is the exit of a wait for several jobs, once each has ended
// or the timeout passed; dropped are the jobs the cap on finished jobs
// removed before it began that did not succeed, counted too.
func manyExit(results []waited, dropped droppedFailures, timeout time.Duration) error {
	var running []string
	failed := 0
	var first *waited
	for i, r := range results {
		switch {
		case !r.ended && !r.removed:
			running = append(running, fmt.Sprintf("job %d (%s) is %s", r.job.ID, truncate(r.job.Name, 40), stateText(r.job, time.Now())))
			continue
		case r.ended:
			// Succeeded, or exited 0 once asked to stop: not a failure.
			if code, _, ok := jobEnd(r.job); ok || code == 0 {
				continue
			}
		}
		failed++
		if first == nil {
			first = &results[i]
		}
	}
	if n := len(running); n > 0 {
		if n > maxListed {
			running = append(running[:maxListed], fmt.Sprintf("and %d more", n-maxListed))
		}
		goOn := "they go on; jobtop stop ends them"
		if n == 1 {
			goOn = "it goes on; jobtop stop ends it"
		}
		return &ExitError{Code: exitTimedOut, Err: fmt.Errorf("%d of %s %s not ended after %v: %s (%s)",
			n, plural(len(results), "job"), hasHave(n), timeout, strings.Join(running, ", "), goOn)}
	}
	if first == nil && dropped.count() == 0 {
		return nil
	}
	var code int
	var why string
	switch {
	case first != nil && (dropped.count() == 0 || dropped.forgotten == 0 && first.job.ID < dropped.jobs[0].ID):
		code, why = 1, "was removed while waited for"
		if !first.removed {
			code, why, _ = jobEnd(first.job)
		}
		why = fmt.Sprintf("job %d (%s), which %s", first.job.ID, truncate(first.job.Name, 40), why)
	default:
		code, why = dropped.first()
	}
	if dropped.count() > 0 {
		return &ExitError{Code: code, Err: fmt.Errorf("%d of %s waited for did not succeed, and %s the cap on finished jobs removed before; the exit is that of the first by ID, %s",
			failed, plural(len(results), "job"), plural(dropped.count(), "job"), why)}
	}
	return &ExitError{Code: code, Err: fmt.Errorf("%d of %s did not succeed; the exit is that of the first by ID, %s",
		failed, plural(len(results), "job"), why)}
}

// maxListed is how many of the jobs still running a wait that timed
// out names (900 made a line of 25 KB).
const maxListed = 10

// hasHave is the verb for n jobs: "1 of 3 jobs has", "2 of 3 jobs have".
func hasHave(n int) string {
	if n == 1 {
		return "has"
	}
	return "have"
}
