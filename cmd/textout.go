package cmd

import (
	"io"

	"golang.org/x/sys/unix"

	"jobtop/termtext"
)

// textOut prints what jobs wrote, and their names and commands, the way
// the TUI shows them when the output is a terminal: colours kept, every
// other escape sequence removed, control characters shown as \xNN (see
// termtext.Visible), so no job can move the cursor, clear the screen,
// retitle the terminal or write the clipboard through jobtop. Pipes and
// files (and --raw) get the bytes as they are.
type textOut struct{ safe bool }

func newTextOut(w io.Writer, raw bool) textOut {
	return textOut{safe: !raw && isTerminal(w)}
}

// line is a line of a job's output as it is printed.
func (o textOut) line(s string) string {
	if !o.safe {
		return s
	}
	return termtext.Visible(s, true)
}

// label is a name, command or message as it is printed: on one line,
// without colours on a terminal.
func (o textOut) label(s string) string {
	if !o.safe {
		return s
	}
	return termtext.Visible(termtext.OneLine(s), false)
}

// isTerminal reports whether w is a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := fileOf(w)
	if !ok {
		return false
	}
	_, err := unix.IoctlGetTermios(int(f.Fd()), ioctlReadTermios)
	return err == nil
}

// terminalColumns is the width of the terminal w is, or 0 when w is no
// terminal (a pipe, a file) or says no width.
func terminalColumns(w io.Writer) int {
	f, ok := fileOf(w)
	if !ok {
		return 0
	}
	ws, err := unix.IoctlGetWinsize(int(f.Fd()), unix.TIOCGWINSZ)
	if err != nil {
		return 0
	}
	return int(ws.Col)
}
