// Command ttyecho is the line-mode probe of jobtop's PTY tests: it says
// what it sees of its terminal and what its terminal sends it.
//
// It prints "isatty in=BOOL out=BOOL" first. On a terminal it then puts
// it in raw mode (every byte as sent: ESC is ^[ below, ctrl+c ^C), sets
// the DEC private modes -modes names (e.g. "2004" for bracketed paste,
// "1000,1006" for SGR mouse reports), prints "size COLSxROWS" at the start
// and after each SIGWINCH, and after each read "got: " and every byte
// read so far, escaped. With -alt it does all this on the alternate
// screen (a full-screen program: jobtop's screen mode). It runs until
// its input ends.
//
// Build it with: go build -o ttyecho ./e2e/testdata/ttyecho
package main

import (
	"flag"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

func main() {
	modes := flag.String("modes", "", "DEC private modes to set, comma-separated (2004, 1000, 1006, ...)")
	alt := flag.Bool("alt", false, "run on the alternate screen")
	flag.Parse()
	in, out := isTerminal(0), isTerminal(1)
	fmt.Printf("isatty in=%v out=%v\n", in, out)
	if !in {
		os.Exit(0)
	}
	fd := int(os.Stdin.Fd())
	old, err := unix.IoctlGetTermios(fd, unix.TCGETS)
	if err != nil {
		fmt.Fprintln(os.Stderr, "ttyecho:", err)
		os.Exit(2)
	}
	raw := *old
	raw.Iflag &^= unix.IGNBRK | unix.BRKINT | unix.PARMRK | unix.ISTRIP | unix.INLCR | unix.IGNCR | unix.ICRNL | unix.IXON
	raw.Lflag &^= unix.ECHO | unix.ECHONL | unix.ICANON | unix.ISIG | unix.IEXTEN
	raw.Cc[unix.VMIN], raw.Cc[unix.VTIME] = 1, 0
	if err := unix.IoctlSetTermios(fd, unix.TCSETS, &raw); err != nil {
		fmt.Fprintln(os.Stderr, "ttyecho:", err)
		os.Exit(2)
	}
	defer unix.IoctlSetTermios(fd, unix.TCSETS, old) //nolint:errcheck // best effort on the way out
	if *alt {
		fmt.Print("\x1b[?1049h\x1b[H")
	}
	for _, m := range strings.Split(*modes, ",") {
		if m != "" {
			fmt.Printf("\x1b[?%sh", m)
		}
	}
	size := func() {
		if ws, err := unix.IoctlGetWinsize(fd, unix.TIOCGWINSZ); err == nil {
			fmt.Printf("size %dx%d\n", ws.Col, ws.Row)
		}
	}
	size()
	winch := make(chan os.Signal, 1)
	signal.Notify(winch, syscall.SIGWINCH)
	go func() {
		for range winch {
			size()
		}
	}()
	var got strings.Builder
	buf := make([]byte, 4096)
	for {
		n, err := os.Stdin.Read(buf)
		if err != nil {
			return
		}
		for _, c := range buf[:n] {
			switch {
			case c < 0x20:
				got.WriteString("^" + string(rune(c+'@')))
			case c == 0x7f:
				got.WriteString("^?")
			default:
				got.WriteByte(c)
			}
		}
		fmt.Printf("got: %s\n", got.String())
	}
}

// isTerminal reports whether fd is a terminal.
func isTerminal(fd int) bool {
	_, err := unix.IoctlGetTermios(fd, unix.TCGETS)
	return err == nil
}
