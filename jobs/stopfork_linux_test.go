package jobs

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A job stopped while it forks ends well before its grace, on pipes and
// on a terminal (where its main process leads the terminal's session):
// the stop signal reaches the children forked at that moment too (the
// keeper signals the job's process group as one, Linux 6.9 and later),
// so none waits for the SIGKILL that ends the grace. (The job ignores
// SIGHUP, and so do its children: on a terminal, the hangup the kernel
// sends the foreground group when the main process exits would end them
// anyway, fix or not.)
func TestStopWhileForkingEndsBeforeTheGrace(t *testing.T) {
	const forking = `trap '' HUP; echo go; i=0; while [ $i -lt 2000 ]; do sleep 300 & i=$((i+1)); done; wait`
	m := newManager(t, Options{})
	for _, tty := range []bool{false, true} {
		mark := newMark(t)
		for i := range 25 {
			j := start(t, m, Spec{Command: forking, TTY: tty, Grace: time.Minute, Env: map[string]string{"TEST_MARK": mark}})
			eventually(t, "the job forking", func() bool { return slices.Contains(outputText(t, m, j.ID), "go") })
			began := time.Now()
			require.NoError(t, m.Stop(j.ID))
			// Far less than the grace: a child the stop signal missed
			// would live until it ends.
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			info, err := m.Wait(ctx, j.ID)
			cancel()
			if err != nil {
				m.Kill(j.ID) //nolint:errcheck // the test has failed already
				t.Fatalf("tty %v, stop %d: not ended after %v: a child missed the stop signal", tty, i+1, time.Since(began))
			}
			assert.Equal(t, StateKilled, info.State)
		}
		assert.Empty(t, marked(mark))
	}
}
