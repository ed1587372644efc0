package cmd

import (
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"
	"golang.org/x/sys/unix"
)

// loadSignals are the signals that end an instance (serve, plain jobtop)
// while it loads its job file, and serve while it starts its jobs.
var loadSignals = []os.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP}

// stopLoadOnSignal ends this instance on a signal while it loads its job
// file (nothing runs yet): the clients waiting for it are told which
// signal stopped it, the socket is removed, and stderr (and serve -D)
// says so. The load cannot be cut short otherwise. loaded, called once
// the file is loaded, leaves later signals to the caller; a signal taken
// meanwhile still ends this instance, before any job starts.
func stopLoadOnSignal(cmd *cobra.Command, socket *claimedSocket, signals <-chan os.Signal) (loaded func()) {
	done, ended := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(ended)
		select {
		case sig := <-signals:
			stopLoading(cmd, socket, sig)
		case <-done:
		}
	}()
	return func() {
		close(done)
		<-ended
	}
}

// stopLoading ends this instance, stopped by sig while it loaded its job
// file (stopLoadOnSignal), with exit code 128 + the signal's number.
func stopLoading(cmd *cobra.Command, socket *claimedSocket, sig os.Signal) {
	num, _ := sig.(syscall.Signal)
	name := unix.SignalName(num)
	socket.stopped("by " + name)
	err := &ExitError{Code: 128 + int(num), Err: fmt.Errorf("%s: stopped while loading the job file; nothing was started", name)}
	tellDetachParent(cmd, nil, err)
	fmt.Fprintf(cmd.ErrOrStderr(), "jobtop: %v\n", err)
	os.Exit(err.Code)
}

// startJobsUnlessStopped is the instance's startJobs, cut short by a
// signal or by jobtop shutdown: a file of 20,000 jobs takes seconds to
// start, and neither must wait until every one of them exists only to
// stop them all. Then the rest of the start is called off (a job not
// started yet never starts) and the signal is returned, or asked is
// true (jobtop shutdown); the jobs that did start are the caller's to
// stop, and the socket its to give up. An error of the start is
// returned as startJobs returns it (the socket given up).
func startJobsUnlessStopped(in *servedInstance, signals <-chan os.Signal) (cut os.Signal, asked bool, err error) {
	if in.ws == nil { // no job file: nothing to wait for
		return nil, false, in.startJobs()
	}
	started := make(chan error, 1)
	go func() { started <- in.startJobs() }()
	select {
	case err := <-started:
		return nil, false, err
	case cut = <-signals:
	case <-in.srv.ShutdownRequested():
		asked = true
	}
	in.ws.Close() // the rest of the start returns workspace.ErrClosed
	<-started     // that, nil (it ended meanwhile), or an error it gave the socket up with
	return cut, asked, nil
}

// releaseSignals stops catching signals on signals (signal.Notify), for
// an instance that turned out not to load a job file of its own (the
// TUI attaching to the live instance on its socket): a signal caught
// meanwhile is raised again, uncaught, and ends this process as if it
// had never been caught.
func releaseSignals(signals chan os.Signal) {
	signal.Stop(signals)
	select {
	case sig := <-signals:
		num, _ := sig.(syscall.Signal)
		signal.Reset(num)
		syscall.Kill(os.Getpid(), num) //nolint:errcheck // to this very process
	default:
	}
}

// loadDone stops catching signals on signals once the instance's job
// file is loaded (after stopLoadOnSignal's loaded): a signal caught in
// between still ends the instance as during the load (stopLoading).
// From then on the default action, or whoever catches them next (the
// TUI's Bubble Tea program), has them.
func loadDone(cmd *cobra.Command, socket *claimedSocket, signals chan os.Signal) {
	signal.Stop(signals)
	select {
	case sig := <-signals:
		stopLoading(cmd, socket, sig)
	default:
	}
}
