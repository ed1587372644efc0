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
