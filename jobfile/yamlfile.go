package jobfile

import (
	"cmp"
	"errors"
	"maps"
	"path/filepath"
	"strings"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"

	"jobtop/jobs"
)

// yamlFile reads one jobtop.yaml, or process-compose file, into a plan.
type yamlFile struct {
	*nodeReader
	dir      string                       // the file's directory, absolute
	opts     LoadOptions                  // from the command line
	envFiles map[string]map[string]string // env files read so far, by absolute path
	baseEnv  map[string]string            // the env files every job gets
	plan     Plan
	deps     map[string][]dependency // by job name
	tty      bool                    // the top-level tty: every job's default
	// expandEnvFiles expands $VAR in env files, as process-compose does.
	expandEnvFiles bool
}

// parseYAML reads a YAML job file held in data; path is the file's name
// as given, dir its directory made absolute. A mapping with processes:
// and no jobs: is a process-compose file.
func parseYAML(path, dir string, data []byte, o LoadOptions) (*Plan, error) {
	body, err := parseDocument(path, data)
	if err != nil {
		return nil, err
	}
	y := &yamlFile{
		nodeReader: newNodeReader(path, body),
		dir:        dir,
		opts:       o,
		envFiles:   map[string]map[string]string{},
		plan:       Plan{Path: path, Format: FormatYAML, Dir: dir},
		deps:       map[string][]dependency{},
	}
	if isProcessCompose(body) || (isMerged(path, body, o) || isComposeFileName(path)) && !hasTopKey(body, "jobs") {
		return parseProcessCompose(y, data)
	}
	if isMprocs(path, body) {
		if len(o.More) > 0 {
			return nil, ErrorList{{File: path, Msg: "is an mprocs file: -f given more than once merges process-compose files only; give one mprocs file"}}
		}
		return parseMprocs(y)
	}
	if len(o.More) > 0 {
		return nil, ErrorList{{File: path, Msg: "is a jobtop.yaml file: -f given more than once merges process-compose files only; give one jobtop.yaml"}}
	}
	y.plan.Files = []string{path}
	y.readTop(body)
	y.plan.Order = y.checkDependencies()
	if err := y.errs.err(); err != nil {
		return nil, err
	}
	return &y.plan, nil
}

// parseDocument parses the single YAML document of a file.
func parseDocument(path string, data []byte) (ast.Node, error) {
	f, err := parser.ParseBytes(data, 0)
	if err != nil {
		return nil, ErrorList{syntaxError(path, err)}
	}
	switch {
	case len(f.Docs) > 1:
		line, col := position(f.Docs[1])
		return nil, ErrorList{{File: path, Line: line, Col: col, Msg: "only one YAML document is allowed; remove the ---"}}
	case len(f.Docs) == 1:
		return f.Docs[0].Body, nil
	}
	return nil, nil
}

// isProcessCompose says whether a document is a process-compose file: a
// top-level mapping with processes: and no jobs:.
// isComposeFileName says whether path is named as process-compose names
// its files (process-compose.yml, process-compose.override.yaml,
// compose.yaml): one without processes: (empty, a typo) is read as
// process-compose's, and says so, not as a jobtop.yaml.
func isComposeFileName(path string) bool {
	base := filepath.Base(path)
	ext := filepath.Ext(base)
	return (ext == ".yml" || ext == ".yaml") && (strings.HasPrefix(base, "process-compose") || isComposeName(base))
}

func isProcessCompose(body ast.Node) bool {
	return hasTopKey(body, "processes") && !hasTopKey(body, "jobs")
}

// syntaxError positions a parser error.
func syntaxError(path string, err error) *Error {
	e := &Error{File: path, Msg: err.Error()}
	var ye yaml.Error
	if errors.As(err, &ye) {
		e.Msg = ye.GetMessage()
		if strings.Contains(e.Msg, "mapping value is not allowed") {
			e.Msg += ` (a value holding ": " must be quoted)`
		}
		if tk := ye.GetToken(); tk != nil && tk.Position != nil {
			e.Line, e.Col = tk.Position.Line, tk.Position.Column
		}
	}
	return e
}

// readTop reads the top level: the options first, since every job uses
// the top-level env, then the jobs.
func (y *yamlFile) readTop(body ast.Node) {
	top := entry{value: y.resolve(body)}
	if isNull(top.value) {
		y.errs = append(y.errs, &Error{File: y.file, Msg: "the file is empty: give a jobs: mapping"})
		return
	}
	if kind(top.value) != "a mapping" {
		y.errorf(top.value, "the top level must be a mapping with a jobs: key, got %s", kind(top.value))
		return
	}
	entries := y.mappingEntries(top.value, "", 0)
	var jobsEntry *entry
	var topEnvFile map[string]string
	hasEnvFile := false
	fs := fields{
		"jobs":         func(e entry) { jobsEntry = &e },
		"max_parallel": func(e entry) { y.plan.MaxParallel, _ = y.count(e) },
		"env":          func(e entry) { y.plan.Env = y.env(e) },
		"env_file": func(e entry) {
			hasEnvFile = true
			topEnvFile = y.readEnvFiles(e)
			y.plan.EnvFiles = append(y.plan.EnvFiles, y.envFileNames(e)...)
		},
		"log": y.readLog,
		"tty": func(e entry) { y.tty, _ = y.bool(e) },
	}
	var known []entry
	for _, e := range entries {
		if !strings.HasPrefix(e.name, "x-") {
			known = append(known, e)
		}
	}
	y.readFields("", known, fs)
	dotenv := y.opts.defaultEnv(y.dir, hasEnvFile, false)
	y.errs = append(y.errs, dotenv.errs...)
	y.plan.EnvFiles = append(dotenv.files, y.plan.EnvFiles...)
	y.baseEnv = mergeEnv(dotenv.env, topEnvFile)
	if jobsEntry == nil {
		y.errorf(top.value, "no jobs: key: name the jobs to run under jobs:")
		return
	}
	y.readJobs(*jobsEntry)
}

func (y *yamlFile) readLog(e entry) {
	entries, _ := y.mapping(e)
	y.readFields(e.path, entries, fields{
		"dir": func(e entry) {
			if s, ok := y.text(e); ok {
				y.plan.Log.Dir = y.abs(s)
			}
		},
		"max_size": func(e entry) {
			if n, ok := y.size(e); ok && n < jobs.MinLogCap {
				y.errorf(at(e), "%s: at least 4KiB (room for the log's own marker lines), got %s", e.path, strings.TrimSpace(e.value.String()))
			} else if ok {
				y.plan.Log.MaxSize = n
			}
		},
		"memory_lines": func(e entry) { y.plan.Log.MemoryLines, _ = y.count(e) },
		// 0 means no limit, as restart's max does.
		"keep_sessions": func(e entry) {
			if n, ok := y.count(e); ok {
				y.plan.Log.KeepSessions = cmp.Or(n, -1)
			}
		},
		"max_total": func(e entry) {
			if n, ok := y.size(e); ok {
				y.plan.Log.MaxTotal = cmp.Or(n, -1)
			}
		},
	})
}

func (y *yamlFile) readJobs(e entry) {
	entries, ok := y.mapping(e)
	if !ok {
		return
	}
	if len(entries) == 0 {
		y.errorf(e.key, "jobs: no jobs given")
		return
	}
	for _, je := range entries {
		if msg := checkName(je.name); msg != "" {
			y.errorf(je.key, "jobs: %s", msg)
		}
		job := y.readJob(je)
		y.plan.Jobs = append(y.plan.Jobs, job)
	}
}

// env reads a mapping of variable names to values.
func (y *yamlFile) env(e entry) map[string]string {
	entries, _ := y.mapping(e)
	if len(entries) == 0 {
		return nil
	}
	env := make(map[string]string, len(entries))
	for _, v := range entries {
		if msg := checkEnvName(v.name); msg != "" {
			y.errorf(v.key, "%s: %s", e.path, msg)
			continue
		}
		if isNull(v.value) {
			env[v.name] = ""
			continue
		}
		if s, ok := y.text(v); ok {
			env[v.name] = s
		}
	}
	return env
}

// abs makes a path from the file absolute, relative to the file's
// directory.
func (y *yamlFile) abs(p string) string {
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(y.dir, p)
}

// display is how a path from the file is shown in messages: relative to
// the job file as it was given, so a person can open it.
func (y *yamlFile) display(p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(filepath.Dir(y.file), p)
}

// mergeEnv layers environment maps, later ones winning; nil when all are
// empty.
func mergeEnv(layers ...map[string]string) map[string]string {
	var out map[string]string
	for _, l := range layers {
		if len(l) == 0 {
			continue
		}
		if out == nil {
			out = map[string]string{}
		}
		maps.Copy(out, l)
	}
	return out
}
