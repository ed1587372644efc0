package cmd

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"syscall"
	"time"

	"jobtop/control"
	"jobtop/jobs"
)

// exitInstanceGone is jobtop wait's exit when no instance answers, or the
// one it waited on ended before the job did: the job has no outcome to
// exit with (its jobs end with the instance). 255, as ssh's own failures
// are told from the remote command's exit.
const exitInstanceGone = 255

// idsAfter says, after an instance ended, what its job IDs name next.
const idsAfter = "a new instance on the socket numbers its jobs after the ended one's, so no ID of the ended one names a new job"

// instanceGone rewords err when it is the instance going away while the
// command was doing (e.g. "waiting for job 3", about job id; 0 for every
// job), which began at began; any other err comes back as it is. gone
// says it was that.
func instanceGone(ctx context.Context, c *control.Client, doing string, id jobs.ID, began time.Time, err error) (_ error, gone bool) {
	var notRunning *control.NotRunningError
	switch {
	case err == nil || errors.Is(err, syscall.EACCES):
		return err, false
	case errors.As(err, &notRunning) && !c.Answered():
		return err, true // none was there
	case errors.As(err, &notRunning): // the one that answered (a name's lookup) is gone
	case !control.IsLost(err):
		return err, false
	}
	where := c.Socket()
	if h := c.Host(); h != nil {
		where = "host " + h.Name()
	}
	ended := fmt.Sprintf("the jobtop instance on %s ended while %s, and its jobs ended with it", where, doing)
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), c.RecheckTimeout())
	defer cancel()
	inst, perr := c.Instance(ctx)
	switch {
	case perr != nil && c.Host() != nil && control.IsSilent(err) && !errors.As(perr, &notRunning):
		// Nothing came for a while and nothing answers now: stopped,
		// hung or out of reach, which the client cannot tell apart.
		// Only an instance that says it ends, or a host where none
		// listens, is known to have ended.
		return fmt.Errorf("no answer from the jobtop instance on %s for %v while %s: it may be stopped (SIGSTOP: kill -CONT it) or hung, or the link to the host down, and its jobs may still run; `%s` says whether it answers",
			where, control.HostSilence, doing, c.Host().CheckCommand()), true
	case perr != nil && c.Host() != nil && control.IsLost(err) && !control.IsEnding(err) && !errors.As(perr, &notRunning):
		// The ssh connection broke and a new one does not reach the
		// instance: the link may be down, which says nothing of the
		// instance there.
		return c.Unreached(doing, perr), true
	case control.IsStoppedByShutdown(err):
		// It stopped the job (its jobs) because it was ending: no end
		// of the job's own.
		_, cause, _ := strings.Cut(err.Error(), ": ")
		return fmt.Errorf("the jobtop instance on %s ended while %s: %s (%s)", where, doing, cause, idsAfter), true
	case perr != nil || control.IsEnding(err):
		return fmt.Errorf("%s (%s)", ended, idsAfter), true
	case inst.Started.After(began) && id == 0: // every job's
		return fmt.Errorf("%s; another instance (pid %d) answers there now, with other jobs", ended, inst.PID), true
	case inst.Started.After(began):
		return fmt.Errorf("%s; another instance (pid %d) answers there now, which numbers its jobs after the ended one's: job %d is not one of them", ended, inst.PID, id), true
	}
	// The instance that answers was there before: only the connection
	// broke.
	return c.BrokeOff(doing, err), true
}
