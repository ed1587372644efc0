package jobfile

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/goccy/go-yaml/ast"
)

// warnings collects the parts of a file jobtop does not carry out: one
// warning per field and reason, at the first place it is used, naming the
// other lines it is on.
type warnings struct {
	file    string
	origins *pcOrigins // the files of a merged file, when it is several
	order   []string
	first   map[string]*Error
	more    map[string][]string
}

func newWarnings(file string) *warnings {
	return &warnings{file: file, first: map[string]*Error{}, more: map[string][]string{}}
}

// add records a warning about the field at n. group is what makes two
// warnings the same (e.g. "is_tty"), msg what is said the first time.
func (w *warnings) add(n ast.Node, group, msg string) {
	line, col := position(n)
	w.addAtFile(cmp.Or(w.origins.fileOf(n), w.file), line, col, group, msg)
}

func (w *warnings) addAt(line, col int, group, msg string) {
	w.addAtFile(w.file, line, col, group, msg)
}

// addAtFile records a warning at a line of one of the files merged.
func (w *warnings) addAtFile(file string, line, col int, group, msg string) {
	if first, seen := w.first[group]; seen {
		place := strconv.Itoa(line)
		if file != first.File {
			place = file + ":" + place
		}
		// A field a process inherits (a process-level extends) is read
		// once more at the same place: said once.
		if (file == first.File && line == first.Line) || slices.Contains(w.more[group], place) {
			return
		}
		w.more[group] = append(w.more[group], place)
		return
	}
	w.order = append(w.order, group)
	w.first[group] = &Error{File: file, Line: line, Col: col, Msg: msg}
}

// list is the warnings in file order.
func (w *warnings) list() ErrorList {
	var out ErrorList
	for _, g := range w.order {
		e := *w.first[g]
		if more := alsoAt(w.more[g]); more != "" {
			e.Msg += " (" + more + ")"
		}
		out = append(out, &e)
	}
	return out.sorted()
}

// alsoAt says where else a warning applies: "also on lines 5, 9" in the
// first place's file, "also at b.yml:5" in another file of a merge.
func alsoAt(places []string) string {
	var lines, elsewhere []string
	for _, pl := range places {
		if strings.Contains(pl, ":") {
			elsewhere = append(elsewhere, pl)
		} else {
			lines = append(lines, pl)
		}
	}
	var parts []string
	if len(lines) > 0 {
		parts = append(parts, fmt.Sprintf("also on line%s %s", plural(len(lines)), strings.Join(lines, ", ")))
	}
	if len(elsewhere) > 0 {
		at := "also at "
		if len(lines) > 0 {
			at = "and at "
		}
		parts = append(parts, at+strings.Join(elsewhere, ", "))
	}
	return strings.Join(parts, ", ")
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// pcUnsupported says, for each process-compose field jobtop has no
// counterpart for, what jobtop does instead. The field is ignored, with a
// warning; the rest of the file runs.
var pcUnsupported = sync.OnceValue(func() map[string]string {
	return map[string]string{
		// top level
		"log_location":      "jobtop writes each job's output to its own log file (see jobtop ls --json: log_path); for one file of every job's output, as process-compose writes there, run jobtop logs --all -f >> FILE",
		"log_level":         "jobtop has no log level of its own",
		"log_configuration": "jobtop keeps each job's output as it is, in memory and in its log file",
		"log_format":        "jobtop keeps each job's output as it is, in memory and in its log file",
		"is_tui_disabled":   "run jobtop serve for no TUI",
		"mcp_server":        "jobtop has its own agent API (jobtop run, ls, logs, wait)",
		// processes
		"is_daemon":                 "jobtop treats a job as ended when its command exits (and stops what it left): run the program in the foreground instead (docker run without -d, postgres rather than pg_ctl start), with shutdown.command if it needs one to stop",
		"disable_ansi_colors":       "jobtop keeps colours and strips other escape sequences",
		"is_foreground":             "jobtop runs every job in the background and shows its output",
		"is_elevated":               "run jobtop itself with the rights the job needs",
		"launch_timeout_seconds":    "jobtop reads a job's output until its processes are gone",
		"watch":                     "jobtop does not watch files; reload with R or jobtop reload",
		"mcp":                       "jobtop has its own agent API (jobtop run, ls, logs, wait)",
		"truncate_log":              "jobtop starts a new log file per session",
		"monitor_for":               "jobtop marks jobs whose output arrived unseen in its table",
		"monitor_silence_threshold": "jobtop marks jobs whose output arrived unseen in its table",
		"name":                      "the job is named by its key under processes",
		"replica_num":               "set by process-compose itself",
		"replica_name":              "set by process-compose itself",
		"executable":                "set by process-compose itself; use command or entrypoint",
		"args":                      "set by process-compose itself; use command or entrypoint",
		"original_config":           "set by process-compose itself",
		// availability, shutdown, probes
		"parent_only":             "jobtop signals the job's whole process tree",
		"send_keys":               "jobtop does not type keys to stop a job: it sends the stop signal (or runs shutdown.command) instead",
		"success_threshold":       "one passing check counts (process-compose does not use it either)",
		"elevated_shell_command":  "jobtop runs no elevated jobs",
		"elevated_shell_argument": "jobtop runs no elevated jobs",
	}
})
