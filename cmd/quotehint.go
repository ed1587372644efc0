package cmd

import (
	"errors"
	"fmt"
	"os/exec"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"jobtop/jobs"
)

// withQuoteHint adds, to the error of a command line that named a program
// and its options unquoted, how to write it: "jobtop python3 -m
// http.server" read -m as jobtop's own flag (and said only that no job
// file was found), "jobtop tail -f x" looked for the job file x, and
// "jobtop ls -la" ran jobtop's ls. ran is the command cobra ran, raw the
// arguments as given.
func withQuoteHint(root, ran *cobra.Command, raw []string, err error) error {
	hint := quoteHint(root, ran, raw, err)
	if hint == "" {
		return err
	}
	var exit *ExitError
	if errors.As(err, &exit) && exit.Err != nil {
		return &ExitError{Code: exit.Code, Err: fmt.Errorf("%w\n%s", exit.Err, hint)}
	}
	return fmt.Errorf("%w\n%s", err, hint)
}

func quoteHint(root, ran *cobra.Command, raw []string, err error) string {
	if dash := slices.Index(raw, "--"); dash >= 0 {
		raw = raw[:dash]
	}
	var unquoted *unquotedArgError
	inner := err
	if exit := (*ExitError)(nil); errors.As(err, &exit) && exit.Err != nil {
		inner = exit.Err // (ExitError does not unwrap)
	}
	if misspelt := (*misspeltFlagError)(nil); errors.As(inner, &misspelt) {
		return "" // jobtop's own flag, misspelt: no program's
	}
	if errors.As(inner, &unquoted) {
		own, words, ok := programWords(root.Flags(), raw, unquoted.program)
		if !ok {
			return ""
		}
		if unquoted.line != nil {
			words = unquoted.line
		}
		return fmt.Sprintf("(to run %s with its arguments, %s)", unquoted.program, howToRunWith(own, words))
	}
	if ran != root && ran.Name() == "run" && ran.Parent() == root && strings.Contains(err.Error(), "unknown ") && strings.Contains(err.Error(), " flag") {
		// "jobtop run make --names": make's flag, before the "--" that
		// run's command line comes after.
		i := slices.Index(raw, "run")
		if program := programBefore(raw[i+1:]); program != "" {
			if at := slices.Index(raw[i+1:], program); at >= 0 {
				return fmt.Sprintf("(jobtop read that flag as run's own, not %s's: put the command after --: jobtop run [flags] -- %s)", program, jobs.ShellJoin(raw[i+1+at:]))
			}
		}
		return ""
	}
	if ran != root {
		// A subcommand that is a program's name too, given that
		// program's options.
		i := slices.Index(raw, ran.Name())
		if i < 0 || ran.Parent() != root || !strings.Contains(err.Error(), "unknown ") || !strings.Contains(err.Error(), " flag") {
			return ""
		}
		if _, lookErr := exec.LookPath(ran.Name()); lookErr != nil {
			return ""
		}
		return fmt.Sprintf("(%s is jobtop's own command here; to run the program %s as a job, %s)",
			ran.Name(), ran.Name(), howToRun(raw[i:]))
	}
	program, flag := -1, ""
	for i := 0; i < len(raw); i++ {
		word := raw[i]
		if strings.HasPrefix(word, "-") && len(word) > 1 {
			if program >= 0 {
				flag = word
				break
			}
			if takesValue(root.Flags(), word) {
				i++ // its value
			}
			continue
		}
		if _, lookErr := exec.LookPath(word); lookErr == nil && !strings.ContainsAny(word, " \t") {
			program = i
		}
	}
	if flag == "" || !mayBeMisread(err) {
		return ""
	}
	return fmt.Sprintf("(jobtop read %s as its own option, not %s's: to run that program with it, %s)",
		flag, raw[program], howToRun(raw[program:]))
}

// howToRun says how to give jobtop the program and arguments words: after
// "--", and, where none of them needs quoting, as a quoted command line.
func howToRun(words []string) string { return howToRunWith(nil, words) }

// howToRunWith is howToRun with jobtop's own flags (own: "--name",
// "web") before the command line, not in it.
func howToRunWith(own, words []string) string {
	jobtop := "jobtop "
	if len(own) > 0 {
		jobtop += jobs.ShellJoin(own) + " "
	}
	line := jobs.ShellJoin(words)
	if line == strings.Join(words, " ") && !strings.Contains(line, "'") {
		return fmt.Sprintf("quote its command line: %s'%s', or put it after --: %s-- %s", jobtop, line, jobtop, line)
	}
	return "put it after --: " + jobtop + "-- " + line
}

// programWords splits raw, the arguments as given, from the word program
// on: own are jobtop's own flags among them (fs's, each with its value),
// words the rest, the program's command line. A flag of jobtop's that
// lacks its value, or one jobtop has not, is the program's. ok is false
// when program is not among raw's words (only a flag's value).
func programWords(fs *pflag.FlagSet, raw []string, program string) (own, words []string, ok bool) {
	i := 0
	for ; i < len(raw) && raw[i] != program; i++ {
		if takesValue(fs, raw[i]) {
			i++ // its value: "--name make make test"
		}
	}
	if i >= len(raw) {
		return nil, nil, false
	}
	for j := i; j < len(raw); j++ {
		word := raw[j]
		switch {
		case takesValue(fs, word) && j+1 < len(raw):
			own = append(own, word, raw[j+1])
			j++
		case isOwnFlag(fs, word) && !takesValue(fs, word):
			own = append(own, word)
		default:
			words = append(words, word)
		}
	}
	return own, words, true
}

// isOwnFlag reports whether word (--pipes, --name=web, -D) names a flag
// of fs.
func isOwnFlag(fs *pflag.FlagSet, word string) bool {
	if name, ok := strings.CutPrefix(word, "--"); ok {
		name, _, _ = strings.Cut(name, "=")
		return name != "" && fs.Lookup(name) != nil
	}
	return len(word) == 2 && word[0] == '-' && fs.ShorthandLookup(word[1:]) != nil
}

// takesValue reports whether the flag word (-f, --file, not --file=x)
// names a flag of fs that takes the next word as its value.
func takesValue(fs *pflag.FlagSet, word string) bool {
	if strings.Contains(word, "=") {
		return false
	}
	var f *pflag.Flag
	if name, ok := strings.CutPrefix(word, "--"); ok {
		f = fs.Lookup(name)
	} else if len(word) == 2 {
		f = fs.ShorthandLookup(word[1:])
	}
	return f != nil && f.NoOptDefVal == ""
}

// mayBeMisread reports whether err may come of an option misread as
// jobtop's: one jobtop does not know, or wants another value for, or one
// of the job file's (-f FILE, -m, -p, -e: "jobtop tail -f x" looked for
// the job file x). A TUI that cannot start for another reason (no
// terminal) gets no hint: the option may well be jobtop's.
func mayBeMisread(err error) bool {
	msg := err.Error()
	for _, s := range []string{"flag", "job file", "formation", "--port", "-p ", "env file", ".env"} {
		if strings.Contains(msg, s) {
			return true
		}
	}
	return false
}
