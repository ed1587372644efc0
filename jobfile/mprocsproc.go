package jobfile

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"github.com/goccy/go-yaml/ast"

	"jobtop/jobs"
)

// readProc reads one proc: a string (a shell command), a list (cmd) or
// a mapping. Its job runs on a terminal, as every mprocs proc does.
func (m *mprocsFile) readProc(pe entry, name string, proc *mprocsProc) Job {
	job := Job{Name: name, Autostart: true}
	job.Line, job.Col = position(pe.key)
	spec := &job.Spec
	spec.Name, spec.Dir, spec.TTY, spec.Grace = name, m.base, true, mprocsGrace
	switch kind(pe.value) {
	case "a list":
		spec.Argv = m.argvOf(entry{name: "cmd", key: pe.key, value: pe.value, path: pe.path})
	case "a mapping":
		m.readProcFields(pe, spec, &job.Autostart, proc)
	default:
		s, ok := scalarText(pe.value)
		_, isBool := pe.value.(*ast.BoolNode)
		if !ok || isBool || kind(pe.value) == "a number" {
			m.errorf(at(pe), "%s: want a shell command, a cmd list or a mapping, got %s", pe.path, kind(pe.value))
			return job
		}
		spec.Command = m.command(pe, s)
	}
	spec.Env = mergeEnv(m.baseEnv, spec.Env)
	if len(m.errs) == 0 {
		// A safety net: the engine must accept what the file accepted.
		if err := spec.Validate(); err != nil {
			m.errorf(pe.key, "%s: %v", pe.path, err)
		}
	}
	return job
}

// command checks a shell command line.
func (m *mprocsFile) command(e entry, s string) string {
	if strings.TrimSpace(s) == "" {
		m.errorf(at(e), "%s: the command is empty", e.path)
	}
	return s
}

// readProcFields reads a proc's mapping form.
func (m *mprocsFile) readProcFields(pe entry, spec *jobs.Spec, autostart *bool, proc *mprocsProc) {
	entries, _ := m.mapping(pe)
	var shell, cmd *entry
	var unset []string
	var addPath []string
	unresolved := m.readKnown(pe.path, entries, fields{
		"shell": func(e entry) {
			shell = &e
			if s, ok := m.text(e); ok {
				spec.Command = m.command(e, s)
			}
		},
		"cmd": func(e entry) {
			cmd = &e
			spec.Argv = m.argvOf(e)
		},
		"cwd": func(e entry) {
			if s, ok := m.text(e); ok {
				spec.Dir = m.path(s)
				if st, err := os.Stat(spec.Dir); err != nil || !st.IsDir() {
					m.warn.add(e.value, "dir "+spec.Dir, fmt.Sprintf("%s: directory %q does not exist: the job will not start", e.path, s))
				}
			}
		},
		"env": func(e entry) { spec.Env, unset = m.env(e) },
		"add_path": func(e entry) {
			addPath = m.texts(e, true)
		},
		"autostart": func(e entry) { *autostart, _ = m.bool(e) },
		"autorestart": func(e entry) {
			if on, _ := m.bool(e); on {
				// Since mprocs 0.7.2, a proc is restarted when it fails.
				spec.Restart = jobs.RestartPolicy{Mode: jobs.RestartOnFailure, Backoff: mprocsBackoff,
					MaxBackoff: mprocsMaxBackoff, Max: jobs.NoRestartLimit}
			}
		},
		"stop": func(e entry) { m.readStop(e, spec) },
		"deps": func(e entry) {
			for i, item := range m.items(e) {
				if s, ok := m.text(item); ok {
					proc.deps = append(proc.deps, entry{name: s, key: item.value, value: item.value, path: fmt.Sprintf("%s[%d]", e.path, i)})
				}
			}
		},
		"log": func(e entry) {
			if on, isBool := boolValue(e.value); isNull(e.value) || isBool && on {
				return // jobtop writes every job's log file
			}
			m.warn.add(e.key, "log", fmt.Sprintf("%s: not supported, ignored: jobtop writes each job's output to its own log file in one directory (proc_log's dir at the top level; jobtop ls --json: log_path)", e.path))
		},
	})
	switch {
	case unresolved:
		// an alias to nothing (or a $select with no match) may have been the command
	case shell != nil && cmd != nil:
		m.errorf(cmd.key, "%s: give shell or cmd, not both", pe.path)
	case shell == nil && cmd == nil:
		m.errorf(pe.key, "%s: nothing to run: give shell (a shell command) or cmd (a list)", pe.path)
	}
	if len(addPath) > 0 {
		m.addPath(spec, addPath)
	}
	if len(unset) > 0 {
		spec.Environ = environWithout(os.Environ(), unset)
	}
}

// addPath appends add_path's entries to PATH, as mprocs does: to the
// proc's own env PATH when it sets one, else to jobtop's. PATH: null
// does not empty it: mprocs removes the variable, then sets PATH to the
// inherited one plus add_path (src/config/proc.rs), and so does jobtop.
func (m *mprocsFile) addPath(spec *jobs.Spec, dirs []string) {
	base, ok := spec.Env["PATH"]
	if !ok {
		base = os.Getenv("PATH")
	}
	parts := slices.DeleteFunc(filepath.SplitList(base), func(s string) bool { return s == "" })
	if spec.Env == nil {
		spec.Env = map[string]string{}
	}
	spec.Env["PATH"] = strings.Join(append(parts, dirs...), string(os.PathListSeparator))
}

// environWithout is env (NAME=value entries) without the variables
// named, and without entries no environment can hold (the engine would
// refuse the spec for them).
func environWithout(env, names []string) []string {
	out := make([]string, 0, len(env))
	for _, kv := range env {
		if k, _, ok := strings.Cut(kv, "="); ok && k != "" && !strings.ContainsRune(kv, 0) && !slices.Contains(names, k) {
			out = append(out, kv)
		}
	}
	return out
}

// env reads a proc's env: NAME: value sets a variable, NAME: null
// removes it from what the job inherits (unset).
func (m *mprocsFile) env(e entry) (env map[string]string, unset []string) {
	entries, _ := m.mapping(e)
	for _, v := range entries {
		if v.value == nil {
			continue
		}
		v = m.selected(v)
		if msg := checkEnvName(v.name); msg != "" {
			m.errorf(v.key, "%s: %s", e.path, msg)
			continue
		}
		switch {
		case v.value == nil:
		case isNull(v.value):
			unset = append(unset, v.name)
		default:
			if s, ok := m.text(v); ok {
				if env == nil {
					env = map[string]string{}
				}
				env[v.name] = s
			}
		}
	}
	return env, unset
}

// items reads a list's items, each with $select applied.
func (m *mprocsFile) items(e entry) []entry {
	seq, ok := e.value.(*ast.SequenceNode)
	if !ok {
		m.errorf(at(e), "%s: want a list, got %s", e.path, kind(e.value))
		return nil
	}
	out := make([]entry, 0, len(seq.Values))
	for i, v := range seq.Values {
		item := m.selected(entry{key: v, value: m.resolve(v), path: fmt.Sprintf("%s[%d]", e.path, i)})
		if item.value != nil {
			out = append(out, item)
		}
	}
	return out
}

// texts reads a list of strings, or (with one) a single string.
func (m *mprocsFile) texts(e entry, one bool) []string {
	if s, ok := scalarText(e.value); ok && one {
		return []string{s}
	}
	var out []string
	for _, item := range m.items(e) {
		if s, ok := m.text(item); ok {
			out = append(out, s)
		}
	}
	return out
}

// argvOf reads cmd: the program, then its arguments.
func (m *mprocsFile) argvOf(e entry) []string {
	if kind(e.value) != "a list" {
		m.errorf(at(e), "%s: want a list like [program, arg], got %s (a shell command line goes in shell:)", e.path, kind(e.value))
		return nil
	}
	argv := m.texts(e, false)
	switch {
	case len(argv) == 0 && len(e.value.(*ast.SequenceNode).Values) == 0:
		m.errorf(e.value, "%s: the list is empty: name a program", e.path)
	case len(argv) > 0 && strings.TrimSpace(argv[0]) == "":
		m.errorf(e.value, "%s: the program name is empty", e.path)
	}
	return argv
}

// readStop reads stop: a signal (SIGINT, SIGTERM, SIGKILL, hard-kill),
// {send-keys: [...]} or {cmd: shell command}.
func (m *mprocsFile) readStop(e entry, spec *jobs.Spec) {
	if s, ok := scalarText(e.value); ok {
		switch s {
		case "SIGINT":
			spec.StopSignal = jobs.Signal(syscall.SIGINT)
		case "SIGTERM":
			spec.StopSignal = jobs.Signal(syscall.SIGTERM)
		case "SIGKILL", "hard-kill":
			spec.StopSignal = jobs.Signal(syscall.SIGKILL)
		default:
			m.errorf(e.value, "%s: %q is not a way to stop: use SIGINT, SIGTERM, SIGKILL, hard-kill, {send-keys: [...]} or {cmd: ...}", e.path, s)
		}
		return
	}
	if kind(e.value) != "a mapping" {
		m.errorf(at(e), "%s: want SIGINT, SIGTERM, SIGKILL, hard-kill, {send-keys: [...]} or {cmd: ...}, got %s", e.path, kind(e.value))
		return
	}
	entries, _ := m.mapping(e)
	if len(entries) != 1 || entries[0].name != "send-keys" && entries[0].name != "cmd" {
		m.errorf(at(e), "%s: give send-keys or cmd", e.path)
		return
	}
	f := m.selected(entries[0])
	if f.value == nil {
		return
	}
	if f.name == "cmd" {
		if s, ok := m.text(f); ok {
			spec.StopCommand = m.command(f, s)
		}
		return
	}
	var typed strings.Builder
	for _, item := range m.items(f) {
		k, ok := m.text(item)
		if !ok {
			continue
		}
		seq, err := mprocsKey(k)
		if err != nil {
			m.errorf(at(item), "%s: %v", item.path, err)
			continue
		}
		typed.WriteString(seq)
	}
	if seq, ok := f.value.(*ast.SequenceNode); ok && len(seq.Values) == 0 {
		m.errorf(f.value, "%s: no keys given", f.path)
	}
	// Typed into the job's terminal as mprocs types them: <C-c> is
	// SIGINT from the terminal to what runs in the foreground, a raw
	// mode program reads it as a key.
	spec.StopInput = typed.String()
}
