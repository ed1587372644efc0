package cmd

import (
	"context"
	"fmt"
	"io"
	"strings"

	"jobtop/control"
	"jobtop/jobs"
)

// maxDroppedNamed is how many of the dropped jobs that did not succeed a
// wait names on stderr.
const maxDroppedNamed = 3

// droppedFailures are the jobs a wait for every job (or a --state or
// --name pick) counts though the cap on finished jobs removed them before
// it began: those that did not succeed, as the instance remembers them.
type droppedFailures struct {
	jobs      []jobs.Info // in ID order
	forgotten int         // more of them, no longer remembered
}

func (d droppedFailures) count() int { return len(d.jobs) + d.forgotten }

// droppedFailuresOf asks the instance how the jobs its cap on finished
// jobs removed ended, those filter's state and name pick, leaving out
// those in picked (listed, so waited for) and those that did not fail
// (stopped, and exited 0). An instance too old to know says nothing.
func droppedFailuresOf(ctx context.Context, c *control.Client, filter control.JobFilter, picked []jobs.Info) (droppedFailures, error) {
	ends, err := c.DroppedEnds(ctx, filter)
	switch {
	case control.IsNotFound(err):
		return droppedFailures{}, nil
	case err != nil:
		return droppedFailures{}, err
	}
	listed := make(map[jobs.ID]bool, len(picked))
	for _, j := range picked {
		listed[j.ID] = true
	}
	d := droppedFailures{forgotten: ends.Forgotten}
	for _, j := range ends.Jobs {
		if code, _, ok := jobEnd(j); !ok && code != 0 && !listed[j.ID] {
			d.jobs = append(d.jobs, j)
		}
	}
	return d, nil
}

// say tells w of the dropped jobs that did not succeed, naming the first
// few: "jobtop: counting 100 jobs removed by the cap on finished jobs
// (--keep-finished) that did not succeed: job 1 (a) failed (exit 1), ...".
func (d droppedFailures) say(w io.Writer) {
	n := d.count()
	if n == 0 {
		return
	}
	var named []string
	for _, j := range d.jobs[:min(len(d.jobs), maxDroppedNamed)] {
		_, why, _ := jobEnd(j)
		named = append(named, fmt.Sprintf("job %d (%s) %s", j.ID, truncate(j.Name, 40), why))
	}
	if rest := n - len(named); rest > 0 {
		named = append(named, fmt.Sprintf("and %d more", rest))
	}
	fmt.Fprintf(w, "jobtop: counting %s removed by the cap on finished jobs (--keep-finished) that did not succeed: %s\n",
		plural(n, "job"), strings.Join(named, ", "))
}

// first is the exit of the first by ID of the dropped jobs that did not
// succeed, and what it was: that of its end; 1 when the first were
// forgotten (they were dropped before any remembered).
func (d droppedFailures) first() (code int, why string) {
	if d.forgotten > 0 || len(d.jobs) == 0 {
		return 1, fmt.Sprintf("%s removed by the cap on finished jobs, no longer remembered, did not succeed", plural(d.forgotten, "job"))
	}
	j := d.jobs[0]
	code, why, _ = jobEnd(j)
	return code, fmt.Sprintf("job %d (%s), removed by the cap on finished jobs, which %s", j.ID, truncate(j.Name, 40), why)
}
