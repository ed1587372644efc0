package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"jobtop/jobs"
)

func TestSpecsFromArgs(t *testing.T) {
	tests := []struct {
		name  string
		args  []string
		dash  int
		names string
		want  []jobs.Spec
		err   string
	}{
		{name: "no jobs", dash: -1},
		{
			name: "each argument is a shell job",
			args: []string{"make -j8", "go test ./..."}, dash: -1,
			want: []jobs.Spec{{Command: "make -j8"}, {Command: "go test ./..."}},
		},
		{
			name: "names in order", args: []string{"make -j8", "go test ./..."}, dash: -1, names: "build, test",
			want: []jobs.Spec{{Name: "build", Command: "make -j8"}, {Name: "test", Command: "go test ./..."}},
		},
		{
			name: "fewer names than jobs", args: []string{"a", "b"}, dash: -1, names: "first",
			want: []jobs.Spec{{Name: "first", Command: "a"}, {Command: "b"}},
		},
		{
			name: "words after -- are one job", args: []string{"make", "-j8"}, dash: 0,
			want: []jobs.Spec{{Argv: []string{"make", "-j8"}}},
		},
		{
			name: "shell jobs and an argv job", args: []string{"echo hi", "sleep", "5"}, dash: 1, names: "hi,nap",
			want: []jobs.Spec{{Name: "hi", Command: "echo hi"}, {Name: "nap", Argv: []string{"sleep", "5"}}},
		},
		{name: "too many names", args: []string{"a"}, dash: -1, names: "x,y", err: "--name gives 2 names for 1 job"},
		{name: "a name that is a number", args: []string{"a", "b"}, dash: -1, names: "x,4", err: `job name "4" is a number`},
		{name: "a name with a space", args: []string{"a"}, dash: -1, names: "has space", err: `job name "has space" may only use`},
		{
			name: "an empty name is the default", args: []string{"a", "b"}, dash: -1, names: ",b1",
			want: []jobs.Spec{{Command: "a"}, {Name: "b1", Command: "b"}},
		},
		{name: "empty command", args: []string{" "}, dash: -1, err: "empty command"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := specsFromArgs(tt.args, tt.dash, tt.names)
			if tt.err != "" {
				require.ErrorContains(t, err, tt.err)
				return
			}
			require.NoError(t, err)
			require.Equal(t, tt.want, got)
		})
	}
}

func TestRootRoutesDemoAndJobs(t *testing.T) {
	root := newRootCmd()
	cmd, _, err := root.Find([]string{"demo"})
	require.NoError(t, err)
	require.Equal(t, "demo", cmd.Name())

	cmd, args, err := root.Find([]string{"make -j8", "go test"})
	require.NoError(t, err)
	require.Equal(t, root, cmd)
	require.Equal(t, []string{"make -j8", "go test"}, args)
}

func TestDemoScriptsAreEmbedded(t *testing.T) {
	dir, err := writeDemoScripts()
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, os.RemoveAll(dir)) })
	scripts := 0
	for _, j := range demoJobs {
		if script, ok := strings.CutPrefix(j.command, "sh "); ok {
			require.FileExists(t, filepath.Join(dir, script), "job %s", j.name)
			scripts++
		}
	}
	require.Equal(t, 4, scripts)
}

// A duration flag takes a bare number of seconds, as timeout(1) and the
// MCP tools do (jobs.ParseDuration).
func TestDurationFlagsTakeSeconds(t *testing.T) {
	c := newCLI(t)
	c.serve()
	id := c.startJob("exec sleep 600", "--timeout", "0.3")
	r := c.run("wait", id, "--timeout", "60")
	assert.Equal(t, "jobtop: job 1 timed out\n", r.stderr)
	assert.Equal(t, jobs.StateTimedOut, c.status(id).State)
	sleeper := c.startJob("exec sleep 600")
	r = c.run("wait", sleeper, "--timeout", "0.2")
	assert.Equal(t, 124, r.code, "gave up: %s", r.stderr)
	assert.Contains(t, r.stderr, "still running")
}

// A flag's bad value, and flags that contradict each other, are said in
// jobtop's words, not the parser's, and exit 2 as any command line that
// cannot run.
func TestFlagErrorsSayWhatToGive(t *testing.T) {
	c := newCLI(t)
	for args, want := range map[string]string{
		"logs 1 --cursor abc":      `--cursor "abc" is not a whole number of 0 or more`,
		"logs 1 --tail x":          `--tail "x" is not a whole number`,
		"wait 1 --timeout 5x":      `--timeout "5x" is not a duration: write a number of seconds, or a number with a unit, like 30s, 5m or 1h30m`,
		"run --timeout 1x -- true": `--timeout "1x" is not a duration: write a number of seconds, or a number with a unit, like 30s, 5m or 1h30m`,
		"serve --idle-exit soon":   `--idle-exit "soon" is not a duration: write a number of seconds, or a number with a unit, like 30s, 5m or 1h30m`,
		"serve --idle-exit -3":     `--idle-exit "-3" is negative`,
		"logs 1 --stdout --stderr": "--stderr and --stdout contradict each other: give one",
		"wait 1 --ready --until x": "--ready and --until contradict each other: give one",
		"wait 1 --raw":             "--raw is for the line --until prints: give --until REGEX too",
		"wait 1 --until= --raw":    "--until: give a regex to match a line with (it was empty)",
		"stop -1":                  "-1 is not a job ID (IDs start at 1)",
		// Counts are decimal: pflag read 0x10 as 16 and 010 as 8.
		"serve --no-file --idle-exit 0.1 --max-running 0x10": `--max-running "0x10" is not a whole number of 0 or more`,
		"logs 1 --tail 1_000":                                `--tail "1_000" is not a whole number`,
		// A negative count is no "no limit" (0 is): refused as read,
		// also for a serve -D, before anything starts in the background.
		"serve --no-file --idle-exit 0.1 --keep-finished -1":     `--keep-finished "-1" is not a whole number of 0 or more`,
		"serve --no-file --idle-exit 0.1 --log-keep-sessions -3": `--log-keep-sessions "-3" is not a whole number of 0 or more`,
		"serve -D --no-file --max-running -1":                    `--max-running "-1" is not a whole number of 0 or more`,
		"--keep-finished -1 --no-file x":                         `--keep-finished "-1" is not a whole number of 0 or more`,
	} {
		r := c.run(strings.Fields(args)...)
		assert.Equal(t, 2, r.code, args)
		assert.Equal(t, "jobtop: "+want+"\n", r.stderr, args)
	}
}
