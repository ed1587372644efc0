package jobfile

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/goccy/go-yaml/ast"

	"jobtop/jobs"
)

// mprocs' behaviour where it differs from jobtop's defaults (its
// src/kernel/kernel.rs): a stop waits 10 s before the hard kill, and
// autorestart waits 100 ms, doubling up to 30 s, with no limit.
const (
	mprocsGrace      = 10 * time.Second
	mprocsBackoff    = 100 * time.Millisecond
	mprocsMaxBackoff = 30 * time.Second
	// mprocsConfigDir is the prefix mprocs replaces with the config
	// file's directory in cwd and log paths.
	mprocsConfigDir = "<CONFIG_DIR>"
)

// mprocsUnsupported says, for each mprocs setting jobtop has no
// counterpart for, what jobtop does instead. The setting is ignored, with
// a warning; the rest of the file runs.
var mprocsUnsupported = sync.OnceValue(func() map[string]string {
	return map[string]string{
		"server":             "jobtop serves its API on a unix socket (--socket; jobtop ls, logs, send), not on TCP",
		"hide_keymap_window": "an mprocs UI setting: jobtop's help line shows its keys (? shows them all)",
		"mouse_scroll_speed": "an mprocs UI setting: jobtop scrolls by its own steps",
		"proc_list_width":    "an mprocs UI setting: jobtop sizes its job table to the terminal",
		"proc_list_title":    "an mprocs UI setting: jobtop's job table has no title",
		"on_all_finished":    "jobtop runs no action when every job has ended (jobtop wait waits for jobs to end)",
		"keymap_procs":       "jobtop's keys are its own (? in the TUI lists them)",
		"keymap_term":        "jobtop's keys are its own (? in the TUI lists them)",
		"keymap_copy":        "jobtop's keys are its own (? in the TUI lists them)",
	}
})

// mprocsFile reads an mprocs config (see doc.go and mprocsproc.go).
type mprocsFile struct {
	*yamlFile
	warn *warnings
	// base is the directory mprocs would run in, where procs run and
	// relative paths start: the file's directory when jobtop found it
	// there, else the current directory (mprocs --config FILE).
	base  string
	procs []*mprocsProc
}

// mprocsProc is one entry of procs: and the job it became.
type mprocsProc struct {
	name string // as written
	key  ast.Node
	job  int // index into plan.Jobs
	deps []entry
}

// isMprocs says whether a document is an mprocs config: named as mprocs
// names it (mprocs.yaml, mprocs.yml, mprocs.json), or a mapping with
// procs: and neither jobs: nor processes:.
func isMprocs(path string, body ast.Node) bool {
	switch filepath.Base(path) {
	case "mprocs.yaml", "mprocs.yml", "mprocs.json":
		return !hasTopKey(body, "jobs")
	}
	return hasTopKey(body, "procs") && !hasTopKey(body, "jobs") && !hasTopKey(body, "processes")
}

// parseMprocs reads an mprocs config into a plan.
func parseMprocs(y *yamlFile) (*Plan, error) {
	m := &mprocsFile{yamlFile: y, warn: newWarnings(y.file), base: y.dir}
	y.plan.Format = FormatMprocs
	y.plan.Files = []string{y.file}
	if !y.opts.Found {
		if wd, err := os.Getwd(); err == nil {
			m.base = wd
		}
	}
	// mprocs reads no .env: only the -e files are read (fileHasOwn).
	env := y.opts.defaultEnv(y.dir, true, false)
	y.errs = append(y.errs, env.errs...)
	y.plan.EnvFiles = env.files
	y.baseEnv = env.env
	m.readTop(y.doc)
	m.resolveDeps()
	y.plan.Order = y.checkDependencies()
	y.plan.Warnings = m.warn.list()
	if err := y.errs.err(); err != nil {
		return nil, withWarnings(err, y.plan.Warnings)
	}
	return &y.plan, nil
}

// readTop reads the top level: the settings, then the procs.
func (m *mprocsFile) readTop(body ast.Node) {
	said := len(m.errs)
	top := m.selected(entry{value: m.resolve(body)})
	switch {
	case len(m.errs) > said:
		return // a $select with no match, an alias to nothing
	case isNull(top.value):
		m.errs = append(m.errs, &Error{File: m.file, Msg: "the file is empty: give a procs: mapping"})
		return
	case kind(top.value) != "a mapping":
		m.errorf(top.value, "the top level must be a mapping with a procs: key, got %s", kind(top.value))
		return
	}
	var procs *entry
	fs := fields{
		"procs":      func(e entry) { procs = &e },
		"$schema":    func(entry) {}, // for editors: mprocs ignores it too
		"scrollback": m.readScrollback,
		"proc_log":   m.readProcLog,
	}
	for name := range mprocsUnsupported() {
		fs[name] = nil
	}
	m.readKnown("", m.mappingEntries(top.value, "", 0), fs)
	if procs == nil {
		m.errorf(top.value, "no procs: key: name the processes to run under procs:")
		return
	}
	m.readProcs(*procs)
}

// readKnown reads a mapping's entries, each with $select applied: a nil
// reader marks a setting jobtop does not support, an unknown key is a
// warning (mprocs ignores both). unresolved says an entry had no value
// (an alias to nothing, a $select with no match: the problem said).
func (m *mprocsFile) readKnown(path string, entries []entry, fs fields) (unresolved bool) {
	for _, e := range entries {
		read, known := fs[e.name]
		if e.value != nil {
			e = m.selected(e)
		}
		switch {
		case e.value == nil:
			unresolved = true
		case known && read != nil:
			read(e)
		case known && isNull(e.value):
		case known:
			m.warn.add(e.key, e.name, fmt.Sprintf("%s: has no effect in jobtop, ignored: %s", e.path, mprocsUnsupported()[e.name]))
		default:
			m.warn.add(e.key, "unknown "+e.name, fmt.Sprintf("%s: unknown key %q%s, ignored (as mprocs does)", nonEmpty(path, "top level"), e.name, suggest(e.name, fs)))
		}
	}
	return unresolved
}

// mprocsOS is this system's name as mprocs' $select: os names it (Rust's
// std::env::consts::OS).
func mprocsOS() string {
	if runtime.GOOS == "darwin" {
		return "macos"
	}
	return runtime.GOOS
}

// selected is e with mprocs' $select operator applied: a mapping whose
// first key is $select: os stands for its value under this system's
// name (linux, macos, windows...), else under $else. Any value can be
// one, and the value chosen can be one again. e.value is nil (the
// problem said) when nothing matches.
func (m *mprocsFile) selected(e entry) entry {
	for range maxMergeDepth {
		if kind(e.value) != "a mapping" {
			return e
		}
		entries := m.mappingEntries(e.value, e.path, 0)
		if len(entries) == 0 || entries[0].name != "$select" {
			return e
		}
		sel := entries[0]
		if s, _ := scalarText(sel.value); s != "os" {
			m.errorf(at(sel), "%s: $select: want os (the only thing mprocs selects on), got %s", nonEmpty(e.path, "top level"), describeValue(sel.value))
			e.value = nil
			return e
		}
		var chosen *entry
		for _, c := range entries[1:] {
			if c.name == mprocsOS() || c.name == "$else" && chosen == nil {
				chosen = &c
			}
		}
		if chosen == nil {
			m.errorf(sel.key, "%s: $select has no value for %s and no $else", nonEmpty(e.path, "top level"), mprocsOS())
			e.value = nil
			return e
		}
		e.value = chosen.value
	}
	m.errorf(e.key, "%s: $select nests too deeply", nonEmpty(e.path, "top level"))
	e.value = nil
	return e
}

// describeValue is a scalar's text quoted, or the kind of anything else.
func describeValue(n ast.Node) string {
	if s, ok := scalarText(n); ok {
		return fmt.Sprintf("%q", s)
	}
	return kind(n)
}

// readScrollback maps scrollback (lines of output kept per proc) to
// log.memory_lines.
func (m *mprocsFile) readScrollback(e entry) {
	if n, ok := m.count(e); ok && n > 0 {
		m.plan.Log.MemoryLines = n
	} else if ok {
		m.warn.add(e.key, e.name, fmt.Sprintf("%s: 0 keeps no output in mprocs; jobtop keeps its default number of lines", e.path))
	}
}

// readProcLog reads proc_log: its dir is where jobtop writes the jobs'
// log files; what jobtop cannot do as asked is a warning.
func (m *mprocsFile) readProcLog(e entry) {
	switch {
	case isNull(e.value):
		return
	case kind(e.value) == "true/false":
		if on, _ := boolValue(e.value); !on {
			m.warn.add(e.key, "proc_log off", fmt.Sprintf("%s: jobtop always writes each job's output to its log file", e.path))
		}
		return
	case kind(e.value) != "a mapping":
		if s, ok := m.text(e); ok {
			m.plan.Log.Dir = m.path(s)
		}
		return
	}
	entries, _ := m.mapping(e)
	m.readKnown(e.path, entries, fields{
		"dir": func(e entry) {
			if s, ok := scalarText(e.value); ok {
				m.plan.Log.Dir = m.path(s)
			} else if !isNull(e.value) {
				m.errorf(at(e), "%s: want a string or null, got %s", e.path, kind(e.value))
			}
		},
		"enabled": func(e entry) {
			if on, ok := m.bool(e); ok && !on {
				m.warn.add(e.key, "proc_log off", fmt.Sprintf("%s: jobtop always writes each job's output to its log file", e.path))
			}
		},
		"file": func(e entry) {
			if s, _ := scalarText(e.value); !isNull(e.value) && s != "{name}.log" {
				m.warn.add(e.key, "proc_log file", fmt.Sprintf("%s: not supported, ignored: jobtop names each job's log file itself (jobtop ls --json: log_path)", e.path))
			}
		},
		"mode": func(e entry) {
			if s, ok := m.text(e); ok && s != "append" && s != "truncate" {
				m.errorf(e.value, "%s: %q is not a mode: use append or truncate", e.path, s)
			}
		},
		"append": func(e entry) { m.bool(e) },
	})
}

// path resolves a path from the file as mprocs does: <CONFIG_DIR> is the
// file's directory, and a relative path starts where mprocs would run.
func (m *mprocsFile) path(p string) string {
	if rest, ok := strings.CutPrefix(p, mprocsConfigDir); ok {
		return filepath.Join(m.dir, strings.TrimLeft(rest, `/\`))
	}
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(m.base, p)
}

// readProcs reads procs: one job per proc, null ones left out (mprocs
// disables them).
func (m *mprocsFile) readProcs(e entry) {
	entries, ok := m.mapping(e)
	if !ok {
		return
	}
	if len(entries) == 0 {
		m.errorf(e.key, "procs: no processes given")
		return
	}
	owner := map[string]*mprocsProc{}
	for _, pe := range entries {
		if pe.value == nil {
			continue
		}
		pe = m.selected(pe)
		if pe.value == nil || isNull(pe.value) {
			continue
		}
		name, msg := mprocsJobName(pe.name)
		if msg != "" {
			m.errorf(pe.key, "procs: %s", strings.Replace(msg, "job name", "process name", 1))
			continue
		}
		if name != pe.name {
			m.warn.add(pe.key, "name "+pe.name, fmt.Sprintf("procs.%s: jobtop names it %s (job names use ASCII letters, digits, \".\", \"_\" and \"-\")", pe.name, name))
		}
		proc := &mprocsProc{name: pe.name, key: pe.key, job: len(m.plan.Jobs)}
		if first, taken := owner[name]; taken {
			line, _ := position(first.key)
			m.errorf(pe.key, "procs.%s: its job name %q is taken by procs.%s (line %d): rename one of them", pe.name, name, first.name, line)
			continue
		}
		owner[name] = proc
		m.plan.Jobs = append(m.plan.Jobs, m.readProc(pe, name, proc))
		m.procs = append(m.procs, proc)
	}
	if len(m.plan.Jobs) == 0 && len(m.errs) == 0 {
		m.errorf(e.key, "procs: every process is null (disabled): nothing to run")
	}
}

// mprocsJobName is the job name of an mprocs proc: its name, with each run
// of characters a job name cannot have ("my process", "npm:dev") made a
// "-"; msg says why there is none.
func mprocsJobName(name string) (job, msg string) {
	var b strings.Builder
	dash := false
	for _, c := range name {
		ok := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-'
		switch {
		case ok:
			b.WriteRune(c)
			dash = false
		case !dash && b.Len() > 0:
			b.WriteByte('-')
			dash = true
		}
	}
	job = strings.TrimRight(strings.TrimLeft(b.String(), "-"), "-")
	if job == "" {
		job = name // say what is wrong with the name as written
	}
	return job, checkName(job)
}

// resolveDeps turns each proc's deps into its job's DependsOn: it waits
// until each runs (ready: started, no ready check) or has succeeded, as
// mprocs waits for a dependency to be up or done. A proc that does not
// autostart is started for one that does, as mprocs starts what a proc it
// starts depends on.
func (m *mprocsFile) resolveDeps() {
	byName := map[string]*mprocsProc{}
	names := make([]string, 0, len(m.procs))
	for _, p := range m.procs {
		byName[p.name] = p
		names = append(names, p.name)
	}
	sort.Strings(names)
	m.startDeps(byName)
	for _, p := range m.procs {
		job := &m.plan.Jobs[p.job]
		for _, d := range p.deps {
			dep, ok := byName[d.name]
			if !ok {
				hint := ""
				if best := closest(d.name, names); best != "" {
					hint = fmt.Sprintf(" (did you mean %q?)", best)
				}
				m.errorf(d.key, "%s: no process is named %q%s", d.path, d.name, hint)
				continue
			}
			target := &m.plan.Jobs[dep.job]
			if job.Spec.DependsOn == nil {
				job.Spec.DependsOn = map[string]jobs.Condition{}
			}
			job.Spec.DependsOn[target.Name] = jobs.CondReady
			de := d
			de.name = target.Name
			m.deps[job.Name] = append(m.deps[job.Name], dependency{entry: de, cond: jobs.CondReady})
		}
	}
}

// startDeps marks for autostart every proc that an autostarting one
// depends on, however deep, saying so for each.
func (m *mprocsFile) startDeps(byName map[string]*mprocsProc) {
	for changed := true; changed; {
		changed = false
		for _, p := range m.procs {
			if !m.plan.Jobs[p.job].Autostart {
				continue
			}
			for _, d := range p.deps {
				dep, ok := byName[d.name]
				if !ok || m.plan.Jobs[dep.job].Autostart {
					continue
				}
				m.plan.Jobs[dep.job].Autostart, changed = true, true
				m.warn.add(d.key, "autostart "+dep.name, fmt.Sprintf("%s: %s has autostart: false, and starts anyway since %s depends on it, as in mprocs", d.path, dep.name, p.name))
			}
		}
	}
}
