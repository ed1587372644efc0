package ui

import (
	"strings"
	"sync"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/stretchr/testify/require"

	"jobtop/jobs"
)

// jobInputRecorder is a manager that keeps the bytes the UI sends to each
// job's terminal.
type jobInputRecorder struct {
	*jobs.Manager
	mu   sync.Mutex
	sent map[jobs.ID]string
}

func (r *jobInputRecorder) Input(id jobs.ID, b []byte) error {
	r.mu.Lock()
	r.sent[id] += string(b)
	r.mu.Unlock()
	return r.Manager.Input(id, b)
}

func (r *jobInputRecorder) typed(id jobs.ID) string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.sent[id]
}

// In input mode in a split view, a click on another terminal job's pane
// moves input mode there (as mprocs and tmux focus the pane clicked, and
// keys go to it), a click on a pipe job's pane ends it and focuses that
// pane, and a click inside the pane typed into goes to its job when it
// asked for the mouse, as does the click that moved input mode to it (as
// tmux passes it). The status bar and the double box follow.
func TestAClickMovesInputModeToThePaneClicked(t *testing.T) {
	mgr := newManager(t)
	one := startTTY(t, mgr, "one", `echo "rea""dy"; exec cat >/dev/null`)
	two := startTTY(t, mgr, "two", `printf '\033[?1049h\033[?1000h\033[?1006hmouse rea''dy'; exec cat >/dev/null`)
	pipe := start(t, mgr, "pipe", `echo "pipe rea""dy"; exec sleep 60`)
	rec := &jobInputRecorder{Manager: mgr, sent: map[jobs.ID]string{}}
	m := newSizedModel(t, rec, Config{}, 120, 36)
	press(t, m, "space", "j", "space", "j", "space", "s")
	require.Len(t, m.drawn(), 3)
	pumpUntil(t, m, "every pane's output", func() bool {
		v := m.View()
		return strings.Contains(v, "ready") && strings.Contains(v, "mouse ready") && strings.Contains(v, "pipe ready") && m.split[1].InScreen()
	})
	require.Equal(t, []jobs.ID{one.ID, two.ID, pipe.ID}, []jobs.ID{m.split[0].JobID(), m.split[1].JobID(), m.split[2].JobID()})
	clickPane := func(i int) { // and run what it does: a click typed goes to the job so
		r := m.screen.panes[i]
		_, cmd := m.Update(tea.MouseMsg{X: r.x + 5, Y: r.y + 3, Action: tea.MouseActionPress, Button: tea.MouseButtonLeft})
		runCmd(t, m, cmd)
	}
	boxTop := func(i int) string {
		r := m.screen.panes[i]
		return string([]rune(ansi.Strip(lines(m.View())[r.y]))[r.x])
	}

	press(t, m, "1", "i")
	require.True(t, m.input.on())
	require.Equal(t, one.ID, m.input.id)
	require.Equal(t, "╔", boxTop(0))

	clickPane(1)
	require.True(t, m.input.on(), "a click on another terminal job's pane keeps typing")
	require.Equal(t, two.ID, m.input.id, "into the job clicked")
	require.Equal(t, 1, m.active)
	require.Contains(t, m.View(), " INPUT  keys go to job 2 two · ctrl+a leaves")
	require.Equal(t, "╔", boxTop(1), "the pane typed into is boxed double")
	require.Equal(t, "╭", boxTop(0))
	// The click that moved input mode is the job's too, as tmux passes
	// it: the job asked for the mouse. Its cell is the job's column 5,
	// row 3 (SGR counts from 1): the pane's box and header come first.
	require.Equal(t, "\x1b[<0;5;3M", rec.typed(two.ID), "the click goes to the job clicked, in its coordinates")
	press(t, m, "x")
	require.Equal(t, "\x1b[<0;5;3Mx", rec.typed(two.ID), "keys go to the job clicked")
	require.Empty(t, rec.typed(one.ID))

	clickPane(1)
	require.Equal(t, two.ID, m.input.id)
	require.Equal(t, "\x1b[<0;5;3Mx\x1b[<0;5;3M", rec.typed(two.ID), "a click inside the pane typed into is its job's: it asked for the mouse")

	clickPane(0)
	require.Equal(t, one.ID, m.input.id, "and back")
	require.Empty(t, rec.typed(one.ID), "a job that did not ask for the mouse gets no click")
	press(t, m, "y")
	require.Equal(t, "y", rec.typed(one.ID))

	clickPane(2)
	require.False(t, m.input.takesKeys(), "a pipe job takes no keys: input mode ends")
	require.Equal(t, focusOutput, m.focus)
	require.Equal(t, 2, m.active, "and its pane has the focus")
	require.NotContains(t, m.View(), "INPUT")
	require.Equal(t, "┏", boxTop(2))
	before := rec.typed(one.ID) + rec.typed(two.ID)
	wrap := m.split[2].Wrapping()
	press(t, m, "w")
	require.NotEqual(t, wrap, m.split[2].Wrapping(), "w is jobtop's: it turns the pane's wrapping")
	require.Equal(t, before, rec.typed(one.ID)+rec.typed(two.ID))
}
