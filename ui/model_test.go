package ui

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/stretchr/testify/require"

	"jobtop/jobs"
)

func TestEmptyStartShowsHint(t *testing.T) {
	m := newSizedModel(t, newManager(t), Config{}, 100, 30)
	view := m.View()
	requireFits(t, view, 100, 30, "empty")
	require.Contains(t, view, "no jobs — a: add a job")
	require.Contains(t, view, "no job selected")
	require.Contains(t, view, "a add")
	require.NotContains(t, view, "stop", "no job, so no stop key in help")
}

func TestJobsAppearWithTheirStates(t *testing.T) {
	mgr := newManager(t)
	start(t, mgr, "ok", "echo hello")
	start(t, mgr, "sleeper", "sleep 60")
	// broken ends once the model watches: ending off screen marks its row.
	fifo := mkfifo(t, "end")
	start(t, mgr, "broken", "read x < "+fifo+"; echo oops >&2; exit 3")
	m := newSizedModel(t, mgr, Config{}, 120, 30)
	writeFifo(t, fifo, "go\n")
	pumpUntil(t, m, "all states", func() bool {
		v := m.View()
		return strings.Contains(v, "✓ succeeded") && strings.Contains(v, "● running") && strings.Contains(v, "✗ failed (3)")
	})
	view := m.View()
	requireFits(t, view, 120, 30, "three jobs")
	require.Regexp(t, `▸\s+1 ok\s+✓ succeeded .* 0 \s+1\s+[ ▁▂▃▄▅▆▇█]*hello`, view)
	require.Regexp(t, `  !\s+3 broken\s+✗ failed \(3\) .* 3 \s+1\s+[ ▁▂▃▄▅▆▇█]*oops`, view, "job 3 ended off screen: its row is marked")
	require.Contains(t, view, "● 1 running  ✓ 1 succeeded  ✗ 1 failed")
}

func TestNoticeWhenAJobEnds(t *testing.T) {
	mgr := newManager(t)
	m := newSizedModel(t, mgr, Config{}, 100, 30)
	start(t, mgr, "broken", "sleep 0.2; exit 2")
	pumpUntil(t, m, "the job to fail", func() bool { return strings.Contains(m.View(), "job 1 broken failed (exit 2)") })
	start(t, mgr, "fine", "sleep 0.2")
	pumpUntil(t, m, "the job to finish", func() bool { return strings.Contains(m.View(), "job 2 fine succeeded") })
}

func TestSelectionStaysOnTheSameJob(t *testing.T) {
	mgr := newManager(t)
	for i := 1; i <= 4; i++ {
		start(t, mgr, fmt.Sprintf("job%d", i), "true")
	}
	m := newSizedModel(t, mgr, Config{}, 100, 30)
	pumpUntil(t, m, "four finished jobs", func() bool { return m.stateCountForTest(jobs.StateSucceeded) == 4 })
	press(t, m, "j", "j")
	sel, _ := m.table.Selected()
	require.Equal(t, jobs.ID(3), sel.ID)

	require.NoError(t, mgr.Remove(1))
	pumpUntil(t, m, "job 1 to go", func() bool { return m.table.Len() == 3 })
	sel, _ = m.table.Selected()
	require.Equal(t, jobs.ID(3), sel.ID, "a row above went away; the selection did not move to another job")
	require.Contains(t, m.View(), "▸    3 job3")

	start(t, mgr, "job5", "true")
	pumpUntil(t, m, "job 5", func() bool { return m.table.Len() == 4 })
	sel, _ = m.table.Selected()
	require.Equal(t, jobs.ID(3), sel.ID, "a row below came; the selection stayed")

	press(t, m, "d")
	pumpUntil(t, m, "job 3 to go", func() bool { return m.table.Len() == 3 })
	sel, _ = m.table.Selected()
	require.Equal(t, jobs.ID(4), sel.ID, "the removed job's row now holds the next job")
	press(t, m, "G")
	sel, _ = m.table.Selected()
	require.Equal(t, jobs.ID(5), sel.ID)
	press(t, m, "g")
	sel, _ = m.table.Selected()
	require.Equal(t, jobs.ID(2), sel.ID)
}

func TestStopRestartKillRemove(t *testing.T) {
	mgr := newManager(t)
	start(t, mgr, "sleeper", "echo started; exec sleep 60")
	m := newSizedModel(t, mgr, Config{}, 100, 30)
	pumpUntil(t, m, "running", func() bool { return strings.Contains(m.View(), "● running") })
	require.Contains(t, m.helpView(), "x stop")
	require.NotContains(t, m.helpView(), "d remove", "a running job cannot be removed")

	press(t, m, "x")
	pumpUntil(t, m, "stopped", func() bool { return strings.Contains(m.View(), "■ killed (TERM)") })
	require.Contains(t, m.View(), "job 1 sleeper killed (SIGTERM)")
	require.Contains(t, m.helpView(), "d remove")
	require.NotContains(t, m.helpView(), "x stop")

	press(t, m, "r")
	pumpUntil(t, m, "running again", func() bool { return strings.Contains(m.View(), "● running") })
	info, err := mgr.Get(1)
	require.NoError(t, err)
	require.Equal(t, 2, info.Runs)
	require.Contains(t, paneRows(m), "── run 2 ──")

	press(t, m, "X")
	pumpUntil(t, m, "killed", func() bool { return strings.Contains(m.View(), "■ killed (KILL)") })

	press(t, m, "d")
	pumpUntil(t, m, "removed", func() bool { return m.table.Len() == 0 })
	require.Contains(t, m.View(), "removed job 1")
	require.Contains(t, m.View(), "no jobs — a: add a job")
}

func TestActionErrorsShowInTheStatusBar(t *testing.T) {
	mgr := newManager(t)
	start(t, mgr, "quick", "true")
	m := newSizedModel(t, mgr, Config{}, 100, 30)
	pumpUntil(t, m, "finished", func() bool { return strings.Contains(m.View(), "✓ succeeded") })
	// The help never offers stop here; the engine's answer still shows if
	// it is asked.
	runCmd(t, m, m.act(actionStop, 1))
	require.Contains(t, m.View(), "cannot stop job 1: it has ended (succeeded)")

	// A refused action brings the row up to date with the engine.
	stale, _ := m.table.Get(1)
	stale.State = jobs.StateRunning
	m.table.Upsert(stale)
	runCmd(t, m, m.act(actionKill, 1))
	require.Contains(t, m.View(), "cannot kill job 1: it has ended (succeeded)")
	now, _ := m.table.Get(1)
	require.Equal(t, jobs.StateSucceeded, now.State)
}

// Runes that arrive in one read are keys of their own (a held key, or a
// script typing), except in the prompt, where they are text.
func TestRunesReadTogetherAreSeparateKeys(t *testing.T) {
	mgr := newManager(t)
	for i := 0; i < 4; i++ {
		start(t, mgr, fmt.Sprint("job", i), "true")
	}
	m := newSizedModel(t, mgr, Config{}, 100, 30)
	pumpUntil(t, m, "four jobs", func() bool { return m.table.Len() == 4 })
	m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("jjk")})
	sel, _ := m.table.Selected()
	require.Equal(t, jobs.ID(2), sel.ID)
	press(t, m, "a")
	m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("jjk")})
	require.Contains(t, m.View(), "jjk")
}

func TestAddPrompt(t *testing.T) {
	mgr := newManager(t)
	m := newSizedModel(t, mgr, Config{}, 100, 30)
	press(t, m, "a")
	view := m.View()
	requireFits(t, view, 100, 30, "prompt open")
	require.Contains(t, view, "add a job")
	require.Contains(t, m.helpView(), "enter start")
	require.Contains(t, m.helpView(), "esc cancel")
	require.NotContains(t, m.helpView(), "q quit", "typing q goes into the prompt")

	press(t, m, "enter")
	require.Contains(t, m.View(), "type a command to run", "an empty command is refused inline")
	require.Zero(t, m.table.Len())

	typeText(t, m, "echo from prompt; echo q")
	press(t, m, "tab")
	typeText(t, m, "mine")
	press(t, m, "enter")
	require.Nil(t, m.prompt)
	pumpUntil(t, m, "the job", func() bool { return strings.Contains(m.View(), "✓ succeeded") })
	sel, ok := m.table.Selected()
	require.True(t, ok)
	require.Equal(t, "mine", sel.Name)
	require.Equal(t, "echo from prompt; echo q", sel.Command)
	require.Contains(t, paneRows(m), "from prompt")

	press(t, m, "a", "x", "esc")
	require.Nil(t, m.prompt, "esc cancels")
	press(t, m, "a", "ctrl+c")
	require.Nil(t, m.prompt, "ctrl+c cancels")
	require.False(t, m.quitting)
	require.Equal(t, 1, m.table.Len())
}

func TestOutputFollowScrollAndWrap(t *testing.T) {
	mgr := newManager(t)
	start(t, mgr, "counter", "seq 1 200; printf '%0300d\\n' 7")
	m := newSizedModel(t, mgr, Config{}, 80, 24)
	pumpUntil(t, m, "all output", func() bool { return strings.Contains(m.View(), "✓ succeeded") })
	body := m.single.bodyHeight()
	rows := paneRows(m)
	require.Len(t, rows, body)
	require.Equal(t, "200", rows[body-2], "follow mode shows the newest lines")
	require.Equal(t, strings.Repeat("0", 79)+"…", rows[body-1], "a long line is cut at the pane edge, with a mark")
	require.Contains(t, m.View(), "following")

	press(t, m, "enter")
	require.Contains(t, m.helpView(), "f follow")
	press(t, m, "k")
	require.False(t, m.single.Following(), "scrolling up pauses follow")
	require.Contains(t, m.View(), "paused ↓1")
	require.Equal(t, "200", paneRows(m)[body-1])

	press(t, m, "ctrl+u")
	require.Equal(t, fmt.Sprint(200-body/2), paneRows(m)[body-1])
	press(t, m, "g")
	require.Equal(t, "1", paneRows(m)[0])
	press(t, m, "j")
	require.Equal(t, "2", paneRows(m)[0])
	press(t, m, "G")
	require.True(t, m.single.Following())
	require.Equal(t, "200", paneRows(m)[body-2])

	press(t, m, "w")
	rows = paneRows(m)
	require.Equal(t, strings.Repeat("0", 80), rows[body-4])
	require.Equal(t, strings.Repeat("0", 219)[160:]+"7", rows[body-1], "wrapped: the long line takes four rows")
	require.Contains(t, m.View(), "wrap")

	// Scrolling down to the bottom resumes follow.
	press(t, m, "k", "k")
	require.False(t, m.single.Following())
	press(t, m, "j", "j")
	require.True(t, m.single.Following())

	press(t, m, "esc")
	require.True(t, m.table.focused)
	require.Contains(t, m.helpView(), "enter output")
	require.NotContains(t, m.helpView(), "↑/k", "one job: nothing to move to")
}

func TestPartialLineShowsLast(t *testing.T) {
	mgr := newManager(t)
	start(t, mgr, "progress", `printf 'step one\n[##   ] 40%%\r[###  ] 60%%'; exec sleep 60`)
	m := newSizedModel(t, mgr, Config{}, 80, 20)
	pumpUntil(t, m, "the progress bar", func() bool {
		rows := paneRows(m)
		return len(rows) == 2 && rows[1] == "[###  ] 60%"
	})
	require.Equal(t, "step one", paneRows(m)[0])
	require.Contains(t, m.View(), "[###  ] 60%", "the table's last line shows it too")
}

func TestOutputIsSanitized(t *testing.T) {
	mgr := newManager(t)
	start(t, mgr, "nasty", `printf 'a\033[2J\033[Hb\033]0;title\007c\033]52;c;eA==\007d\033[?1049he\033[6nf\tg\n'`)
	m := newSizedModel(t, mgr, Config{}, 80, 20)
	pumpUntil(t, m, "output", func() bool { return strings.Contains(m.View(), "✓ succeeded") })
	require.Equal(t, []string{"abcdef  g"}, paneRows(m))
	require.NotContains(t, m.View(), "\x1b")
}

func TestStderrIsTintedAndColoursKept(t *testing.T) {
	st := colourStyles(t)
	mgr := newManager(t)
	start(t, mgr, "colours", `printf 'plain\n\033[32mgreen\033[0m\n'; echo warning >&2`)
	m := newSizedModel(t, mgr, Config{Styles: st}, 80, 20)
	pumpUntil(t, m, "output", func() bool { return len(m.single.rows) == 3 })
	stderr := m.pal.stderr.Open
	require.NotEmpty(t, stderr)
	var sawGreen, sawWarning bool
	for _, r := range m.single.rows {
		switch {
		case strings.Contains(r, "green"):
			require.Equal(t, "\x1b[32mgreen\x1b[0m", r)
			sawGreen = true
		case strings.Contains(r, "warning"):
			require.Equal(t, stderr+"warning"+sgrReset, r)
			sawWarning = true
		}
	}
	require.True(t, sawGreen && sawWarning, "rows: %q", m.single.rows)
}

func TestQuitWithNoJobsRunningQuitsAtOnce(t *testing.T) {
	mgr := newManager(t)
	start(t, mgr, "quick", "true")
	m := newSizedModel(t, mgr, Config{}, 80, 20)
	pumpUntil(t, m, "finished", func() bool { return m.liveJobs() == 0 && m.table.Len() == 1 })
	press(t, m, "q")
	require.True(t, m.quitting)
}

func TestQuitAsksThenStopsEveryJob(t *testing.T) {
	mgr := newManager(t)
	a := start(t, mgr, "one", "exec sleep 60")
	b := start(t, mgr, "two", "trap 'echo bye; exit 0' TERM; while :; do sleep 0.1; done")
	m := newSizedModel(t, mgr, Config{}, 100, 20)
	pumpUntil(t, m, "running", func() bool { return m.stateCountForTest(jobs.StateRunning) == 2 })

	press(t, m, "q")
	require.Contains(t, m.View(), "2 jobs running — stop them and quit? y/n")
	require.Contains(t, m.helpView(), "y yes")
	press(t, m, "n")
	require.False(t, m.quitting)
	require.Equal(t, 2, m.liveJobs())
	require.NotContains(t, m.View(), "quit? y/n")

	press(t, m, "ctrl+c", "y")
	require.Contains(t, m.View(), "stopping jobs… 2 jobs left — X kills them now")
	pumpUntil(t, m, "quit", func() bool { return m.quitting })
	for _, id := range []jobs.ID{a.ID, b.ID} {
		info, err := mgr.Get(id)
		require.NoError(t, err)
		require.Equal(t, jobs.StateKilled, info.State)
		requireGone(t, info.PID)
	}
}

// TestQuitQuestionCountsQueuedJobsApart: jobs waiting for a slot are not
// called running in the quit question (a queue of 30 behind 2 slots is
// not "32 jobs running").
func TestQuitQuestionCountsQueuedJobsApart(t *testing.T) {
	mgr, err := jobs.NewManager(jobs.Options{LogDir: t.TempDir(), MaxRunning: 1})
	require.NoError(t, err)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), deadline)
		defer cancel()
		require.NoError(t, mgr.Shutdown(ctx))
	})
	start(t, mgr, "one", "exec sleep 60")
	start(t, mgr, "two", "exec sleep 60")
	start(t, mgr, "three", "exec sleep 60")
	m := newSizedModel(t, mgr, Config{}, 120, 20)
	pumpUntil(t, m, "one running, two queued", func() bool {
		return m.stateCountForTest(jobs.StateRunning) == 1 && m.stateCountForTest(jobs.StateQueued) == 2
	})
	press(t, m, "q")
	require.Contains(t, m.View(), "1 job running, 2 queued — stop them and quit? y/n")
	press(t, m, "n")

	attached := newSizedModel(t, mgr, Config{Attached: true, Instance: "serve (pid 42)"}, 140, 20)
	pumpUntil(t, attached, "one running, two queued", func() bool {
		return attached.stateCountForTest(jobs.StateRunning) == 1 && attached.stateCountForTest(jobs.StateQueued) == 2
	})
	require.Contains(t, attached.statusView(), "│ attached to serve (pid 42)", "whose jobs these are")
	require.NotContains(t, m.statusView(), "attached")
	press(t, attached, "q")
	require.Contains(t, attached.View(), "1 job running, 2 queued — they stay in jobtop serve (pid 42). quit? y/n")
}

// TestQuitQuestionWhenTheLastJobEnds: a job that ends while "stop them
// and quit?" is up leaves a question that still makes sense, and y quits.
func TestQuitQuestionWhenTheLastJobEnds(t *testing.T) {
	mgr := newManager(t)
	info := start(t, mgr, "one", "exec sleep 60")
	m := newSizedModel(t, mgr, Config{}, 100, 20)
	pumpUntil(t, m, "running", func() bool { return m.liveJobs() == 1 })
	press(t, m, "q")
	require.Contains(t, m.View(), "1 job running — stop it and quit? y/n")
	require.NoError(t, mgr.Kill(info.ID))
	pumpUntil(t, m, "the job to end", func() bool { return m.liveJobs() == 0 })
	view := m.View()
	require.Contains(t, view, "no job is running now — quit? y/n")
	require.NotContains(t, view, "0 jobs")
	press(t, m, "y")
	require.True(t, m.quitting)
}

func TestAttachedQuitLeavesJobsRunning(t *testing.T) {
	mgr := newManager(t)
	start(t, mgr, "one", "exec sleep 60")
	m := newSizedModel(t, mgr, Config{Attached: true, Instance: "work"}, 120, 20)
	pumpUntil(t, m, "running", func() bool { return m.liveJobs() == 1 })
	press(t, m, "q")
	require.Contains(t, m.View(), "1 job running — it keeps running in jobtop work. quit? y/n")
	press(t, m, "y")
	require.True(t, m.quitting)
	info, err := mgr.Get(1)
	require.NoError(t, err)
	require.Equal(t, jobs.StateRunning, info.State)
}

func TestZoomAndHelpToggle(t *testing.T) {
	mgr := newManager(t)
	start(t, mgr, "one", "seq 1 100")
	m := newSizedModel(t, mgr, Config{}, 80, 24)
	pumpUntil(t, m, "finished", func() bool { return m.liveJobs() == 0 && m.table.Len() == 1 })
	require.Contains(t, m.View(), "STATUS")
	press(t, m, "z")
	view := m.View()
	requireFits(t, view, 80, 24, "zoomed")
	require.NotContains(t, view, "STATUS")
	require.Len(t, m.single.rows, 24-2-1, "the pane takes all but the status and help lines")
	press(t, m, "z")
	before := m.View()
	press(t, m, "?")
	view = m.View()
	requireFits(t, view, 80, 24, "full help")
	require.NotNil(t, m.panel, "? covers the screen with the help")
	require.Contains(t, view, "restart")
	press(t, m, "?")
	require.Nil(t, m.panel)
	require.Equal(t, before, m.View(), "closing the help goes back to the screen as it was")
}

// Every key that help shows fires the binding it names, and only that one.
func TestHelpKeysFire(t *testing.T) {
	mgr := newManager(t)
	start(t, mgr, "one", "exec sleep 60")
	start(t, mgr, "two", "true")
	m := newSizedModel(t, mgr, Config{}, 200, 40)
	pumpUntil(t, m, "both", func() bool { return m.table.Len() == 2 && m.liveJobs() == 1 })
	check := func(context string) {
		for _, b := range m.km.All() {
			if !b.Enabled() {
				continue
			}
			for _, k := range b.Keys() {
				msg := keyMsg(k)
				require.True(t, key.Matches(msg, *b), "%s: key %q does not fire %q", context, k, b.Help().Desc)
				for _, other := range m.km.All() {
					if other != b && other.Enabled() {
						require.False(t, key.Matches(msg, *other), "%s: key %q fires both %q and %q", context, k, b.Help().Desc, other.Help().Desc)
					}
				}
			}
			require.Contains(t, m.help.FullHelpView(m.km.FullHelp()), b.Help().Desc, "%s: enabled but not in help", context)
		}
	}
	check("table")
	press(t, m, "enter")
	check("output")
	press(t, m, "a")
	check("prompt")
	press(t, m, "esc", "/")
	check("search prompt")
	typeText(t, m, "x")
	press(t, m, "enter")
	check("output, searching")
	press(t, m, "esc", "esc", "/")
	check("filter prompt")
	press(t, m, "esc", "space", "j", "space", "s")
	check("split, table")
	press(t, m, "tab")
	check("split, pane")
	press(t, m, "A")
	check("all view")
	press(t, m, "A", "q")
	check("confirm")
}

func (m *Model) stateCountForTest(s jobs.State) int {
	n := 0
	for _, j := range m.table.Jobs() {
		if j.State == s {
			n++
		}
	}
	return n
}

func TestTableScrollsToKeepTheSelectionInView(t *testing.T) {
	mgr := newManager(t)
	for i := 1; i <= 30; i++ {
		start(t, mgr, fmt.Sprintf("job-%02d", i), "true")
	}
	m := newSizedModel(t, mgr, Config{}, 80, 15)
	pumpUntil(t, m, "thirty jobs", func() bool { return m.stateCountForTest(jobs.StateSucceeded) == 30 })
	rows := m.screen.frame.table - 1
	require.Greater(t, rows, 1)
	require.Less(t, rows, 30)

	visible := func() []string {
		var names []string
		for _, l := range lines(m.View())[1 : rows+1] {
			names = append(names, strings.Fields(strings.TrimLeft(l, "▸▹ "))[1])
		}
		return names
	}
	require.Equal(t, "job-01", visible()[0])
	press(t, m, "G")
	require.Equal(t, "job-30", visible()[rows-1])
	require.Contains(t, lines(m.View())[rows], "▸   30 job-30")
	for i := 0; i < rows; i++ {
		press(t, m, "k")
	}
	require.Equal(t, fmt.Sprintf("job-%02d", 30-rows), visible()[0], "moving above the view scrolls it")

	// Rows going away above the view keep the selection where it is.
	for id := jobs.ID(1); id <= 5; id++ {
		require.NoError(t, mgr.Remove(id))
	}
	pumpUntil(t, m, "five removals", func() bool { return m.table.Len() == 25 })
	sel, _ := m.table.Selected()
	require.Equal(t, jobs.ID(30-rows), sel.ID)
	require.Contains(t, visible(), fmt.Sprintf("job-%02d", 30-rows))
	requireFits(t, m.View(), 80, 15, "after removals")
}

func TestReadyMarkShowsWhenTheReadyCheckPasses(t *testing.T) {
	mgr := newManager(t)
	fifo := mkfifo(t, "gate")
	_, err := mgr.Start(jobs.Spec{
		Name:    "web",
		Command: "echo booting; read line < " + fifo + "; echo listening; sleep 60",
		Ready:   jobs.ReadyCheck{LogPattern: "listening"},
	})
	require.NoError(t, err)
	start(t, mgr, "plain", "sleep 60")
	m := newSizedModel(t, mgr, Config{}, 120, 30)
	pumpUntil(t, m, "web booting", func() bool { return strings.Contains(m.View(), "booting") })
	require.Regexp(t, `1 web\s+● running\s`, m.View(), "not ready yet: no mark")
	writeFifo(t, fifo, "go\n")
	pumpUntil(t, m, "the ready mark", func() bool { return strings.Contains(m.View(), "● running ✓") })
	require.Regexp(t, `2 plain\s+● running\s`, m.View(), "a job without a ready check gets no mark")
}
