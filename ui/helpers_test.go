package ui

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"
	"github.com/stretchr/testify/require"

	"jobtop/jobs"
	"jobtop/styles"
	"jobtop/vtscreen/vtfast"
)

// Every test draws with the ASCII profile, so views are plain text,
// unless it asks for colours (withColours).
// A transient notice's timer sends its message at once, so that press
// (which runs commands to their end) never sleeps out noticeLife: tests
// move the clock (Config.Now) to see a notice expire.
func TestMain(m *testing.M) {
	lipgloss.SetColorProfile(termenv.Ascii)
	noticeTimer = func(time.Duration) tea.Cmd { return func() tea.Msg { return noticeExpiryMsg{} } }
	os.Exit(m.Run())
}

// deadline is how long tests wait for real processes: generous, for a
// loaded machine.
const deadline = 20 * time.Second

// newManager is a real job engine whose jobs are all reaped when the test
// ends.
func newManager(t testing.TB) *jobs.Manager {
	t.Helper()
	mgr, err := jobs.NewManager(jobs.Options{LogDir: t.TempDir(), Emulator: func(c, r int) jobs.Emulator { return vtfast.New(c, r) }})
	require.NoError(t, err)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), deadline)
		defer cancel()
		require.NoError(t, mgr.Shutdown(ctx))
	})
	return mgr
}

// start starts a shell job on the manager.
func start(t testing.TB, mgr *jobs.Manager, name, command string) jobs.Info {
	t.Helper()
	info, err := mgr.Start(jobs.Spec{Name: name, Command: command, Grace: 3 * time.Second})
	require.NoError(t, err)
	return info
}

// newSizedModel builds a model over an engine at a terminal size.
func newSizedModel(t testing.TB, e Engine, cfg Config, width, height int) *Model {
	t.Helper()
	m := New(e, cfg)
	t.Cleanup(m.Close)
	m.Update(tea.WindowSizeMsg{Width: width, Height: height})
	return m
}

// pumpUntil feeds the model the engine's event batches until cond holds,
// failing the test after the deadline.
func pumpUntil(t testing.TB, m *Model, what string, cond func() bool) {
	t.Helper()
	end := time.Now().Add(deadline)
	for !cond() {
		if time.Now().After(end) {
			t.Fatalf("timed out waiting for %s; screen:\n%s", what, m.View())
		}
		select {
		case batch, ok := <-m.stream.C():
			require.True(t, ok, "event stream closed")
			m.Update(jobEventsMsg{events: batch})
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// press sends keys to the model and runs the commands they return (never
// the event wait, which only Init and job events return), feeding their
// messages back. The run-time clock's first tick is dropped, which keeps
// it from ticking again.
func press(t testing.TB, m *Model, keys ...string) {
	t.Helper()
	for _, k := range keys {
		_, cmd := m.Update(keyMsg(k))
		runCmd(t, m, cmd)
	}
}

// typeText types text into the model, one key per rune.
func typeText(t testing.TB, m *Model, text string) {
	t.Helper()
	for _, r := range text {
		_, cmd := m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}})
		runCmd(t, m, cmd)
	}
}

func runCmd(t testing.TB, m *Model, cmd tea.Cmd) {
	t.Helper()
	if cmd == nil {
		return
	}
	switch msg := cmd().(type) {
	case tea.BatchMsg:
		for _, c := range msg {
			runCmd(t, m, c)
		}
	case tea.QuitMsg, tickMsg, nil:
	default:
		_, next := m.Update(msg)
		runCmd(t, m, next)
	}
}

// keyNames maps key names to their types, e.g. "ctrl+u" or "pgdown".
var keyNames = func() map[string]tea.KeyType {
	names := map[string]tea.KeyType{}
	for t := tea.KeyType(-200); t < 128; t++ {
		if s := (tea.Key{Type: t}).String(); s != "" && !strings.HasPrefix(s, "KeyType") {
			names[s] = t
		}
	}
	return names
}()

// keyMsg is the message a terminal sends for a key name as bindings
// write it: "j", "G", "?", "ctrl+u", "enter", "up".
func keyMsg(name string) tea.KeyMsg {
	if name == "space" {
		return tea.KeyMsg{Type: tea.KeySpace, Runes: []rune{' '}}
	}
	if t, ok := keyNames[name]; ok && t != tea.KeyRunes {
		return tea.KeyMsg{Type: t}
	}
	return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(name)}
}

// resize is the message of a terminal resized to width x height.
func resize(width, height int) tea.WindowSizeMsg {
	return tea.WindowSizeMsg{Width: width, Height: height}
}

// lines splits a view into its lines.
func lines(view string) []string { return strings.Split(view, "\n") }

// requireFits checks a frame: exactly height lines, none wider than width
// on any terminal (textWidth counts each cluster at its widest).
func requireFits(t testing.TB, view string, width, height int, label string) {
	t.Helper()
	ls := lines(view)
	require.Len(t, ls, height, "%s: frame height", label)
	for i, l := range ls {
		require.LessOrEqual(t, textWidth(l), width, "%s: line %d is too wide: %q", label, i, l)
	}
}

// mkfifo makes a named pipe: a job that reads it waits until the test
// writes, with no timing involved.
func mkfifo(t testing.TB, name string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	require.NoError(t, syscall.Mkfifo(path, 0o600))
	return path
}

// writeFifo writes text to the fifo and closes it (the reader sees EOF).
// It fails, rather than hangs, when no reader opens the fifo in time.
func writeFifo(t testing.TB, path, text string) {
	t.Helper()
	var f *os.File
	var err error
	for end := time.Now().Add(deadline); ; {
		// Without a reader a non-blocking open fails (ENXIO).
		if f, err = os.OpenFile(path, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil || time.Now().After(end) {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	require.NoError(t, err, "no job opened the fifo %s", path)
	_, err = f.WriteString(text)
	require.NoError(t, err)
	require.NoError(t, f.Close())
}

// requireGone checks that no process has the PID any more.
func requireGone(t testing.TB, pid int) {
	t.Helper()
	require.NotZero(t, pid)
	require.ErrorIs(t, syscall.Kill(pid, 0), syscall.ESRCH, "process %d is still alive", pid)
}

// colourStyles are styles with colours, drawn with a 256-colour profile
// for the rest of the test.
func colourStyles(t testing.TB) *styles.Styles {
	t.Helper()
	lipgloss.SetColorProfile(termenv.ANSI256)
	t.Cleanup(func() { lipgloss.SetColorProfile(termenv.Ascii) })
	st := styles.New(styles.DefaultPalette(), true)
	return &st
}

// paneRows is the output pane's body as plain text, without trailing
// spaces.
func paneRows(m *Model) []string {
	out := make([]string, 0, len(m.single.rows))
	for _, r := range m.single.rows {
		out = append(out, strings.TrimRight(ansi.Strip(r), " "))
	}
	return out
}
