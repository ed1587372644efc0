package ui

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"jobtop/jobs"
)

// scriptedReloader is a real manager whose reloads answer what the test
// sets, counting the calls. The real reload (a job file on a manager) is
// tested in workspace, and through this key over the API in cmd.
type scriptedReloader struct {
	*jobs.Manager
	summary string
	err     error
	calls   int
}

func (r *scriptedReloader) Reload() (string, error) {
	r.calls++
	return r.summary, r.err
}

func TestReloadKeyNeedsAJobFileAndAReloader(t *testing.T) {
	mgr := newManager(t)
	start(t, mgr, "web", "exec sleep 60")

	bare := newSizedModel(t, mgr, Config{JobFile: "jobtop.yaml"}, 160, 20)
	require.NotContains(t, bare.helpView(), "R reload file", "a bare manager cannot reload")
	press(t, bare, "R")
	require.NotContains(t, bare.View(), "reload")

	r := &scriptedReloader{Manager: mgr, summary: "reloaded jobtop.yaml: no job changed"}
	noFile := newSizedModel(t, r, Config{}, 160, 20)
	require.NotContains(t, noFile.helpView(), "R reload file", "no job file, nothing to reload")
	press(t, noFile, "R")
	require.Zero(t, r.calls)
	require.Contains(t, noFile.View(), "no job file to reload", "R says why it does nothing")
}

func TestReloadKeyShowsWhatChangedOrWhyNot(t *testing.T) {
	mgr := newManager(t)
	start(t, mgr, "web", "exec sleep 60")
	r := &scriptedReloader{Manager: mgr, summary: "reloaded jobtop.yaml: 1 added (api), 1 changed (web)"}
	m := newSizedModel(t, r, Config{JobFile: "jobtop.yaml"}, 160, 20)
	require.Contains(t, m.helpView(), "R reload file")

	press(t, m, "R")
	require.Equal(t, 1, r.calls)
	require.Contains(t, m.statusView(), "reloaded jobtop.yaml: 1 added (api), 1 changed (web)")

	r.err = errors.New(`cannot reload: jobtop.yaml:3:5: jobs.web: unknown key "cmdd" (did you mean "cmd"?); nothing was changed`)
	press(t, m, "R")
	require.Equal(t, 2, r.calls)
	require.Contains(t, m.statusView(), `cannot reload: jobtop.yaml:3:5: jobs.web: unknown key "cmdd"`)

	// Not while a question is open.
	press(t, m, "q", "R")
	require.Equal(t, 2, r.calls)
	require.NotContains(t, m.helpView(), "R reload file")
}

// A job file's autostart: false jobs are created, not started: they show
// as such (not as an error), and r starts them.
func TestCreatedJobsShowAsNotStarted(t *testing.T) {
	mgr := newManager(t)
	info, err := mgr.Add(jobs.Spec{Name: "seed", Command: "echo seeded"})
	require.NoError(t, err)
	m := newSizedModel(t, mgr, Config{}, 120, 20)
	require.Contains(t, m.View(), "◌ created")
	require.Contains(t, m.statusView(), "◌ 1 created")
	require.Contains(t, m.helpView(), "r restart")

	press(t, m, "r")
	pumpUntil(t, m, "seed to run and succeed", func() bool { return m.stateCountForTest(jobs.StateSucceeded) == 1 })
	got, err := mgr.Get(info.ID)
	require.NoError(t, err)
	require.Equal(t, 1, got.Runs)
}

// problemsError is a reload error that lists the file's problems, as the
// instance's and the API client's errors do.
type problemsError struct{ problems []string }

func (e problemsError) Error() string {
	return "cannot reload: " + e.problems[0] + " (and more problems); nothing was changed"
}
func (e problemsError) JobFileProblems() []string { return e.problems }

// A reload that finds problems lists every one of them, whole, in a
// panel that esc closes; the status bar says it too.
func TestReloadProblemsAreAllListedUntilEsc(t *testing.T) {
	mgr := newManager(t)
	start(t, mgr, "web", "exec sleep 60")
	long := "/home/someone/projects/a/rather/deep/directory/jobtop.yaml:9:3: jobs.worker.depends_on: no job named \"dbb\" (did you mean \"db\"?)"
	problems := []string{
		`/tmp/jobtop.yaml:3:5: jobs.web: unknown key "cmdd" (did you mean "cmd"?)`,
		"/tmp/jobtop.yaml:7:14: jobs.api.timeout: 5 has no unit (write 5s)",
		long,
	}
	r := &scriptedReloader{Manager: mgr, err: fmt.Errorf("wrapped: %w", problemsError{problems})}
	m := newSizedModel(t, r, Config{JobFile: "/tmp/jobtop.yaml"}, 80, 24)
	pumpUntil(t, m, "running", func() bool { return m.liveJobs() == 1 })
	// The clock stands still: on a loaded machine the job's TIME went
	// from 0.1s to 0.2s between the two screens compared.
	frozen := time.Now()
	m.now = func() time.Time { return frozen }
	m.table.SetNow(frozen)
	before := m.View()

	press(t, m, "R")
	require.NotNil(t, m.panel, "the problems cover the screen")
	view := m.View()
	requireFits(t, view, 80, 24, "problems")
	require.Contains(t, lines(view)[0], "cannot reload jobtop.yaml: 3 problems; nothing was changed — esc closes")
	joined := strings.Join(lines(view), "\n")
	require.Contains(t, joined, problems[0])
	require.Contains(t, joined, problems[1])
	require.Contains(t, strings.ReplaceAll(joined, "\n  ", ""), long, "a long problem is wrapped, not cut")
	require.Contains(t, m.statusView(), "cannot reload jobtop.yaml: 3 problems")
	require.Contains(t, m.helpView(), "esc/q close")

	press(t, m, "esc")
	require.Nil(t, m.panel)
	require.Equal(t, 1, m.liveJobs(), "nothing changed")
	require.Equal(t, lines(before)[:20], lines(m.View())[:20], "the screen is back as it was")

	// A file that cannot be read has no problem list: one line.
	r.err = errors.New("cannot reload: open /tmp/jobtop.yaml: permission denied; nothing was changed")
	press(t, m, "R")
	require.Nil(t, m.panel)
	require.Contains(t, m.statusView(), "permission denied")
}

// A job file merged from several names them all when a reload fails, as
// jobtop reload's summary does, not only the first.
func TestReloadProblemsNameEveryMergedFile(t *testing.T) {
	mgr := newManager(t)
	start(t, mgr, "web", "exec sleep 60")
	problems := []string{`/p/dev.yml:3:5: processes.web: unknown key "cmd"`}
	r := &scriptedReloader{Manager: mgr, err: problemsError{problems}}
	m := newSizedModel(t, r, Config{JobFile: "/p/base.yml", JobFiles: []string{"/p/base.yml", "/p/dev.yml"}}, 80, 24)
	pumpUntil(t, m, "running", func() bool { return m.liveJobs() == 1 })

	press(t, m, "R")
	require.NotNil(t, m.panel)
	require.Contains(t, lines(m.View())[0], "cannot reload base.yml + dev.yml: 1 problem; nothing was changed")
	require.Contains(t, m.statusView(), "cannot reload base.yml + dev.yml: 1 problem")
}

// listingReloader is a scriptedReloader that says which files its job
// file is read from now (ui.FileLister).
type listingReloader struct {
	*scriptedReloader
	files []string
}

func (r *listingReloader) JobFiles() []string { return r.files }

// A reload that added a file (an extends:) names it in the messages that
// follow: the files are asked again after each reload, not only at start.
func TestReloadProblemsNameAFileAReloadAdded(t *testing.T) {
	mgr := newManager(t)
	start(t, mgr, "web", "exec sleep 60")
	r := &listingReloader{scriptedReloader: &scriptedReloader{Manager: mgr, summary: "reloaded e0.yml + process-compose.yml"},
		files: []string{"/p/e0.yml", "/p/process-compose.yml"}}
	m := newSizedModel(t, r, Config{JobFile: "/p/process-compose.yml"}, 100, 24)
	pumpUntil(t, m, "running", func() bool { return m.liveJobs() == 1 })
	press(t, m, "R")
	pumpUntil(t, m, "the reload's end", func() bool { return !m.reloading })

	r.err = problemsError{[]string{`/p/e0.yml:2:38: processes.z.replicas: want a whole number`}}
	press(t, m, "R")
	pumpUntil(t, m, "the problems", func() bool { return m.panel != nil })
	require.Contains(t, lines(m.View())[0], "cannot reload e0.yml + process-compose.yml: 1 problem")
}
