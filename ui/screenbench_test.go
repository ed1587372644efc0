package ui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"

	"jobtop/jobs"
	"jobtop/vtscreen"
	"jobtop/vtscreen/vtfast"
)

// Screen frames: go test ./ui/ -run '^$' -bench ScreenFrame -benchtime 300x

// busyEngine is a fixed engine whose one job is in screen mode, drawn on
// a real emulator.
type busyEngine struct {
	*fixedEngine
	scr *vtfast.Screen
}

func (e busyEngine) Screen(jobs.ID) (vtscreen.Snapshot, error) { return e.scr.Snapshot(), nil }

// busyFrame is a full redraw of a cols x rows screen where every cell
// changes from one frame to the next, as the e2e fullscreen -fps does.
func busyFrame(cols, rows, frame int) []byte {
	var b strings.Builder
	b.WriteString("\x1b[H\x1b[m")
	for y := 0; y < rows; y++ {
		fmt.Fprintf(&b, "\x1b[%d;1H\x1b[38;5;208m│\x1b[m", y+1)
		for x := 0; x < cols-2; x += 10 {
			c := (x/10 + y + frame) % 8
			fmt.Fprintf(&b, "\x1b[3%d;4%dm%-*s", c, (c+4)%8, min(10, cols-2-x), fmt.Sprintf("%d.%d", frame%1000, x))
		}
		b.WriteString("\x1b[m\x1b[38;5;208m│")
	}
	return []byte(b.String())
}

// renderLines is what Bubble Tea's renderer does with a frame: each line
// that changed is measured, and cut to the width if it is wider.
func renderLines(last []string, view string, width int) []string {
	lines := strings.Split(view, "\n")
	for i, l := range lines {
		if i < len(last) && last[i] == l {
			continue
		}
		if tea.LineWidth(l) > width {
			_ = tea.LineWidth(ansi.Truncate(l, width, ""))
		}
	}
	return lines
}

// BenchmarkScreenFrame is a frame of a screen-mode job that redraws its
// whole 200x45 screen: the poll that finds the new frame, the view, and
// the renderer's work on the lines that changed; and, beside it, a job
// event that finds no new frame (output events come about twice as often
// as frames are drawn).
func BenchmarkScreenFrame(b *testing.B) {
	lipgloss.SetColorProfile(termenv.ANSI256)
	defer lipgloss.SetColorProfile(termenv.Ascii)
	info := jobs.Info{ID: 1, Name: "busy", State: jobs.StateRunning, TTY: true, Screen: true, Started: atp(0)}
	e := busyEngine{newFixedEngine(info), vtfast.New(200, 45)}
	defer e.scr.Close()
	m := New(e, Config{})
	defer m.Close()
	m.Update(tea.WindowSizeMsg{Width: 200, Height: 50})
	frames := make([][]byte, 8)
	for i := range frames {
		frames[i] = busyFrame(200, 45, i)
	}
	var last []string
	b.Run("frame", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			e.scr.Write(frames[i%len(frames)])
			m.single.scr.drawn = time.Time{} // the last frame is old enough
			m.Update(screenPollMsg{})
			last = renderLines(last, m.View(), 200)
		}
		if want := fmt.Sprintf("│%d.0 ", (b.N-1)%len(frames)); !strings.Contains(ansi.Strip(m.View()), want) {
			b.Fatalf("the last frame (%q) is not drawn:\n%s", want, ansi.Strip(m.View()))
		}
	})
	b.Run("event", func(b *testing.B) {
		ev := []jobs.Event{{Kind: jobs.EventOutput, Job: info}}
		for i := 0; i < b.N; i++ {
			m.Update(jobEventsMsg{events: ev})
			last = renderLines(last, m.View(), 200)
		}
	})
}
