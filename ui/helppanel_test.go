package ui

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/stretchr/testify/require"

	"jobtop/jobs"
)

// helpText is the open help's lines, as plain text.
func helpText(t *testing.T, m *Model) []string {
	t.Helper()
	require.NotNil(t, m.panel, "the help is open")
	out := make([]string, len(m.panel.lines))
	for i, l := range m.panel.lines {
		out[i] = ansi.Strip(l)
	}
	return out
}

// group is the rows of the help group with the title, up to the blank
// row after it (the help must be one column wide).
func group(t *testing.T, rows []string, title string) string {
	t.Helper()
	for i, r := range rows {
		if r == title {
			end := i + 1
			for end < len(rows) && rows[end] != "" {
				end++
			}
			return strings.Join(rows[i+1:end], "\n")
		}
	}
	t.Fatalf("no group %q in the help:\n%s", title, strings.Join(rows, "\n"))
	return ""
}

// The help lists every key of the screen grouped by where it works, also
// the keys that do nothing yet: n/N/& before any search, ctrl+r before
// the / prompt opens, 1–4 before any split.
func TestHelpListsEveryKeyByWhereItWorks(t *testing.T) {
	mgr := newManager(t)
	start(t, mgr, "web", "exec sleep 60")
	m := newSizedModel(t, mgr, Config{}, 40, 200)
	pumpUntil(t, m, "running", func() bool { return m.liveJobs() == 1 })
	press(t, m, "?")
	rows := helpText(t, m)
	require.Equal(t, "job table", rows[0], "the focused table's keys come first")

	require.Regexp(t, helpLine("n", "next match"), group(t, rows, "after a search (/ in a pane)"))
	require.Regexp(t, helpLine("N", "previous match"), group(t, rows, "after a search (/ in a pane)"))
	require.Regexp(t, helpLine("&", "only matches"), group(t, rows, "after a search (/ in a pane)"))
	require.Regexp(t, helpLine("ctrl+r", "regex"), group(t, rows, "in the / prompt"))
	require.Regexp(t, helpLine("1-4", "focus pane"), group(t, rows, "split view (s)"))
	require.Regexp(t, helpLine("←/h", "scroll left"), group(t, rows, "output pane (enter)"))
	require.Regexp(t, helpLine("ctrl+l", "redraw"), group(t, rows, "everywhere"))
	require.NotRegexp(t, helpLine("R", "reload file"), strings.Join(rows, "\n"), "no job file, no reload")

	all := strings.Join(rows, "\n")
	for _, b := range m.km.All() {
		if b == &m.km.Reload || b == &m.km.TypeLeaveKey {
			continue
		}
		if b == &m.km.No || b == &m.km.QuitYes || b == &m.km.QuitNo || b == &m.km.KillAll {
			continue // their rows say more: TestHelpSaysWhatCtrlCDoes
		}
		h := b.Help()
		if slices.Contains(b.Keys(), "ctrl+c") && h.Key != "ctrl+c" {
			h.Key += "/ctrl+c" // the help names it, the help bar does not
		}
		require.Regexp(t, helpLine(h.Key, h.Desc), all, "%s is in the help", b.Help().Desc)
	}

	// i on a row is the table's; in the typing group each key is there
	// once, the leave key typed into the job named as pressed twice.
	require.Regexp(t, helpLine("i", "type into job"), group(t, rows, "job table"))
	typing := group(t, rows, "typing into a terminal job's pane")
	require.Equal(t, "  i/enter        type into job\n  ctrl+a         leave input mode\n  ctrl+a ctrl+a  type ctrl+a into job\n  ctrl+c         ^C to the job", typing)

	// esc where it ends what the place started.
	require.Regexp(t, helpLine("esc", "drop selection"), group(t, rows, "copy (in a pane)"))
	require.Regexp(t, helpLine("T/esc", "close"), group(t, rows, "timeline (T)"))

	// With the output focused its keys come first.
	press(t, m, "esc", "enter", "?")
	require.Equal(t, "output pane (enter)", helpText(t, m)[0])

	// R is listed where it works.
	r := &scriptedReloader{Manager: mgr}
	withFile := newSizedModel(t, r, Config{JobFile: "jobtop.yaml"}, 40, 200)
	press(t, withFile, "?")
	require.Regexp(t, helpLine("R", "reload file"), group(t, helpText(t, withFile), "everywhere"))
}

// The help names ctrl+c wherever it does something: it quits (asking
// first while jobs run), cancels the prompts, is yes to the quit question
// and kills what is left while quitting; typing into a job, it is the
// job's ^C. The help bar leaves it out for room.
func TestHelpSaysWhatCtrlCDoes(t *testing.T) {
	mgr := newManager(t)
	m := newSizedModel(t, mgr, Config{}, 40, 200)
	press(t, m, "?")
	rows := helpText(t, m)
	require.Regexp(t, helpLine("q/ctrl+c", "quit"), group(t, rows, "everywhere"))
	require.Regexp(t, helpLine("ctrl+c", "^C to the job"), group(t, rows, "typing into a terminal job's pane"))
	require.Regexp(t, helpLine("esc/ctrl+c", "cancel"), group(t, rows, "in the / prompt"))
	require.Regexp(t, helpLine("esc/ctrl+c", "cancel"), group(t, rows, "add a job (a, e)"))
	require.Regexp(t, helpLine("n/esc/ctrl+c", "no"), group(t, rows, "a question on marked jobs (x, X, r, d)"))
	// Asked to quit, ctrl+c answers yes; pressed again while the jobs
	// stop, it kills the rest.
	require.Regexp(t, helpLine("y/ctrl+c", "yes: stop them, quit"), group(t, rows, "quitting with jobs running"))
	require.Regexp(t, helpLine("n/esc", "no"), group(t, rows, "quitting with jobs running"))
	require.Regexp(t, helpLine("X/ctrl+c", "while stopping: kill all"), group(t, rows, "quitting with jobs running"))
	// In the help itself it is no cancel: it quits (asking first while
	// jobs run), as everywhere, and the help says so.
	require.Regexp(t, helpLine("ctrl+c", "quit, as everywhere"), group(t, rows, "this help"))
	press(t, m, "esc")
	require.Contains(t, m.View(), "q quit", "the help bar keeps it short")
	require.NotContains(t, m.View(), "ctrl+c")
}

// esc, q and ? close the help; ctrl+c closes it and asks to quit.
func TestHelpClosesWithEscQAndQuestionMark(t *testing.T) {
	mgr := newManager(t)
	start(t, mgr, "web", "exec sleep 60")
	m := newSizedModel(t, mgr, Config{}, 100, 30)
	pumpUntil(t, m, "running", func() bool { return m.liveJobs() == 1 })
	before := m.View()
	for _, k := range []string{"esc", "q", "?"} {
		press(t, m, "?")
		require.NotNil(t, m.panel)
		require.Contains(t, m.helpView(), "esc/q close")
		press(t, m, k)
		require.Nil(t, m.panel, "%s closes the help", k)
		require.False(t, m.quitting)
		require.Equal(t, quitNone, m.quit, "%s does not quit", k)
		require.Equal(t, before, m.View(), "%s: the screen is as it was", k)
	}
	press(t, m, "?", "ctrl+c")
	require.Nil(t, m.panel)
	require.Equal(t, quitConfirm, m.quit, "ctrl+c asks to quit, as without the help")
	press(t, m, "n")

	// Keys under the help do nothing.
	press(t, m, "?", "x", "a", "s")
	require.Nil(t, m.prompt)
	require.Equal(t, viewSingle, m.mode)
	info, _ := m.table.Get(1)
	require.True(t, info.State.Active())
}

// A help taller than the screen scrolls, and says where it is.
func TestHelpScrollsWhenItDoesNotFit(t *testing.T) {
	mgr := newManager(t)
	m := newSizedModel(t, mgr, Config{}, 40, 12)
	press(t, m, "?")
	requireFits(t, m.View(), 40, 12, "help")
	first := lines(m.View())[0]
	require.Regexp(t, `1–\d+ of \d+$`, first)
	require.Contains(t, lines(m.View())[1], "job table")
	press(t, m, "j")
	require.NotContains(t, lines(m.View())[1], "job table")
	require.Regexp(t, `2–\d+ of \d+$`, lines(m.View())[0])
	press(t, m, "G")
	require.Contains(t, m.View(), "close", "the last group is in view")
	press(t, m, "g")
	require.Contains(t, lines(m.View())[1], "job table")
}

// helpLine matches the help panel's row for key and what it does.
func helpLine(key, desc string) *regexp.Regexp {
	return regexp.MustCompile(`(?m)^  ` + regexp.QuoteMeta(key) + ` +` + regexp.QuoteMeta(desc) + `$`)
}

// warnedEngine is a manager whose job file has warnings.
type warnedEngine struct {
	*jobs.Manager
	warnings []string
}

func (e warnedEngine) Warnings() []string { return e.warnings }

// The help lists the job file's warnings before the keys: the status bar
// said there were some, and only jobtop check, in another terminal,
// showed them.
func TestHelpListsTheJobFilesWarnings(t *testing.T) {
	mgr := newManager(t)
	long := "process-compose.yaml:7:5: warning: processes.web.is_daemon: jobtop treats a job as ended when its command exits (and stops what it left): run the program in the foreground instead"
	e := warnedEngine{Manager: mgr, warnings: []string{"process-compose.yaml:3:1: warning: top level: unknown key \"proces\", ignored", long}}
	m := newSizedModel(t, e, Config{}, 100, 30)
	press(t, m, "?")
	view := m.View()
	require.Contains(t, view, "the job file's 2 warnings, then the keys")
	require.Contains(t, view, "process-compose.yaml:3:1: warning: top level: unknown key \"proces\", ignored")
	require.Contains(t, view, "process-compose.yaml:7:5: warning: processes.web.is_daemon", "a long one wraps")
	require.Contains(t, view, "\n  command exits (and stops what it left): run the program in the foreground instead\n", "wrapped, indented")
	press(t, m, "esc")

	plain := newSizedModel(t, mgr, Config{}, 100, 30)
	press(t, plain, "?")
	require.NotContains(t, plain.View(), "warning")
}

// The wheel scrolls the help as it scrolls a pane; a click does nothing
// under it.
func TestHelpScrollsWithTheWheel(t *testing.T) {
	mgr := newManager(t)
	start(t, mgr, "web", "exec sleep 60")
	m := newSizedModel(t, mgr, Config{}, 40, 10)
	pumpUntil(t, m, "running", func() bool { return m.liveJobs() == 1 })
	press(t, m, "?")
	require.Regexp(t, `1–\d+ of \d+$`, lines(m.View())[0])
	wheel(m, 5, 4, tea.MouseButtonWheelDown)
	require.Regexp(t, `4–\d+ of \d+$`, lines(m.View())[0], "a notch is three lines, as in a pane")
	wheel(m, 5, 4, tea.MouseButtonWheelDown)
	require.Regexp(t, `7–\d+ of \d+$`, lines(m.View())[0])
	wheel(m, 5, 4, tea.MouseButtonWheelUp)
	require.Regexp(t, `4–\d+ of \d+$`, lines(m.View())[0])
	click(m, 5, 4)
	require.NotNil(t, m.panel, "a click leaves it open")
	require.Regexp(t, `4–\d+ of \d+$`, lines(m.View())[0])
	for range 100 {
		wheel(m, 5, 4, tea.MouseButtonWheelDown)
	}
	require.Contains(t, m.View(), "close", "the last group is in view")
	requireFits(t, m.View(), 40, 10, "help scrolled to its end")
}
