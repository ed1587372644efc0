package proc

import (
	"bytes"
	"os"
	"strconv"
)

// Busy reports whether a thread of process pid is running or waiting for
// a CPU (R), or waiting in the kernel for something it cannot be woken
// from (D: a page read from a disk under load, a fork's exec): alive and
// slow, not stopped (T) or idle (S). false when pid is gone.
func Busy(pid int) bool {
	dir := "/proc/" + strconv.Itoa(pid) + "/task/"
	tasks, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	buf := make([]byte, 512)
	for _, t := range tasks {
		f, err := os.Open(dir + t.Name() + "/stat")
		if err != nil {
			continue // that thread ended
		}
		n, _ := f.Read(buf)
		f.Close()
		// The state is the field after the command name, which is in
		// parentheses and may hold either.
		if i := bytes.LastIndexByte(buf[:n], ')'); i >= 0 && i+2 < n {
			if s := buf[i+2]; s == 'R' || s == 'D' {
				return true
			}
		}
	}
	return false
}
