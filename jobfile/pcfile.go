package jobfile

import (
	"cmp"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/goccy/go-yaml/ast"

	"jobtop/jobs"
)

// process-compose's defaults where they differ from jobtop's.
const (
	pcDefaultShell    = "bash"
	pcDefaultShellArg = "-c"
	pcDefaultGrace    = 10        // shutdown.timeout_seconds
	pcDefaultPeriod   = 10        // probes' period_seconds
	pcDefaultStatus   = 200       // http_get.status_code
	pcDefaultNS       = "default" // a process's namespace when none is given
	// launch_timeout_seconds, which jobtop has no use for
	pcDefaultLaunchTimeout = 5
	pcExpansionKey         = "disable_env_expansion"
)

// pcConditions maps process-compose's depends_on conditions to jobtop's.
var pcConditions = sync.OnceValue(func() map[string]jobs.Condition {
	return map[string]jobs.Condition{
		"process_started":                jobs.CondStarted,
		"process_completed":              jobs.CondCompleted,
		"process_completed_successfully": jobs.CondSucceeded,
		"process_healthy":                jobs.CondHealthyPassed,
		"process_log_ready":              jobs.CondReadyPassed,
	}
})

// pcFile reads a process-compose file into a plan (see doc.go).
type pcFile struct {
	*yamlFile
	warn      *warnings
	strict    bool
	shell     []string
	vars      map[string]any
	dotenv    envLayer
	globalEnv map[string]string
	procs     []*pcProcess
	origins   *pcOrigins // which file each node is from, when several are merged
	// badExtends holds the processes whose extends: was refused (a
	// cycle, an unknown or a bad name): what they lack is said by that
	// error, not once more as "nothing to run".
	badExtends map[string]bool
}

// pcProcess is one entry of processes: and the jobs it became (one per
// replica).
type pcProcess struct {
	name        string
	key         ast.Node
	jobs        []int // indexes into plan.Jobs
	deps        []pcDep
	readyLog    bool // has ready_log_line
	readyProbe  bool // has readiness_probe
	scheduled   bool // has a schedule: started by hand
	namePrefix  string
	replicaBase string
}

// pcDep is one depends_on entry as written.
type pcDep struct {
	entry
	cond jobs.Condition
	raw  string
}

// parseProcessCompose reads a process-compose file: its variables are
// expanded first (unless disable_env_expansion is set), then its fields
// are mapped onto jobs.
func parseProcessCompose(y *yamlFile, data []byte) (*Plan, error) {
	p := &pcFile{yamlFile: y, warn: newWarnings(y.file)}
	y.expandEnvFiles = true
	y.plan.Format = FormatProcessCompose
	y.plan.Files = []string{y.file}
	p.dotenv = y.opts.defaultEnv(y.dir, false, true)
	y.errs = append(y.errs, p.dotenv.errs...)
	y.plan.EnvFiles = p.dotenv.files
	switch {
	case isMerged(y.file, y.doc, y.opts):
		body, err := p.readMerged(data)
		if err != nil {
			return nil, withWarnings(err, p.warn.list())
		}
		errs := y.errs
		y.nodeReader = newNodeReader(y.file, body)
		y.errs, y.origins = errs, p.origins
		p.warn.origins = p.origins
		p.readTop(body)
	case !p.expansionDisabled():
		text := expandVariables(string(data), p.lookupVar, p.expansionWarner(y.file))
		body, err := parseDocument(y.file, []byte(text))
		if err != nil {
			return nil, err
		}
		errs := y.errs // the env files' problems: the new reader keeps them
		y.nodeReader = newNodeReader(y.file, body)
		y.errs = errs
		p.readTop(body)
	default:
		p.readTop(p.doc)
	}
	p.checkJobNames()
	p.resolveDependencies()
	y.plan.Order = y.checkDependencies()
	y.plan.Warnings = p.warn.list()
	if err := y.errs.err(); err != nil {
		return nil, withWarnings(err, y.plan.Warnings)
	}
	return &y.plan, nil
}

// lookupVar is a variable's value for expansion: from the .env file,
// else from the environment.
func (p *pcFile) lookupVar(name string) (string, bool) {
	if v, ok := p.dotenv.env[name]; ok {
		return v, true
	}
	return os.LookupEnv(name)
}

// expansionDisabled reads disable_env_expansion from the file as written.
func (p *pcFile) expansionDisabled() bool {
	for _, e := range p.mappingEntries(p.doc, "", 0) {
		if e.name == pcExpansionKey {
			v, _ := boolValue(e.value)
			return v
		}
	}
	return false
}

// readTop reads the top level: the settings every process uses first,
// then the processes.
func (p *pcFile) readTop(body ast.Node) {
	top := entry{value: p.resolve(body)}
	entries := p.mappingEntries(top.value, "", 0)
	for _, e := range entries {
		if e.name == "is_strict" {
			p.strict, _ = p.bool(e)
		}
	}
	var processes *entry
	p.shell = []string{pcDefaultShell, pcDefaultShellArg}
	if s := os.Getenv("COMPOSE_SHELL"); s != "" {
		p.shell[0] = s
	}
	// process-compose keeps unknown top-level keys (its Extensions), and
	// x- keys are where YAML anchors live: no warning, even strict.
	entries = slices.DeleteFunc(entries, func(e entry) bool { return strings.HasPrefix(e.name, "x-") })
	p.readKnown("", entries, fields{
		"version":           func(entry) {},
		"name":              func(entry) {},
		"is_strict":         func(entry) {},
		"ordered_shutdown":  func(e entry) { p.bool(e) }, // jobtop always stops dependants first
		pcExpansionKey:      func(e entry) { p.bool(e) },
		"processes":         func(e entry) { processes = &e },
		"environment":       func(e entry) { p.globalEnv = p.pcEnvironment(e) },
		"shell":             p.readShell,
		"vars":              func(e entry) { p.vars = p.readVars(e) },
		"env_cmds":          p.readEnvCmds,
		"log_length":        func(e entry) { p.plan.Log.MemoryLines, _ = p.count(e) },
		"log_location":      nil,
		"log_level":         nil,
		"log_configuration": nil,
		"log_format":        nil,
		"is_tui_disabled":   nil,
		"extends":           func(entry) {}, // read with the files merged (pcmerge.go)
		"mcp_server":        nil,
	})
	p.plan.Env = p.globalEnv
	if processes == nil {
		p.errorf(top.value, "no processes: key: name the processes to run under processes:")
		return
	}
	p.readProcesses(*processes)
}

// readKnown reads a mapping's entries: a nil reader marks a field jobtop
// does not support (a warning); an unknown key is a warning too, as
// process-compose ignores it, or an error with is_strict: true.
func (p *pcFile) readKnown(path string, entries []entry, fs fields) {
	for _, e := range entries {
		read, known := fs[e.name]
		switch {
		case known && read != nil:
			if e.value != nil {
				read(e)
			}
		case known && asksNothing(e.value):
			// is_daemon: false and the like: process-compose's default,
			// which is what jobtop does.
		case known:
			p.unsupported(e)
		case p.strict:
			p.errorf(e.key, "%s: unknown key %q%s (is_strict is on)", nonEmpty(path, "top level"), e.name, suggest(e.name, fs))
		default:
			p.warn.add(e.key, "unknown "+e.name, fmt.Sprintf("%s: unknown key %q%s, ignored", nonEmpty(path, "top level"), e.name, suggest(e.name, fs)))
		}
	}
}

// unsupported warns about a field jobtop has no counterpart for, saying
// what it does instead.
func (p *pcFile) unsupported(e entry) {
	p.warn.add(e.key, e.name, fmt.Sprintf("%s: not supported, ignored: %s", e.path, pcUnsupported()[e.name]))
}

// asksNothing reports whether an unsupported field's value is false or
// empty: process-compose's default for each of them.
func asksNothing(v ast.Node) bool {
	if isNull(v) {
		return true
	}
	b, isBool := boolValue(v) // false, and YAML 1.1's no, off...
	return isBool && !b
}

func (p *pcFile) readShell(e entry) {
	entries, _ := p.mapping(e)
	p.readKnown(e.path, entries, fields{
		"shell_command": func(e entry) {
			if s, ok := p.text(e); ok && strings.TrimSpace(s) != "" {
				p.shell[0] = s
			}
		},
		"shell_argument": func(e entry) {
			if s, ok := p.text(e); ok {
				p.shell[1] = s
			}
		},
		"elevated_shell_command":  nil,
		"elevated_shell_argument": nil,
	})
}

// pcEnvItem is one environment entry: its name, and its value as written
// (with the entry, for a template's errors).
type pcEnvItem struct {
	name  string
	value textField
}

// pcEnvironment reads environment: a list of NAME=VALUE (or a mapping).
func (p *pcFile) pcEnvironment(e entry) map[string]string {
	items := p.pcEnvItems(e)
	if items == nil {
		return nil
	}
	env := make(map[string]string, len(items))
	for _, it := range items {
		env[it.name] = it.value.text
	}
	return env
}

// pcEnvItems reads environment's entries, in order: a list of NAME=VALUE
// (or a mapping).
func (p *pcFile) pcEnvItems(e entry) []pcEnvItem {
	seq, ok := e.value.(*ast.SequenceNode)
	if !ok {
		env := p.env(e)
		if env == nil {
			return nil
		}
		items := make([]pcEnvItem, 0, len(env))
		for name, v := range env {
			items = append(items, pcEnvItem{name: name, value: textField{e: e, text: v, set: true}})
		}
		sort.Slice(items, func(i, j int) bool { return items[i].name < items[j].name })
		return items
	}
	items := []pcEnvItem{}
	for i, v := range seq.Values {
		item := entry{key: v, value: p.resolve(v), path: cmp.Or(p.origins.itemPath(v), fmt.Sprintf("%s[%d]", e.path, i))}
		s, ok := p.text(item)
		if !ok {
			continue
		}
		name, value, found := strings.Cut(s, "=")
		if !found {
			p.errorf(at(item), "%s: want NAME=VALUE, got %q", item.path, s)
			continue
		}
		if msg := checkEnvName(name); msg != "" {
			p.errorf(at(item), "%s: %s", item.path, msg)
			continue
		}
		items = append(items, pcEnvItem{name: name, value: textField{e: item, text: value, set: true}})
	}
	return items
}

// readVars reads vars: any YAML value, as templates see it in
// process-compose (yaml.v3 decoding into an any). Every var given is
// in the map, so a template never says one is missing; a value with a
// problem (an alias to nothing) is nil there, the problem said once.
func (p *pcFile) readVars(e entry) map[string]any {
	entries, _ := p.mapping(e)
	out := make(map[string]any, len(entries))
	for _, v := range entries {
		out[v.name] = p.anyValue(v.value, v.path, 0)
	}
	return out
}

// maxValueDepth bounds the lists and mappings nested in a var's value.
const maxValueDepth = 32

// anyValue is a node as yaml.v3 decodes it into an any: a string, an
// int (an int64 or uint64 when larger), a float64, a bool, nil, a []any
// or a map[string]any (merge keys expanded).
func (p *pcFile) anyValue(n ast.Node, path string, depth int) any {
	if depth > maxValueDepth {
		p.errorf(n, "%s: nested too deeply", path)
		return nil
	}
	switch t := n.(type) {
	case nil, *ast.NullNode:
		return nil
	case *ast.BoolNode:
		return t.Value
	case *ast.IntegerNode:
		if v, ok := t.Value.(int64); ok && v >= math.MinInt && v <= math.MaxInt {
			return int(v)
		}
		return t.Value
	case *ast.FloatNode:
		return t.Value
	case *ast.InfinityNode:
		return t.Value
	case *ast.NanNode:
		return math.NaN()
	case *ast.SequenceNode:
		out := make([]any, 0, len(t.Values))
		for i, v := range t.Values {
			out = append(out, p.anyValue(p.resolve(v), fmt.Sprintf("%s[%d]", path, i), depth+1))
		}
		return out
	case *ast.MappingNode, *ast.MappingValueNode:
		entries := p.mappingEntries(t, path, 0)
		out := make(map[string]any, len(entries))
		for _, e := range entries {
			out[e.name] = p.anyValue(e.value, e.path, depth+1)
		}
		return out
	}
	s, _ := scalarText(n)
	return s
}

func (p *pcFile) readEnvCmds(e entry) {
	entries, _ := p.mapping(e)
	for _, v := range entries {
		if msg := checkEnvName(v.name); msg != "" {
			p.errorf(v.key, "%s: %s", e.path, msg)
			continue
		}
		if s, ok := p.text(v); ok {
			if p.plan.EnvCommands == nil {
				p.plan.EnvCommands = map[string]string{}
			}
			p.plan.EnvCommands[v.name] = s
		}
	}
}

func (p *pcFile) readProcesses(e entry) {
	entries, ok := p.mapping(e)
	if !ok {
		return
	}
	if len(entries) == 0 {
		p.errorf(e.key, "processes: no processes given")
		return
	}
	entries = p.resolveProcessExtends(entries)
	for _, pe := range entries {
		if msg := checkName(pe.name); msg != "" {
			p.errorf(pe.key, "processes: %s", strings.Replace(msg, "job name", "process name", 1))
			continue
		}
		p.readProcess(pe)
	}
}

// seconds reads a whole number of seconds (also written as a string of
// digits, as a variable expands to).
func (p *pcFile) seconds(e entry) (int, bool) {
	if s, ok := e.value.(*ast.StringNode); ok {
		n, err := strconv.Atoi(strings.TrimSpace(s.Value))
		if err != nil || n < 0 || n > math.MaxInt32 {
			p.errorf(e.value, "%s: want a whole number of seconds, got %q", e.path, s.Value)
			return 0, false
		}
		return n, true
	}
	return p.count(e)
}

// pcName is a process's job name: NAMESPACE/NAME outside the default
// namespace, and NAME-N for replica N of several, N padded with zeros to
// as many digits as the number of replicas has, as process-compose names
// them: replicas: 10 gives NAME-00 to NAME-09.
func pcName(prefix, name string, replica, replicas int) string {
	if replicas > 1 {
		width := len(strconv.Itoa(replicas))
		name = fmt.Sprintf("%s-%0*d", name, width, replica)
	}
	return prefix + name
}

// checkJobNames refuses two processes whose jobs have the same name
// (web with replicas: 2 beside web-0; x in namespace app beside app/x):
// one would replace the other.
func (p *pcFile) checkJobNames() {
	owner := map[string]*pcProcess{}
	for _, proc := range p.procs {
		for _, i := range proc.jobs {
			name := p.plan.Jobs[i].Name
			first, taken := owner[name]
			if !taken {
				owner[name] = proc
				continue
			}
			if first == proc {
				continue
			}
			p.errorf(proc.key, "processes.%s: its job name %q is taken by %s: rename one of them", proc.name, name, first.describe(p.origins.fileOf(first.key)))
		}
	}
}

// describe names a process by where it is (its file, when several are
// merged) and how its jobs' names come about.
func (proc *pcProcess) describe(file string) string {
	what := "process " + proc.name
	var how []string
	if line, _ := position(proc.key); line > 0 && file != "" {
		how = append(how, fmt.Sprintf("%s:%d", file, line))
	} else if line > 0 {
		how = append(how, fmt.Sprintf("line %d", line))
	}
	if ns, ok := strings.CutSuffix(proc.namePrefix, "/"); ok {
		how = append(how, "namespace "+ns)
	}
	if len(proc.jobs) > 1 {
		how = append(how, fmt.Sprintf("%d replicas", len(proc.jobs)))
	}
	if len(how) > 0 {
		what += " (" + strings.Join(how, ", ") + ")"
	}
	return what
}

// resolveDependencies turns each process's depends_on into its jobs'
// DependsOn: a process name stands for all its replicas, NAME-N for one.
func (p *pcFile) resolveDependencies() {
	byName := map[string]*pcProcess{}
	replica := map[string]int{} // job name without prefix -> index
	for _, proc := range p.procs {
		byName[proc.name] = proc
		for _, i := range proc.jobs {
			replica[strings.TrimPrefix(p.plan.Jobs[i].Name, proc.namePrefix)] = i
		}
	}
	names := make([]string, 0, len(byName))
	for n := range byName {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, proc := range p.procs {
		for _, d := range proc.deps {
			var targets []int
			scheduled := false
			if dep, ok := byName[d.name]; ok {
				targets, scheduled = dep.jobs, dep.scheduled
				p.checkCondition(d, dep)
			} else if i, ok := replica[d.name]; ok {
				targets = []int{i}
				scheduled = slices.ContainsFunc(p.procs, func(pp *pcProcess) bool { return pp.scheduled && slices.Contains(pp.jobs, i) })
			} else {
				hint := ""
				if best := closest(d.name, names); best != "" {
					hint = fmt.Sprintf(" (did you mean %q?)", best)
				}
				p.errorf(d.key, "%s: no process is named %q%s", d.path, d.name, hint)
				continue
			}
			for _, own := range proc.jobs {
				job := &p.plan.Jobs[own]
				for _, t := range targets {
					target := p.plan.Jobs[t].Name
					if !p.plan.Jobs[t].Autostart && job.Autostart {
						p.disabledDependency(d, proc.namePrefix+proc.name, target, scheduled)
						continue
					}
					if job.Spec.DependsOn == nil {
						job.Spec.DependsOn = map[string]jobs.Condition{}
					}
					job.Spec.DependsOn[target] = d.cond
					de := d.entry
					de.name = target
					p.deps[job.Name] = append(p.deps[job.Name], dependency{entry: de, cond: d.cond})
				}
			}
		}
	}
}

// disabledDependency reports a job that depends on a disabled one (or a
// scheduled one, which jobtop starts by hand only): as process-compose
// does for a disabled one, it starts without waiting for it (a warning),
// or, with is_strict, the file is refused (as there).
func (p *pcFile) disabledDependency(d pcDep, process, target string, scheduled bool) {
	what, as := "disabled", ", as in process-compose"
	if scheduled {
		what, as = "scheduled (started by hand here)", ""
	}
	if p.strict {
		fix := `enable it (is_disabled: "false"), or leave out this dependency or is_strict`
		if scheduled {
			fix = "leave out this dependency or is_strict"
		}
		p.errorf(d.key, "%s: %s is %s, and is_strict refuses a dependency on it, as process-compose does: %s", d.path, target, what, fix)
		return
	}
	p.warn.add(d.key, "disabled dependency "+d.path+" "+target,
		fmt.Sprintf("%s: %s is %s, so %s starts without waiting for it%s", d.path, target, what, process, as))
}

// checkCondition reports a condition the process depended on can never
// meet: process_log_ready without its ready_log_line, process_healthy
// without its readiness_probe.
func (p *pcFile) checkCondition(d pcDep, dep *pcProcess) {
	switch {
	case d.raw == "process_log_ready" && !dep.readyLog:
		p.errorf(at(d.entry), "%s: process_log_ready waits for %s's ready_log_line, and it has none", d.path, dep.name)
	case d.raw == "process_healthy" && !dep.readyProbe:
		p.errorf(at(d.entry), "%s: process_healthy waits for %s's readiness_probe, and it has none", d.path, dep.name)
	}
}

// workDir resolves a working_dir against the file's directory, warning
// when it does not exist (the job then cannot start, as in
// process-compose).
func (p *pcFile) workDir(e entry, given string) string {
	dir := p.abs(given)
	if d := p.origins.dirOf(e.value); d != "" && !filepath.IsAbs(given) {
		dir = filepath.Join(d, given) // from a file an extends: names: relative to it
	}
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		p.warn.add(e.value, "dir "+dir, fmt.Sprintf("%s: directory %q does not exist: the job will not start", e.path, given))
	}
	return filepath.Clean(dir)
}
