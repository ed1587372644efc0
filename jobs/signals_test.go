package jobs

import (
	"encoding/json"
	"syscall"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestEverySignalNameRoundTrips: each name this system knows (its own
// included: SIGPWR on Linux, SIGINFO on macOS and FreeBSD) parses to its
// signal, with or without "SIG", and is written back by that name.
func TestEverySignalNameRoundTrips(t *testing.T) {
	require.NotEmpty(t, osSignalNames)
	for sig, name := range signalNames() {
		for _, in := range []string{name, name[3:], "  " + name[3:] + " "} {
			got, err := ParseSignal(in)
			require.NoError(t, err, in)
			require.Equal(t, Signal(sig), got, in)
		}
		b, err := json.Marshal(Signal(sig))
		require.NoError(t, err)
		require.JSONEq(t, `"`+name+`"`, string(b))
	}
	for sig, name := range osSignalNames {
		require.Equal(t, name, signalNames()[sig], "this system's own signals are in the table")
	}
	require.Equal(t, Signal(syscall.SIGTERM), must(ParseSignal("term")))
	_, err := ParseSignal("SIGNOPE")
	require.Error(t, err)
}

func must(s Signal, err error) Signal {
	if err != nil {
		panic(err)
	}
	return s
}

// TestEverySignalNumberRoundTrips: a signal without a name (34, a
// real-time signal, kills a job as well as any) is written as SIG34,
// and read back: a job it killed made every client of the instance
// refuse the job list ("unknown signal \"SIG34\"": ls, status, wait, rm
// and an attached TUI all failed; rev29).
func TestEverySignalNumberRoundTrips(t *testing.T) {
	for n := 1; n <= 64; n++ {
		b, err := json.Marshal(Signal(n))
		require.NoError(t, err)
		var back Signal
		require.NoError(t, json.Unmarshal(b, &back), "signal %d as %s", n, b)
		require.Equal(t, Signal(n), back, "signal %d as %s", n, b)
	}
	require.Equal(t, Signal(34), must(ParseSignal("sig34")))
	for _, bad := range []string{"SIG0", "SIG65", "SIG-1", "SIG"} {
		_, err := ParseSignal(bad)
		require.Error(t, err, bad)
	}
}

// TestKeepsNamesTheSignalsThatDoNotEndAProcess: a stop with one of them
// would only wait out its grace for SIGKILL; so would one with SIGURG or
// SIGCHLD, which a process ignores unless it catches them (they were
// taken). SIGWINCH, ignored unless caught too, is httpd's graceful stop:
// not among them.
func TestKeepsNamesTheSignalsThatDoNotEndAProcess(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGSTOP, syscall.SIGTSTP, syscall.SIGTTIN, syscall.SIGTTOU,
		syscall.SIGCONT, syscall.SIGURG, syscall.SIGCHLD} {
		require.NotEmpty(t, Signal(sig).Keeps(), Signal(sig).String())
		require.Error(t, Signal(sig).KeepsError("jobtop signal"), Signal(sig).String())
	}
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP, syscall.SIGQUIT,
		syscall.SIGKILL, syscall.SIGUSR1, syscall.SIGUSR2, syscall.SIGALRM, syscall.SIGPIPE, syscall.SIGWINCH} {
		require.Empty(t, Signal(sig).Keeps(), Signal(sig).String())
		require.NoError(t, Signal(sig).KeepsError("jobtop signal"), Signal(sig).String())
	}
	_, err := ParseStopSignal("urg")
	require.EqualError(t, err, "SIGURG does not end a process (it is ignored unless caught): a stop with it would wait out the grace and SIGKILL the job; jobtop signal URG ID sends it alone")
	_, err = ParseStopSignal("SIGCHLD")
	require.ErrorContains(t, err, "SIGCHLD does not end a process (it is ignored unless caught)")
	require.ErrorContains(t, Spec{Command: "true", StopSignal: Signal(syscall.SIGURG)}.Validate(), "stop signal: SIGURG does not end a process")
	sig, err := ParseStopSignal("WINCH")
	require.NoError(t, err)
	require.NoError(t, Spec{Command: "true", StopSignal: sig}.Validate())
}
