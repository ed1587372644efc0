package jobfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"jobtop/jobs"
)

// maxFileSize bounds a job file; anything larger is surely not one.
const maxFileSize = 4 << 20

// jobFileReadError is the error of reading the job file at path: one
// over maxFileSize also says that it is the limit and what to do (the
// README's Job files section says the same).
func jobFileReadError(path string, err error) error {
	var big *fileTooLargeError
	if !errors.As(err, &big) {
		return errors.New(path + " " + err.Error())
	}
	hint := "keep long scripts in files the jobs run (cmd: ./start.sh) and long environments in env_file files"
	switch base := strings.ToLower(filepath.Base(path)); {
	case IsProcfile(path):
		hint = "keep long commands in scripts its lines run (web: ./start-web.sh)"
	case strings.HasPrefix(base, "mprocs"):
		hint = "keep long scripts in files the procs run (shell: ./start.sh)"
	case strings.Contains(base, "compose"):
		hint = "split it into files merged with -f (jobtop -f base.yaml -f more.yaml) or extends:, and keep long scripts in files the processes run"
	}
	return fmt.Errorf("%s %v, the limit of a job file: %s", path, err, hint)
}

// fileNames are the names Find looks for, in order (process-compose's own
// order for its files, its compose.yml and compose.yaml after them: a
// Docker Compose file has those names too, so they count only with a
// top-level processes: key; then mprocs' own, in its order: a directory
// that has another job file beside its mprocs.yaml runs what it ran before
// jobtop read mprocs files).
var fileNames = []string{"jobtop.yaml", "jobtop.yml", "Procfile", "process-compose.yml", "process-compose.yaml", "compose.yml", "compose.yaml", "mprocs.yaml", "mprocs.json"}

// ErrNotFound is returned by Find when a directory holds no job file.
var ErrNotFound = errors.New("no job file")

// Find returns the job file in dir: jobtop.yaml, else jobtop.yml, else
// Procfile, else process-compose.yml, else process-compose.yaml, else
// compose.yml or compose.yaml that has processes:, else mprocs.yaml, else
// mprocs.json. It returns an error wrapping ErrNotFound when there is
// none.
func Find(dir string) (string, error) {
	found, _, err := candidates(dir, true)
	return found, err
}

// candidates finds the job files in dir, in Find's order: the first, and
// with all, the others too (which Find passes over).
func candidates(dir string, first bool) (found string, others []string, err error) {
	looked := make([]string, 0, len(fileNames))
	for _, name := range fileNames {
		path := filepath.Join(dir, name)
		st, err := os.Stat(path)
		switch {
		case err == nil && st.Mode().IsRegular() && (!isComposeName(name) || hasProcesses(path)):
			if found == "" {
				found = path
				if first {
					return found, nil, nil
				}
			} else {
				others = append(others, name)
			}
			continue
		case err == nil && st.Mode().IsRegular(): // Docker Compose's
			name += " (no processes:)"
		case err == nil: // a directory, say: no job file, and said so
			name += " (" + fileKind(st.Mode()) + ", not a file)"
		case !errors.Is(err, fs.ErrNotExist):
			return "", nil, err
		}
		looked = append(looked, name)
	}
	if found == "" {
		return "", nil, fmt.Errorf("%w in %s: looked for %s", ErrNotFound, dir, strings.Join(looked, ", "))
	}
	return found, others, nil
}

// isComposeName says whether name is process-compose's compose.yml or
// compose.yaml, which Docker Compose's files are named too.
func isComposeName(name string) bool { return name == "compose.yml" || name == "compose.yaml" }

// hasProcesses says whether the YAML file at path has a top-level
// processes: key (as a line of its own: no parse for a look).
func hasProcesses(path string) bool {
	data, err := readSmallFile(path, maxFileSize)
	if err != nil {
		return false
	}
	for _, line := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(line, "processes:") {
			return true
		}
	}
	return false
}

// passedOver is the warning, for a job file Find found, that names the
// other job files in its directory, which do not run.
func passedOver(path string) *Error {
	_, others, err := candidates(filepath.Dir(path), false)
	if err != nil || len(others) == 0 {
		return nil
	}
	return &Error{File: path, Msg: fmt.Sprintf("is the job file that runs; also here, and not run: %s (jobtop takes the first of %s, then of %s with processes:, then of %s; -f names another)",
		strings.Join(others, ", "), strings.Join(fileNames[:5], ", "), strings.Join(fileNames[5:7], ", "), strings.Join(fileNames[7:], ", "))}
}

// writableByOthers warns of a file that runs without being asked for
// (the job file found in a directory, the .env beside it) when it is
// another user's (not root's) or others may write it (jobs.OthersMayWrite:
// a group of the owner's own does not count): whoever
// can write it runs commands as this user. A warning, not a refusal: a
// shared project directory can be so on purpose.
func writableByOthers(path string) *Error {
	st, err := os.Stat(path)
	if err != nil {
		return nil
	}
	name := filepath.Base(path)
	const runs = ": anyone who can write it runs commands as you"
	if sys, ok := st.Sys().(*syscall.Stat_t); ok && sys.Uid != 0 && int(sys.Uid) != os.Getuid() {
		return &Error{File: path, Msg: fmt.Sprintf("%s belongs to %s, not to you%s", name, jobs.UIDName(int(sys.Uid)), runs)}
	}
	if jobs.OthersMayWrite(st) {
		return &Error{File: path, Msg: fmt.Sprintf("%s is writable by others (mode %04o)%s", name, st.Mode().Perm(), runs)}
	}
	return nil
}

// fileKind names what a path that is no regular file is.
func fileKind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device"
	}
	return "something else"
}

// Load reads and validates the job file at path, used as given: a file
// named Procfile, Procfile.* or *.procfile is read as a Procfile; a YAML
// file with a top-level processes: key and no jobs: key as a
// process-compose file; one named mprocs.yaml, mprocs.yml or mprocs.json,
// or with procs: and neither jobs: nor processes:, as an mprocs config;
// any other as a jobtop.yaml. When the file is not
// valid the error is an ErrorList with every problem found.
func Load(path string) (*Plan, error) { return LoadWith(path, LoadOptions{}) }

// Parse is Load for a file whose content is already read. path still
// decides the format, the directory relative paths start from, and the
// name errors show; env files and directories are still read from disk.
func Parse(path string, data []byte) (*Plan, error) { return ParseWith(path, data, LoadOptions{}) }

// ParseWith is Parse with options from the command line.
func ParseWith(path string, data []byte, o LoadOptions) (*Plan, error) {
	dir, err := filepath.Abs(filepath.Dir(path))
	if err != nil {
		return nil, err
	}
	data = withoutBOM(data)
	var plan *Plan
	switch {
	case IsProcfile(path) && len(o.More) > 0:
		return nil, ErrorList{{File: path, Msg: "is a Procfile: -f given more than once merges process-compose files only; give one Procfile"}}
	case IsProcfile(path):
		plan, err = parseProcfile(path, dir, data, o)
	default:
		plan, err = parseYAML(path, dir, data, o)
	}
	if err != nil {
		return nil, err
	}
	if o.Formation != "" && plan.Format != FormatProcfile {
		return nil, ErrorList{{File: "--formation", Flag: true, Msg: "applies to a Procfile only; " + path + " is not one"}}
	}
	if o.Port != 0 && plan.Format != FormatProcfile {
		return nil, ErrorList{{File: "--port", Flag: true, Msg: "applies to a Procfile only; " + path + " is not one"}}
	}
	plan.Options = o
	if o.Found {
		if w := passedOver(path); w != nil {
			plan.Warnings = append(plan.Warnings, w)
		}
		unguarded := []string{path}
		if env := filepath.Join(dir, DefaultEnvFile); slices.Contains(plan.EnvFiles, shownPath(env)) {
			unguarded = append(unguarded, env)
		}
		for _, f := range unguarded {
			if w := writableByOthers(f); w != nil {
				plan.Warnings = append(plan.Warnings, w)
				plan.Unguarded = append(plan.Unguarded, w.Msg)
			}
		}
	}
	plan.Warnings = plan.Warnings.sorted()
	return plan, nil
}

// isJobtopName says whether a path is named as a jobtop.yaml is
// (jobtop.yaml, jobtop.yml): such a file is read as a process-compose
// file only when its content is one (processes: and no jobs:), and is
// never merged with another.
func isJobtopName(path string) bool {
	base := filepath.Base(path)
	return base == "jobtop.yaml" || base == "jobtop.yml"
}

// IsProcfile reports whether a path names a Procfile: Procfile,
// Procfile.dev, web.procfile.
func IsProcfile(path string) bool {
	base := filepath.Base(path)
	return base == "Procfile" || strings.HasPrefix(base, "Procfile.") || strings.HasSuffix(strings.ToLower(base), ".procfile")
}
