package jobfile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
)

// DefaultEnvFile is the env file read beside a job file unless told
// otherwise, as foreman, honcho and process-compose do.
const DefaultEnvFile = ".env"

// LoadOptions are what the command line adds to a job file. The zero
// value loads the file as it is, with its default env file.
type LoadOptions struct {
	// EnvFiles replace the default env file (.env beside the job file),
	// later ones winning. Relative paths are relative to the current
	// directory; each must exist.
	EnvFiles []string
	// NoEnvFile reads no default env file (nor EnvFiles).
	NoEnvFile bool
	// Port is the first PORT of a Procfile's jobs; 0 takes PORT from the
	// env files, else from the environment, else 5000.
	Port int
	// Formation says how many of each Procfile process type run:
	// "web=2,worker=1"; "all=N" for the types not named. "" runs one of
	// each.
	Formation string
	// Found says the file was found in its directory (Find), not named:
	// an override file beside a process-compose file
	// (process-compose.override.yml, ...) is then merged over it, as
	// process-compose does, and an mprocs config's procs run in its
	// directory (named, they run in the current one, as mprocs --config
	// runs them).
	Found bool
	// More are further process-compose files merged over the file, in
	// order (-f given more than once), later ones winning.
	More []string
}

// LoadWith is Load with options from the command line. The plan keeps
// them (Plan.Options), so a reload reads the file the same way.
func LoadWith(path string, o LoadOptions) (*Plan, error) {
	data, err := readSmallFile(path, maxFileSize)
	if err != nil {
		return nil, jobFileReadError(path, err)
	}
	return ParseWith(path, data, o)
}

// envLayer is the env files read for every job of a file.
type envLayer struct {
	env    map[string]string
	files  []string // as shown to people
	errs   ErrorList
	expand bool // expand $VAR references, as process-compose's godotenv
}

// defaultEnv reads the env files every job gets: the -e files, else the
// default .env in dir when it exists and the job file names none of its
// own (fileHasOwn). With expand, $VAR references in them are expanded as
// godotenv does (see parseEnvFile).
func (o LoadOptions) defaultEnv(dir string, fileHasOwn, expand bool) envLayer {
	l := envLayer{expand: expand}
	switch {
	case o.NoEnvFile:
		return l
	case len(o.EnvFiles) > 0:
		var layers []map[string]string
		for _, f := range o.EnvFiles {
			abs, err := filepath.Abs(f)
			if err != nil {
				l.errs = append(l.errs, &Error{File: f, Msg: err.Error()})
				continue
			}
			layers = append(layers, l.read(f, abs))
		}
		l.env = mergeEnv(layers...)
	case !fileHasOwn:
		path := filepath.Join(dir, DefaultEnvFile)
		if st, err := os.Stat(path); err != nil || !st.Mode().IsRegular() {
			if err != nil && !errors.Is(err, fs.ErrNotExist) {
				l.errs = append(l.errs, &Error{File: path, Msg: err.Error()})
			}
			return l
		}
		l.env = l.read(shownPath(path), path)
	}
	return l
}

func (l *envLayer) read(shown, abs string) map[string]string {
	data, err := readSmallFile(abs, maxEnvFileSize)
	if err != nil {
		l.errs = append(l.errs, &Error{File: shown, Msg: "env file " + err.Error()})
		return nil
	}
	env, errs := parseEnvFile(shown, data, l.expand)
	l.errs = append(l.errs, errs...)
	l.files = append(l.files, shown)
	return env
}

// shownPath is a path as people read it: relative to the current
// directory when it is below it.
func shownPath(abs string) string {
	wd, err := os.Getwd()
	if err != nil {
		return abs
	}
	if rel, err := filepath.Rel(wd, abs); err == nil && filepath.IsLocal(rel) {
		return rel
	}
	return abs
}
