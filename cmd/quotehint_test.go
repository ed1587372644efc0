package cmd

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// A program's options given unquoted are read as jobtop's own: the
// error then says how to write the command line. "jobtop python3 -m
// http.server" said only that no job file was found, "jobtop tail -f x"
// that the job file x did not exist, "jobtop ls -la" that -l is no flag.
// An error the option cannot have caused, and a command line in quotes,
// get no such hint.
func TestAnUnquotedProgramsOptionsGetAHint(t *testing.T) {
	c := newCLI(t)
	dir := t.TempDir()
	for _, tc := range []struct {
		args []string
		hint string
	}{
		{[]string{"python3", "-m", "http.server"}, "(jobtop read -m as its own option, not python3's: to run that program with it, quote its command line: jobtop 'python3 -m http.server', or put it after --: jobtop -- python3 -m http.server)"},
		{[]string{"tail", "-f", "/var/log/x.log"}, "(jobtop read -f as its own option, not tail's: to run that program with it, quote its command line: jobtop 'tail -f /var/log/x.log', or put it after --: jobtop -- tail -f /var/log/x.log)"},
		{[]string{"ls", "-la"}, "(ls is jobtop's own command here; to run the program ls as a job, quote its command line: jobtop 'ls -la', or put it after --: jobtop -- ls -la)"},
		{[]string{"grep", "-v", "foo"}, "(jobtop read -v as its own option, not grep's: to run that program with it, quote its command line: jobtop 'grep -v foo', or put it after --: jobtop -- grep -v foo)"},
		{[]string{"python3", "-m"}, "(jobtop read -m as its own option, not python3's: to run that program with it, quote its command line: jobtop 'python3 -m', or put it after --: jobtop -- python3 -m)"},
		{[]string{"--pipes", "grep", "--bogus", "a b"}, "(jobtop read --bogus as its own option, not grep's: to run that program with it, put it after --: jobtop -- grep --bogus 'a b')"},
	} {
		r := c.runIn(dir, tc.args...)
		assert.NotEqual(t, 0, r.code, "%v", tc.args)
		assert.Contains(t, r.stderr, "\n"+tc.hint+"\n", "%v", tc.args)
	}
	for _, args := range [][]string{
		{"sleep 5", "-m", "web=1"},    // a command line, then jobtop's option
		{"echo", "hi", "--name", "x"}, // no terminal: nothing the option did
	} {
		r := c.runIn(dir, args...)
		assert.NotEqual(t, 0, r.code, "%v", args)
		assert.NotContains(t, r.stderr, "(jobtop read", "%v", args)
	}
}

// An unknown flag close to one of jobtop's own is a misspelling of it:
// the error says which, and gives no quote hint. "jobtop --hots
// ssh://x ls" said to quote ls's command line, to run the program ls.
func TestAMisspeltFlagOfJobtopsGetsNoQuoteHint(t *testing.T) {
	c := newCLI(t)
	dir := t.TempDir()
	for _, tc := range []struct {
		args []string
		says string
	}{
		{[]string{"--hots", "ssh://x", "ls"}, "jobtop: unknown flag: --hots (did you mean --host?)\n"},
		{[]string{"ls", "--hots", "ssh://x"}, "jobtop: unknown flag: --hots (did you mean --host?)\n"},
		{[]string{"--pipes", "--nmae", "x", "sleep"}, "jobtop: unknown flag: --nmae (did you mean --name?)\n"},
		{[]string{"ls", "--hots=ssh://x"}, "jobtop: unknown flag: --hots (did you mean --host?)\n"},
		{[]string{"sleep 60", "--nmae", "x"}, "jobtop: unknown flag: --nmae (did you mean --name?)\n"}, // after a quoted command line (rev48)
	} {
		r := c.runIn(dir, tc.args...)
		assert.Equal(t, 2, r.code, "%v", tc.args)
		assert.Equal(t, tc.says, r.stderr, "%v", tc.args)
	}
	// After a program's name the flag is the program's (ripgrep has
	// --files): the quote hint, not jobtop's --name or --file (rev47).
	for _, args := range [][]string{{"true", "--names"}, {"--name", "a", "true", "--files"}} {
		r := c.runIn(dir, args...)
		assert.Equal(t, 2, r.code, "%v", args)
		assert.NotContains(t, r.stderr, "did you mean", "%v", args)
		assert.Contains(t, r.stderr, "not true's: to run that program with it, quote its command line", "%v", args)
	}
	r := c.runIn(dir, "run", "--name", "a", "true", "--files")
	assert.Equal(t, 2, r.code)
	assert.Equal(t, "jobtop: unknown flag: --files\n(jobtop read that flag as run's own, not true's: put the command after --: jobtop run [flags] -- true --files)\n", r.stderr)
}
