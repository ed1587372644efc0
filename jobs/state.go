package jobs

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"syscall"
)

// State is where a job is in its life. The names are part of the API.
type State string

// The states a job can be in.
const (
	StateQueued    State = "queued"    // waiting for a slot or a dependency
	StateRunning   State = "running"   // its process is alive
	StateStopping  State = "stopping"  // stop signal sent, waiting for exit
	StateSucceeded State = "succeeded" // exited with code 0 (or one of Spec.SuccessExitCodes)
	StateFailed    State = "failed"    // exited with a non-zero code
	StateKilled    State = "killed"    // ended by a signal or by request
	StateTimedOut  State = "timed_out" // stopped because its timeout passed
	StateError     State = "error"     // could not be started
	// StateCreated is a job added without being started (autostart off
	// in a job file); Restart starts it.
	StateCreated State = "created"
)

// Done reports whether the state is final: the job has no live process and
// none is about to start (a created job waits to be started by hand).
func (s State) Done() bool {
	switch s {
	case StateSucceeded, StateFailed, StateKilled, StateTimedOut, StateError, StateCreated:
		return true
	}
	return false
}

// Ended reports whether the job ran, or tried to, and is over: Done but
// not created (a created job has not run yet).
func (s State) Ended() bool { return s.Done() && s != StateCreated }

// Active reports whether the job has a live process.
func (s State) Active() bool { return s == StateRunning || s == StateStopping }

// Stream tells where a line came from.
type Stream uint8

// The streams of a job's output.
const (
	Stdout Stream = iota
	Stderr
	// Meta lines are written by jobtop itself, e.g. the marker where a
	// restarted job's new run begins.
	Meta
)

func (s Stream) String() string {
	switch s {
	case Stdout:
		return "stdout"
	case Stderr:
		return "stderr"
	case Meta:
		return "meta"
	}
	return "stream(" + strconv.Itoa(int(s)) + ")"
}

// MarshalJSON writes the stream's name.
func (s Stream) MarshalJSON() ([]byte, error) { return json.Marshal(s.String()) }

// UnmarshalJSON reads a stream's name.
func (s *Stream) UnmarshalJSON(b []byte) error {
	var name string
	if err := json.Unmarshal(b, &name); err != nil {
		return err
	}
	for _, c := range []Stream{Stdout, Stderr, Meta} {
		if c.String() == name {
			*s = c
			return nil
		}
	}
	return fmt.Errorf("unknown stream %q", name)
}

// Signal is a Unix signal, written by name ("SIGTERM") in JSON.
type Signal syscall.Signal

// String gives the signal's name, e.g. "SIGTERM", or "" for no signal.
func (s Signal) String() string {
	if s == 0 {
		return ""
	}
	if name, ok := signalNames()[syscall.Signal(s)]; ok {
		return name
	}
	return "SIG" + strconv.Itoa(int(s))
}

// MarshalJSON writes the signal's name, or null for no signal.
func (s Signal) MarshalJSON() ([]byte, error) {
	if s == 0 {
		return []byte("null"), nil
	}
	return json.Marshal(s.String())
}

// UnmarshalJSON reads a signal name or number; null means no signal.
func (s *Signal) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*s = 0
		return nil
	}
	var name string
	if err := json.Unmarshal(b, &name); err != nil {
		var n int
		if err := json.Unmarshal(b, &n); err != nil {
			return fmt.Errorf("signal must be a name like \"SIGTERM\" or a number")
		}
		name = strconv.Itoa(n)
	}
	sig, err := ParseSignal(name)
	if err != nil {
		return err
	}
	*s = sig
	return nil
}

// signalNames are the signals every Unix has, and this system's own
// (signals_*.go).
var signalNames = sync.OnceValue(func() map[syscall.Signal]string {
	return withOSSignals(map[syscall.Signal]string{
		syscall.SIGHUP: "SIGHUP", syscall.SIGINT: "SIGINT", syscall.SIGQUIT: "SIGQUIT",
		syscall.SIGILL: "SIGILL", syscall.SIGTRAP: "SIGTRAP", syscall.SIGABRT: "SIGABRT",
		syscall.SIGBUS: "SIGBUS", syscall.SIGFPE: "SIGFPE", syscall.SIGKILL: "SIGKILL",
		syscall.SIGUSR1: "SIGUSR1", syscall.SIGSEGV: "SIGSEGV", syscall.SIGUSR2: "SIGUSR2",
		syscall.SIGPIPE: "SIGPIPE", syscall.SIGALRM: "SIGALRM", syscall.SIGTERM: "SIGTERM",
		syscall.SIGCHLD: "SIGCHLD", syscall.SIGCONT: "SIGCONT", syscall.SIGSTOP: "SIGSTOP",
		syscall.SIGTSTP: "SIGTSTP", syscall.SIGTTIN: "SIGTTIN", syscall.SIGTTOU: "SIGTTOU",
		syscall.SIGURG: "SIGURG", syscall.SIGXCPU: "SIGXCPU", syscall.SIGXFSZ: "SIGXFSZ",
		syscall.SIGVTALRM: "SIGVTALRM", syscall.SIGPROF: "SIGPROF", syscall.SIGWINCH: "SIGWINCH",
		syscall.SIGIO: "SIGIO", syscall.SIGSYS: "SIGSYS",
	})
})

func withOSSignals(names map[syscall.Signal]string) map[syscall.Signal]string {
	for sig, name := range osSignalNames {
		names[sig] = name
	}
	return names
}

// Keeps says what s does to a process, when that is not to end it: "pauses
// it" (SIGSTOP, SIGTSTP, SIGTTIN, SIGTTOU), "continues it" (SIGCONT), "is
// ignored unless caught" (SIGURG, SIGCHLD: no program stops on them, and
// a Go program's runtime takes SIGURG for itself); "" for any other. A
// stop with such a signal would only wait out its grace and SIGKILL the
// job. SIGWINCH, also ignored unless caught, is not among them: a program
// may stop on it (Apache httpd's graceful stop is SIGWINCH, the stop
// signal of Docker's httpd image).
func (s Signal) Keeps() string {
	switch syscall.Signal(s) {
	case syscall.SIGSTOP, syscall.SIGTSTP, syscall.SIGTTIN, syscall.SIGTTOU:
		return "pauses it"
	case syscall.SIGCONT:
		return "continues it"
	case syscall.SIGURG, syscall.SIGCHLD:
		return "is ignored unless caught"
	}
	return ""
}

// KeepsError says that a stop with s, a signal that does not end a
// process (Keeps), is refused, and what sends it alone (alone: "jobtop
// signal STOP ID"); nil for a signal that ends a process.
func (s Signal) KeepsError(alone string) error {
	keeps := s.Keeps()
	if keeps == "" {
		return nil
	}
	return fmt.Errorf("%s does not end a process (it %s): a stop with it would wait out the grace and SIGKILL the job; %s sends it alone", s, keeps, alone)
}

// ParseStopSignal reads a job's stop signal as ParseSignal does, and
// refuses one that does not end a process (Keeps): where it is
// written (a job file's value, --stop-signal), not only as the job
// starts.
func ParseStopSignal(s string) (Signal, error) {
	sig, err := ParseSignal(s)
	if err != nil {
		return 0, err
	}
	return sig, sig.KeepsError("jobtop signal " + strings.TrimPrefix(sig.String(), "SIG") + " ID")
}

// ParseSignal reads "SIGTERM", "TERM", "term" or "15".
func ParseSignal(s string) (Signal, error) {
	t := strings.ToUpper(strings.TrimSpace(s))
	// A number, or SIG and a number: String's name for a signal without
	// one (SIG34, a real-time signal), which the job list carries.
	if n, err := strconv.Atoi(strings.TrimPrefix(t, "SIG")); err == nil {
		if n <= 0 || n > 64 {
			return 0, fmt.Errorf("signal number %d is out of range 1-64", n)
		}
		return Signal(n), nil
	}
	if !strings.HasPrefix(t, "SIG") {
		t = "SIG" + t
	}
	for sig, name := range signalNames() {
		if name == t {
			return Signal(sig), nil
		}
	}
	return 0, fmt.Errorf("unknown signal %q (try SIGTERM, SIGINT, SIGHUP, SIGKILL or a number)", s)
}
