//go:build unix

package proc

import "golang.org/x/sys/unix"

// FileID names an open file (a pipe, a terminal): the device and inode
// fstat gives for it. Every descriptor of one pipe, in any process, has
// the same.
type FileID struct{ Dev, Ino uint64 }

// FileOf is the FileID of the file fd is open on, and whether that file
// is a pipe (or socket) or a character device (a terminal): the kinds a
// job's output goes to.
func FileOf(fd int) (id FileID, stream bool, err error) {
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return FileID{}, false, err
	}
	kind := uint32(st.Mode) & unix.S_IFMT
	stream = kind == unix.S_IFIFO || kind == unix.S_IFSOCK || kind == unix.S_IFCHR
	return FileID{Dev: uint64(st.Dev), Ino: uint64(st.Ino)}, stream, nil
}
