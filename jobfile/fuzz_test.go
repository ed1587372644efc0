package jobfile

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// FuzzLoad feeds the loader any bytes, as a jobtop.yaml or as a Procfile:
// it must never panic or hang, must answer either a plan the engine
// accepts, in a start order that honours depends_on, or a non-empty list
// of positioned problems.
func FuzzLoad(f *testing.F) {
	for _, path := range []string{
		"../testdata/webapp/jobtop.yaml", "../testdata/monorepo/jobtop.yaml", "../testdata/procfile/Procfile",
	} {
		data, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data, filepath.Base(path) == "Procfile")
	}
	for _, seed := range []string{
		"jobs:\n  a: {cmd: x, depends_on: {b: ready}}\n  b: {argv: [sleep, 1], ready: {log: \"^ok$\"}}\n",
		"x-d: &d {restart: {policy: always, backoff: 1s}}\njobs:\n  a: {<<: *d, cmd: x}\n  b: &b {<<: *b}\n",
		"jobs:\n  a: {cmd: x, env_file: [a.env, /dev/zero], cwd: /proc, stop: {signal: 9, grace: 1s}}\n",
		"log: {max_size: 1GiB, memory_lines: 10}\nmax_parallel: 2\njobs: {a: {cmd: [x]}}\n",
		"web: run\n# c\nworker: go\n",
	} {
		f.Add([]byte(seed), false)
	}
	dir := f.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.env"), []byte("A=1\nB='2'\n"), 0o600); err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte, procfile bool) {
		path := filepath.Join(dir, "jobtop.yaml")
		if procfile {
			path = filepath.Join(dir, "Procfile")
		}
		plan, err := Parse(path, data)
		if err != nil {
			var list ErrorList
			if !errors.As(err, &list) || len(list) == 0 {
				t.Fatalf("want a non-empty ErrorList, got %T: %v", err, err)
			}
			for _, e := range list {
				if e.File == "" || e.Msg == "" {
					t.Fatalf("problem without a file or a message: %#v", e)
				}
			}
			return
		}
		checkPlan(t, plan)
	})
}

// FuzzLoadMprocs is FuzzLoad for mprocs configs.
func FuzzLoadMprocs(f *testing.F) {
	for _, seed := range []string{
		"procs:\n  a: echo a\n  b: [sleep, 1]\n  c: {shell: x, deps: [a], autostart: false, autorestart: true, stop: SIGINT}\n",
		"procs:\n  my p:\n    shell: {$select: os, linux: a, $else: b}\n    env: {A: null, B: {$select: os, $else: x}}\n    add_path: [bin]\n    cwd: <CONFIG_DIR>/.\n",
		"procs: {a: {cmd: [x], stop: {send-keys: [\"<C-c>\"]}}, b: {shell: y, stop: {cmd: z}}, c: null}\nproc_log: {dir: logs}\nscrollback: 10\n",
		`{"procs": {"a": {"shell": "x", "log": true}}, "hide_keymap_window": true}`,
	} {
		f.Add([]byte(seed))
	}
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		plan, err := Parse(filepath.Join(dir, "mprocs.yaml"), data)
		if err != nil {
			var list ErrorList
			if !errors.As(err, &list) || len(list) == 0 {
				t.Fatalf("want a non-empty ErrorList, got %T: %v", err, err)
			}
			for _, e := range list {
				if e.File == "" || e.Msg == "" {
					t.Fatalf("problem without a file or a message: %#v", e)
				}
			}
			return
		}
		checkPlan(t, plan)
		for _, j := range plan.Jobs {
			if !j.Spec.TTY {
				t.Fatalf("job %q: an mprocs proc runs on a terminal", j.Name)
			}
		}
	})
}

// checkPlan asserts what every loaded plan promises.
func checkPlan(t *testing.T, plan *Plan) {
	t.Helper()
	if len(plan.Jobs) == 0 || len(plan.Order) != len(plan.Jobs) {
		t.Fatalf("%d jobs, order %v", len(plan.Jobs), plan.Order)
	}
	for _, j := range plan.Jobs {
		if err := j.Spec.Validate(); err != nil {
			t.Fatalf("job %q: the engine refuses its spec: %v", j.Name, err)
		}
		if j.Spec.Name != j.Name || checkName(j.Name) != "" {
			t.Fatalf("job %q: bad name (spec says %q)", j.Name, j.Spec.Name)
		}
		at := slices.Index(plan.Order, j.Name)
		if at < 0 {
			t.Fatalf("job %q is not in the start order %v", j.Name, plan.Order)
		}
		for dep := range j.Spec.DependsOn {
			if d := slices.Index(plan.Order, dep); d < 0 || d > at {
				t.Fatalf("job %q starts before its dependency %q: %v", j.Name, dep, plan.Order)
			}
		}
	}
}
