package ui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/stretchr/testify/require"

	"jobtop/jobs"
)

// clusterText is text whose width terminals disagree on (see
// cellwidth.go): a skin-tone modifier, ZWJ sequences, flags, a keycap and
// VS16, CJK and combining marks.
const clusterText = "done 👍🏽 👨‍👩‍👧 👩🏽‍💻 🇫🇷 🏳️‍🌈 1️⃣ ❤️ 漢字 é ก่ "

// matrixModel is a model over real jobs in every state, with output that
// is hard to lay out: wide characters, escape sequences, tabs, long lines
// and a progress bar.
func matrixModel(t *testing.T, cfg Config) *Model {
	t.Helper()
	mgr, err := jobs.NewManager(jobs.Options{LogDir: t.TempDir(), MaxRunning: 6})
	require.NoError(t, err)
	t.Cleanup(func() { _ = mgr.Shutdown(t.Context()) })
	specs := []jobs.Spec{
		{Name: "build-with-a-rather-long-name-that-never-ends", Command: `printf '\033[32mok\033[0m\t日本語のテキスト %0200d\n' 1; printf '[###   ] 50%%\r[####  ] 66%%'; exec sleep 60`},
		{Name: "emoji-job", Command: `printf '🚀🚀🚀 wide 表 \033]0;title\007 \033[2J cleared?\n'; printf '` + clusterText + `%.0s' $(seq 9); echo; exec sleep 60 # ` + clusterText},
		{Name: "fails", Command: "echo 'something broke' >&2; exit 7"},
		{Name: "succeeds", Command: "seq 1 500"},
		{Name: "stopped", Command: "exec sleep 60"},
		{Argv: []string{"/no/such/program"}},
	}
	for i := 0; i < 8; i++ {
		specs = append(specs, jobs.Spec{Name: fmt.Sprintf("worker-%d", i), Command: "echo working; exec sleep 60"})
	}
	for _, s := range specs {
		_, err := mgr.Start(s)
		require.NoError(t, err)
	}
	m := newSizedModel(t, mgr, cfg, 120, 40)
	pumpUntil(t, m, "the jobs to settle", func() bool {
		return m.stateCountForTest(jobs.StateRunning) == 6 && m.stateCountForTest(jobs.StateFailed) == 1 &&
			m.stateCountForTest(jobs.StateSucceeded) == 1 && m.stateCountForTest(jobs.StateError) == 1
	})
	require.NoError(t, mgr.Stop(5))
	pumpUntil(t, m, "job 5 to stop", func() bool { return m.stateCountForTest(jobs.StateKilled) == 1 })
	pumpUntil(t, m, "a queued job to start", func() bool { return m.stateCountForTest(jobs.StateRunning) == 6 })
	return m
}

// screenStates puts the model in each state the layout must hold in.
var screenStates = []struct {
	name  string
	enter []string
	leave []string
}{
	{"table", nil, nil},
	{"output focused", []string{"enter"}, []string{"esc"}},
	{"wrapped", []string{"enter", "w"}, []string{"w", "esc"}},
	{"paused", []string{"enter", "k", "k"}, []string{"G", "esc"}},
	{"zoomed", []string{"z"}, []string{"z"}},
	{"full help", []string{"?"}, []string{"?"}},
	{"add prompt", []string{"a"}, []string{"esc"}},
	{"quit question", []string{"q"}, []string{"n"}},
	{"last job selected", []string{"G"}, []string{"g"}},
	{"split 2", []string{"space", "j", "space", "s", "tab"}, []string{"shift+tab", "s", "space", "k", "space"}},
	{"split 3", []string{"space", "j", "space", "j", "space", "s", "3"}, []string{"esc", "s", "space", "k", "space", "k", "space"}},
	{"split 4", []string{"space", "j", "space", "j", "space", "j", "space", "s"}, []string{"s", "space", "k", "space", "k", "space", "k", "space"}},
	{"split 4 full help", []string{"space", "j", "space", "j", "space", "j", "space", "s", "?"}, []string{"?", "s", "space", "k", "space", "k", "space", "k", "space"}},
	{"split 4 zoomed", []string{"space", "j", "space", "j", "space", "j", "space", "s", "tab", "z"}, []string{"z", "esc", "s", "space", "k", "space", "k", "space", "k", "space"}},
	{"split 4 search prompt", []string{"space", "j", "space", "j", "space", "j", "space", "s", "tab", "/"}, []string{"esc", "esc", "s", "space", "k", "space", "k", "space", "k", "space"}},
	{"all view", []string{"A"}, []string{"A"}},
	{"all view filtered", []string{"A", "enter", "/", "w", "o", "r", "k", "enter", "&"}, []string{"esc", "esc", "A"}},
}

func TestLayoutMatrix(t *testing.T) {
	m := matrixModel(t, Config{})
	widths := []int{60, 61, 72, 80, 99, 120, 160, 200, 250}
	heights := []int{15, 16, 19, 24, 30, 45, 50, 70}
	for _, st := range screenStates {
		press(t, m, st.enter...)
		for _, w := range widths {
			for _, h := range heights {
				m.Update(tea.WindowSizeMsg{Width: w, Height: h})
				view := m.View()
				label := fmt.Sprintf("%s at %dx%d", st.name, w, h)
				requireFits(t, view, w, h, label)
				requireShows(t, m, view, st.name, label)
				requirePanesFit(t, m, st.name, label)
			}
		}
		press(t, m, st.leave...)
	}
}

// requireShows checks that what must be on screen is there, uncut.
func requireShows(t *testing.T, m *Model, view, state, label string) {
	t.Helper()
	ls := lines(view)
	last := ls[len(ls)-1]
	if strings.Contains(state, "full help") {
		require.True(t, strings.HasPrefix(ls[0], "keys — esc, q or ? closes"), "%s: the help covers the screen: %q", label, ls[0])
		require.Contains(t, view, "job table", label)
		require.Contains(t, last, "esc/q close", label)
		return
	}
	switch state {
	case "add prompt":
		require.Contains(t, view, "add a job", label)
		require.Contains(t, view, "command", label)
	case "quit question":
		require.Contains(t, view, "stop them and quit? y/n", label)
	case "split 4 search prompt":
		require.Contains(t, ls[len(ls)-3], "/ ", "%s: the prompt is above the status bar", label)
		require.Contains(t, last, "esc cancel", label)
	case "split 3", "split 4":
		// The table has the focus with jobs marked (too narrow a screen
		// for 3 to focus a pane): x, X, r and d act on the marked jobs,
		// and may push quit off a narrow help bar.
		require.Contains(t, last, "? help", "%s: the help bar is the last line", label)
	default:
		require.Contains(t, last, "quit", "%s: the help bar is the last line", label)
	}
	if !strings.Contains(state, "zoomed") {
		require.True(t, strings.HasPrefix(ls[0], "    ID NAME"), "%s: the table header is the first line: %q", label, ls[0])
	}
	header := "job 1 build-with"
	switch {
	case state == "last job selected":
		header = "job 14 worker-7"
	case strings.HasPrefix(state, "all view"):
		header = "all jobs"
	case strings.HasPrefix(state, "split"):
		header = "job 1 build"
	}
	require.Contains(t, view, header, "%s: the output header", label)
}

// requirePanesFit checks a split view: its boxes tile the output area,
// each keeps the minimum size, and when fewer panes than asked are drawn
// the status bar says how many.
func requirePanesFit(t *testing.T, m *Model, state, label string) {
	t.Helper()
	if !strings.HasPrefix(state, "split") || m.zoom {
		require.Len(t, m.drawn(), 1, label)
		return
	}
	want := len(m.split)
	drawn := len(m.drawn())
	require.Equal(t, drawn, len(m.screen.panes), label)
	if drawn < want {
		require.Contains(t, m.statusView(), fmt.Sprintf("split %d/%d", drawn, want), "%s: the fallback is told", label)
	}
	if !m.screen.boxed {
		require.Equal(t, 1, drawn, "%s: only a single pane goes unboxed", label)
		return
	}
	cells := 0
	for i, r := range m.screen.panes {
		require.GreaterOrEqual(t, r.w, boxMinWidth, "%s: pane %d width", label, i)
		require.GreaterOrEqual(t, r.h, boxMinHeight, "%s: pane %d height", label, i)
		require.GreaterOrEqual(t, r.y, m.screen.outputY, label)
		require.LessOrEqual(t, r.x+r.w, m.width, label)
		require.LessOrEqual(t, r.y+r.h, m.screen.outputY+m.screen.frame.pane, label)
		cells += r.w * r.h
	}
	require.Equal(t, m.width*m.screen.frame.pane, cells, "%s: the boxes tile the output area", label)
}

// Resizing to any size, however small, never panics and keeps the frame
// exact.
func TestTinyAndOddSizes(t *testing.T) {
	m := matrixModel(t, Config{})
	for _, st := range screenStates {
		press(t, m, st.enter...)
		for w := 1; w <= 60; w += 3 {
			for h := 1; h <= 16; h++ {
				m.Update(tea.WindowSizeMsg{Width: w, Height: h})
				requireFits(t, m.View(), w, h, fmt.Sprintf("%s at %dx%d", st.name, w, h))
			}
		}
		press(t, m, st.leave...)
	}
	m.Update(tea.WindowSizeMsg{Width: 0, Height: 0})
	require.Empty(t, m.View())
}

// The run-time clock must not change the frame's shape either.
func TestLayoutHoldsAsTimePasses(t *testing.T) {
	m := matrixModel(t, Config{})
	m.Update(tea.WindowSizeMsg{Width: 60, Height: 15})
	for _, d := range []time.Duration{0, 59 * time.Second, 59 * time.Minute, 99 * time.Hour, 2400 * time.Hour} {
		m.table.SetNow(time.Now().Add(d))
		requireFits(t, m.View(), 60, 15, d.String())
	}
}
