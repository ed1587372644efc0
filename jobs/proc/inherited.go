//go:build linux || darwin || freebsd

package proc

import (
	"os"
	"strconv"

	"golang.org/x/sys/unix"
)

// CloseOnExecInherited marks every file descriptor above stderr
// close-on-exec. Go opens its own so, but what jobtop inherited without
// the flag (an agent's or a script's pipe on fd 3, a shell's fd 7) goes
// on to every program it starts: the serve it starts in the background,
// the keeper, every job. A caller reading that pipe to its end then waits
// for as long as any of them lives. jobtop uses none of them: main calls
// this first.
func CloseOnExecInherited() {
	if closeOnExecRange() {
		return
	}
	// No close_range (Linux before 5.11, FreeBSD before 13.1): the open
	// descriptors one by one, as the system lists them.
	entries, err := os.ReadDir(fdDir)
	if err != nil {
		return
	}
	for _, e := range entries {
		if fd, err := strconv.Atoi(e.Name()); err == nil && fd > 2 {
			unix.CloseOnExec(fd)
		}
	}
}
