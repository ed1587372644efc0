package cmd

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"time"

	"github.com/spf13/cobra"

	"jobtop/control"
	"jobtop/jobfile"
	"jobtop/jobs"
	"jobtop/vtscreen/vtfast"
	"jobtop/workspace"
)

// servedInstance is a running jobtop instance: its manager, served on the
// socket, and the job file it runs, if any.
type servedInstance struct {
	mgr        *jobs.Manager
	srv        *control.Server
	ws         *workspace.Workspace // nil without a job file
	stopMemory context.CancelFunc   // ends governMemory
	stopKeep   context.CancelFunc   // ends keepLimit
	socket     *claimedSocket       // answered in full once the plan's jobs are in place
	previous   *control.PreviousEnd // the last instance on the socket, if it ended without shutting down
}

// startInstance makes the job manager of a jobtop instance (kind "serve"
// or "tui") with the plan's options under opts (plan may be nil), starts
// the plan's jobs and serves the manager on the socket: every job gets
// JOBTOP_SOCKET, so it can reach this instance. It fails with a
// *control.InUseError when a live instance holds the socket.
//
// The socket exists before the first job starts, but is answered only
// once every job of the plan is in place, so a client never sees half a
// job file.
func startInstance(cmd *cobra.Command, kind string, plan *jobfile.Plan, opts jobs.Options) (*servedInstance, error) {
	socket, err := claimSocket(cmd, kind, "")
	if err != nil {
		return nil, err
	}
	return startInstanceOn(cmd, socket, plan, opts)
}

// startInstanceOn is startInstance on a socket already claimed
// (claimSocket); it is given up on an error.
func startInstanceOn(cmd *cobra.Command, socket *claimedSocket, plan *jobfile.Plan, opts jobs.Options) (*servedInstance, error) {
	in, err := openInstanceOn(cmd, socket, plan, opts)
	if err != nil {
		return nil, err
	}
	if err := in.startJobs(); err != nil {
		in.shutdown(context.Background()) //nolint:errcheck // the error that matters is err
		return nil, err
	}
	return in, nil
}

// claimSocket takes the instance's socket (its lock, then the socket
// itself) for an instance of kind, and answers GET /v1/instance on it at
// once, saying the instance is loading its job file (loading, as
// jobFileToLoad names it), while it holds every other request until
// startJobs. Taken before a job file loads (a file of 20,000 jobs takes
// seconds), it keeps the socket this instance's meanwhile: a client
// finds it answering, and waits for its jobs (saying so) instead of
// taking the socket for none to be listening and starting an instance
// of its own, which this one would then find in its way.
func claimSocket(cmd *cobra.Command, kind, loading string) (*claimedSocket, error) {
	l, err := claimListener(cmd)
	if err != nil {
		return nil, err
	}
	srv := control.NewLoadingServer(control.Instance{Kind: kind, Socket: socketPath(cmd)}, loading)
	if kind == "serve" { // (a TUI owns the terminal)
		srv.LogTo(os.Stderr)
	}
	go serveUntilClosed(srv, l)
	return &claimedSocket{l: l, srv: srv}, nil
}

// claimListener takes the instance's socket, unanswered. The socket of
// a serve that serve -D started is claimed already, by serve -D, and
// handed over (handedOverFlag).
func claimListener(cmd *cobra.Command) (net.Listener, error) {
	if handedOver(cmd) {
		return control.ListenOn(os.NewFile(handedSocketFD, "socket"), os.NewFile(handedLockFD, "lock"))
	}
	// An instance already there has --answer-timeout to say who it is.
	return control.ListenWithin(socketPath(cmd), answerTimeout(cmd))
}

// claimedSocket is an instance's socket from the moment it is claimed:
// answered by srv, in full once the instance's jobs are in place.
type claimedSocket struct {
	l   net.Listener
	srv *control.Server
}

// giveUp gives the socket up before the instance served it (its job
// file has problems, say): the requests it held are refused with why.
func (c *claimedSocket) giveUp(why error) {
	c.srv.Fail(why.Error())
	c.refuseAWhile()
	c.srv.Close() //nolint:errcheck // going
	c.l.Close()
}

// refuseAWhile keeps refusing (Fail, Stopped) for at most a second while
// clients are connected: one that was told the instance is loading and
// had not yet sent its request is told why it will not be served,
// rather than find the connection gone.
func (c *claimedSocket) refuseAWhile() {
	for end := time.Now().Add(time.Second); time.Now().Before(end); time.Sleep(10 * time.Millisecond) {
		if open, _ := c.srv.Clients(); open == 0 {
			return
		}
	}
}

// stopped gives the socket up before the instance served it, as giveUp,
// for an instance stopped (how: "by SIGTERM") while it loaded.
func (c *claimedSocket) stopped(how string) {
	c.srv.Stopped(how)
	c.refuseAWhile()
	c.srv.Close() //nolint:errcheck // going
	c.l.Close()
}

// openInstanceOn is startInstanceOn up to the plan's jobs: the manager
// is made on the socket already claimed (claimSocket; given up on an
// error), but no job of the plan has started and the socket is not
// answered until startJobs. The TUI starts them behind its first frame:
// a file of a thousand jobs takes tens of seconds to start on a busy
// machine, and the screen must not stay blank meanwhile.
func openInstanceOn(cmd *cobra.Command, socket *claimedSocket, plan *jobfile.Plan, opts jobs.Options) (*servedInstance, error) {
	opts, err := retentionOptions(cmd, opts)
	if err != nil {
		socket.giveUp(err)
		return nil, err
	}
	if plan != nil {
		opts = workspace.ManagerOptions(plan, opts)
	}
	path := socketPath(cmd)
	// Holding the socket proves its last instance is gone: stop what it
	// and its keeper left, if both died.
	opts.RecordPath = path + ".keeper"
	// Job IDs go on from the last one an instance on this socket took:
	// an ID a script kept never names a job of another instance.
	if opts.IDPath, err = socketStatePath(path, "ids"); err != nil {
		socket.giveUp(err)
		return nil, err
	}
	pruneSocketStates(path, time.Now())
	// Read before StopLeftovers removes it: a record there says the last
	// instance ended without shutting down, which this one tells
	// (previousEndNote), and its clients can learn (GET /v1/instance).
	var previous *control.PreviousEnd
	if e := jobs.ReadUncleanEnd(opts.RecordPath); e != nil {
		previous = &control.PreviousEnd{PID: e.PID, Jobs: e.Jobs, Queued: e.Queued}
	}
	n, err := jobs.StopLeftovers(opts.RecordPath)
	if err != nil {
		fmt.Fprintf(cmd.ErrOrStderr(), "jobtop: checking what a previous instance left: %v\n", err)
	}
	if previous != nil {
		previous.Stopped = n
		socket.srv.SetPreviousEnd(previous)
		fmt.Fprintln(cmd.ErrOrStderr(), previousEndNote(path, previous))
	}
	if opts.Env == nil {
		opts.Env = make(map[string]string)
	}
	opts.Env[control.SocketEnv] = path
	// A job talks to this instance, even where $JOBTOP_HOST points the
	// user's own commands at another machine.
	opts.Env[hostEnv] = ""
	opts.Emulator = newEmulator
	m, err := jobs.NewManager(opts)
	if err != nil {
		socket.giveUp(err)
		return nil, err
	}
	in := &servedInstance{mgr: m, srv: socket.srv, socket: socket, previous: previous}
	var memCtx context.Context
	memCtx, in.stopMemory = context.WithCancel(context.Background())
	governMemory(memCtx, m, time.Second)
	var keepCtx context.Context
	keepCtx, in.stopKeep = context.WithCancel(context.Background())
	keepLimit(keepCtx, m, path)
	if plan != nil {
		in.ws = workspace.New(m, plan)
		in.srv.SetReloader(fileReloader{in.ws})
	}
	return in, nil
}

// startJobs starts the plan's jobs, then answers the socket in full. On
// an error the socket is given up and the caller shuts the instance
// down; but not when the start was called off (the workspace closed:
// workspace.ErrClosed), since whoever closed it shuts the instance down
// and says to the clients why.
func (in *servedInstance) startJobs() error {
	if in.ws != nil {
		if err := in.ws.Start(); err != nil {
			err = fmt.Errorf("starting the jobs of %s: %w", in.ws.Path(), err)
			if errors.Is(err, workspace.ErrClosed) {
				return err
			}
			in.socket.giveUp(err)
			return err
		}
	}
	in.srv.Open(in.mgr)
	return nil
}

// previousEndNote tells that the instance on socket before this one
// ended without shutting down, and what became of its jobs: those it
// ran, and those it had queued, which never started (nothing of its
// queue survives it).
func previousEndNote(socket string, e *control.PreviousEnd) string {
	who := "the last instance on " + socket
	if e.PID != 0 {
		who += fmt.Sprintf(" (pid %d)", e.PID)
	}
	queued := ""
	if e.Queued > 0 {
		queued = fmt.Sprintf(", and its %s never started", plural(e.Queued, "queued job"))
	}
	return fmt.Sprintf("jobtop: %s ended without shutting down (killed, or crashed?); %s%s", who, previousJobsEnd(e), queued)
}

// previousEndNotice is previousEndNote for the TUI's status bar, short
// enough for its room at 80 columns: no socket path (the TUI's own),
// what became of the jobs whole; with queued jobs, all in few words, no
// pid (rev59: "its keeper stopped its job, 1 qu…" lost the queued ones).
func previousEndNotice(e *control.PreviousEnd) string {
	if e.Queued > 0 {
		stopped := "none was running"
		switch {
		case e.Stopped > 0:
			stopped = plural(e.Stopped, "process") + " stopped"
		case e.Jobs > 0:
			stopped = plural(e.Jobs, "job") + " stopped"
		}
		return fmt.Sprintf("last instance died: %s, %d queued never ran", stopped, e.Queued)
	}
	if e.PID != 0 {
		return fmt.Sprintf("the last instance (pid %d) died; %s", e.PID, previousJobsEnd(e))
	}
	return "the last instance died; " + previousJobsEnd(e)
}

// previousJobsEnd says what became of the jobs of an instance that ended
// without shutting down.
func previousJobsEnd(e *control.PreviousEnd) string {
	switch {
	case e.Stopped > 0 && e.Jobs == 1:
		return fmt.Sprintf("its keeper died too, so this one stopped the %s its job left running", plural(e.Stopped, "process"))
	case e.Stopped > 0 && e.Jobs > 0:
		return fmt.Sprintf("its keeper died too, so this one stopped the %s its %s left running", plural(e.Stopped, "process"), plural(e.Jobs, "job"))
	case e.Stopped > 0:
		return fmt.Sprintf("its keeper died too, so this one stopped the %s its jobs left running", plural(e.Stopped, "process"))
	case e.Jobs == 1:
		return "its keeper stopped its job"
	case e.Jobs > 0:
		return fmt.Sprintf("its keeper stopped its %d jobs", e.Jobs)
	default:
		return "none of its jobs was running"
	}
}

func serveUntilClosed(s *control.Server, l net.Listener) {
	s.Serve(l) //nolint:errcheck // ends with Close
}

// shutdown stops every job with its grace rules (killing what is left
// when ctx ends; then ctx's error is returned), and closes the server
// last, so clients see the jobs stop.
func (in *servedInstance) shutdown(ctx context.Context) error {
	in.srv.Quitting() // new jobs refused, "ending" said, from now on
	if in.ws != nil {
		in.ws.Close()
	}
	select {
	case <-in.srv.ShutdownRequested():
		// jobtop shutdown, asked while the jobs still started (the
		// start called off; not answered yet): answered as after the
		// start, once the jobs that did start have stopped.
		in.srv.Open(in.mgr)
	default:
	}
	err := in.mgr.Shutdown(ctx)
	in.srv.Close()
	in.stopMemory()
	in.stopKeep()
	return err
}

// newEmulator is the terminal emulator TTY jobs draw on in screen mode.
func newEmulator(cols, rows int) jobs.Emulator { return vtfast.New(cols, rows) }
