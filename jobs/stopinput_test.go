package jobs

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A job with stop input is stopped by typing it: a program that quits on
// a key (mprocs' stop: {send-keys: ...}) ends its own way, well inside a
// grace of an hour, and never sees the stop signal.
func TestStopInputIsTypedIntoTheJob(t *testing.T) {
	for name, spec := range map[string]Spec{
		"on a terminal": {TTY: true, StopInput: "q\r"}, // the enter key
		"on a pipe":     {Stdin: StdinPipe, StopInput: "q\n"},
	} {
		t.Run(name, func(t *testing.T) {
			m := newManager(t, Options{})
			spec.Command = "trap 'echo got TERM' TERM; echo ready; read key; echo \"quit on $key\""
			spec.Grace = time.Hour
			info := start(t, m, spec)
			eventually(t, "the job to read", func() bool {
				return strings.Contains(strings.Join(outputText(t, m, info.ID), "\n"), "ready")
			})
			require.NoError(t, m.Stop(info.ID))
			info = wait(t, m, info.ID) // a grace of an hour: only the input ends it
			out := strings.Join(outputText(t, m, info.ID), "\n")
			assert.Contains(t, out, "── stopping with input: "+strconv.Quote(spec.StopInput)+" ──")
			assert.Contains(t, out, "quit on q")
			assert.NotContains(t, out, "got TERM")
			assert.Zero(t, info.Signal)
		})
	}
}

// Stop input needs a job that reads input, and no stop command beside it.
func TestStopInputIsChecked(t *testing.T) {
	assert.EqualError(t, Spec{Command: "x", StopInput: "q"}.Validate(), "stop input is typed into the job: run it on a terminal (tty) or with stdin: pipe")
	assert.EqualError(t, Spec{Command: "x", TTY: true, StopInput: "q", StopCommand: "y"}.Validate(), "give a stop command or stop input, not both")
	assert.NoError(t, Spec{Command: "x", TTY: true, StopInput: "q"}.Validate())
}
