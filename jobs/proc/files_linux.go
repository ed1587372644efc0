package proc

import (
	"strconv"

	"golang.org/x/sys/unix"
)

// OutputFiles is what the process pid's stdout and stderr are open on,
// those of them that can be read: none for a process that closed them,
// has gone, or is another user's.
func OutputFiles(pid int) []FileID {
	var out []FileID
	dir := "/proc/" + strconv.Itoa(pid) + "/fd/"
	for _, fd := range []string{"1", "2"} {
		var st unix.Stat_t
		if unix.Stat(dir+fd, &st) == nil { // the file the link names
			out = append(out, FileID{Dev: st.Dev, Ino: st.Ino})
		}
	}
	return out
}
