package jobfile

import (
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"jobtop/jobs"
)

func planOf(js ...Job) *Plan { return &Plan{Jobs: js} }

func testJob(name, cmd string, edit ...func(*Job)) Job {
	j := Job{Name: name, Autostart: true, Spec: jobs.Spec{Name: name, Command: cmd, Dir: "/app"}}
	for _, e := range edit {
		e(&j)
	}
	return j
}

func TestDiff(t *testing.T) {
	tests := []struct {
		name       string
		prev, next *Plan
		want       Changes
		summary    string
	}{
		{"first load: all added", nil, planOf(testJob("a", "x"), testJob("b", "y")),
			Changes{Added: []string{"a", "b"}}, "2 added (a, b)"},
		{"same file", planOf(testJob("a", "x")), planOf(testJob("a", "x")),
			Changes{Unchanged: []string{"a"}}, "no job changed"},
		{"added, removed, changed, unchanged in file order",
			planOf(testJob("old", "o"), testJob("web", "w"), testJob("db", "d"), testJob("gone", "g")),
			planOf(testJob("new", "n"), testJob("db", "d"), testJob("web", "w2"), testJob("extra", "e")),
			Changes{Added: []string{"new", "extra"}, Removed: []string{"old", "gone"}, Changed: []string{"web"}, Unchanged: []string{"db"}},
			"2 added (new, extra), 1 changed (web), 2 removed (old, gone)"},
		{"a moved job is unchanged", planOf(testJob("a", "x"), testJob("b", "y")), planOf(testJob("b", "y"), testJob("a", "x")),
			Changes{Unchanged: []string{"b", "a"}}, "no job changed"},
		{"nil and empty maps are the same",
			planOf(testJob("a", "x", func(j *Job) { j.Spec.Env = map[string]string{}; j.Spec.Argv = []string{} })),
			planOf(testJob("a", "x")),
			Changes{Unchanged: []string{"a"}}, "no job changed"},
		{"autostart turned off",
			planOf(testJob("a", "x")), planOf(testJob("a", "x", func(j *Job) { j.Autostart = false })),
			Changes{Disabled: []string{"a"}}, "1 disabled (a)"},
		{"autostart turned on, with a new spec and description",
			planOf(testJob("a", "x", func(j *Job) { j.Autostart = false })),
			planOf(testJob("a", "y", func(j *Job) { j.Spec.Description = "new" })),
			Changes{Enabled: []string{"a"}, Changed: []string{"a"}}, "1 changed (a), 1 enabled (a)"},
		{"autostart turned on, a new description alone",
			planOf(testJob("a", "x", func(j *Job) { j.Autostart = false })),
			planOf(testJob("a", "x", func(j *Job) { j.Spec.Description = "new" })),
			Changes{Enabled: []string{"a"}, Redescribed: []string{"a"}}, "1 enabled (a)"},
		{"max_parallel changed", &Plan{MaxParallel: 2, Jobs: []Job{testJob("a", "x")}}, &Plan{MaxParallel: 3, Jobs: []Job{testJob("a", "x")}},
			Changes{Unchanged: []string{"a"}, MaxParallel: ptr(3)},
			"no job changed, max_parallel now 3"},
		{"max_parallel left out", &Plan{MaxParallel: 2}, &Plan{},
			Changes{MaxParallel: ptr(0)},
			"no job changed, max_parallel now no limit"},
		{"log settings changed", &Plan{Jobs: []Job{testJob("a", "x")}}, &Plan{Log: LogOptions{MemoryLines: 10}, Jobs: []Job{testJob("a", "x")}},
			Changes{Unchanged: []string{"a"}, OptionsChanged: true},
			"no job changed, log settings changed (they apply when jobtop starts again)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Diff(tt.prev, tt.next)
			require.Equal(t, tt.want, got)
			require.Equal(t, tt.summary, got.String())
			require.Equal(t, len(tt.want.Added)+len(tt.want.Removed)+len(tt.want.Changed)+len(tt.want.Enabled)+len(tt.want.Disabled) == 0, got.Empty())
		})
	}
}

// TestDiffSeesEveryField changes one spec field at a time: each must make
// the job "changed".
func TestDiffSeesEveryField(t *testing.T) {
	edits := map[string]func(*jobs.Spec){
		"command":     func(s *jobs.Spec) { s.Command = "other" },
		"argv":        func(s *jobs.Spec) { s.Command, s.Argv = "", []string{"x"} },
		"dir":         func(s *jobs.Spec) { s.Dir = "/elsewhere" },
		"env value":   func(s *jobs.Spec) { s.Env = map[string]string{"A": "1"} },
		"timeout":     func(s *jobs.Spec) { s.Timeout = time.Second },
		"stop signal": func(s *jobs.Spec) { s.StopSignal = 2 },
		"grace":       func(s *jobs.Spec) { s.Grace = time.Second },
		"restart":     func(s *jobs.Spec) { s.Restart.Max = 3 },
		"ready":       func(s *jobs.Spec) { s.Ready.After = time.Second },
		"tty":         func(s *jobs.Spec) { s.TTY = true },
		"stdin":       func(s *jobs.Spec) { s.Stdin = jobs.StdinPipe },
		"notify":      func(s *jobs.Spec) { s.Notify.Quiet = time.Minute },
	}
	for name, edit := range edits {
		t.Run(name, func(t *testing.T) {
			next := testJob("a", "x")
			edit(&next.Spec)
			require.Equal(t, []string{"a"}, Diff(planOf(testJob("a", "x")), planOf(next)).Changed)
		})
	}
	// A description is text for people: the job is not changed, only
	// redescribed.
	next := testJob("a", "x")
	next.Spec.Description = "new words"
	c := Diff(planOf(testJob("a", "x")), planOf(next))
	require.Empty(t, c.Changed)
	require.Equal(t, []string{"a"}, c.Redescribed)
	// Dependencies decide when it starts: it is rewired, not changed;
	// with its command changed too, it is changed.
	next = testJob("a", "x")
	next.Spec.DependsOn = map[string]jobs.Condition{"db": jobs.CondReady}
	c = Diff(planOf(testJob("a", "x")), planOf(next))
	require.Empty(t, c.Changed)
	require.Equal(t, []string{"a"}, c.Unchanged)
	require.Equal(t, []string{"a"}, c.Rewired)
	next.Spec.Command = "other"
	c = Diff(planOf(testJob("a", "x")), planOf(next))
	require.Equal(t, []string{"a"}, c.Changed)
	require.Empty(t, c.Rewired)
}

// TestDiffOfReloadedFile diffs two versions of a real file, as a reload
// does.
func TestDiffOfReloadedFile(t *testing.T) {
	inDir(t, map[string]string{"web.env": "PORT=8080\n"})
	before := `env: {MODE: dev}
jobs:
  db: {cmd: run-db}
  web: {cmd: run-web, env_file: web.env}
  cron: {cmd: run-cron}
`
	prev, err := Parse("jobtop.yaml", []byte(before))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile("web.env", []byte("PORT=9090\n"), 0o644))
	after := `env: {MODE: dev}
jobs:
  db: {cmd: run-db, description: same command}
  web: {cmd: run-web, env_file: web.env}
  worker: {cmd: run-worker}
`
	next, err := Parse("jobtop.yaml", []byte(after))
	require.NoError(t, err)
	require.Equal(t, Changes{
		Added: []string{"worker"}, Removed: []string{"cron"},
		Changed:   []string{"web"}, // its env file changed
		Unchanged: []string{"db"}, Redescribed: []string{"db"},
	}, Diff(prev, next))
}

func ptr(n int) *int { return &n }

// A reload of a big file names at most namesShown jobs of each kind, and
// counts the rest: not one line of 20,000 names.
func TestChangesStringNamesAFew(t *testing.T) {
	var c Changes
	for i := range 20000 {
		c.Changed = append(c.Changed, fmt.Sprintf("j%d", i))
	}
	c.Added = []string{"a", "b"}
	assert.Equal(t, "2 added (a, b), 20000 changed (j0, j1, j2, j3, j4, j5, j6, j7, j8, j9, j10, j11, j12, j13, j14, j15, j16, j17, j18, j19 and 19980 more)", c.String())
	c.Changed = c.Changed[:20]
	assert.Equal(t, "2 added (a, b), 20 changed (j0, j1, j2, j3, j4, j5, j6, j7, j8, j9, j10, j11, j12, j13, j14, j15, j16, j17, j18, j19)", c.String())
}
