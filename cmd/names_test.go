package cmd

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"jobtop/control"
	"jobtop/jobs"
)

// Job names follow the job-file rules everywhere, with the same message;
// a job given no name is named after its program.
func TestJobNamesAreChecked(t *testing.T) {
	c := newCLI(t)
	c.serve()
	for _, name := range []string{"4", "has space", "a//b"} {
		r := c.run("run", "--name", name, "--", "true")
		assert.Equal(t, 2, r.code, name)
		assert.Equal(t, "jobtop: "+jobs.CheckName(name).Error()+"\n", r.stderr, name)
	}
	// The API says the same.
	client := control.NewClient(c.socket)
	defer client.Close()
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	_, err := client.StartJob(ctx, control.StartRequest{Name: "4", Command: "true"})
	require.Error(t, err)
	assert.Equal(t, jobs.CheckName("4").Error(), err.Error())
	c.ok("wait", c.startJob("true"))
	assert.Equal(t, map[jobs.ID]jobs.State{1: jobs.StateSucceeded}, c.states(), "no refused job was created")

	// The TUI's command line checks them before the screen opens.
	r := c.run("--name", "ok,4", "true", "false")
	assert.Equal(t, 2, r.code)
	assert.Equal(t, "jobtop: "+jobs.CheckName("4").Error()+"\n", r.stderr)
	r = c.run("--name", "a,b", "true")
	assert.Equal(t, 2, r.code)
	assert.Equal(t, "jobtop: --name gives 2 names for 1 job\n", r.stderr)
}

func TestDefaultNamesAreShortAndUnique(t *testing.T) {
	c := newCLI(t)
	c.serve()
	c.startJob("sleep 60 && echo a long command line")
	c.startJob("sleep 61")
	c.startJob("./scripts/fake-db --port 5433")
	out := c.ok("ls")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	require.Len(t, lines, 4)
	assert.Regexp(t, `^1\s+sleep\s+(running|succeeded|failed)\s.*sleep 60 && echo a long command line$`, lines[1])
	assert.Regexp(t, `^2\s+sleep-2\s`, lines[2])
	assert.Regexp(t, `^3\s+fake-db\s`, lines[3])
	assert.Equal(t, "sleep-2", c.status("sleep-2").Name)
}

// A compound command is named after the program it runs, not its
// keyword, and a builtin that sets the shell up is looked past: the
// names ls shows are the programs, sh for a loop that runs none.
func TestCompoundCommandsAreNamedAfterTheirProgram(t *testing.T) {
	c := newCLI(t)
	c.serve()
	for _, command := range []string{
		"for f in a b; do printf '%s\\n' $f; done",
		"while :; do date; break; done",
		"if true; then uname; fi",
		"trap 'echo bye' EXIT; set -e; export X=1; hostname",
		"i=0; until [ $i -ge 2 ]; do i=$((i+1)); done",
		"exit 3",
	} {
		c.startJob(command)
	}
	c.ok("wait", "1", "2", "3", "4", "5")
	var names []string
	for _, line := range strings.Split(strings.TrimSpace(c.ok("ls")), "\n")[1:] {
		names = append(names, strings.Fields(line)[1])
	}
	assert.Equal(t, []string{"printf", "date", "uname", "hostname", "sh", "exit"}, names)
}

// A 10,000-character job name given to a command is echoed cut, with
// "...": the whole of it filled the terminal with one error.
func TestLongJobNamesAreCutInErrors(t *testing.T) {
	c := newCLI(t)
	c.serve()
	c.startJob("true")
	long := strings.Repeat("n", 10000)
	shown := `"` + strings.Repeat("n", 60) + `..."`
	for _, args := range [][]string{
		{"stop", long},
		{"logs", long},
		{"status", long},
		{"kill", long, "1"},
		{"stop", "--name", long},
	} {
		r := c.run(args...)
		assert.Less(t, len(r.stderr), 300, "%s: %s", args[0], r.stderr)
		if args[1] == "--name" {
			assert.Equal(t, "jobtop: no job matches --name "+strings.Repeat("n", 60)+"...\n", r.stderr)
			continue
		}
		assert.NotEqual(t, 0, r.code, args[0])
		assert.Contains(t, r.stderr, "no job "+shown, args[0])
	}
}
