package ui

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/stretchr/testify/require"

	"jobtop/jobs"
)

// TestQuietAlert: a real job with notify quiet 30s that stops writing
// gets a notice, a mark and a notification once 30 seconds pass on the
// model's clock; when it writes again, another notice and notification.
func TestQuietAlert(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "fifo")
	require.NoError(t, syscall.Mkfifo(fifo, 0o600))
	mgr := newManager(t)
	_, err := mgr.Start(jobs.Spec{Name: "agent", Command: "echo thinking; read x < " + fifo + "; echo answered; exec sleep 600",
		Notify: jobs.NotifyPolicy{Quiet: 30 * time.Second}})
	require.NoError(t, err)
	now := time.Now()
	var term bytes.Buffer
	m := newSizedModel(t, mgr, Config{Now: func() time.Time { return now }, Notify: true, Terminal: &term}, 100, 20)
	pumpUntil(t, m, "its first line", func() bool {
		info, _ := m.table.Get(1)
		return info.Lines == 1 && info.State == jobs.StateRunning
	})

	tick := func() {
		_, cmd := m.Update(tickMsg{})
		runCmd(t, m, cmd)
	}
	now = now.Add(29 * time.Second)
	tick()
	require.False(t, m.quiet.isQuiet(1), "29 seconds is not yet quiet")
	now = now.Add(2 * time.Second)
	tick()
	require.True(t, m.quiet.isQuiet(1))
	require.Contains(t, m.notice.text, "agent has written nothing for 3")
	require.Contains(t, lines(m.View())[1], "…", "a mark before the row")
	require.Contains(t, term.String(), "\x1b]9;job 1 agent has written nothing for 3")
	tick()
	require.Equal(t, 1, strings.Count(term.String(), "\x1b]9;"), "one alert, not one a second")

	// It speaks again.
	term.Reset()
	f, err := os.OpenFile(fifo, os.O_WRONLY, 0)
	require.NoError(t, err)
	_, err = f.WriteString("go on\n")
	require.NoError(t, err)
	require.NoError(t, f.Close())
	pumpUntil(t, m, "the answer", func() bool { return !m.quiet.isQuiet(1) })
	require.Contains(t, m.notice.text, "agent writes again after 3")
	require.NotContains(t, lines(m.View())[1], "…")
}

// A TUI that starts after a job last wrote (jobtop attach to an instance
// that ran a while) starts the job's quiet clock at its last write
// (Info.LastOutputAt), not at its own start: quiet for 45s by then, the
// job gets its alert at the first tick.
func TestQuietClockStartsAtTheLastWrite(t *testing.T) {
	mgr := newManager(t)
	_, err := mgr.Start(jobs.Spec{Name: "agent", Command: "echo thinking; exec sleep 600",
		Notify: jobs.NotifyPolicy{Quiet: 30 * time.Second}})
	require.NoError(t, err)
	var wrote time.Time
	require.Eventually(t, func() bool {
		info, err := mgr.Get(1)
		if err != nil || info.LastOutputAt == nil {
			return false
		}
		wrote = *info.LastOutputAt
		return true
	}, 10*time.Second, 10*time.Millisecond)

	now := wrote.Add(45 * time.Second) // the TUI starts 45s after
	m := newSizedModel(t, mgr, Config{Now: func() time.Time { return now }}, 100, 20)
	pumpUntil(t, m, "running", func() bool { return m.stateCountForTest(jobs.StateRunning) == 1 })
	m.Update(tickMsg{})
	require.True(t, m.quiet.isQuiet(1), "quiet since its last write, 45s before")
	require.Contains(t, m.notice.text, "agent has written nothing for 45s")

	// A job that never wrote is quiet since it started.
	_, err = mgr.Start(jobs.Spec{Name: "mute", Command: "exec sleep 600", Notify: jobs.NotifyPolicy{Quiet: 30 * time.Second}})
	require.NoError(t, err)
	info, err := mgr.Get(2)
	require.NoError(t, err)
	later := *info.Started
	now = later.Add(45 * time.Second)
	m2 := newSizedModel(t, mgr, Config{Now: func() time.Time { return now }}, 100, 20)
	pumpUntil(t, m2, "running", func() bool { return m2.stateCountForTest(jobs.StateRunning) == 2 })
	m2.Update(tickMsg{})
	require.True(t, m2.quiet.isQuiet(2), "quiet since it started, 45s before")
}

// TestQuietKeyTogglesTheAlert: m turns the alert on (30s) for a job
// without one, and off.
func TestQuietKeyTogglesTheAlert(t *testing.T) {
	mgr := newManager(t)
	start(t, mgr, "silent", "echo once; exec sleep 600")
	now := time.Now()
	m := newSizedModel(t, mgr, Config{Now: func() time.Time { return now }}, 100, 20)
	pumpUntil(t, m, "running", func() bool { return m.stateCountForTest(jobs.StateRunning) == 1 })
	press(t, m, "m")
	require.Equal(t, "quiet alert on for job 1 silent: after 30s without output", m.notice.text)
	now = now.Add(31 * time.Second)
	m.Update(tickMsg{})
	require.True(t, m.quiet.isQuiet(1))
	press(t, m, "m")
	require.Equal(t, "quiet alert off for job 1 silent", m.notice.text)
	require.False(t, m.quiet.isQuiet(1))
	now = now.Add(31 * time.Second)
	m.Update(tickMsg{})
	require.False(t, m.quiet.isQuiet(1), "off stays off")
}

func TestNotificationsOnFailure(t *testing.T) {
	mgr := newManager(t)
	var term lockedBuffer
	m := newSizedModel(t, mgr, Config{Notify: true, NotifyOSC777: true, Terminal: &term}, 100, 20)
	fifo := filepath.Join(t.TempDir(), "fifo")
	require.NoError(t, syscall.Mkfifo(fifo, 0o600))
	start(t, mgr, "broken", "read x < "+fifo+"; exit 3")
	pumpUntil(t, m, "running", func() bool { return m.stateCountForTest(jobs.StateRunning) == 1 })
	require.NoError(t, os.WriteFile(fifo, []byte("now\n"), 0o600))
	// The batch that says it failed: its commands alert. (The commands
	// of the others would only wait for more events.)
	var alert tea.Cmd
	for end := time.Now().Add(deadline); alert == nil; {
		require.True(t, time.Now().Before(end), "the job did not fail")
		select {
		case batch := <-m.stream.C():
			_, cmd := m.Update(jobEventsMsg{events: batch})
			if m.stateCountForTest(jobs.StateFailed) == 1 {
				alert = cmd
			}
		case <-time.After(50 * time.Millisecond):
		}
	}
	runQuickCmds(alert)
	require.Contains(t, term.String(), "\x1b]9;job 1 broken failed (exit 3)\a")
	require.Contains(t, term.String(), "\x1b]777;notify;jobtop;job 1 broken failed (exit 3)\a")
	require.NotContains(t, term.String(), "\a\a", "no bell: it is off")
}

// runQuickCmds runs a command and the commands of the batch it returns,
// each in a goroutine of its own; it waits for those that end at once (a
// write to the terminal) and leaves those that wait (for events) behind.
func runQuickCmds(cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	done := make(chan tea.Msg, 1)
	go func() { done <- cmd() }()
	select {
	case msg := <-done:
		if b, ok := msg.(tea.BatchMsg); ok {
			for _, c := range b {
				runQuickCmds(c)
			}
		}
	case <-time.After(100 * time.Millisecond):
	}
}

// lockedBuffer is a terminal that commands write to from their own
// goroutines.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
