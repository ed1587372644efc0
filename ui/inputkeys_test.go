package ui

import (
	"bytes"
	"context"
	"io"
	"sync"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/stretchr/testify/require"

	"jobtop/jobs"
	"jobtop/vtscreen"
)

// typedEngine is a fixed engine whose one job runs on a terminal and
// records what is typed into it; the job's line-mode screen asks for
// the input modes the test chose.
type typedEngine struct {
	*fixedEngine
	modes vtscreen.InputModes
	mu    sync.Mutex
	typed []byte
}

func newTypedEngine(modes vtscreen.InputModes) *typedEngine {
	job := jobs.Info{ID: 1, Name: "keys", State: jobs.StateRunning, TTY: true, Cols: 80, Rows: 24, Started: atp(-time.Minute)}
	return &typedEngine{fixedEngine: newFixedEngine(job), modes: modes}
}

func (e *typedEngine) Input(_ jobs.ID, b []byte) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.typed = append(e.typed, b...)
	return nil
}

func (e *typedEngine) Resize(jobs.ID, int, int) error { return nil }

func (e *typedEngine) Screen(jobs.ID) (vtscreen.Snapshot, error) {
	return vtscreen.Snapshot{Cols: 80, Rows: 24, Modes: e.modes}, nil
}

// take returns what was typed and forgets it.
func (e *typedEngine) take() []byte {
	e.mu.Lock()
	defer e.mu.Unlock()
	b := e.typed
	e.typed = nil
	return b
}

// keyRow is a key as tmux sends it to the terminal jobtop runs in (in),
// and what a terminal sends the job for it (want). Without a want the
// job gets in as it came.
type keyRow struct {
	name, in, want string
}

// runOnInput runs m on a real Bubble Tea program until the test ends,
// reading what the test writes to the returned pipe as its terminal
// input: each write one read, as a terminal delivers a key.
func runOnInput(t *testing.T, m *Model) *io.PipeWriter {
	t.Helper()
	in, keys := io.Pipe()
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	p := tea.NewProgram(m, tea.WithContext(ctx), tea.WithInput(in), tea.WithOutput(io.Discard),
		tea.WithoutRenderer(), tea.WithoutSignalHandler())
	done := make(chan error, 1)
	go func() {
		_, err := p.Run()
		done <- err
	}()
	t.Cleanup(func() {
		defer cancel()
		require.NoError(t, keys.Close())
		p.Quit()
		require.NoError(t, <-done)
	})
	return keys
}

// typeThrough runs the model in input mode on a real Bubble Tea program,
// writes each row's bytes to the program's input, and checks what the
// job got for it. A z after each key marks where the key's bytes end.
func typeThrough(t *testing.T, modes vtscreen.InputModes, rows []keyRow) {
	t.Helper()
	e := newTypedEngine(modes)
	m := newSizedModel(t, e, Config{}, 100, 30)
	press(t, m, "enter", "i")
	require.True(t, m.input.on(), "input mode on the terminal job")
	keys := runOnInput(t, m)
	for _, r := range rows {
		want := r.want
		if want == "" {
			want = r.in
		}
		for _, b := range []string{r.in, "z"} {
			_, err := keys.Write([]byte(b))
			require.NoError(t, err, r.name)
		}
		got := e.waitTyped(t, "z", r.name)
		require.Equal(t, want, string(got[:len(got)-1]), "%s (%q)", r.name, r.in)
	}
}

// waitTyped waits for the job to get bytes that end with end, and
// returns what it got.
func (e *typedEngine) waitTyped(t *testing.T, end, what string) []byte {
	t.Helper()
	var got []byte
	require.Eventually(t, func() bool {
		got = append(got, e.take()...)
		return bytes.HasSuffix(got, []byte(end))
	}, 5*time.Second, time.Millisecond, "%s: the %q after it; the job got %q", what, end, got)
	return got
}

// Every key reaches a job typed into as a terminal (xterm, tmux) sends
// it: modifiers in the CSI form (alt+up is CSI 1;3A, not ESC then up),
// and keys Bubble Tea v1 has no name for (ctrl+f1, shift+pgup) as the
// bytes that came in. The rows are what tmux 3.3a sends a pane for
// each key of tmux send-keys.
func TestInputModeSendsKeysAsATerminalDoes(t *testing.T) {
	typeThrough(t, vtscreen.InputModes{}, []keyRow{
		// Keys Bubble Tea v1 does not know: they were dropped.
		{"C-F1", "\x1b[1;5P", ""},
		{"C-F5", "\x1b[15;5~", ""},
		{"C-S-F5", "\x1b[15;6~", ""},
		{"C-Delete", "\x1b[3;5~", ""},
		{"C-Insert", "\x1b[2;5~", ""},
		{"S-PgUp", "\x1b[5;2~", ""},
		{"M-Insert", "\x1b[2;3~", ""},
		{"M-S-F1", "\x1b[1;4P", ""},
		// Bubble Tea v1 read it as alt+insert.
		{"S-Delete", "\x1b[3;2~", ""},
		// Alt with a CSI key: it was sent as ESC before the key.
		{"M-Up", "\x1b[1;3A", ""},
		{"M-Down", "\x1b[1;3B", ""},
		{"M-Left", "\x1b[1;3D", ""},
		{"M-Right", "\x1b[1;3C", ""},
		{"M-Home", "\x1b[1;3H", ""},
		{"M-End", "\x1b[1;3F", ""},
		{"M-PgUp", "\x1b[5;3~", ""},
		{"M-PgDown", "\x1b[6;3~", ""},
		{"M-Delete", "\x1b[3;3~", ""},
		{"M-F1", "\x1b[1;3P", ""},
		{"M-F5", "\x1b[15;3~", ""},
		{"M-F12", "\x1b[24;3~", ""},
		{"M-S-Up", "\x1b[1;4A", ""},
		{"C-M-Up", "\x1b[1;7A", ""},
		{"C-M-PgUp", "\x1b[5;7~", ""},
		{"M-Up, ESC-prefixed (rxvt)", "\x1b\x1b[A", "\x1b[1;3A"},

		// Keys that were right, and stay so.
		{"a", "a", ""},
		{"é", "é", ""},
		{"q", "q", ""},
		{"C-b", "\x02", ""},
		{"C-c", "\x03", ""},
		{"C-l", "\x0c", ""},
		{"C-Space", "\x00", ""},
		{"C-]", "\x1d", ""},
		{"C-_", "\x1f", ""},
		{"C-^", "\x1e", ""},
		{"Enter", "\r", ""},
		{"Tab", "\t", ""},
		{"BSpace", "\x7f", ""},
		{"Escape", "\x1b", ""},
		{"Space", " ", ""},
		{"M-a", "\x1ba", ""},
		{"C-M-b", "\x1b\x02", ""},
		{"M-BSpace", "\x1b\x7f", ""},
		{"M-Space", "\x1b ", ""},
		{"M-Escape", "\x1b\x1b", ""},
		{"BTab", "\x1b[Z", ""},
		{"M-BTab", "\x1b\x1b[Z", ""},
		{"Up", "\x1b[A", ""},
		{"Down", "\x1b[B", ""},
		{"Right", "\x1b[C", ""},
		{"Left", "\x1b[D", ""},
		{"Home", "\x1b[H", ""},
		{"End", "\x1b[F", ""},
		{"Home, tmux's", "\x1b[1~", "\x1b[H"},
		{"End, tmux's", "\x1b[4~", "\x1b[F"},
		{"PgUp", "\x1b[5~", ""},
		{"PgDown", "\x1b[6~", ""},
		{"Insert", "\x1b[2~", ""},
		{"Delete", "\x1b[3~", ""},
		{"F1", "\x1bOP", ""},
		{"F4", "\x1bOS", ""},
		{"F5", "\x1b[15~", ""},
		{"F12", "\x1b[24~", ""},
		{"S-F1", "\x1b[1;2P", ""},
		{"S-F5", "\x1b[15;2~", ""},
		{"S-Up", "\x1b[1;2A", ""},
		{"S-Home", "\x1b[1;2H", ""},
		{"C-Up", "\x1b[1;5A", ""},
		{"C-Left", "\x1b[1;5D", ""},
		{"C-S-Right", "\x1b[1;6C", ""},
		{"C-PgUp", "\x1b[5;5~", ""},
		{"C-PgDown", "\x1b[6;5~", ""},
		{"C-Home", "\x1b[1;5H", ""},
		{"C-End", "\x1b[1;5F", ""},
	})
}

// A program that asked for application cursor keys (DECCKM, ?1) gets
// the cursor keys without modifiers in their SS3 form; with modifiers
// they stay CSI, as a terminal sends them.
func TestInputModeSendsApplicationCursorKeys(t *testing.T) {
	typeThrough(t, vtscreen.InputModes{AppCursor: true}, []keyRow{
		{"Up", "\x1b[A", "\x1bOA"},
		{"Left", "\x1b[D", "\x1bOD"},
		{"Home", "\x1b[H", "\x1bOH"},
		{"End, tmux's", "\x1b[4~", "\x1bOF"},
		{"M-Up", "\x1b[1;3A", ""},
		{"S-Up", "\x1b[1;2A", ""},
		{"C-Right", "\x1b[1;5C", ""},
		{"F1", "\x1bOP", ""},
		{"M-F1", "\x1b[1;3P", ""},
		{"C-F1", "\x1b[1;5P", ""},
		{"PgUp", "\x1b[5~", ""},
		{"a", "a", ""},
	})
}

// Outside input mode a sequence Bubble Tea has no key for does nothing:
// jobtop binds no such key, and no job gets it.
func TestUnknownSequenceOutsideInputModeIsNobodys(t *testing.T) {
	e := newTypedEngine(vtscreen.InputModes{})
	m := newSizedModel(t, e, Config{}, 100, 30)
	press(t, m, "enter")
	require.False(t, m.input.on())
	keys := runOnInput(t, m)
	for _, b := range []string{"\x1b[1;5P", "\x1b[3;2~", "\x1b[5;2~", "i", "z"} {
		_, err := keys.Write([]byte(b))
		require.NoError(t, err)
	}
	require.Equal(t, "z", string(e.waitTyped(t, "z", "i, then z")), "only the key typed in input mode")
}
