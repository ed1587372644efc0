package jobs

import (
	"fmt"
	"os"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
)

// A start that ran out of file descriptors says what the limit is and
// how to raise it; other errors are left as they are.
func TestRunningOutOfFilesSaysTheLimit(t *testing.T) {
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		t.Skip(err)
	}
	err := withFileLimit(&os.PathError{Op: "open", Path: os.DevNull, Err: syscall.EMFILE})
	assert.ErrorIs(t, err, syscall.EMFILE)
	assert.EqualError(t, err, fmt.Sprintf("open /dev/null: too many open files (jobtop's limit is %d open files, about three a running job takes: raise it with ulimit -n before starting jobtop)", lim.Cur))
	other := &os.PathError{Op: "open", Path: os.DevNull, Err: syscall.ENOENT}
	assert.Same(t, other, withFileLimit(other))
}
