package jobfile

import (
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/goccy/go-yaml/ast"

	"jobtop/jobs"
)

// dependency is one depends_on entry, kept with its position for the
// checks that need every job (unknown names, cycles).
type dependency struct {
	entry
	cond jobs.Condition
}

// readJob reads one job. Problems are recorded; the job is returned as far
// as it could be read, so later checks still see its name.
func (y *yamlFile) readJob(je entry) Job {
	job := Job{Name: je.name, Autostart: true}
	job.Line, job.Col = position(je.key)
	spec := &job.Spec
	spec.Name = je.name
	spec.Dir = y.dir
	var cmd, argv, tty, stdin *entry
	var envFile, env map[string]string
	entries, ok := y.mapping(je)
	if !ok {
		return job
	}
	fs := fields{
		"cmd": func(e entry) {
			cmd = &e
			if s, ok := y.text(e); ok {
				if strings.TrimSpace(s) == "" {
					y.errorf(at(e), "%s: the command is empty", e.path)
				}
				spec.Command = s
			}
		},
		"argv": func(e entry) {
			argv = &e
			spec.Argv = y.argv(e)
		},
		"cwd": func(e entry) {
			if s, ok := y.text(e); ok {
				spec.Dir = y.abs(s)
				y.checkDir(e, s, spec.Dir)
			}
		},
		"env":         func(e entry) { env = y.env(e) },
		"env_file":    func(e entry) { envFile = y.readEnvFiles(e) },
		"timeout":     func(e entry) { spec.Timeout, _ = y.duration(e) },
		"autostart":   func(e entry) { job.Autostart, _ = y.bool(e) },
		"stop":        func(e entry) { y.readStop(e, spec) },
		"restart":     func(e entry) { spec.Restart = y.readRestart(e) },
		"depends_on":  func(e entry) { spec.DependsOn = y.readDependsOn(je.name, e) },
		"ready":       func(e entry) { spec.Ready = y.readReady(e) },
		"health":      func(e entry) { spec.Health = y.readHealth(e) },
		"description": func(e entry) { spec.Description, _ = y.text(e) },
		"tty": func(e entry) {
			tty = &e
			spec.TTY, _ = y.bool(e)
		},
		"stdin": func(e entry) {
			stdin = &e
			if s, ok := y.text(e); ok {
				var err error
				if spec.Stdin, err = jobs.ParseStdin(s); err != nil {
					y.errorf(e.value, "%s: %v", e.path, err)
				}
			}
		},
		"notify": func(e entry) { spec.Notify = y.readNotify(e) },
	}
	y.readFields(je.path, entries, fs)
	y.readTTY(spec, tty, stdin)
	spec.Env = mergeEnv(y.baseEnv, y.plan.Env, envFile, env)
	unresolved := slices.ContainsFunc(entries, func(e entry) bool { return e.value == nil })
	switch {
	case unresolved: // an alias to nothing may have been the command
	case cmd != nil && argv != nil:
		y.errorf(argv.key, "%s: give cmd or argv, not both", je.path)
	case cmd == nil && argv == nil && !slices.ContainsFunc(entries, func(e entry) bool { return fs[e.name] == nil && misnamesCommand(e.name) }):
		// (A misspelt or other tool's cmd, "command", has its own error.)
		y.errorf(je.key, "%s: nothing to run: give cmd (a shell command) or argv (a list)", je.path)
	}
	if len(y.errs) == 0 {
		// A safety net: the engine must accept what the file accepted.
		if err := spec.Validate(); err != nil {
			y.errorf(je.key, "%s: %v", je.path, err)
		}
	}
	return job
}

// readTTY settles whether a job runs on a terminal: its own tty, else
// the top-level default, but for a job that asks for stdin: pipe (pipes
// then, unless it says tty: true itself, which is an error).
func (y *yamlFile) readTTY(spec *jobs.Spec, tty, stdin *entry) {
	switch {
	case tty == nil && spec.Stdin == jobs.StdinPipe:
	case tty == nil:
		spec.TTY = y.tty
	case spec.TTY && spec.Stdin == jobs.StdinPipe:
		y.errorf(stdin.key, "%s: stdin: pipe is for jobs on pipes; a tty job reads its terminal", stdin.path)
		spec.Stdin = jobs.StdinNull
	}
}

// argv reads a list of scalars: the program, then its arguments.
func (y *yamlFile) argv(e entry) []string {
	seq, ok := e.value.(*ast.SequenceNode)
	switch {
	case !ok:
		y.errorf(at(e), "%s: want a list like [program, arg], got %s", e.path, kind(e.value))
		return nil
	case len(seq.Values) == 0:
		y.errorf(e.value, "%s: the list is empty: name a program", e.path)
		return nil
	}
	out := make([]string, 0, len(seq.Values))
	for i, v := range seq.Values {
		item := entry{key: v, value: y.resolve(v), path: fmt.Sprintf("%s[%d]", e.path, i)}
		s, ok := scalarText(item.value)
		if !ok {
			if item.value != nil {
				y.errorf(at(item), "%s: want a string, got %s", item.path, kind(item.value))
			}
			return nil
		}
		if i == 0 && strings.TrimSpace(s) == "" {
			y.errorf(at(item), "%s: the program name is empty", item.path)
		}
		out = append(out, s)
	}
	return out
}

func (y *yamlFile) checkDir(e entry, given, dir string) {
	st, err := os.Stat(dir)
	switch {
	case err != nil:
		y.errorf(e.value, "%s: directory %q does not exist", e.path, given)
	case !st.IsDir():
		y.errorf(e.value, "%s: %q is not a directory", e.path, given)
	}
}

func (y *yamlFile) readStop(e entry, spec *jobs.Spec) {
	entries, _ := y.mapping(e)
	y.readFields(e.path, entries, fields{
		"signal": func(e entry) {
			s, ok := y.text(e)
			if !ok {
				return
			}
			sig, err := jobs.ParseStopSignal(s)
			if err != nil {
				y.errorf(e.value, "%s: %v", e.path, err)
				return
			}
			spec.StopSignal = sig
		},
		"grace": func(e entry) { spec.Grace, _ = y.duration(e) },
		"command": func(e entry) {
			if s, ok := y.text(e); ok {
				if strings.TrimSpace(s) == "" {
					y.errorf(at(e), "%s: the command is empty", e.path)
				}
				spec.StopCommand = s
			}
		},
	})
}

// readRestart reads restart: a policy name alone, or a mapping.
func (y *yamlFile) readRestart(e entry) jobs.RestartPolicy {
	var p jobs.RestartPolicy
	var given, backoff, maxBackoff, maxRestarts *entry
	policy := func(e entry) {
		given = &e
		s, ok := y.text(e)
		if !ok {
			return
		}
		switch m := jobs.RestartMode(s); m {
		case jobs.RestartNever, jobs.RestartOnFailure, jobs.RestartAlways:
			p.Mode = m
		default:
			y.errorf(e.value, "%s: %q is not a restart policy: use no, on-failure or always", e.path, s)
		}
	}
	if _, isText := scalarText(e.value); isText {
		policy(entry{name: "policy", key: e.key, value: e.value, path: e.path})
	} else {
		entries, _ := y.mapping(e)
		y.readFields(e.path, entries, fields{
			"policy": policy,
			"backoff": func(e entry) {
				var ok bool
				if p.Backoff, ok = y.duration(e); ok {
					backoff = &e // one that is not a duration is said so once
				}
			},
			"max_backoff": func(e entry) {
				var ok bool
				if p.MaxBackoff, ok = y.duration(e); ok {
					maxBackoff = &e
				}
			},
			"max": func(e entry) { maxRestarts = &e; p.Max, _ = y.count(e) },
		})
		if given == nil {
			y.errorf(e.key, "%s: give a policy: no, on-failure or always", e.path)
		}
	}
	if p.Mode == jobs.RestartNever || p.Mode == "" {
		return p
	}
	// What is not given stays zero: the engine's defaults apply
	// (jobs.RestartPolicy.WithDefaults), as for jobs started through the API.
	if backoff != nil && p.Backoff == 0 {
		y.errorf(backoff.value, "%s: must be more than 0 (default %v)", backoff.path, jobs.DefaultRestartBackoff)
	}
	first := p.Backoff
	if backoff == nil {
		first = jobs.DefaultRestartBackoff
	}
	if maxBackoff != nil && p.MaxBackoff < first {
		y.errorf(maxBackoff.value, "%s: %v is less than backoff %v", maxBackoff.path, p.MaxBackoff, first)
	}
	if maxRestarts != nil && p.Max == 0 {
		p.Max = jobs.NoRestartLimit
	}
	return p
}

func (y *yamlFile) readDependsOn(job string, e entry) map[string]jobs.Condition {
	var given []ast.Node // a list, as docker compose writes it, or one name
	got := "a list"
	switch v := e.value.(type) {
	case *ast.SequenceNode:
		given = v.Values
	case *ast.StringNode:
		given, got = []ast.Node{v}, "a string"
	}
	if given != nil {
		// Say the mapping to write.
		var names []string // only job names: the text is echoed in the message
		for _, v := range given {
			if s, ok := scalarText(y.resolve(v)); ok && jobs.CheckName(s) == nil && !slices.Contains(names, s+": started") {
				names = append(names, s+": started")
			}
		}
		if len(names) == 0 {
			names = []string{"JOB: started"}
		}
		y.errorf(at(e), "%s: want a mapping of job: condition, got %s: write {%s} (conditions: %s)",
			e.path, got, strings.Join(names, ", "), jobs.Conditions)
		return nil
	}
	entries, _ := y.mapping(e)
	if len(entries) == 0 {
		return nil
	}
	out := make(map[string]jobs.Condition, len(entries))
	for _, d := range entries {
		s, ok := y.text(d)
		if !ok {
			continue
		}
		c := jobs.Condition(s)
		switch c {
		case jobs.CondStarted, jobs.CondReady, jobs.CondHealthy, jobs.CondSucceeded, jobs.CondCompleted:
		default:
			y.errorf(at(d), "%s: %q is not a condition: use %s", d.path, s, jobs.Conditions)
			continue
		}
		out[d.name] = c
		y.deps[job] = append(y.deps[job], dependency{entry: d, cond: c})
	}
	return out
}

// readNotify reads when to tell the person watching: {quiet: 30s}.
func (y *yamlFile) readNotify(e entry) jobs.NotifyPolicy {
	var p jobs.NotifyPolicy
	entries, _ := y.mapping(e)
	y.readFields(e.path, entries, fields{
		"quiet": func(e entry) {
			d, ok := y.duration(e)
			if ok && d <= 0 {
				y.errorf(e.value, "%s: want a time above zero, like 30s", e.path)
				return
			}
			p.Quiet = d
		},
	})
	return p
}
