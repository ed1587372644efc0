package cmd

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"

	"jobtop/control"
	"jobtop/jobs"
)

// jobEnv names the job a process runs in (set by the instance for every
// job's processes).
const jobEnv = "JOBTOP_JOB_ID"

// callerJob is the job this jobtop runs in, when it talks to that job's
// own instance (JOBTOP_JOB_ID set, and c is on the socket of
// JOBTOP_SOCKET): a wait for that job to end could never return, for the
// job cannot end while its wait runs.
func callerJob(c *control.Client) (jobs.ID, bool) {
	id, err := jobs.ParseID(os.Getenv(jobEnv))
	if err != nil || c.Host() != nil {
		return 0, false
	}
	own := os.Getenv(control.SocketEnv)
	if own == "" {
		return 0, false
	}
	if filepath.Clean(own) == filepath.Clean(c.Socket()) {
		return id, true
	}
	a, errA := os.Stat(own)
	b, errB := os.Stat(c.Socket())
	return id, errA == nil && errB == nil && os.SameFile(a, b)
}

// errWaitForSelf refuses a wait for the job the wait runs in.
func errWaitForSelf(id jobs.ID, name string) error {
	return usageErrorf("job %d (%s) is the job this wait runs in (%s=%d): it cannot end while it waits for itself", id, name, jobEnv, id)
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
