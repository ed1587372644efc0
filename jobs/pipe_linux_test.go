package jobs

import (
	"testing"

	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"
)

// TestOutputPipesAreGrown: on Linux a job's output pipes are asked for
// pipeSize, the unprivileged maximum.
func TestOutputPipesAreGrown(t *testing.T) {
	r, w, err := newOutputPipe()
	require.NoError(t, err)
	defer r.Close()
	defer w.Close()
	rc, err := r.SyscallConn()
	require.NoError(t, err)
	var size int
	var serr error
	require.NoError(t, rc.Control(func(fd uintptr) { size, serr = unix.FcntlInt(fd, unix.F_GETPIPE_SZ, 0) }))
	require.NoError(t, serr)
	require.Equal(t, pipeSize, size)
}
