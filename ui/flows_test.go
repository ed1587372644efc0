package ui

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/teatest"
	"github.com/stretchr/testify/require"

	"jobtop/jobs"
)

// End-to-end flows through a real Bubble Tea program (teatest) over a
// real engine. Golden files hold the final screen, under the ASCII colour
// profile, with the PID and TIME cells masked (they differ on every run).
// Refresh them with: go test ./ui/ -run Flow -update

const flowWidth, flowHeight = 100, 24

// startFlow runs a program over e. Unless cfg sets one, its clock stands
// at the flow's start: what is drawn against the clock (how long ago a
// job ended: "<1s ago", every end being after it) is the same on every run.
func startFlow(t *testing.T, e Engine, cfg Config) (*teatest.TestModel, *Model) {
	t.Helper()
	if cfg.Now == nil {
		start := time.Now()
		cfg.Now = func() time.Time { return start }
	}
	m := New(e, cfg)
	t.Cleanup(m.Close)
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(flowWidth, flowHeight))
	return tm, m
}

// waitScreen waits until the program has drawn text. It reads the
// program's output from where the last wait stopped.
func waitScreen(t *testing.T, tm *teatest.TestModel, texts ...string) {
	t.Helper()
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
		for _, text := range texts {
			if !bytes.Contains(b, []byte(text)) {
				return false
			}
		}
		return true
	}, teatest.WithDuration(deadline), teatest.WithCheckInterval(20*time.Millisecond))
}

func sendKeys(tm *teatest.TestModel, keys ...string) {
	for _, k := range keys {
		tm.Send(keyMsg(k))
	}
}

// finalScreen is the final model's view with the cells that change from
// run to run masked.
func finalScreen(t *testing.T, tm *teatest.TestModel) []byte {
	t.Helper()
	fm, ok := tm.FinalModel(t, teatest.WithFinalTimeout(deadline)).(*Model)
	require.True(t, ok)
	view := fm.View()
	requireFits(t, view, flowWidth, flowHeight, "final screen")
	return []byte(maskVolatileCells(fm, view))
}

// maskVolatileCells replaces the PID, TIME, CPU% and RSS cells of the job
// table.
func maskVolatileCells(m *Model, view string) string {
	ls := lines(view)
	if m.zoom {
		return view
	}
	start := markerWidth
	for _, c := range m.table.cols {
		if c.kind == colPID || c.kind == colTime || c.kind == colCPU || c.kind == colRSS {
			for i := 1; i < m.screen.frame.table && i < len(ls); i++ {
				r := []rune(ls[i])
				if start+c.width > len(r) {
					continue
				}
				if cell := strings.TrimSpace(string(r[start : start+c.width])); cell != "" {
					copy(r[start:], []rune(fit("<"+strings.ToLower(c.title)+">", c.width, true)))
				}
				ls[i] = string(r)
			}
		}
		start += c.width + colSep
	}
	return strings.Join(ls, "\n")
}

func TestFlowStopRestartAndQuit(t *testing.T) {
	mgr := newManager(t)
	start(t, mgr, "hello", "echo hello world")
	start(t, mgr, "server", "echo serving; exec sleep 60")
	tm, _ := startFlow(t, mgr, Config{})
	waitScreen(t, tm, "✓ succeeded", "● running")

	sendKeys(tm, "j") // select the server
	// Its line is in (the table's LINES and OUTPUT) before it is killed:
	// running, it may not have written it yet.
	waitScreen(t, tm, "job 2 server", "1 serving")
	sendKeys(tm, "x")
	waitScreen(t, tm, "■ killed (TERM)", "job 2 server killed (SIGTERM)")
	sendKeys(tm, "r")
	waitScreen(t, tm, "── run 2 ──")
	waitScreen(t, tm, "● running")

	sendKeys(tm, "q")
	waitScreen(t, tm, "1 job running — stop it and quit? y/n")
	sendKeys(tm, "y")
	teatest.RequireEqualOutput(t, finalScreen(t, tm))

	info, err := mgr.Get(2)
	require.NoError(t, err)
	require.Equal(t, jobs.StateKilled, info.State)
	require.Equal(t, 2, info.Runs)
	requireGone(t, info.PID)
}

func TestFlowAddJobViaPrompt(t *testing.T) {
	mgr := newManager(t)
	tm, _ := startFlow(t, mgr, Config{})
	waitScreen(t, tm, "no jobs — a: add a job")

	sendKeys(tm, "a")
	waitScreen(t, tm, "add a job")
	sendKeys(tm, "enter")
	waitScreen(t, tm, "type a command to run")
	tm.Type("printf 'one\\ntwo\\nthree\\n'")
	sendKeys(tm, "tab")
	tm.Type("counting")
	sendKeys(tm, "enter")
	waitScreen(t, tm, "three", "✓ succeeded")

	sendKeys(tm, "q")
	teatest.RequireEqualOutput(t, finalScreen(t, tm))
}

func TestFlowSelectScrollAndWrap(t *testing.T) {
	mgr := newManager(t)
	for _, j := range []struct{ name, command string }{
		{"short", "echo short"},
		{"numbers", "seq 1 60"},
		{"wide", `printf 'tab\there\n%0150d\n' 5; sleep 0.3; echo "done" >&2`},
	} {
		info := start(t, mgr, j.name, j.command)
		_, err := mgr.Wait(context.Background(), info.ID)
		require.NoError(t, err)
	}
	tm, _ := startFlow(t, mgr, Config{})
	waitScreen(t, tm, "3 succeeded")

	sendKeys(tm, "G", "enter", "w")
	waitScreen(t, tm, "▸ job 3 wide", "wrap")
	sendKeys(tm, "esc", "k", "enter")
	waitScreen(t, tm, "▸ job 2 numbers")
	sendKeys(tm, "ctrl+u", "k")
	waitScreen(t, tm, "paused ↓")

	sendKeys(tm, "q")
	teatest.RequireEqualOutput(t, finalScreen(t, tm))
}

func TestFlowQuitAnswerNoThenYes(t *testing.T) {
	mgr := newManager(t)
	start(t, mgr, "sleeper", "exec sleep 60")
	tm, _ := startFlow(t, mgr, Config{})
	waitScreen(t, tm, "● running")

	sendKeys(tm, "q")
	waitScreen(t, tm, "1 job running — stop it and quit? y/n")
	sendKeys(tm, "n")
	waitScreen(t, tm, "● 1 running")
	sendKeys(tm, "ctrl+c", "y")
	teatest.RequireEqualOutput(t, finalScreen(t, tm))
	info, err := mgr.Get(1)
	require.NoError(t, err)
	require.Equal(t, jobs.StateKilled, info.State)
	requireGone(t, info.PID)
}
