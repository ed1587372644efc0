package jobfile

import (
	"fmt"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/goccy/go-yaml/ast"

	"jobtop/jobs"
)

// textField is a field that may hold template actions: its entry (for
// messages) and its text as written.
type textField struct {
	e    entry
	text string
	set  bool
}

// pcSettings are one process's fields as read, before they are rendered
// for each replica.
type pcSettings struct {
	command, workingDir, description textField
	entrypoint                       []string
	env                              []pcEnvItem
	envFile                          textField
	dotenvOff, noTemplates           bool
	restart                          jobs.RestartPolicy
	exitOnFailure, exitOnEnd         bool
	exitOnSkipped                    bool
	readiness, liveness              *pcProbe
	readyLogLine                     string
	stopSignal                       jobs.Signal
	grace                            time.Duration
	stopCommand                      string
	disabled, scheduled              bool
	tty                              bool
	namespace                        string
	replicas                         int
	vars                             map[string]any
	successCodes                     []int
}

// readProcess reads one process and adds its jobs (one per replica) to
// the plan.
func (p *pcFile) readProcess(pe entry) {
	proc := &pcProcess{name: pe.name, key: pe.key}
	entries, ok := p.mapping(pe)
	if !ok {
		return
	}
	s := pcSettings{grace: pcDefaultGrace * time.Second, replicas: 1,
		restart: jobs.RestartPolicy{Mode: jobs.RestartNever}}
	text := func(f *textField) func(entry) {
		return func(e entry) {
			if v, ok := p.text(e); ok {
				*f = textField{e: e, text: v, set: true}
			}
		}
	}
	isDisabled := ""       // is_disabled, when it is "true" or "false"
	var logLocation *entry // a log_location that names a file
	// As at the top level, x- keys (anchors' home) are left alone.
	entries = slices.DeleteFunc(entries, func(e entry) bool { return strings.HasPrefix(e.name, "x-") })
	p.readKnown(pe.path, entries, fields{
		"command":     text(&s.command),
		"entrypoint":  func(e entry) { s.entrypoint = p.argv(e) },
		"working_dir": text(&s.workingDir),
		"description": text(&s.description),
		"environment": func(e entry) { s.env = p.pcEnvItems(e) },
		"env_file":    text(&s.envFile),
		"is_dotenv_disabled": func(e entry) {
			s.dotenvOff, _ = p.bool(e)
		},
		"is_template_disabled": func(e entry) { s.noTemplates, _ = p.bool(e) },
		"vars":                 func(e entry) { s.vars = p.readVars(e) },
		"availability":         func(e entry) { s.restart, s.exitOnFailure = p.readAvailability(e, &s) },
		"depends_on":           func(e entry) { proc.deps = p.readPCDependsOn(e) },
		"readiness_probe":      func(e entry) { s.readiness = p.readPCProbe(e) },
		"liveness_probe":       func(e entry) { s.liveness = p.readPCProbe(e) },
		"ready_log_line": func(e entry) {
			if v, ok := p.text(e); ok {
				if v == "" {
					p.errorf(at(e), "%s: the line is empty", e.path)
				}
				s.readyLogLine = v
			}
		},
		"shutdown": func(e entry) { p.readShutdown(e, &s) },
		"disabled": func(e entry) { s.disabled, _ = p.bool(e) },
		// is_disabled is a string to process-compose, applied after the
		// file is read (and merged): "true" disables, "false" enables,
		// whatever disabled says and wherever it is written.
		"is_disabled": func(e entry) {
			if isNull(e.value) {
				return // empty, as ${UNSET} expands: disabled stays as it is
			}
			if v, ok := p.text(e); ok {
				switch strings.TrimSpace(v) {
				case "true", "false":
					isDisabled = strings.TrimSpace(v)
				case "":
					// as process-compose, disabled stays as it is
				default:
					p.warn.add(e.key, "is_disabled", fmt.Sprintf("%s: %q is neither true nor false, so it is ignored", e.path, v))
				}
			}
		},
		"namespace": func(e entry) { s.namespace = p.readNamespace(e) },
		// jobtop runs nothing on a schedule; a scheduled process (a
		// backup, a cleanup) must not run at every start instead, so it
		// waits to be started by hand, as a disabled one; unless it
		// asks to run once at start (run_on_start), which it does. An
		// empty schedule schedules nothing.
		"schedule": func(e entry) {
			entries, ok := p.mapping(e)
			if !ok || len(entries) == 0 {
				return
			}
			for _, f := range entries {
				if f.name == "run_on_start" && p.isTrue(f) {
					p.warn.add(e.key, "schedule run_on_start", fmt.Sprintf("%s: not supported: jobtop runs nothing on a schedule; this process runs once at start (run_on_start), and again only by hand (jobtop restart NAME)", e.path))
					return
				}
			}
			s.scheduled = true
			p.warn.add(e.key, "schedule", fmt.Sprintf("%s: not supported: jobtop runs nothing on a schedule, so a scheduled process does not start by itself; it is listed as created, to start by hand (jobtop restart NAME)", e.path))
		},
		// A terminal is what both ask for: colours and isatty for
		// is_tty, typing into the job for is_interactive.
		"is_tty":         func(e entry) { s.tty = s.tty || p.isTrue(e) },
		"is_interactive": func(e entry) { s.tty = s.tty || p.isTrue(e) },
		"replicas": func(e entry) {
			n, ok := p.count(e)
			switch {
			case !ok, n == 0: // 0: one, as process-compose's loader makes it
			case n > maxInstances:
				p.errorf(e.value, "%s: want 1 to %d", e.path, maxInstances)
			default:
				s.replicas = n
			}
		},
		"extends":   func(entry) {}, // resolved before (pcextends.go)
		"is_daemon": nil,
		// process-compose writes the process's output there, and a
		// probe or a tool may read it (its issues/issue_102 does): say
		// that nothing will be there, and how to have it.
		// The warning names the jobs, known once namespace and
		// replicas are read: below.
		"log_location": func(e entry) {
			if where, _ := p.text(e); strings.TrimSpace(where) != "" { // empty: no log file in process-compose either
				logLocation = &e
			}
		},
		"log_configuration":   nil,
		"disable_ansi_colors": nil, "is_foreground": nil, "is_elevated": nil,
		"launch_timeout_seconds": func(e entry) {
			// Below 1 is process-compose's default, 5, as 5 is: no
			// warning for a default, as for the false of the others.
			text, _ := scalarText(e.value)
			n, err := strconv.Atoi(strings.TrimSpace(text))
			if asksNothing(e.value) || err == nil && (n < 1 || n == pcDefaultLaunchTimeout) {
				return
			}
			p.unsupported(e)
		},
		"watch": nil,
		"mcp":   nil, "truncate_log": nil, "monitor_for": nil, "monitor_silence_threshold": nil,
		"success_exit_codes": func(e entry) { s.successCodes = p.readExitCodes(e) },
		"name":               nil, "replica_num": nil, "replica_name": nil,
		"executable": nil, "args": nil, "original_config": nil,
	})
	if isDisabled != "" {
		s.disabled = isDisabled == "true"
	}
	proc.readyLog, proc.readyProbe, proc.scheduled = s.readyLogLine != "", s.readiness != nil, s.scheduled
	switch {
	case s.readyLogLine != "" && s.readiness != nil:
		p.errorf(pe.key, "%s: give ready_log_line or readiness_probe, not both", pe.path)
	case !s.command.set && len(s.entrypoint) == 0 && !p.badExtends[pe.name]:
		p.errorf(pe.key, "%s: nothing to run: give command", pe.path)
	case s.command.set && len(s.entrypoint) > 0:
		p.warn.add(pe.key, "entrypoint", fmt.Sprintf("%s: both command and entrypoint are given: command runs, as in process-compose", pe.path))
	}
	if s.namespace != "" && s.namespace != pcDefaultNS {
		proc.namePrefix = s.namespace + "/"
	}
	if logLocation != nil {
		p.warnLogLocation(*logLocation, proc, s.replicas)
	}
	for r := range s.replicas {
		proc.jobs = append(proc.jobs, len(p.plan.Jobs))
		p.plan.Jobs = append(p.plan.Jobs, p.buildJob(pe, proc, &s, r))
	}
	p.procs = append(p.procs, proc)
}

// warnLogLocation warns that a process's log_location gets nothing, and
// says how to have its output there still, naming its jobs (NAME-0 and
// the others, for replicas).
func (p *pcFile) warnLogLocation(e entry, proc *pcProcess, replicas int) {
	where, _ := p.text(e)
	name := pcName(proc.namePrefix, proc.name, 0, replicas)
	others := ""
	if replicas > 1 {
		var names []string
		for r := 1; r < min(replicas, 4); r++ {
			names = append(names, pcName(proc.namePrefix, proc.name, r, replicas))
		}
		if replicas > 4 {
			names = append(names, fmt.Sprintf("%d more", replicas-4))
		}
		others = fmt.Sprintf(" (and the same for %s)", strings.Join(names, ", "))
	}
	p.warn.add(e.key, "process log_location "+proc.name, fmt.Sprintf("%s: not supported, ignored: jobtop writes each job's output to its own log file (jobtop logs %s prints it; jobtop ls --json: log_path), so nothing is written to %s; if something reads it (a probe, a tail), run jobtop logs %s -f >> %s beside the job%s", e.path, name, where, name, where, others))
}

// readExitCodes reads success_exit_codes: a list of exit codes, 0 to
// 255, that count as success besides 0.
func (p *pcFile) readExitCodes(e entry) []int {
	seq, ok := e.value.(*ast.SequenceNode)
	if !ok {
		p.errorf(at(e), "%s: want a list of exit codes like [130], got %s", e.path, kind(e.value))
		return nil
	}
	var out []int
	for i, v := range seq.Values {
		item := entry{key: v, value: p.resolve(v), path: fmt.Sprintf("%s[%d]", e.path, i)}
		n, ok := p.count(item)
		switch {
		case !ok:
		case n > 255:
			p.errorf(item.value, "%s: %d is not an exit code: they go from 0 to 255", item.path, n)
		case n != 0 && !slices.Contains(out, n):
			out = append(out, n)
		}
	}
	return out
}

// isTrue reads a boolean field; what is not one is reported.
func (p *pcFile) isTrue(e entry) bool {
	v, _ := p.bool(e)
	return v
}

// buildJob makes the job of one replica: its fields rendered with the
// vars, its environment layered.
func (p *pcFile) buildJob(pe entry, proc *pcProcess, s *pcSettings, replica int) Job {
	name := pcName(proc.namePrefix, proc.name, replica, s.replicas)
	job := Job{Name: name, Autostart: !s.disabled && !s.scheduled, ExitOnFailure: s.exitOnFailure,
		ExitOnEnd: s.exitOnEnd, ExitOnSkipped: s.exitOnSkipped}
	job.Line, job.Col = position(pe.key)
	vars := templateVars(p.vars, s.vars, replica)
	render := func(f textField) string {
		if !f.set || s.noTemplates {
			return f.text
		}
		out, err := renderTemplate(f.text, vars)
		if err != nil {
			p.errorf(at(f.e), "%s: %v", f.e.path, err)
		}
		return out
	}
	spec := &job.Spec
	spec.Name = name
	spec.Dir = p.dir
	if d := p.origins.dirOf(pe.key); d != "" {
		spec.Dir = d // a process from a file an extends: names runs in its directory, as in process-compose
	}
	if s.workingDir.set {
		spec.Dir = p.workDir(s.workingDir.e, render(s.workingDir))
	}
	if s.command.set {
		spec.Command = render(s.command)
		spec.Shell = p.shell
		if strings.TrimSpace(s.command.text) == "" {
			p.errorf(at(s.command.e), "%s: the command is empty", s.command.e.path)
		}
	} else {
		spec.Argv = s.entrypoint
	}
	spec.Description = render(s.description)
	spec.TTY = s.tty
	spec.Restart = s.restart
	spec.SuccessExitCodes = s.successCodes
	spec.StopSignal, spec.Grace, spec.StopCommand = s.stopSignal, s.grace, s.stopCommand
	spec.StopCommandFailKills = s.stopCommand != "" // process-compose SIGKILLs when shutdown.command fails
	if s.stopCommand != "" {
		spec.Shell = p.shell
	}
	if s.readyLogLine != "" {
		spec.Ready.LogPattern = regexp.QuoteMeta(s.readyLogLine)
	}
	if s.readiness != nil {
		spec.Ready.Probe = p.buildProbe(s.readiness, render)
		// process-compose keeps checking a ready process with its
		// readiness probe, and restarts it (per availability) when it
		// fails: jobtop's health check does that.
		spec.Health = spec.Ready.Probe
	}
	if s.liveness != nil {
		spec.Health = p.buildProbe(s.liveness, render)
	}
	var dotenv map[string]string
	if !s.dotenvOff {
		dotenv = p.dotenvUnderShell()
	}
	var envFile map[string]string
	if s.envFile.set {
		envFile = p.pcEnvFile(s.envFile, spec.Dir)
	}
	// process-compose renders a process's environment entries (not the
	// top-level ones) with the vars, is_template_disabled or not: that
	// only keeps command as written. One that does not render (a Go
	// template the program reads itself, say FORMAT={{.Name}}) is kept as
	// written, with a warning: process-compose would pass "<no value>".
	var own map[string]string
	if s.env != nil {
		own = make(map[string]string, len(s.env))
		for _, it := range s.env {
			v, err := renderTemplate(it.value.text, vars)
			if err != nil {
				v = it.value.text
				p.warn.add(it.value.e.key, "template "+it.name, fmt.Sprintf("%s: %v; kept as written", it.value.e.path, err))
			}
			own[it.name] = v
		}
	}
	spec.Env = mergeEnv(map[string]string{"PC_PROC_NAME": proc.name, "PC_REPLICA_NUM": strconv.Itoa(replica)},
		dotenv, p.globalEnv, envFile, own)
	if len(p.errs) == 0 {
		if err := spec.Validate(); err != nil {
			p.errorf(pe.key, "%s: %v", pe.path, err)
		}
	}
	return job
}

// dotenvUnderShell is the .env layer of a process's environment as
// process-compose layers it: below the shell's environment, so a variable
// the shell sets keeps the shell's value (and the YAML's environment wins
// over both). A Procfile's .env wins over the shell instead, as in foreman
// and honcho.
func (p *pcFile) dotenvUnderShell() map[string]string {
	if p.dotenv.env == nil {
		return nil
	}
	out := make(map[string]string, len(p.dotenv.env))
	for k, v := range p.dotenv.env {
		if _, set := os.LookupEnv(k); !set {
			out[k] = v
		}
	}
	return out
}

// pcEnvFile reads a process's env_file, relative to its working_dir.
func (p *pcFile) pcEnvFile(f textField, dir string) map[string]string {
	path := f.text
	if !strings.HasPrefix(path, "/") {
		path = dir + "/" + path
	}
	return p.readEnvFile(f.e, path)
}

func (p *pcFile) readNamespace(e entry) string {
	if seq, ok := e.value.(*ast.SequenceNode); ok {
		var names []string
		for _, v := range seq.Values {
			if s, ok := scalarText(p.resolve(v)); ok {
				names = append(names, s)
			}
		}
		if len(names) > 1 {
			p.warn.add(e.key, "namespaces", fmt.Sprintf("%s: a process in several namespaces is shown under the first, %s", e.path, names[0]))
		}
		if len(names) == 0 {
			return ""
		}
		return p.checkNamespace(e, names[0])
	}
	s, _ := p.text(e)
	return p.checkNamespace(e, s)
}

func (p *pcFile) checkNamespace(e entry, ns string) string {
	if ns == "" || ns == pcDefaultNS {
		return ns
	}
	if msg := checkName(ns); msg != "" {
		p.errorf(at(e), "%s: %s", e.path, strings.Replace(msg, "job name", "namespace", 1))
		return ""
	}
	return ns
}

// readAvailability reads availability: restart no, on_failure, always or
// exit_on_failure (no restart; jobtop exits when the job fails),
// backoff_seconds (default 1, the same wait each time as in
// process-compose) and max_restarts (absent or 0: no limit, as in
// process-compose, where jobtop's own default would be 5); exit_on_end
// and exit_on_skipped go to s.
func (p *pcFile) readAvailability(e entry, s *pcSettings) (pol jobs.RestartPolicy, exitOnFailure bool) {
	pol = jobs.RestartPolicy{Mode: jobs.RestartNever}
	backoff, maxRestarts := 1, 0
	entries, _ := p.mapping(e)
	p.readKnown(e.path, entries, fields{
		"restart": func(e entry) {
			s, ok := p.text(e)
			if !ok {
				return
			}
			switch s {
			case "no":
				pol.Mode = jobs.RestartNever
			case "on_failure":
				pol.Mode = jobs.RestartOnFailure
			case "always":
				pol.Mode = jobs.RestartAlways
			case "exit_on_failure":
				pol.Mode, exitOnFailure = jobs.RestartNever, true
			default:
				p.errorf(e.value, "%s: %q is not a restart policy: use no, on_failure, always or exit_on_failure", e.path, s)
			}
		},
		"backoff_seconds": func(e entry) { backoff, _ = p.seconds(e) },
		"max_restarts":    func(e entry) { maxRestarts, _ = p.seconds(e) },
		"exit_on_end":     func(e entry) { s.exitOnEnd, _ = p.bool(e) },
		"exit_on_skipped": func(e entry) { s.exitOnSkipped, _ = p.bool(e) },
	})
	if pol.Mode == jobs.RestartNever {
		return pol, exitOnFailure
	}
	pol.Backoff = time.Duration(max(backoff, 1)) * time.Second // 0: the default
	pol.MaxBackoff = pol.Backoff
	pol.Max = maxRestarts
	if maxRestarts <= 0 {
		pol.Max = jobs.NoRestartLimit
	} else {
		// process-compose counts a process's restarts over its whole
		// life, however long each run lasted.
		pol.MaxOverLife = true
	}
	return pol, false
}

// readPCDependsOn reads depends_on: NAME: {condition: process_...} (or
// NAME: process_...); the condition defaults to process_started.
func (p *pcFile) readPCDependsOn(e entry) []pcDep {
	entries, _ := p.mapping(e)
	var deps []pcDep
	names := make([]string, 0, len(pcConditions()))
	for k := range pcConditions() {
		names = append(names, k)
	}
	for _, d := range entries {
		raw := "process_started"
		where := d
		if s, ok := scalarText(d.value); ok {
			raw = s
		} else if !isNull(d.value) {
			inner, _ := p.mapping(d)
			p.readKnown(d.path, inner, fields{"condition": func(c entry) {
				if s, ok := p.text(c); ok {
					raw, where = s, c
				}
			}})
		}
		cond, ok := pcConditions()[raw]
		if !ok {
			hint := ""
			if best := closest(raw, names); best != "" {
				hint = fmt.Sprintf(" (did you mean %q?)", best)
			}
			p.errorf(at(where), "%s: %q is not a condition%s: use process_started, process_completed, process_completed_successfully, process_healthy or process_log_ready", d.path, raw, hint)
			continue
		}
		deps = append(deps, pcDep{entry: d, cond: cond, raw: raw})
	}
	return deps
}

// readShutdown reads shutdown: signal (a number or a name), timeout_seconds
// (the grace period, default 10) and command.
func (p *pcFile) readShutdown(e entry, s *pcSettings) {
	entries, _ := p.mapping(e)
	p.readKnown(e.path, entries, fields{
		"signal": func(e entry) {
			v, ok := p.text(e)
			if !ok {
				return
			}
			if strings.TrimSpace(v) == "0" {
				return // SIGTERM, as process-compose's loader makes 0
			}
			sig, err := jobs.ParseStopSignal(v)
			if err != nil {
				p.errorf(e.value, "%s: %v", e.path, err)
				return
			}
			s.stopSignal = sig
		},
		"timeout_seconds": func(e entry) {
			if n, ok := p.seconds(e); ok {
				s.grace = time.Duration(n) * time.Second
			}
		},
		"command": func(e entry) {
			if v, ok := p.text(e); ok {
				s.stopCommand = v
			}
		},
		"parent_only": nil,
		"send_keys":   nil,
	})
}
