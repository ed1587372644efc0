package ui

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/teatest"
	"github.com/stretchr/testify/require"

	"jobtop/jobs"
)

// Flows of issue 5 through a real program over a real engine, with
// golden final screens (see flows_test.go).

// startCounters starts jobs that print name-numbered lines and stay
// running, and waits until each has printed them all.
func startCounters(t *testing.T, mgr *jobs.Manager, lines int, names ...string) {
	t.Helper()
	for _, name := range names {
		start(t, mgr, name, fmt.Sprintf("for i in $(seq 1 %d); do echo %s $i; done; exec sleep 60", lines, name))
	}
	deadlineAt := time.Now().Add(deadline)
	for _, j := range mgr.List() {
		for {
			info, err := mgr.Get(j.ID)
			require.NoError(t, err)
			if info.Lines == uint64(lines) {
				break
			}
			require.True(t, time.Now().Before(deadlineAt), "job %s did not print its lines", j.Name)
			time.Sleep(10 * time.Millisecond)
		}
	}
}

func TestFlowMarkSplitFocusScrollZoom(t *testing.T) {
	mgr := newManager(t)
	startCounters(t, mgr, 40, "alpha", "bravo", "charlie")
	tm, _ := startFlow(t, mgr, Config{})
	waitScreen(t, tm, "charlie 40")

	sendKeys(tm, "space", "j", "j", "space", "s")
	waitScreen(t, tm, "╭─ job 1 alpha", "╭─ job 3 charlie", "split 2/2")
	sendKeys(tm, "tab")
	waitScreen(t, tm, "┏▸ job 1 alpha")
	sendKeys(tm, "k", "k", "k")
	waitScreen(t, tm, "paused ↓3")
	sendKeys(tm, "tab")
	waitScreen(t, tm, "┏▸ job 3 charlie")
	sendKeys(tm, "z")
	waitScreen(t, tm, "zoom]")
	sendKeys(tm, "z", "q")
	waitScreen(t, tm, "3 jobs running — stop them and quit? y/n")
	sendKeys(tm, "y")
	teatest.RequireEqualOutput(t, finalScreen(t, tm))
}

func TestFlowSearchNextPrevAndFilter(t *testing.T) {
	mgr := newManager(t)
	info := start(t, mgr, "log", `for i in $(seq 1 300); do if [ $((i % 50)) = 0 ]; then echo "request $i failed: timeout"; else echo "request $i ok"; fi; done`)
	_, err := mgr.Wait(t.Context(), info.ID)
	require.NoError(t, err)
	tm, _ := startFlow(t, mgr, Config{})
	waitScreen(t, tm, "request 300 failed")

	sendKeys(tm, "enter", "/")
	tm.Type("FAILED")
	waitScreen(t, tm, "FAILED")
	sendKeys(tm, "backspace", "backspace", "backspace", "backspace", "backspace", "backspace")
	tm.Type("failed")
	sendKeys(tm, "enter")
	waitScreen(t, tm, "/failed match 6/6")
	sendKeys(tm, "N", "N")
	waitScreen(t, tm, "/failed match 4/6")
	sendKeys(tm, "n")
	waitScreen(t, tm, "/failed match 5/6")
	sendKeys(tm, "&")
	waitScreen(t, tm, "filter")
	sendKeys(tm, "q")
	teatest.RequireEqualOutput(t, finalScreen(t, tm))
}

func TestFlowAllViewInArrivalOrder(t *testing.T) {
	mgr := newManager(t)
	f := []string{mkfifo(t, "f0"), mkfifo(t, "f1"), mkfifo(t, "f2")}
	start(t, mgr, "web", fmt.Sprintf("echo 'web: listening'; read x < %s; echo 'web: GET /'; read x < %s; echo 'web: GET /api'", f[1], f[2]))
	start(t, mgr, "db", fmt.Sprintf("read x < %s; echo 'db: ready'; echo 'db: query'", f[0]))
	lines := func(id jobs.ID) uint64 { i, _ := mgr.Get(id); return i.Lines }
	// web listening, db ready, db query, web GET /, web GET /api.
	for i, step := range []struct {
		id    jobs.ID
		lines uint64
	}{{1, 1}, {2, 2}, {1, 2}} {
		require.Eventually(t, func() bool { return lines(step.id) >= step.lines }, deadline, 10*time.Millisecond)
		writeFifo(t, f[i], "go\n")
	}
	for _, id := range []jobs.ID{1, 2} { // ended before the TUI starts: no notice
		_, err := mgr.Wait(t.Context(), id)
		require.NoError(t, err)
	}
	tm, _ := startFlow(t, mgr, Config{})
	waitScreen(t, tm, "GET /api")
	sendKeys(tm, "A")
	waitScreen(t, tm, "all jobs  2 jobs")
	sendKeys(tm, "q")
	teatest.RequireEqualOutput(t, finalScreen(t, tm))
}

func TestFlowNoticeForAJobEndingOffScreen(t *testing.T) {
	mgr := newManager(t)
	gate := mkfifo(t, "gate")
	start(t, mgr, "watched", "echo watching")
	start(t, mgr, "migrate", "read x < "+gate+"; echo 'migration 7 failed' >&2; exit 2")
	tm, _ := startFlow(t, mgr, Config{})
	waitScreen(t, tm, "watching", "✓ succeeded", "● running")
	writeFifo(t, gate, "go\n")
	waitScreen(t, tm, "job 2 migrate failed (exit 2)")
	sendKeys(tm, "q")
	teatest.RequireEqualOutput(t, finalScreen(t, tm))
}

func TestFlowBellRingsWhenAJobFails(t *testing.T) {
	mgr := newManager(t)
	gate := mkfifo(t, "gate")
	start(t, mgr, "fails", "read x < "+gate+"; exit 1")
	var term syncBuffer
	tm, _ := startFlow(t, mgr, Config{Bell: true, Terminal: &term})
	waitScreen(t, tm, "● running")
	require.Empty(t, term.String())
	writeFifo(t, gate, "go\n")
	waitScreen(t, tm, "✗ failed (1)")
	require.Eventually(t, func() bool { return term.String() == "\a" }, deadline, 10*time.Millisecond)
	sendKeys(tm, "q")
	tm.WaitFinished(t, teatest.WithFinalTimeout(deadline))
}

// o hands the terminal to $PAGER on the job's log file, which holds every
// line (here more than the memory keeps), and the TUI comes back as it
// was.
func TestFlowPagerOpensTheLogAndComesBack(t *testing.T) {
	mgr, err := jobs.NewManager(jobs.Options{LogDir: t.TempDir(), Store: jobs.StoreOptions{MaxLines: 50}})
	require.NoError(t, err)
	t.Cleanup(func() { _ = mgr.Shutdown(t.Context()) })
	info, err := mgr.Start(jobs.Spec{Name: "long", Command: "seq 1 500"})
	require.NoError(t, err)
	_, err = mgr.Wait(t.Context(), info.ID)
	require.NoError(t, err)
	out := filepath.Join(t.TempDir(), "paged")
	t.Setenv("PAGER", `sh -c 'cat "$0" > "`+out+`.tmp" && mv "`+out+`.tmp" "`+out+`"'`)

	tm, probe := probedFlow(t, mgr)
	waitScreen(t, tm, "✓ succeeded")
	sendKeys(tm, "enter", "k")
	waitScreen(t, tm, "paused")
	tm.Send(viewProbe{})
	before := <-probe.views
	sendKeys(tm, "o")
	require.Eventually(t, func() bool { _, err := os.Stat(out); return err == nil }, deadline, 10*time.Millisecond)
	b, err := os.ReadFile(out)
	require.NoError(t, err)
	require.Equal(t, 501, strings.Count(string(b), "\n"), "the pager got the whole log: the run's separator line and 500 lines")
	require.Regexp(t, `^\[jobtop\] ── run 1 · started \S+ ──\n1\n2\n3\n`, string(b))

	tm.Send(viewProbe{})
	require.Equal(t, before, <-probe.views, "the TUI is back as it was")
	sendKeys(tm, "q")
	tm.WaitFinished(t, teatest.WithFinalTimeout(deadline))
}

// o in the "all" view hands $PAGER what the view shows: every job's
// lines in the order they arrived, each behind its job's name, not the
// selected job's log. The file it reads is gone once the pager ends.
func TestFlowPagerInTheAllViewOpensWhatItShows(t *testing.T) {
	state := t.TempDir()
	t.Setenv("XDG_STATE_HOME", state)
	mgr := newManager(t)
	gate := mkfifo(t, "gate")
	alpha := start(t, mgr, "alpha", "echo a1; read x < "+gate+"; echo a3")
	for end := time.Now().Add(deadline); ; time.Sleep(5 * time.Millisecond) {
		info, err := mgr.Get(alpha.ID)
		require.NoError(t, err)
		if info.Lines == 1 {
			break
		}
		require.False(t, time.Now().After(end), "alpha never wrote a1")
	}
	bravo := start(t, mgr, "bravo-job", "echo b2")
	_, err := mgr.Wait(t.Context(), bravo.ID)
	require.NoError(t, err)
	writeFifo(t, gate, "go\n")
	_, err = mgr.Wait(t.Context(), alpha.ID)
	require.NoError(t, err)
	out := filepath.Join(t.TempDir(), "paged")
	t.Setenv("PAGER", `sh -c 'echo "$0" > "`+out+`.path"; cat "$0" > "`+out+`.tmp" && mv "`+out+`.tmp" "`+out+`"'`)

	tm, probe := probedFlow(t, mgr)
	waitScreen(t, tm, "✓ succeeded")
	sendKeys(tm, "A")
	waitScreen(t, tm, "all jobs")
	tm.Send(viewProbe{})
	before := <-probe.views
	sendKeys(tm, "o")
	require.Eventually(t, func() bool { _, err := os.Stat(out); return err == nil }, deadline, 10*time.Millisecond)
	b, err := os.ReadFile(out)
	require.NoError(t, err)
	require.Equal(t, "alpha     │ a1\nbravo-job │ b2\nalpha     │ a3\n", string(b))

	b, err = os.ReadFile(out + ".path")
	require.NoError(t, err)
	paged := strings.TrimSpace(string(b))
	require.True(t, strings.HasPrefix(paged, filepath.Join(state, "jobtop")+"/"), "a file of jobtop's state: %s", paged)
	require.Eventually(t, func() bool { _, err := os.Stat(paged); return os.IsNotExist(err) },
		deadline, 10*time.Millisecond, "the file the pager read is removed once it ends")
	tm.Send(viewProbe{})
	require.Equal(t, before, <-probe.views, "the TUI is back as it was")
	sendKeys(tm, "q")
	tm.WaitFinished(t, teatest.WithFinalTimeout(deadline))
}

// viewProbe asks a probingModel for its view.
type viewProbe struct{}

// probingModel is a Model that answers viewProbe with its view, on its
// own goroutine, so a test can look at it while the program runs.
type probingModel struct {
	m     *Model
	views chan string
}

func (p probingModel) Init() tea.Cmd { return p.m.Init() }

func (p probingModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if _, ok := msg.(viewProbe); ok {
		p.views <- p.m.View()
		return p, nil
	}
	_, cmd := p.m.Update(msg)
	return p, cmd
}

func (p probingModel) View() string { return p.m.View() }

// probedFlow runs a TUI on mgr, its views to be asked for (viewProbe)
// and read from probe.views.
func probedFlow(t *testing.T, mgr *jobs.Manager) (*teatest.TestModel, probingModel) {
	t.Helper()
	m := New(mgr, Config{})
	t.Cleanup(m.Close)
	probe := probingModel{m: m, views: make(chan string, 1)}
	return teatest.NewTestModel(t, probe, teatest.WithInitialTermSize(flowWidth, flowHeight)), probe
}
