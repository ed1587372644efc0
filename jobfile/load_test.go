package jobfile

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestFind(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		want  string
	}{
		{"yaml first", map[string]string{"jobtop.yaml": "", "jobtop.yml": "", "Procfile": ""}, "jobtop.yaml"},
		{"then yml", map[string]string{"jobtop.yml": "", "Procfile": ""}, "jobtop.yml"},
		{"then Procfile", map[string]string{"Procfile": "", "Procfile.dev": ""}, "Procfile"},
		{"a directory is not a file", map[string]string{"jobtop.yaml/": "", "Procfile": ""}, "Procfile"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := inDir(t, tt.files)
			got, err := Find(dir)
			require.NoError(t, err)
			require.Equal(t, filepath.Join(dir, tt.want), got)
		})
	}
	t.Run("none", func(t *testing.T) {
		dir := inDir(t, map[string]string{"Procfile.dev": "", "jobtop.json": ""})
		_, err := Find(dir)
		require.ErrorIs(t, err, ErrNotFound)
		require.EqualError(t, err, "no job file in "+dir+": looked for jobtop.yaml, jobtop.yml, Procfile, process-compose.yml, process-compose.yaml, compose.yml, compose.yaml, mprocs.yaml, mprocs.json")
	})
	t.Run("none, but a directory has a job file's name", func(t *testing.T) {
		dir := inDir(t, map[string]string{"jobtop.yaml/": "", "Procfile/": ""})
		_, err := Find(dir)
		require.ErrorIs(t, err, ErrNotFound)
		require.EqualError(t, err, "no job file in "+dir+": looked for jobtop.yaml (a directory, not a file), jobtop.yml, Procfile (a directory, not a file), process-compose.yml, process-compose.yaml, compose.yml, compose.yaml, mprocs.yaml, mprocs.json")
	})
	// process-compose's compose.yml and compose.yaml, when they are its:
	// Docker Compose's files have the same names.
	t.Run("compose.yaml with processes", func(t *testing.T) {
		dir := inDir(t, map[string]string{"compose.yaml": "version: \"0.5\"\nprocesses:\n  web:\n    command: sleep 1\n"})
		got, err := Find(dir)
		require.NoError(t, err)
		require.Equal(t, filepath.Join(dir, "compose.yaml"), got)
	})
	t.Run("Docker Compose's compose.yaml", func(t *testing.T) {
		dir := inDir(t, map[string]string{"compose.yaml": "services:\n  db:\n    image: postgres\n"})
		_, err := Find(dir)
		require.ErrorIs(t, err, ErrNotFound)
		require.ErrorContains(t, err, ", compose.yml, compose.yaml (no processes:)")
	})
}

// A job file found in a directory that holds others says which do not
// run: a Heroku Procfile beside a process-compose.yaml for development
// silently ran the Procfile.
func TestAFoundFileNamesTheOthersThatDoNotRun(t *testing.T) {
	dir := inDir(t, map[string]string{
		"Procfile":             "web: echo hi\n",
		"process-compose.yaml": "processes:\n  web:\n    command: echo hi\n",
		"process-compose.yml":  "processes:\n  web:\n    command: echo hi\n",
		"compose.yaml":         "services:\n  db:\n    image: postgres\n",
	})
	found, err := Find(dir)
	require.NoError(t, err)
	plan, err := LoadWith(found, LoadOptions{Found: true, NoEnvFile: true})
	require.NoError(t, err)
	require.Len(t, plan.Warnings, 1)
	require.Equal(t, found+": warning: is the job file that runs; also here, and not run: process-compose.yml, process-compose.yaml (jobtop takes the first of jobtop.yaml, jobtop.yml, Procfile, process-compose.yml, process-compose.yaml, then of compose.yml, compose.yaml with processes:, then of mprocs.yaml, mprocs.json; -f names another)", plan.Warnings[0].Warning())
	plan, err = LoadWith(found, LoadOptions{NoEnvFile: true})
	require.NoError(t, err)
	require.Empty(t, plan.Warnings, "a file named with -f: nothing to say")
}

func TestLoadPicksTheFormatByName(t *testing.T) {
	procfile := "web: echo hi\n"
	yaml := "jobs:\n  web:\n    cmd: echo hi\n"
	inDir(t, map[string]string{
		"Procfile": procfile, "Procfile.dev": procfile, "dev.procfile": procfile,
		"jobtop.yaml": yaml, "other.yml": yaml, "jobs.txt": yaml,
	})
	for name, want := range map[string]Format{
		"Procfile": FormatProcfile, "Procfile.dev": FormatProcfile, "dev.procfile": FormatProcfile,
		"jobtop.yaml": FormatYAML, "other.yml": FormatYAML, "jobs.txt": FormatYAML,
	} {
		plan, err := Load(name)
		require.NoError(t, err, name)
		require.Equal(t, want, plan.Format, name)
		require.Equal(t, "echo hi", plan.Jobs[0].Spec.Command, name)
	}
}

func TestLoadMissingOrNotAFile(t *testing.T) {
	inDir(t, map[string]string{"adir/": ""})
	_, err := Load("nope.yaml")
	require.EqualError(t, err, "nope.yaml does not exist")
	_, err = Load("adir")
	require.EqualError(t, err, "adir is not a regular file")
	var list ErrorList
	require.False(t, errors.As(err, &list), "a file that cannot be read is not a list of problems in it")
}

// A job file over the limit says the limit and what to do: a 4 MiB file
// said only that it was larger.
func TestLoadTooLargeSaysWhatToDo(t *testing.T) {
	big := "# " + strings.Repeat("x", 4<<20) + "\n"
	inDir(t, map[string]string{"jobtop.yaml": big, "process-compose.yaml": big})
	_, err := Load("jobtop.yaml")
	require.EqualError(t, err, "jobtop.yaml is larger than 4 MiB, the limit of a job file: "+
		"keep long scripts in files the jobs run (cmd: ./start.sh) and long environments in env_file files")
	_, err = Load("process-compose.yaml")
	require.EqualError(t, err, "process-compose.yaml is larger than 4 MiB, the limit of a job file: "+
		"split it into files merged with -f (jobtop -f base.yaml -f more.yaml) or extends:, and keep long scripts in files the processes run")
}

// TestExamplesLoad keeps the shipped examples valid.
func TestExamplesLoad(t *testing.T) {
	for path, want := range map[string][]string{
		"../testdata/webapp/jobtop.yaml":   {"db", "migrate", "worker", "web", "seed"},
		"../testdata/monorepo/jobtop.yaml": {"lib", "api", "web", "lint", "test-api", "e2e", "watch"},
		"../testdata/procfile/Procfile":    {"web", "worker", "clock"},
	} {
		plan, err := Load(path)
		require.NoError(t, err, path)
		require.Equal(t, want, plan.Order, path)
		for _, j := range plan.Jobs {
			require.NoError(t, j.Spec.Validate(), "%s: %s", path, j.Name)
			st, err := os.Stat(j.Spec.Dir)
			require.NoError(t, err)
			require.True(t, st.IsDir())
		}
	}
}
