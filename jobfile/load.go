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

// fileNames are the names Find looks for, in order.
var fileNames = []string{"jobtop.yaml", "jobtop.yml", "Procfile"}

// ErrNotFound is returned by Find when a directory holds no job file.
var ErrNotFound = errors.New("no job file")

// Find returns the job file in dir: jobtop.yaml, else jobtop.yml, else
// Procfile. It returns an error wrapping ErrNotFound when there is none.
func Find(dir string) (string, error) {
	for _, name := range fileNames {
		path := filepath.Join(dir, name)
		st, err := os.Stat(path)
		switch {
		case err == nil && st.Mode().IsRegular():
			return path, nil
		case err != nil && !errors.Is(err, fs.ErrNotExist):
			return "", err
		}
	}
	return "", fmt.Errorf("%w in %s: looked for %s", ErrNotFound, dir, strings.Join(fileNames, ", "))
}

// Load reads and validates the job file at path, used as given: a file
// named Procfile, Procfile.* or *.procfile is read as a Procfile, any
// other as YAML. When the file is not valid the error is an ErrorList with
// every problem found.
func Load(path string) (*Plan, error) {
	data, err := readSmallFile(path, maxFileSize)
	if err != nil {
		return nil, fmt.Errorf("%s %w", path, err)
	}
	return Parse(path, data)
}

// Parse is Load for a file whose content is already read. path still
// decides the format, the directory relative paths start from, and the
// name errors show; env files and directories are still read from disk.
func Parse(path string, data []byte) (*Plan, error) {
	dir, err := filepath.Abs(filepath.Dir(path))
	if err != nil {
		return nil, err
	}
	if IsProcfile(path) {
		return parseProcfile(path, dir, data)
	}
	return parseYAML(path, dir, data)
}

// IsProcfile reports whether a path names a Procfile: Procfile,
// Procfile.dev, web.procfile.
func IsProcfile(path string) bool {
	base := filepath.Base(path)
	return base == "Procfile" || strings.HasPrefix(base, "Procfile.") || strings.HasSuffix(strings.ToLower(base), ".procfile")
}
