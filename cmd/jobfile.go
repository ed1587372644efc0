package cmd

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"jobtop/control"
	"jobtop/jobfile"
	"jobtop/workspace"
)

// This file holds how an instance (jobtop serve, the TUI) finds and loads
// its job file, and serves reloads of it.

// The flags that choose an instance's job file and how it is read.
const (
	fileFlag      = "file"
	noFileFlag    = "no-file"
	envFileFlag   = "env-file"
	noEnvFileFlag = "no-env-file"
	portFlag      = "port"
	formationFlag = "formation"
)

// addFileFlags adds -f/--file and --no-file, and the flags of
// addLoadFlags, to a command that starts an instance (the TUI, serve).
// They are not persistent flags: -f is logs' --follow.
func addFileFlags(cmd *cobra.Command) {
	cmd.Flags().StringArrayP(fileFlag, "f", nil,
		"run the jobs of job file `FILE` (default: jobtop.yaml, jobtop.yml, a Procfile, process-compose.yml/.yaml or compose.yml/.yaml (with processes:), else mprocs.yaml or mprocs.json, in the current directory, with its override file: the first of compose.override.yml/.yaml and process-compose.override.yml/.yaml beside it); repeat to merge process-compose files in order, later ones winning")
	cmd.Flags().Bool(noFileFlag, false, "run no job file, even if the current directory has one")
	addLoadFlags(cmd)
}

// addLoadFlags adds the flags that change how a job file is read: its env
// files, and a Procfile's ports and formation (foreman's -e, -p, -m).
func addLoadFlags(cmd *cobra.Command) {
	cmd.Flags().StringArrayP(envFileFlag, "e", nil,
		"read variables for every job from env file `FILE` instead of the .env beside the job file (repeatable; later files win)")
	cmd.Flags().Bool(noEnvFileFlag, false, "read no .env file")
	cmd.Flags().VarP(newDecimalInt(new(int), 0), portFlag, "p",
		"Procfile: the first job's PORT (default: PORT from .env or the environment, else 5000); +100 per process type, +1 per instance")
	cmd.Flags().StringP(formationFlag, "m", "",
		"Procfile: how many of each process type to run, e.g. `web=2,worker=1` (all=N: every type not named); instances are named web.1, web.2")
}

// loadOptions reads the flags of addLoadFlags.
func loadOptions(cmd *cobra.Command) (jobfile.LoadOptions, error) {
	var o jobfile.LoadOptions
	o.EnvFiles, _ = cmd.Flags().GetStringArray(envFileFlag)
	o.NoEnvFile, _ = cmd.Flags().GetBool(noEnvFileFlag)
	o.Port, _ = cmd.Flags().GetInt(portFlag)
	o.Formation, _ = cmd.Flags().GetString(formationFlag)
	if o.NoEnvFile && len(o.EnvFiles) > 0 {
		return o, &ExitError{Code: usageExit, Err: errors.New("--env-file and --no-env-file contradict each other: give one")}
	}
	if o.Port == 0 && cmd.Flags().Changed(portFlag) {
		// 0 is the flag's "not given", which takes PORT or 5000: a -p 0
		// given is no port, as -p 70000 is not.
		return o, &ExitError{Code: usageExit, Err: errors.New("--port: 0 is not a port number (1-65535)")}
	}
	return o, nil
}

// loadOptionsGiven says whether a flag of addLoadFlags was given.
func loadOptionsGiven(cmd *cobra.Command) string {
	for _, f := range []string{envFileFlag, noEnvFileFlag, portFlag, formationFlag} {
		if cmd.Flags().Changed(f) {
			return f
		}
	}
	return ""
}

// loadJobFile loads the job file a new instance runs: -f FILE, else the
// first of jobtop.yaml, jobtop.yml and Procfile in the current directory.
// It returns nil when there is none (or --no-file), and an *ExitError
// listing every problem when the file is not valid, before anything
// starts.
func loadJobFile(cmd *cobra.Command) (*jobfile.Plan, error) {
	path, more, err := fileFlagValue(cmd)
	if err != nil {
		return nil, err
	}
	noFile, _ := cmd.Flags().GetBool(noFileFlag)
	opts, err := loadOptions(cmd)
	if err != nil {
		return nil, err
	}
	opts.More = more
	given := loadOptionsGiven(cmd)
	switch {
	case noFile && path != "":
		return nil, &ExitError{Code: usageExit, Err: errors.New("-f and --no-file contradict each other: give one")}
	case noFile && given != "":
		return nil, &ExitError{Code: usageExit, Err: fmt.Errorf("--%s applies to a job file, and --no-file runs none", given)}
	case noFile:
		return nil, nil
	case path == "":
		found, err := jobfile.Find(".")
		if errors.Is(err, jobfile.ErrNotFound) && given == "" {
			return nil, nil
		}
		if err != nil {
			return nil, &ExitError{Code: 1, Err: fmt.Errorf("looking for a job file: %w", err)}
		}
		path, opts.Found = found, true
	}
	plan, err := jobfile.LoadWith(path, opts)
	if flagErr := flagProblems(err); flagErr != nil {
		return nil, flagErr
	}
	if err != nil {
		return nil, &ExitError{Code: 1, Err: jobFileError(path, err, "nothing was started")}
	}
	return plan, nil
}

// jobFileToLoad names the job file loadJobFile loads (absolute), for
// what an instance says while it loads it; "" for none, or when that
// takes the load to tell (loadJobFile says why).
func jobFileToLoad(cmd *cobra.Command) string {
	path, _, err := fileFlagValue(cmd)
	if noFile, _ := cmd.Flags().GetBool(noFileFlag); err != nil || noFile {
		return ""
	}
	if path == "" {
		if path, err = jobfile.Find("."); err != nil {
			return ""
		}
	}
	if abs, err := filepath.Abs(path); err == nil {
		path = abs
	}
	return path
}

// flagProblems is err as a command line that cannot run (exit 2) when
// every problem in it is a flag's (-p 99999, -m web=x), not the file's;
// nil otherwise.
func flagProblems(err error) error {
	var problems jobfile.ErrorList
	if !errors.As(err, &problems) || len(problems) == 0 {
		return nil
	}
	lines := make([]string, len(problems))
	for i, p := range problems {
		if !p.Flag {
			return nil
		}
		lines[i] = p.Error()
	}
	return &ExitError{Code: usageExit, Err: errors.New(strings.Join(lines, "\n"))}
}

// fileFlagValue is the job file -f names, "" for none, and the files of
// any further -f, merged over it in order as process-compose merges its
// -f files (process-compose files only: jobfile refuses the others).
func fileFlagValue(cmd *cobra.Command) (string, []string, error) {
	paths, _ := cmd.Flags().GetStringArray(fileFlag)
	if len(paths) == 0 {
		return "", nil, nil
	}
	for _, p := range paths {
		if p == "" {
			return "", nil, &ExitError{Code: usageExit, Err: errors.New("-f: give a file name")}
		}
	}
	return paths[0], paths[1:], nil
}

// planFiles names a plan's file for messages: its path, or, when it is
// merged from several, every one in merge order joined by " + ".
func planFiles(plan *jobfile.Plan) string {
	if len(plan.Files) < 2 {
		return plan.Path
	}
	return strings.Join(plan.Files, " + ")
}

// printWarnings writes the parts of the file jobtop does not carry out,
// one a line: "FILE:LINE:COL: warning: ...".
func printWarnings(w io.Writer, plan *jobfile.Plan) {
	for _, warning := range warningLines(plan) {
		fmt.Fprintln(w, showLines(warning))
	}
}

// warningLines are the plan's warnings as jobtop check prints them.
func warningLines(plan *jobfile.Plan) []string {
	lines := make([]string, len(plan.Warnings))
	for i, warning := range plan.Warnings {
		lines[i] = warning.Warning()
	}
	return lines
}

// jobFileError says why a job file cannot be used: on one line when it
// could not be read, else a line with the count and every problem under
// it.
func jobFileError(path string, err error, outcome string) error {
	var problems jobfile.ErrorList
	if !errors.As(err, &problems) {
		return fmt.Errorf("job file %w; %s", err, outcome)
	}
	lines := make([]string, len(problems))
	for i, p := range problems {
		lines[i] = p.Error()
	}
	return problemsError(problemsFile(path, problems), lines, outcome)
}

// problemsFile names the file a list of problems is about, for its
// summary line: path, unless the problems are in other files (the
// second file of a merge, an env file), which are then named instead, in
// the order they come.
func problemsFile(path string, problems jobfile.ErrorList) string {
	var files []string
	for _, p := range problems {
		if p.File != "" && !p.Flag && !slices.Contains(files, p.File) {
			files = append(files, p.File)
		}
	}
	if len(files) == 0 || slices.Equal(files, []string{path}) {
		return path
	}
	return strings.Join(files, ", ")
}

// problemsError is "FILE has N problems; OUTCOME:" and the problems, one
// a line, indented.
func problemsError(file string, problems []string, outcome string) error {
	return fmt.Errorf("%s has %s; %s:\n  %s", file, plural(len(problems), "problem"), outcome, strings.Join(problems, "\n  "))
}

// fileReloader serves reloads of an instance's job file (control.Reloader).
type fileReloader struct {
	ws *workspace.Workspace
}

// JobFile is the job file's absolute path.
func (r fileReloader) JobFile() string {
	path := r.ws.Path()
	if abs, err := filepath.Abs(path); err == nil {
		return abs
	}
	return path
}

// JobFiles are the files the job file is merged from, absolute, when
// there are several (control.MergedReloader).
func (r fileReloader) JobFiles() []string {
	return absFiles(r.ws.Files())
}

// absFiles makes a plan's files absolute; nil for one file.
func absFiles(files []string) []string {
	if len(files) < 2 {
		return nil
	}
	out := make([]string, len(files))
	for i, f := range files {
		out[i] = f
		if abs, err := filepath.Abs(f); err == nil {
			out[i] = abs
		}
	}
	return out
}

// FileJobNames are the names of the file's jobs (control.FileJobNamer).
func (r fileReloader) FileJobNames() []string { return r.ws.JobNames() }

// Reload reloads the file; its problems become a *control.ReloadError.
func (r fileReloader) Reload() (control.ReloadResponse, error) {
	res, err := r.ws.Reload()
	var fileErr *workspace.FileError
	if errors.As(err, &fileErr) {
		return control.ReloadResponse{}, &control.ReloadError{Msg: fileErr.Error(), Problems: fileErr.Problems}
	}
	if err != nil {
		return control.ReloadResponse{}, err
	}
	return control.ReloadResponse{
		Summary: res.String(), JobFile: r.JobFile(),
		Added: nonNil(res.Added), Changed: nonNil(res.Changed),
		Removed: nonNil(res.Removed), Unchanged: nonNil(res.Unchanged),
		Enabled: nonNil(res.Enabled), Disabled: nonNil(res.Disabled), Rewired: nonNil(res.Rewired),
		MaxRunning:     res.MaxParallel,
		OptionsChanged: res.OptionsChanged,
		Warnings:       res.Warnings,
	}, nil
}

// nonNil makes an empty list [] rather than null in JSON.
func nonNil(names []string) []string {
	if names == nil {
		return []string{}
	}
	return names
}
