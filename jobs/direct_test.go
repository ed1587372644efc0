package jobs

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestDirectArgv(t *testing.T) {
	for _, tc := range []struct {
		command string
		want    []string // nil: through the shell
	}{
		{"sleep 300", []string{"sleep", "300"}},
		{"exec sleep 300", []string{"sleep", "300"}},
		{"  npm\trun   dev ", []string{"npm", "run", "dev"}},
		{"go test -run=TestX ./... -count=1", []string{"go", "test", "-run=TestX", "./...", "-count=1"}},
		{"./bin/server --port=8080 user@host a,b +x 50%", []string{"./bin/server", "--port=8080", "user@host", "a,b", "+x", "50%"}},
		{"exec echo hi", []string{"echo", "hi"}}, // exec runs /bin/echo, never the builtin
		{"/bin/echo hi", []string{"/bin/echo", "hi"}},
		{"echo hi", nil},   // a builtin
		{"cd /tmp", nil},   // a builtin
		{"true", nil},      // a builtin
		{". ./env", nil},   // a builtin
		{"if x", nil},      // a reserved word
		{"FOO=1 env", nil}, // an assignment
		{"exec -a x sleep", nil},
		{"exec", nil},
		{"", nil},
		{"   ", nil},
		{"sleep 1; sleep 2", nil},
		{"sleep 1 && x", nil},
		{"a | b", nil},
		{"a > f", nil},
		{"a < f", nil},
		{"echo $HOME", nil},
		{"ls *.go", nil},
		{"ls file?", nil},
		{"ls [ab]", nil},
		{"ls ~", nil},
		{"x 'quoted arg'", nil},
		{`x "quoted"`, nil},
		{`x a\ b`, nil},
		{"x # comment", nil},
		{"x &", nil},
		{"(x)", nil},
		{"{ x; }", nil},
		{"x `y`", nil},
		{"x\ny", nil},
		{"x !y", nil},
		{"prögram", nil},
	} {
		got, ok := directArgv(tc.command)
		assert.Equal(t, tc.want != nil, ok, "%q", tc.command)
		assert.Equal(t, tc.want, got, "%q", tc.command)
	}
}

// mainComm is the name of the job's main process (Linux).
func mainComm(t *testing.T, pid int) string {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/comm", pid))
	require.NoError(t, err)
	return strings.TrimSpace(string(b))
}

func TestASimpleCommandRunsItsProgramWithoutTheShell(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc")
	}
	m := newManager(t, Options{})
	bin := t.TempDir()
	tool := filepath.Join(bin, "mytool")
	require.NoError(t, os.WriteFile(tool, []byte("#!/bin/sh\nsleep 300\n"), 0o755))
	for _, tc := range []struct {
		spec Spec
		comm string
	}{
		{Spec{Command: "sleep 300"}, "sleep"},
		{Spec{Command: "exec sleep 300"}, "sleep"},
		// Found in the PATH the job is given, not jobtop's.
		{Spec{Command: "mytool --flag", Env: map[string]string{"PATH": bin + ":" + os.Getenv("PATH")}}, "mytool"},
		{Spec{Command: "./mytool", Dir: bin}, "mytool"},
		// Shell syntax: the shell runs it.
		{Spec{Command: "sleep 300; true"}, "sh"},
		{Spec{Command: "sleep 300", Shell: []string{"/bin/sh", "-e", "-c"}}, "sh"},
		// A shell asked for by name, or in the argv, runs.
		{Spec{Command: "sleep 300", Shell: []string{"/bin/sh", "-c"}}, "sh"},
		{Spec{Argv: []string{"/bin/sh", "-c", "sleep 300"}}, "sh"},
		// A variable the shell would change or drop.
		{Spec{Command: "sleep 300", Env: map[string]string{"IFS": ":"}}, "sh"},
	} {
		info := start(t, m, tc.spec)
		assert.Equal(t, tc.comm, mainComm(t, info.PID), "%q", tc.spec.Command)
		require.NoError(t, m.Kill(info.ID))
		wait(t, m, info.ID)
	}
}

// What a program is given does not depend on whether the shell ran it:
// its whole environment (PWD as dash sets it), its arguments, and the
// program a path names.
func TestADirectRunGetsWhatTheShellWouldGive(t *testing.T) {
	dir := t.TempDir()
	link := filepath.Join(t.TempDir(), "link")
	require.NoError(t, os.Symlink(dir, link))
	// $0 as the shell passes it, and "x/.." through x's symlink.
	require.NoError(t, os.WriteFile(filepath.Join(dir, "show0"), []byte("#!/bin/sh\necho \"$0 $*\"\n"), 0o755))
	deep := filepath.Join(t.TempDir(), "deep")
	require.NoError(t, os.MkdirAll(filepath.Join(deep, "x"), 0o700))
	require.NoError(t, os.WriteFile(filepath.Join(deep, "prog"), []byte("#!/bin/sh\necho deep\n"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "prog"), []byte("#!/bin/sh\necho shallow\n"), 0o755))
	require.NoError(t, os.Symlink(filepath.Join(deep, "x"), filepath.Join(dir, "lx")))
	for _, pwd := range []string{"/", link, ""} {
		t.Run("PWD="+pwd, func(t *testing.T) {
			t.Setenv("PWD", pwd) // jobtop's own, stale or not
			m := newManager(t, Options{})
			output := func(command, dir string, env map[string]string) []string {
				info := start(t, m, Spec{Command: command, Dir: dir, Env: env})
				info = wait(t, m, info.ID)
				require.Equal(t, StateSucceeded, info.State, "%q", command)
				out := slices.DeleteFunc(outputText(t, m, info.ID), func(line string) bool {
					return strings.HasPrefix(line, "JOBTOP_") // the job's own
				})
				slices.Sort(out)
				return out
			}
			for _, d := range []string{dir, link} {
				assert.Equal(t, output("env; true", d, nil), output("env", d, nil), "in %s", d)
				assert.Equal(t, output("./show0 a b; true", d, nil), output("./show0 a b", d, nil))
				assert.Equal(t, []string{"deep"}, output("lx/../prog", d, nil))
				onPath := map[string]string{"PATH": dir + "/:" + os.Getenv("PATH")} // $0 is dir//show0
				assert.Equal(t, output("show0 a; true", d, onPath), output("show0 a", d, onPath))
			}
			odd := map[string]string{"IFS": "x", "OPTIND": "7", "PPID": "5", "A-B": "1"}
			assert.Equal(t, output("env; true", dir, odd), output("env", dir, odd))
		})
	}
}

func TestADirectRunFallsBackToTheShell(t *testing.T) {
	m := newManager(t, Options{})
	dir := t.TempDir()
	// No "#!": exec fails, and the shell runs it as a script.
	require.NoError(t, os.WriteFile(filepath.Join(dir, "noshebang"), []byte("echo from the script\n"), 0o755))
	info := wait(t, m, start(t, m, Spec{Command: "./noshebang", Dir: dir}).ID)
	assert.Equal(t, StateSucceeded, info.State)
	assert.Contains(t, outputText(t, m, info.ID), "from the script")

	// Not found, or not executable: the shell's message and status.
	require.NoError(t, os.WriteFile(filepath.Join(dir, "notexec"), []byte("echo no\n"), 0o644))
	for command, code := range map[string]int{"no-such-program-here": 127, "./no-such-file": 127, "./notexec": 126} {
		info := wait(t, m, start(t, m, Spec{Command: command, Dir: dir}).ID)
		require.Equal(t, StateFailed, info.State, command)
		require.NotNil(t, info.ExitCode, command)
		assert.Equal(t, code, *info.ExitCode, command)
		out := strings.Join(outputText(t, m, info.ID), "\n")
		assert.Contains(t, out, strings.TrimPrefix(command, "./"), command)
	}
}
