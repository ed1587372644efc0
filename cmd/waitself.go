package cmd

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"

	"jobtop/control"
	"jobtop/jobs"
)

// callerJob is the job this jobtop runs in, when it talks to that job's
// own instance (JOBTOP_JOB_ID set, and c is on the socket of
// JOBTOP_SOCKET) and that job still runs this process (its PID is this
// process's ancestor): a wait for that job to end could never return, for
// the job cannot end while its wait runs. A JOBTOP_JOB_ID left over (a
// tmux server started in a job keeps it) names a job that has ended, or
// none (an ended instance's: a new one numbers its jobs after them):
// waiting for that one is no deadlock, and leaving it out would hide its
// failure (rev54).
func callerJob(ctx context.Context, c *control.Client) (jobs.ID, bool) {
	id, err := jobs.ParseID(os.Getenv(jobIDEnv))
	if err != nil || c.Host() != nil {
		return 0, false
	}
	own := os.Getenv(control.SocketEnv)
	if own == "" {
		return 0, false
	}
	if filepath.Clean(own) != filepath.Clean(c.Socket()) {
		a, errA := os.Stat(own)
		b, errB := os.Stat(c.Socket())
		if errA != nil || errB != nil || !os.SameFile(a, b) {
			return 0, false
		}
	}
	j, err := c.Job(ctx, id)
	if err != nil || j.State.Done() || j.PID <= 0 || !isAncestor(j.PID) {
		return 0, false
	}
	return id, true
}

// errWaitForSelf refuses a wait for the job the wait runs in.
func errWaitForSelf(id jobs.ID, name string) error {
	return usageErrorf("job %d (%s) is the job this wait runs in (%s=%d): it cannot end while it waits for itself", id, name, jobIDEnv, id)
}

// withoutCaller drops, from the jobs a selector picked, the job the wait
// runs in and those queued behind it (depends_on or --after, however far
// down a chain): they cannot end while it waits. Each is said on w.
func withoutCaller(w io.Writer, picked []jobs.Info, self jobs.ID) []jobs.Info {
	at := slices.IndexFunc(picked, func(j jobs.Info) bool { return j.ID == self })
	if at < 0 {
		return picked
	}
	me := picked[at]
	fmt.Fprintf(w, "jobtop: not waiting for job %d (%s): it is the job this wait runs in\n", me.ID, me.Name)
	behind := map[string]jobs.Info{me.Name: me, fmt.Sprintf("job %d (%s)", me.ID, me.Name): me}
	skip := map[jobs.ID]bool{me.ID: true}
	for grew := true; grew; {
		grew = false
		for _, j := range picked {
			if skip[j.ID] || j.State != jobs.StateQueued {
				continue
			}
			if d, ok := behind[waitedFor(j.Reason)]; ok {
				behind[j.Name], behind[fmt.Sprintf("job %d (%s)", j.ID, j.Name)] = j, j
				skip[j.ID], grew = true, true
				fmt.Fprintf(w, "jobtop: not waiting for job %d (%s): it waits for job %d (%s), which cannot end while this wait runs in it\n", j.ID, j.Name, d.ID, d.Name)
			}
		}
	}
	return slices.DeleteFunc(picked, func(j jobs.Info) bool { return skip[j.ID] })
}
