package jobfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// maxFileSize bounds a job file; anything larger is surely not one.
const maxFileSize = 4 << 20

// fileNames are the names Find looks for, in order (process-compose's own
// order for its files).
var fileNames = []string{"jobtop.yaml", "jobtop.yml", "Procfile", "process-compose.yml", "process-compose.yaml"}

// ErrNotFound is returned by Find when a directory holds no job file.
var ErrNotFound = errors.New("no job file")

// Find returns the job file in dir: jobtop.yaml, else jobtop.yml, else
// Procfile, else process-compose.yml, else process-compose.yaml. It
// returns an error wrapping ErrNotFound when there is none.
func Find(dir string) (string, error) {
	looked := make([]string, 0, len(fileNames))
	for _, name := range fileNames {
		path := filepath.Join(dir, name)
		st, err := os.Stat(path)
		switch {
		case err == nil && st.Mode().IsRegular():
			return path, nil
		case err == nil: // a directory, say: no job file, and said so
			name += " (" + fileKind(st.Mode()) + ", not a file)"
		case !errors.Is(err, fs.ErrNotExist):
			return "", err
		}
		looked = append(looked, name)
	}
	return "", fmt.Errorf("%w in %s: looked for %s", ErrNotFound, dir, strings.Join(looked, ", "))
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
// process-compose file; any other as a jobtop.yaml. When the file is not
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
