// Package cmd holds jobtop's command line: one file per command. It wires
// the job engine (jobs), the TUI (ui) and the local API (control) together;
// nothing below it imports it.
package cmd

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/spf13/cobra"

	"jobtop/control"
	"jobtop/jobfile"
	"jobtop/jobs"
	"jobtop/styles"
)

// ExitError ends jobtop with a given exit code; its message, if any, is
// printed on stderr.
type ExitError struct {
	Code int
	Err  error
}

func (e *ExitError) Error() string {
	if e.Err == nil {
		return fmt.Sprintf("exit status %d", e.Code)
	}
	return e.Err.Error()
}

// Execute runs the command line and returns the process exit code.
func Execute() int {
	if asInit() {
		return runInit()
	}
	// termenv's own choice gives TERM=screen, tmux, foot... no colours
	// and no attributes at all (styles.TerminalProfile).
	lipgloss.SetColorProfile(styles.TerminalProfile(isTerminal(os.Stdout), os.Getenv))
	root := newRootCmd()
	stdout := &checkedStdout{f: os.Stdout}
	root.SetOut(stdout)
	ran, err := root.ExecuteC()
	// No ssh of --host outlives the command (README: Other machines).
	control.EndSSH(control.SSHExitGrace)
	if werr := stdout.failed(); werr != nil && (err == nil || !errors.Is(err, werr) && !strings.Contains(err.Error(), werr.Error())) {
		// What it printed did not all reach stdout (>/dev/full, a full
		// disk): the user did not get it, so it did not succeed.
		fmt.Fprintln(os.Stderr, "jobtop:", werr)
		if err == nil {
			return 1
		}
	}
	if err == nil {
		return 0
	}
	err = withQuoteHint(root, ran, os.Args[1:], err)
	var exit *ExitError
	if errors.As(err, &exit) {
		if exit.Err != nil {
			fmt.Fprintln(os.Stderr, "jobtop:", showLines(exit.Err.Error()))
		}
		return exit.Code
	}
	if flagGroupError(err) {
		fmt.Fprintln(os.Stderr, "jobtop:", flagGroupMessage(err))
		return usageExit
	}
	// Shown, not sent: an error may name a file or a job whose name
	// holds escapes (check's summary sent a directory's ESC [2J, rev55).
	fmt.Fprintln(os.Stderr, "jobtop:", showLines(err.Error()))
	return 1
}

// flagGroupMessage says cobra's refusal of flags given together as jobtop
// says it (cobra's reads "if any flags in the group [stdout stderr] are
// set none of the others can be; [stderr stdout] were all set").
func flagGroupMessage(err error) string {
	msg := err.Error()
	if !strings.HasPrefix(msg, "if any flags in the group [") {
		return msg
	}
	_, set, ok := strings.Cut(msg, "; [")
	names, _, ok2 := strings.Cut(set, "] were all set")
	if !ok || !ok2 {
		return msg
	}
	flags := strings.Fields(names)
	for i, f := range flags {
		flags[i] = "--" + f
	}
	return strings.Join(flags, " and ") + " contradict each other: give one"
}

// flagGroupError reports whether err is cobra's refusal of flags given
// together (or not) against their groups, which comes with no type.
func flagGroupError(err error) bool {
	msg := err.Error()
	for _, p := range []string{"if any flags in the group [", "at least one of the flags in the group [", "required flag(s) "} {
		if strings.HasPrefix(msg, p) {
			return true
		}
	}
	return false
}

// usageExit is the exit code of a command line jobtop cannot run as given
// (an unknown flag, a bad flag value, missing or extra arguments, flags
// that contradict each other, a value refused before anything is done);
// other errors exit 1.
const usageExit = 2

// usageErrorf is an error in the command line, which exits usageExit.
func usageErrorf(format string, args ...any) error {
	return &ExitError{Code: usageExit, Err: fmt.Errorf(format, args...)}
}

// flagValueError says pflag's refusal of a flag's value without the Go
// parser's words: `invalid argument "abc" for "--cursor" flag:
// strconv.ParseUint: parsing "abc": invalid syntax` reads `--cursor "abc"
// is not a whole number`.
func flagValueError(err error) error {
	msg := err.Error()
	rest, ok := strings.CutPrefix(msg, "invalid argument ")
	value, rest, ok2 := strings.Cut(rest, " for ")
	flag, why, ok3 := strings.Cut(rest, " flag: ")
	if !ok || !ok2 || !ok3 {
		return err
	}
	flag = strings.Trim(flag, `"`)
	if i := strings.Index(flag, ", --"); i >= 0 {
		flag = flag[i+2:] // "-n, --tail": the long name
	}
	if strings.Contains(why, "value out of range") {
		return fmt.Errorf("%s %s is too large", flag, value)
	}
	for _, p := range flagParsers {
		if strings.HasPrefix(why, p.prefix) {
			return fmt.Errorf("%s %s %s", flag, value, p.want)
		}
	}
	return err
}

// flagParsers say what a flag's value must be, by the parser that
// refused it.
var flagParsers = []struct{ prefix, want string }{
	{"strconv.ParseUint", "is not a whole number of 0 or more"},
	{"strconv.ParseInt", "is not a whole number"},
	{"strconv.ParseFloat", "is not a number"},
	{"strconv.ParseBool", "is not true or false"},
	{jobs.ErrDurationTooLarge.Error(), "is too large: at most " + jobs.MaxDurationText},
	{"time: ", "is not a duration: write a number of seconds, or a number with a unit, like 30s, 5m or 1h30m"},
	{errNegative.Error(), "is negative"},
}

// usageExits2 makes cobra's own refusals of a command line (its flags, its
// arguments) exit usageExit, as jobtop's own checks of them do.
func usageExits2(root *cobra.Command) {
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		// "jobtop up -D", "jobtop start -D": the word says more than
		// the flag jobtop does not know.
		if c == root {
			if werr := mistypedCommand(root, root.Flags().Args(), -1); werr != nil {
				return &ExitError{Code: usageExit, Err: werr}
			}
		}
		// "jobtop --hots ssh://x ls": a misspelt flag of jobtop's.
		if merr := misspeltFlag(c, err); merr != nil {
			return &ExitError{Code: usageExit, Err: merr}
		}
		// "jobtop stop -1": a negative number read as a flag.
		if _, word, ok := strings.Cut(err.Error(), "unknown shorthand flag: "); ok {
			if _, arg, ok := strings.Cut(word, " in "); ok {
				if msg := jobs.BadID(arg); msg != "" {
					return &ExitError{Code: usageExit, Err: errors.New(msg)}
				}
			}
		}
		return &ExitError{Code: usageExit, Err: flagValueError(err)}
	})
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		if args := c.Args; args != nil {
			c.Args = func(cmd *cobra.Command, a []string) error {
				if err := args(cmd, a); err != nil {
					var exit *ExitError
					if errors.As(err, &exit) {
						return err
					}
					return &ExitError{Code: usageExit, Err: err}
				}
				return nil
			}
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
}

func newRootCmd() *cobra.Command {
	var names string
	var pipes, version bool
	root := &cobra.Command{
		Use:   "jobtop [flags] [COMMAND...] [-- PROGRAM ARGS...]",
		Short: "Run, watch and control long jobs from one terminal",
		Long: `jobtop opens a terminal UI that runs and watches jobs.

It runs the jobs of its job file: -f FILE, else jobtop.yaml, jobtop.yml,
a Procfile, process-compose.yml/.yaml or compose.yml/.yaml (with processes:),
else mprocs.yaml or mprocs.json (mprocs' config) in the current directory (with
its override file: the first of compose.override.yml/.yaml and
process-compose.override.yml/.yaml beside it; -f given more than once
merges process-compose files in order) (--no-file: none), with the .env
beside it (-e FILE instead, --no-env-file: none); a Procfile's PORT base is -p, its formation -m.
A file with problems is reported, every one, and nothing starts. R in the
TUI reloads the file. Each COMMAND argument starts as one more shell job (/bin/sh -c);
the words after "--" are one more job, run as they are, without a shell.
These jobs run on a terminal (colours, prompts, full-screen programs;
i on a job's pane types into it) unless --pipes is given.

Like jobtop serve, it serves its jobs on the socket for the CLI. When a
live instance already holds the socket, jobtop attaches to it instead (see
jobtop attach) and starts the COMMANDs there.`,
		Example: `  jobtop
  jobtop -f testdata/webapp/jobtop.yaml
  jobtop 'make -j8' 'go test ./...' --name build,test
  jobtop -- make -j8`,
		SilenceUsage:  true,
		SilenceErrors: true,
		Args:          cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if version && len(args) > 0 {
				return usageErrorf("-v (--version) is jobtop's flag for its own version, and takes no command")
			}
			if version {
				return printVersion(cmd)
			}
			if err := mistypedCommand(cmd, args, cmd.ArgsLenAtDash()); err != nil {
				return &ExitError{Code: usageExit, Err: err}
			}
			specs, err := specsFromArgs(args, cmd.ArgsLenAtDash(), names)
			if err != nil {
				return &ExitError{Code: usageExit, Err: err}
			}
			for i := range specs {
				specs[i].TTY = !pipes // a person watching may type into it
			}
			return openTUI(cmd, specs)
		},
	}
	// Not cobra's --version, which answers before --host is checked.
	root.Flags().BoolVarP(&version, "version", "v", false, "print jobtop's version (as jobtop version does)")
	root.AddCommand(newVersionCmd())
	root.AddCommand(newCheckCmd())
	addSocketFlag(root)
	addHostFlags(root)
	addLocalFlag(root)
	root.PersistentPreRunE = checkHostFlags
	root.AddCommand(newDialStdioCmd())
	root.AddCommand(newServeCmd())
	root.AddCommand(newRunCmd())
	root.AddCommand(newLsCmd())
	root.AddCommand(newTraceCmd())
	root.AddCommand(newStatusCmd())
	root.AddCommand(newLogsCmd())
	root.AddCommand(newWaitCmd())
	root.AddCommand(newSendCmd())
	root.AddCommand(newScreenCmd())
	root.AddCommand(newStopCmd())
	root.AddCommand(newKillCmd())
	root.AddCommand(newSignalCmd())
	root.AddCommand(newRestartCmd())
	root.AddCommand(newRmCmd())
	root.AddCommand(newCleanCmd())
	root.AddCommand(newShutdownCmd())
	root.AddCommand(newReloadCmd())
	root.AddCommand(newParallelCmd())
	root.AddCommand(newAttachCmd())
	root.AddCommand(newMCPCmd())
	root.AddCommand(newCompletionCmd())
	root.Flags().StringVar(&names, "name", "", "names for the jobs, comma-separated, in order")
	root.Flags().BoolVar(&pipes, "pipes", false, "run the COMMANDs on pipes (stdout and stderr apart) rather than on a terminal")
	addFileFlags(root)
	addRetentionFlags(root)
	addBellFlag(root)
	root.AddCommand(newDemoCmd())
	usageExits2(root)
	checkHelpTopics(root)
	return root
}

// mistypedCommand refuses an argument that reads as a misspelt
// subcommand ("jobtop stauts 3"): one word, no program of that name on
// PATH, and a letter or two from a subcommand's name (for a word of up
// to five letters, one left out, added, or two swapped, none changed:
// "rg" is no "rm", nor "htop" "stop"); or as another tool's subcommand
// ("jobtop up", "jobtop start"), or the name of a job of the job file
// ("jobtop web", foreman's "start web"), saying what to type instead. Taken as commands, it and the
// words beside it would start as jobs, on the instance already running
// when there is one. A subcommand's name after a program's ("jobtop env
// ls", "jobtop git log -p") is that program's argument, unquoted. The
// words after "--" run as given; with --host the PATH that counts is the
// far machine's, so only that last check is made, any word taken for a
// program.
func mistypedCommand(root *cobra.Command, args []string, dash int) error {
	if dash >= 0 {
		args = args[:dash]
	}
	hosts, err := hostsOf(root)
	if err != nil {
		return nil
	}
	program := "" // the last word that is a program on PATH
	for i, word := range args {
		if word == "" || word[0] == '-' || strings.ContainsFunc(word, func(r rune) bool {
			return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./", r))
		}) {
			continue // a command line, an assignment: no subcommand's or job's name
		}
		if program != "" && isSubcommand(root, word) {
			// (ls, rm, kill and shutdown are programs on PATH too.)
			return &unquotedArgError{program: program, word: word}
		}
		if len(hosts) > 0 {
			if program != "" && nearSubcommands(root, word) != nil {
				return &unquotedArgError{program: program, word: word}
			}
			program = word
			continue
		}
		if other := otherToolsCommands[word]; other.overPATH && program == "" {
			if file, names := fileJobNamed(root, word); names != nil {
				return fileJobError(word, file, names) // the job file's own "reset"
			}
			return otherToolsError(word, other.whose, other.instead)
		}
		if _, err := exec.LookPath(word); err == nil || errors.Is(err, exec.ErrDot) {
			program = word
			continue // a program (one in . too, as a shell with . on its PATH runs it)
		}
		if program != "" && (nearSubcommands(root, word) != nil || otherToolsCommands[word].whose != "") {
			// "jobtop git log -p": git's arguments, unquoted, not a
			// misspelt jobtop logs.
			return &unquotedArgError{program: program, word: word}
		}
		if strings.ContainsAny(word, "./") { // a job's name (ns/web, web.2), or a path
			if file, names := fileJobNamed(root, word); names != nil {
				return fileJobError(word, file, names)
			}
			continue
		}
		if c, _, err := root.Find([]string{word}); i > 0 && err == nil && c != root {
			return fmt.Errorf("%q is a subcommand, and a subcommand comes first (jobtop %s ...); to run a program of that name as a job, write it as a command line: 'exec %s'",
				word, c.Name(), word)
		}
		// A job of the job file named as another tool's command (a
		// Procfile's "follow") is that job.
		if file, names := fileJobNamed(root, word); names != nil {
			return fileJobError(word, file, names)
		}
		if other, ok := otherToolsCommands[word]; ok {
			return otherToolsError(word, other.whose, other.instead)
		}
		if near := nearSubcommands(root, word); len(near) > 0 {
			return fmt.Errorf("unknown command %q: did you mean %s? (to run a program of that name anyway, write it as a command line: 'exec %s')",
				word, strings.Join(near, " or "), word)
		}
	}
	return toolsArgument(args, len(hosts) > 0)
}

// toolsArgument refuses single words that read as one command line
// unquoted ("jobtop npm install" started npm and coreutils' install as
// two jobs, "jobtop make test" ran /usr/bin/test): several arguments side
// by side, each one word, where one is a multi-command tool
// (multiCommandTools: its next word is a subcommand or target, whether
// or not a program has that name) or a wrapper (commandWrappers: nice,
// time, watch... run the command that follows), or where the first is a
// program on PATH and the second is none (it could only fail, with 127).
// An argument with a space in it is a command line as given ('exec
// install' runs install as a job of its own), and so splits the words
// around it: "jobtop make test 'npm run dev'" is refused for its make
// test. Programs side by side are jobs as given (jobtop htop top). With
// --host the far machine's PATH is not known here: only the tools and
// wrappers are checked.
func toolsArgument(args []string, remote bool) error {
	for _, word := range args {
		if word == "" || word[0] == '-' {
			return nil
		}
	}
	for start := 0; start < len(args); {
		end := start
		for end < len(args) && !strings.ContainsAny(args[end], " \t\n") {
			end++
		}
		if err := wordsArgument(args[start:end], remote); err != nil {
			return err
		}
		start = end + 1
	}
	return nil
}

// wordsArgument is toolsArgument's check of one run of single words.
func wordsArgument(words []string, remote bool) error {
	if len(words) < 2 {
		return nil
	}
	for i, word := range words[:len(words)-1] {
		if slices.Contains(multiCommandTools, word) || slices.Contains(commandWrappers, word) {
			return &unquotedArgError{program: word, word: words[i+1], line: words[i:]}
		}
	}
	program, next := words[0], words[1]
	if remote || !onPath(program) || onPath(next) {
		return nil
	}
	return &unquotedArgError{program: program, word: next, line: words}
}

// multiCommandTools are well-known programs whose first argument is a
// subcommand or a target (make test, npm install, go vet, docker ps).
var multiCommandTools = []string{
	"make", "just", "npm", "npx", "yarn", "pnpm", "bun", "deno", "cargo", "go",
	"docker", "podman", "kubectl", "helm", "git", "pip", "pip3", "uv", "poetry",
	"mvn", "gradle", "dotnet", "bundle", "rake",
}

// commandWrappers are well-known programs that run the command their
// arguments make (nice make, time make, watch date, env FOO=1 make,
// timeout 5 make), and alone do nothing a job is for.
var commandWrappers = []string{
	"nice", "nohup", "time", "timeout", "watch", "env", "sudo", "doas", "stdbuf",
	"setsid", "ionice", "taskset", "chrt", "strace", "ltrace", "unbuffer", "xvfb-run",
}

// onPath says whether word is a program a shell would run (one in . too,
// with . on PATH).
func onPath(word string) bool {
	_, err := exec.LookPath(word)
	return err == nil || errors.Is(err, exec.ErrDot)
}

// isSubcommand says whether word names one of root's subcommands.
func isSubcommand(root *cobra.Command, word string) bool {
	c, _, err := root.Find([]string{word})
	return err == nil && c != root
}

// unquotedArgError is an argument that reads as a subcommand after a
// program's name: the program's own argument, its command line unquoted
// (withQuoteHint says how to write it). line, when known, is that command
// line's words, the program's first.
type unquotedArgError struct {
	program, word string
	line          []string
}

func (e *unquotedArgError) Error() string {
	return fmt.Sprintf("%q after %s would run as a command of its own: each argument of jobtop is a whole command line (to run %s as a job anyway, write 'exec %s')", e.word, e.program, e.word, e.word)
}

// otherToolsCommands are the subcommands of process-compose, overmind,
// foreman and pueue that jobtop has none of, and what to type in jobtop
// instead: taken as commands, "jobtop up", "jobtop start" or "jobtop
// follow 3" started jobs that failed with 127 beside the file's jobs.
// (Their attach, check, stop, restart, kill, run, status, send, wait,
// clean, parallel and shutdown are jobtop's own subcommands too.) A word
// that is also a program on PATH runs that program, unless overPATH:
// reset (ncurses') as a job is never what pueue's reset asks.
var otherToolsCommands = map[string]struct {
	whose, instead string
	overPATH       bool
}{
	"up":      {whose: "process-compose's command", instead: "plain jobtop runs the job file here, jobtop serve -D in the background"},
	"down":    {whose: "process-compose's command", instead: "jobtop shutdown stops the instance and its jobs (q in the TUI)"},
	"process": {whose: "process-compose's command", instead: "jobtop ls lists the jobs; jobtop restart, stop, kill and logs take a job's name"},
	"project": {whose: "process-compose's command", instead: "jobtop ls lists the instance's jobs, jobtop parallel shows how many it runs at once, jobtop reload re-reads the job file"},
	"start": {whose: "overmind's, foreman's and pueue's command", instead: "plain jobtop runs the job file here, jobtop serve -D in the background; jobtop restart NAME starts one job again; " +
		"a job paused with jobtop signal STOP ID goes on with jobtop signal CONT ID"},
	"s":       {whose: "overmind's command (start)", instead: "plain jobtop runs the job file here, jobtop serve -D in the background; jobtop restart NAME starts one job again"},
	"connect": {whose: "overmind's command", instead: "jobtop attach shows a running instance's jobs"},
	"c":       {whose: "overmind's command (connect)", instead: "jobtop attach shows a running instance's jobs"},
	"quit":    {whose: "overmind's command", instead: "jobtop shutdown stops the instance and its jobs (q in the TUI)"},
	"echo":    {whose: "overmind's command", instead: "jobtop logs --all -f prints every job's output as it comes"},
	"export":  {whose: "foreman's command", instead: "jobtop writes no init-system files; jobtop check shows what it runs"},
	// pueue's
	"add":           {whose: "pueue's command", instead: "jobtop run COMMAND starts a job in the running instance (--after ID waits for another, as add --after)"},
	"follow":        {whose: "pueue's command", instead: "jobtop logs -f ID follows a job's output (jobtop logs --all -f every job's)"},
	"log":           {whose: "pueue's command", instead: "jobtop logs ID prints a job's output (jobtop logs --all every job's)"},
	"remove":        {whose: "pueue's command", instead: "jobtop rm ID removes an ended job (jobtop clean every ended job)"},
	"pause":         {whose: "pueue's command", instead: "jobtop stop ID ends a job; jobtop signal STOP ID pauses one, jobtop signal CONT ID goes on"},
	"edit":          {whose: "pueue's command", instead: "e in the TUI edits the selected job: a queued one that never ran in its place, another as a new job"},
	"group":         {whose: "pueue's command", instead: "jobtop has one queue: jobtop parallel N sets how many jobs it runs at once"},
	"stash":         {whose: "pueue's command", instead: "jobtop holds no job back by hand: jobtop run --after ID starts one once another has succeeded"},
	"enqueue":       {whose: "pueue's command", instead: "jobtop's queued jobs start as slots free: jobtop parallel N sets how many run at once"},
	"switch":        {whose: "pueue's command", instead: "jobtop does not reorder its queue: jobtop parallel N sets how many jobs run at once"},
	"reset":         {whose: "pueue's command", instead: "jobtop clean removes every ended job; jobtop shutdown stops every job and the instance", overPATH: true},
	"format-status": {whose: "pueue's command", instead: "jobtop ls --json lists the jobs for a program to read"},
}

// otherToolsError refuses word, another tool's command, with what to type
// in jobtop instead.
func otherToolsError(word, whose, instead string) error {
	return fmt.Errorf("%q is %s, not jobtop's: %s (to run a program of that name anyway, write it as a command line: 'exec %s')",
		word, whose, instead, word)
}

// fileJobError refuses word, which names jobs of file (their names), as
// a command.
func fileJobError(word, file string, names []string) error {
	restart := "jobtop restart " + word
	if len(names) > 1 || names[0] != word {
		restart = "jobtop restart " + strings.Join(names[:min(len(names), 4)], " ")
		if len(names) > 4 {
			restart += " ..."
		}
	}
	return fmt.Errorf("%q is a job of %s, which plain jobtop runs (jobtop serve -D in the background); to start it in a running instance: %s (to run a program of that name as one more job anyway, write it as a command line: 'exec %s')",
		word, file, restart, word)
}

// fileJobNamed reports whether word names jobs of the job file an
// instance started here would run (-f, or the one found here), and that
// file and the jobs' names: a job's name; a Procfile's process type run
// as several (web for web.1 and web.2); a process-compose process run as
// replicas (api for api-0, api-1) or in a namespace (web for ns/web).
// foreman's "start web" is "jobtop web", which started a job running a
// program "web" beside the file's own web. A file that cannot be read
// names no job; it is reported when it is loaded.
func fileJobNamed(root *cobra.Command, word string) (file string, names []string) {
	if root.Flags().Lookup(fileFlag) == nil {
		return "", nil
	}
	plan, err := loadJobFile(root)
	if err != nil || plan == nil {
		return "", nil
	}
	if _, ok := plan.Job(word); ok {
		return plan.Path, []string{word}
	}
	for _, j := range plan.Jobs {
		base := j.Name[strings.LastIndexByte(j.Name, '/')+1:] // ns/web
		if base == word && base != j.Name {
			names = append(names, j.Name)
			continue
		}
		sep := byte(0) // how the format numbers a process run as several
		switch plan.Format {
		case jobfile.FormatProcfile:
			sep = '.' // web.1
		case jobfile.FormatProcessCompose:
			sep = '-' // api-0
		}
		if rest, ok := strings.CutPrefix(j.Name, word); ok && len(rest) > 1 && rest[0] == sep && strings.Trim(rest[1:], "0123456789") == "" {
			names = append(names, j.Name)
		}
	}
	if len(names) == 0 {
		return "", nil
	}
	return plan.Path, names
}

// nearSubcommands are the subcommands whose names word is a misspelling
// of: a letter left out, added, changed, or two swapped; two such for a
// word longer than five letters, and no change in a shorter one (short
// programs' names are often a letter from a subcommand's).
func nearSubcommands(root *cobra.Command, word string) []string {
	var near []string
	for _, c := range root.Commands() {
		if !c.IsAvailableCommand() {
			continue
		}
		for _, name := range append([]string{c.Name()}, c.Aliases...) {
			if nearName(word, name) {
				near = append(near, c.Name())
				break
			}
		}
	}
	return near
}

// nearName reports whether word is a misspelling of name, as
// nearSubcommands counts them.
func nearName(word, name string) bool {
	most, change := 1, 2 // a change counts as two: none within one
	if len(word) > 5 {
		most, change = 2, 1
	}
	d := editDistance(strings.ToLower(word), name, change)
	return d > 0 && d <= most
}

// editDistance is the optimal string alignment distance of a and b: the
// letters to add, drop or change (each change counting change), or
// neighbours to swap, to make one the other.
func editDistance(a, b string, change int) int {
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := change
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(a)][len(b)]
}

// specsFromArgs turns the command line into jobs: each argument before
// "--" (dash is its index, -1 for none) is a shell command; the words
// after it are one argv job. names, comma-separated, name them in order.
func specsFromArgs(args []string, dash int, names string) ([]jobs.Spec, error) {
	shell, argv := args, []string(nil)
	if dash >= 0 {
		shell, argv = args[:dash], args[dash:]
	}
	var specs []jobs.Spec
	for _, c := range shell {
		if strings.TrimSpace(c) == "" {
			return nil, errors.New("an empty command was given: quote each command as one argument")
		}
		specs = append(specs, jobs.Spec{Command: c})
	}
	if len(argv) > 0 {
		specs = append(specs, jobs.Spec{Argv: argv})
	}
	if names == "" {
		return specs, nil
	}
	list := strings.Split(names, ",")
	if len(list) > len(specs) {
		return nil, fmt.Errorf("--name gives %s for %s", plural(len(list), "name"), plural(len(specs), "job"))
	}
	for i, n := range list {
		specs[i].Name = strings.TrimSpace(n)
		if specs[i].Name == "" {
			continue // the job gets a default name
		}
		if err := jobs.CheckName(specs[i].Name); err != nil {
			return nil, err
		}
	}
	return specs, nil
}
