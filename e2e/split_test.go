package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// half is the left or right half of each screen row from row from to
// row to (not included).
func half(scr []string, from, to int, right bool) []string {
	var out []string
	for _, r := range scr[from:min(to, len(scr))] {
		rs := []rune(r)
		mid := 80
		if right {
			out = append(out, string(rs[min(mid, len(rs)):]))
		} else {
			out = append(out, string(rs[:min(mid, len(rs))]))
		}
	}
	return out
}

var tickRE = regexp.MustCompile(`tick (\d+)`)

// lastTick is the highest "tick N" in the rows.
func lastTick(rows []string) int {
	n := 0
	for _, r := range rows {
		for _, m := range tickRE.FindAllStringSubmatch(r, -1) {
			v, _ := strconv.Atoi(m[1])
			n = max(n, v)
		}
	}
	return n
}

var entryRE = regexp.MustCompile(`entry (\d+)`)

// entriesInOrder reports whether each row shows the log job's next line
// ("entry 458", "entry 459", ...): rows of one frame. A frame is written
// top to bottom, and tmux can be read in the middle of one: then the
// rows of the frame before follow the new ones, and the numbers jump.
func entriesInOrder(rows []string) bool {
	prev := 0
	for _, r := range rows {
		m := entryRE.FindStringSubmatch(r)
		if m == nil {
			return false
		}
		n, _ := strconv.Atoi(m[1])
		if prev != 0 && n != prev+1 {
			return false
		}
		prev = n
	}
	return prev != 0
}

// rowIndex is the index of the first row that contains text, or -1.
func rowIndex(scr []string, text string) int {
	for i, r := range scr {
		if strings.Contains(r, text) {
			return i
		}
	}
	return -1
}

// Mark two jobs, split them side by side, scroll one while the other
// keeps following, search the scrolled one with / and n, read its log in
// the pager and come back, and use the mouse; then quit cleanly.
func TestSplitScrollSearchPagerMouse(t *testing.T) {
	bin := binary(t)
	token := fmt.Sprintf("%d.%d", os.Getpid(), 5151)
	logJob := `awk 'BEGIN{for(i=1;i<=500;i++) if(i%100==0) print "entry " i " ERROR"; else print "entry " i}'; exec sleep 60` + token
	ticker := `i=0; while :; do i=$((i+1)); echo "tick $i"; sleep 0.05; done # ` + token
	s := newSession(t, 160, 45, []string{"PAGER=less -R"}, bin, "--name", "log,ticker", logJob, ticker)
	s.waitText("entry 500", "● 2 running")

	s.keys("Space", "j", "Space", "s")
	scr := s.waitText("split 2/2")
	top := rowIndex(scr, "╭─ job 1 log")
	require.GreaterOrEqual(t, top, 0, "the panes' boxes: %s", strings.Join(scr, "\n"))
	require.Contains(t, scr[top], "╭─ job 2 ticker", "side by side")

	// Focus the log pane and scroll it up: it pauses, the ticker follows.
	s.keys("Tab")
	s.waitText("┏▸ job 1 log")
	s.keys("k", "k", "k", "k", "k")
	body := func(scr []string, right bool) []string {
		bottom := top + 1
		for bottom < len(scr) && !strings.ContainsAny(scr[bottom], "╰┗") {
			bottom++
		}
		return half(scr, top+1, bottom, right)
	}
	// The header can be on the screen before the whole body is: a frame
	// is written in pieces, and tmux may be read between them. The body's
	// last row is written last.
	scr = s.waitFor("the log pane paused 5 lines up", func(scr []string) bool {
		left := body(scr, false)
		return strings.Contains(strings.Join(scr, "\n"), "paused ↓5") &&
			entriesInOrder(left) && strings.Contains(left[len(left)-1], "entry 495 ")
	})
	frozen := body(scr, false)
	tick := lastTick(body(scr, true))
	scr = s.waitFor("the ticker to move on", func(scr []string) bool {
		return lastTick(body(scr, true)) > tick+5
	})
	require.Equal(t, frozen, body(scr, false), "the paused pane does not move")
	require.Contains(t, scr[top], "following", "the ticker's pane still follows")

	// Search the log pane: the newest match first, n wraps to the first.
	s.keys("/")
	s.waitText("/ ")
	s.keys("-l", "error")
	s.keys("Enter")
	s.waitText("/error match 5/5")
	s.keys("n")
	// The match is in the header, above the body it moves.
	scr = s.waitFor("/error match 1/5, its line shown", func(scr []string) bool {
		return strings.Contains(strings.Join(scr, "\n"), "/error match 1/5") &&
			entriesInOrder(body(scr, false)) && strings.Contains(strings.Join(body(scr, false), "\n"), "entry 100 ERROR")
	})
	frozen = body(scr, false)

	// o reads the whole log in less, and q comes back to the same view.
	s.keys("o")
	s.waitFor("less on the log file", func(scr []string) bool {
		return strings.HasPrefix(scr[0], "[jobtop] ── run 1 · started") && strings.HasPrefix(scr[1], "entry 1") && !strings.Contains(strings.Join(scr, "\n"), "split 2/2")
	})
	s.keys("q")
	scr = s.waitFor("the TUI back from less", func(scr []string) bool {
		all := strings.Join(scr, "\n")
		return strings.Contains(all, "split 2/2") && strings.Contains(all, "/error match 1/5") && entriesInOrder(body(scr, false))
	})
	require.Equal(t, frozen, body(scr, false), "the TUI is back unchanged")
	// The terminal reports the mouse again, as before the pager (the
	// clicks below are typed in as sequences, whatever tmux reports).
	mouseOn := func() bool {
		return strings.TrimSpace(s.tmux("display-message", "-p", "-t", s.name, "#{mouse_button_flag}#{mouse_sgr_flag}")) == "11"
	}
	deadline := time.Now().Add(10 * time.Second)
	for !mouseOn() && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	require.True(t, mouseOn(), "mouse reporting is back after the pager")

	// The mouse: a click on the ticker's pane focuses it; the wheel over
	// the log pane scrolls it without moving the focus.
	s.keys("-l", fmt.Sprintf("\x1b[<0;%d;%dM\x1b[<0;%d;%dm", 120, top+5, 120, top+5))
	// The log pane's border is redrawn unfocused down to its last row.
	scr = s.waitFor("the ticker's pane focused", func(scr []string) bool {
		left := body(scr, false)
		return strings.Contains(scr[top], "┏▸ job 2 ticker") && entriesInOrder(left) && strings.HasPrefix(left[len(left)-1], "│")
	})
	before := body(scr, false)
	s.keys("-l", fmt.Sprintf("\x1b[<65;%d;%dM", 20, top+5))
	scr = s.waitFor("the log pane to scroll down", func(scr []string) bool {
		return !equalRows(body(scr, false), before)
	})
	require.Contains(t, scr[top], "┏▸ job 2 ticker", "the focus stays")

	s.quit("2 jobs running — stop them and quit? y/n")
	require.Empty(t, processesWith(token), "no job process survives quitting")
}

func equalRows(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// With --bell, a job that fails rings the terminal bell: tmux flags the
// window it rang in while another window is shown.
func TestBellRingsOnFailure(t *testing.T) {
	bin := binary(t)
	fifo := filepath.Join(t.TempDir(), "gate")
	require.NoError(t, syscall.Mkfifo(fifo, 0o600))
	s := newSession(t, 120, 30, nil, bin, "--bell", "--name", "fails", "read x < "+fifo+"; exit 3")
	s.waitText("● running", "bell]")
	s.tmux("new-window", "-d", "-t", s.name+":1", "sleep 60")
	s.tmux("select-window", "-t", s.name+":1")
	bell := func() string {
		return strings.TrimSpace(s.tmux("display-message", "-p", "-t", s.name+":0", "#{window_bell_flag}"))
	}
	require.Equal(t, "0", bell())

	f, err := os.OpenFile(fifo, os.O_WRONLY, 0)
	require.NoError(t, err)
	_, err = f.WriteString("go\n")
	require.NoError(t, err)
	require.NoError(t, f.Close())
	require.Eventually(t, func() bool { return bell() == "1" }, deadline, 50*time.Millisecond, "the bell rang")
	require.Eventually(t, func() bool {
		return strings.Contains(s.tmux("capture-pane", "-p", "-t", s.name+":0"), "job 1 fails failed (exit 3)")
	}, deadline, 50*time.Millisecond, "for a failure")
}
