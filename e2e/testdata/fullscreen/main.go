// Command fullscreen is the full-screen program of jobtop's PTY tests:
// it takes the alternate screen, draws a box that says its size, echoes
// the keys it reads (raw mode: ctrl+c is the byte 0x03, shown as ^C),
// redraws when the terminal is resized (SIGWINCH), and on 'q' leaves the
// alternate screen, restores the terminal, prints "fullscreen: bye" and
// exits 0.
//
//	fullscreen            draw on change only
//	fullscreen -fps 60    also redraw the whole screen 60 times a second,
//	                      each frame different (a frame counter and
//	                      shifting colours in every cell): the load of a
//	                      busy TUI, for measurements
//
// Build it with: go build -o fullscreen ./e2e/testdata/fullscreen
package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

func main() {
	fps := flag.Int("fps", 0, "redraw the whole screen this many times a second (0: on change only)")
	flag.Parse()
	fd := int(os.Stdin.Fd())
	old, err := unix.IoctlGetTermios(fd, unix.TCGETS)
	if err != nil {
		fmt.Fprintln(os.Stderr, "fullscreen: stdin is not a terminal:", err)
		os.Exit(2)
	}
	raw := *old
	raw.Iflag &^= unix.IGNBRK | unix.BRKINT | unix.PARMRK | unix.ISTRIP | unix.INLCR | unix.IGNCR | unix.ICRNL | unix.IXON
	raw.Oflag &^= unix.OPOST
	raw.Lflag &^= unix.ECHO | unix.ECHONL | unix.ICANON | unix.ISIG | unix.IEXTEN
	raw.Cc[unix.VMIN], raw.Cc[unix.VTIME] = 1, 0
	if err := unix.IoctlSetTermios(fd, unix.TCSETS, &raw); err != nil {
		fmt.Fprintln(os.Stderr, "fullscreen:", err)
		os.Exit(2)
	}
	out := bufio.NewWriterSize(os.Stdout, 64<<10)
	d := &drawer{out: out}
	out.WriteString("\x1b[?1049h")

	keys := make(chan []byte)
	go func() {
		buf := make([]byte, 256)
		for {
			n, err := os.Stdin.Read(buf)
			if err != nil {
				close(keys)
				return
			}
			keys <- append([]byte(nil), buf[:n]...)
		}
	}()
	winch := make(chan os.Signal, 1)
	signal.Notify(winch, syscall.SIGWINCH)
	var tick <-chan time.Time
	if *fps > 0 {
		t := time.NewTicker(time.Second / time.Duration(*fps))
		defer t.Stop()
		tick = t.C
	}
	d.resize(fd)
	d.draw()
loop:
	for {
		select {
		case b, ok := <-keys:
			if !ok {
				break loop
			}
			if d.key(b) {
				break loop
			}
		case <-winch:
			d.resize(fd)
		case <-tick:
			d.frame++
		}
		d.draw()
	}
	out.WriteString("\x1b[?1049l")
	out.Flush()
	_ = unix.IoctlSetTermios(fd, unix.TCSETS, old)
	fmt.Println("fullscreen: bye")
}

// drawer holds what the screen shows.
type drawer struct {
	out        *bufio.Writer
	cols, rows int
	keys       string // what was typed, escaped, newest last
	frame      int
	resizes    int
}

func (d *drawer) resize(fd int) {
	ws, err := unix.IoctlGetWinsize(fd, unix.TIOCGWINSZ)
	if err == nil {
		d.cols, d.rows = int(ws.Col), int(ws.Row)
		d.resizes++
	}
}

// key records typed bytes; it reports true on 'q'.
func (d *drawer) key(b []byte) bool {
	for _, c := range b {
		switch {
		case c == 'q':
			return true
		case c < 0x20:
			d.keys += "^" + string(rune(c+'@'))
		case c == 0x7f:
			d.keys += "^?"
		default:
			d.keys += string(rune(c))
		}
	}
	if over := len(d.keys) - 60; over > 0 {
		d.keys = d.keys[over:]
	}
	return false
}

// draw writes the whole screen: a box in colour with the size in its top
// edge, lines of text inside, the cursor left after the typed keys.
func (d *drawer) draw() {
	w, h := d.cols, d.rows
	if w < 20 || h < 6 {
		fmt.Fprintf(d.out, "\x1b[H\x1b[2Jtoo small %dx%d", w, h)
		d.out.Flush()
		return
	}
	o := d.out
	o.WriteString("\x1b[H\x1b[m")
	title := fmt.Sprintf(" fullscreen %dx%d ", w, h)
	o.WriteString("\x1b[38;5;208m┌" + title + strings.Repeat("─", max(w-2-len(title), 0)) + "┐")
	body := []string{
		"keys: " + d.keys,
		"\x1b[31mred\x1b[m \x1b[1;32mbold green\x1b[m \x1b[44;37mwhite on blue\x1b[m",
		"wide: 日本語 end",
		fmt.Sprintf("frame %d resizes %d", d.frame, d.resizes),
	}
	for y := 1; y < h-1; y++ {
		fmt.Fprintf(o, "\x1b[%d;1H\x1b[38;5;208m│\x1b[m", y+1)
		text, vis := "", 0
		if y-1 < len(body) {
			text = body[y-1]
			vis = visible(text)
		} else if d.frame > 0 {
			text, vis = d.busyRow(y, w-2)
		}
		if vis > w-2 {
			text, vis = cutASCII(text, w-2), w-2
		}
		o.WriteString(text + "\x1b[m" + strings.Repeat(" ", w-2-vis))
		o.WriteString("\x1b[38;5;208m│")
	}
	fmt.Fprintf(o, "\x1b[%d;1H└%s┘\x1b[m", h, strings.Repeat("─", w-2))
	fmt.Fprintf(o, "\x1b[2;%dH", min(8+len(d.keys), w-1)) // the cursor after the keys
	o.Flush()
}

// busyRow fills a row with coloured cells that change every frame.
func (d *drawer) busyRow(y, w int) (string, int) {
	var b strings.Builder
	for x := 0; x < w; x += 10 {
		n := min(10, w-x)
		c := (x/10 + y + d.frame) % 8
		fmt.Fprintf(&b, "\x1b[3%d;4%dm%-*s", c, (c+4)%8, n, fmt.Sprintf("%d.%d", d.frame%1000, x))
	}
	return b.String(), w
}

// visible counts the columns of text: SGR sequences take none, the wide
// characters two.
func visible(s string) int {
	n, esc := 0, false
	for _, r := range s {
		switch {
		case esc:
			esc = r != 'm'
		case r == 0x1b:
			esc = true
		case r >= 0x3000:
			n += 2
		default:
			n++
		}
	}
	return n
}

// cutASCII cuts plain text to w columns (rows that are too long are the
// keys line on a narrow screen).
func cutASCII(s string, w int) string {
	if len(s) > w {
		return s[:w]
	}
	return s
}
