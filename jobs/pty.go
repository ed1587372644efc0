package jobs

import (
	"fmt"
	"os"

	"github.com/creack/pty"
	"golang.org/x/sys/unix"
)

// ttyTerm is the TERM of a TTY job: what its terminal is (the emulator
// of screen mode, and the TUI's pane, speak xterm's sequences with 256
// colours), whatever terminal jobtop itself runs in.
const ttyTerm = "xterm-256color"

// maxTermSide bounds a TTY job's columns and rows, and maxTermCells
// their product: more is a mistake, not a terminal (an 8K screen in a
// small font is about 1000x250). The bound is memory: in screen mode the
// emulator keeps about 50 bytes a cell (a main and an alternate screen,
// and the rows' text for snapshots), so 250,000 cells are about 12 MiB,
// where 10,000x10,000 would be 5 GiB.
const (
	maxTermSide  = 2_000
	maxTermCells = 250_000
)

// openPTY makes a TTY job's pseudo-terminal at the given size. The master
// is jobtop's: non-blocking and in Go's poller, so reading and writing it
// wait without an OS thread (never call Fd on it: that would make it
// blocking). The slave goes to the job.
func openPTY(cols, rows int) (master, slave *os.File, err error) {
	ptm, pts, err := pty.Open()
	if err != nil {
		return nil, nil, fmt.Errorf("cannot open a pseudo-terminal: %w", err)
	}
	// pty.Open made its master blocking (it calls Fd); a duplicate made
	// non-blocking is taken into the poller by os.NewFile.
	fd, err := unix.FcntlInt(ptm.Fd(), unix.F_DUPFD_CLOEXEC, 0)
	ptm.Close()
	if err == nil {
		err = unix.SetNonblock(fd, true)
		if err != nil {
			unix.Close(fd)
		}
	}
	if err != nil {
		pts.Close()
		return nil, nil, fmt.Errorf("cannot set up a pseudo-terminal: %w", err)
	}
	master = os.NewFile(uintptr(fd), "pty-master")
	setUTF8(pts)
	if err := setWinsize(master, cols, rows); err != nil {
		master.Close()
		pts.Close()
		return nil, nil, err
	}
	return master, pts, nil
}

// setUTF8 tells the terminal its input is UTF-8, as terminal emulators
// and tmux do: a backspace in a canonical line (cat, read, a prompt
// without line editing) erases a whole character, not one of its bytes.
func setUTF8(pts *os.File) {
	if utf8Input == 0 {
		return
	}
	fd := int(pts.Fd())
	if t, err := unix.IoctlGetTermios(fd, ioctlReadTermios); err == nil {
		t.Iflag |= utf8Input
		unix.IoctlSetTermios(fd, ioctlWriteTermios, t) //nolint:errcheck // best effort
	}
}

// setWinsize sets the terminal's size; the kernel sends SIGWINCH to its
// foreground process group when it changes.
func setWinsize(master *os.File, cols, rows int) error {
	rc, err := master.SyscallConn()
	if err != nil {
		return err
	}
	ws := &unix.Winsize{Col: uint16(cols), Row: uint16(rows)}
	var ioErr error
	if err := rc.Control(func(fd uintptr) { ioErr = unix.IoctlSetWinsize(int(fd), unix.TIOCSWINSZ, ws) }); err != nil {
		// Control fails only on a file closed (or closing), with the
		// poller's "use of closed file", which is not os.ErrClosed: the
		// run ending closed its terminal.
		return fmt.Errorf("%w (%v)", os.ErrClosed, err)
	}
	if ioErr != nil {
		return fmt.Errorf("cannot resize the terminal: %w", ioErr)
	}
	return nil
}

// checkTermSize refuses a size no terminal has.
func checkTermSize(cols, rows int) error {
	if cols < 1 || rows < 1 || cols > maxTermSide || rows > maxTermSide || cols*rows > maxTermCells {
		return fmt.Errorf("terminal size %dx%d is out of range: columns and rows go from 1 to %d, and at most %d cells in all",
			cols, rows, maxTermSide, maxTermCells)
	}
	return nil
}
