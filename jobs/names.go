package jobs

import (
	"errors"
	"fmt"
	"path"
	"slices"
	"strings"
	"sync"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// maxNameLen bounds a job name.
const maxNameLen = 64

// defaultNameLen bounds a name jobtop makes up from a command, before its
// "-2" suffix: it is what the table's NAME column and the prefixes of
// `logs --all` show.
const defaultNameLen = 20

// CheckName says what is wrong with a job name, or nil when nothing is.
// Names are what depends_on, the table and the CLI use, so they are kept
// to ASCII letters, digits, ".", "_" and "-", and are never a bare number (that
// would read as a job ID). Job files, the API, the CLI and the TUI all
// apply it, with the same message.
func CheckName(name string) error {
	switch {
	case name == "":
		return errors.New("a job name is empty")
	case strings.Trim(name, "0123456789") == "":
		return fmt.Errorf("job name %q is a number, which reads as a job ID: add a letter", name)
	case len(name) > maxNameLen:
		return fmt.Errorf("job name %.20q... is longer than %d characters", name, maxNameLen)
	}
	switch {
	case strings.HasPrefix(name, "-"):
		return fmt.Errorf("job name %q starts with \"-\", which reads as a flag: start it with a letter or digit", name)
	case strings.Trim(name, ".") == "":
		return fmt.Errorf("job name %q is only dots: add a letter", name)
	}
	for _, c := range name {
		if !nameChar(c) && c != '/' {
			return fmt.Errorf("job name %q may only use ASCII letters, digits, \".\", \"_\", \"-\" and \"/\"", name)
		}
	}
	if strings.HasPrefix(name, "/") || strings.HasSuffix(name, "/") || strings.Contains(name, "//") {
		return fmt.Errorf("job name %q has an empty part: \"/\" goes between a namespace and a name (ns/web)", name)
	}
	return nil
}

func nameChar(c rune) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-'
}

// latinFolds are the Latin letters with no accent to take off, written as
// ASCII letters, for names made up from programs' names.
var latinFolds = sync.OnceValue(func() map[rune]string {
	return map[rune]string{'ø': "o", 'Ø': "O", 'ß': "ss", 'æ': "ae", 'Æ': "AE", 'œ': "oe", 'Œ': "OE",
		'ł': "l", 'Ł': "L", 'đ': "d", 'Đ': "D", 'þ': "th", 'Þ': "Th", 'ð': "d", 'ı': "i"}
})

// shellPrefixes are words that run the next word as the program, skipped
// when a name is made up from a shell command.
var shellPrefixes = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"exec": true, "env": true, "nohup": true, "time": true, "command": true, "builtin": true,
		"nice": true, "ionice": true, "sudo": true, "timeout": true, "stdbuf": true}
})

// prefixOptions are the options of shellPrefixes that take the next word
// as their argument ("sudo -u bob make", "timeout -s KILL 5 make").
var prefixOptions = sync.OnceValue(func() map[string]string {
	return map[string]string{
		"sudo":    "-u -g -h -p -C -D -r -t -U -T --user --group --host --prompt --close-from --chdir --role --type --other-user",
		"timeout": "-s -k --signal --kill-after", "nice": "-n --adjustment", "ionice": "-c -n -p --class --classdata --pid",
		"stdbuf": "-i -o -e", "env": "-u -C -S --unset --chdir --split-string", "exec": "-a"}
})

// takesArgument reports whether option o of prefix takes the next word:
// one of its options, or short ones run together that end in one
// ("sudo -iu bob").
func takesArgument(prefix, o string) bool {
	if !strings.HasPrefix(o, "-") {
		return false
	}
	opts := strings.Fields(prefixOptions()[path.Base(prefix)])
	if len(o) > 2 && o[1] != '-' {
		o = "-" + o[len(o)-1:]
	}
	return slices.Contains(opts, o)
}

// programOf is the program a command's words run: past the prefixes
// that run the next word (and their options and arguments), and the
// variables set for it; for an interpreter, the script it runs; the
// last prefix when nothing follows it.
func programOf(words []string) string {
	prefix := ""
	for i := 0; i < len(words); i++ {
		w := words[i]
		switch {
		case shellPrefixes()[path.Base(w)]:
			prefix = w
			continue
		case prefix != "" && takesArgument(prefix, w):
			i++ // and its argument
			continue
		case isAssignment(w) || strings.HasPrefix(w, "-") || prefix != "" && prefixArg(w):
			continue
		}
		// "sh build.sh", "python3 -u tool.py": the script says more.
		if interpreterFamily()[path.Base(w)] != "" {
			if script := scriptOf(path.Base(w), words[i+1:]); script != "" {
				return script
			}
		}
		return w
	}
	return prefix
}

// scriptOf is the script interpreter's arguments run, past its options
// ("-u app.py", "--inspect srv.js", "-x deploy.sh"); "" when it runs code
// given inline (sh -c, python -c, node -e, perl -e) or a module (python
// -m: "python3 -m http.server" stays python3), or nothing.
func scriptOf(interpreter string, args []string) string {
	opts := interpreterOptions()[interpreterFamily()[interpreter]]
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case opts.inline[a] || len(a) > 2 && opts.inline[a[:2]] && a[1] != '-': // perl -e1
			return ""
		case opts.withArg[a]:
			i++ // its argument
		case !strings.HasPrefix(a, "-"):
			return a
		}
	}
	return ""
}

// interpreterFamily is the family of each interpreter (whose options are
// read alike): an interpreter runs a script named by its arguments, and a
// job running one is named after the script.
var interpreterFamily = sync.OnceValue(func() map[string]string {
	return map[string]string{"sh": "sh", "bash": "sh", "zsh": "sh", "dash": "sh",
		"python": "python", "python3": "python", "node": "node", "ruby": "ruby", "perl": "perl"}
})

// interpreterOptions are, for each family, the options that give the code
// inline (no script names the job) and those that take the next word as
// their argument ("python3 -W ignore app.py", "bash -o pipefail x.sh").
var interpreterOptions = sync.OnceValue(func() map[string]struct{ inline, withArg map[string]bool } {
	return map[string]struct{ inline, withArg map[string]bool }{
		"sh":     {inline: set("-c"), withArg: set("-o", "-O", "+o", "+O", "--rcfile", "--init-file")},
		"python": {inline: set("-c", "-m"), withArg: set("-W", "-X")},
		"node":   {inline: set("-e", "--eval", "-p", "--print"), withArg: set("-r", "--require", "--import", "--loader")},
		"ruby":   {inline: set("-e"), withArg: set("-r", "-I", "-C")},
		"perl":   {inline: set("-e", "-E"), withArg: set("-I", "-M", "-m")},
	}
})

func set(words ...string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}

// prefixArg reports whether a word after a prefix is its argument, not
// the program: a number or a duration ("nice -n 10", "timeout 30s").
func prefixArg(w string) bool {
	w = strings.TrimRight(w, "smhd")
	return w != "" && strings.Trim(w, "0123456789.") == ""
}

// defaultName is the name of a job that was given none: the base name of
// its program ("make" for "make -j8", "server" for "./bin/server"), with
// what a name may not hold left out; "job" when nothing is left. A shell
// command line is named after the first program it runs (see
// shellProgram): "cd web && make" is make, "while :; do curl ...; done"
// curl, a compound command that runs none sh.
func defaultName(s Spec) string {
	if len(s.Argv) > 0 {
		program := s.Argv[0]
		if shellPrefixes()[path.Base(program)] || interpreterFamily()[path.Base(program)] != "" || isAssignment(program) { // env FOO=1 make; python3 tool.py; FOO=1 make
			program = programOf(s.Argv)
		}
		return nameOf(program)
	}
	program, fallback := shellProgram(s.Command)
	if name := nameOf(program); name != "job" || fallback == "" {
		return name
	}
	return nameOf(fallback)
}

// nameOf is a name made of program's base name: what a name may not hold
// left out, an accent taken off its letter; "job" when nothing is left.
func nameOf(program string) string {
	program = path.Base(program)
	var b strings.Builder
	for _, c := range program {
		switch {
		case nameChar(c):
			b.WriteRune(c)
		case latinFolds()[c] != "":
			b.WriteString(latinFolds()[c])
		case c > unicode.MaxASCII:
			// A letter with an accent keeps its letter (ÜberTool:
			// UberTool, not berTool), a ligature its letters (ﬁle:
			// file); other characters go.
			for _, r := range norm.NFKD.String(string(c)) {
				if nameChar(r) {
					b.WriteRune(r)
				}
			}
		}
		if b.Len() >= defaultNameLen {
			break
		}
	}
	name := strings.Trim(b.String(), ".-")
	if CheckName(name) != nil {
		return "job"
	}
	return name
}

// isAssignment reports whether a shell word sets a variable (NAME=value).
func isAssignment(w string) bool {
	name, _, ok := strings.Cut(w, "=")
	if !ok || name == "" || name[0] >= '0' && name[0] <= '9' {
		return false
	}
	for _, c := range name {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

// ArgvAssignments splits an argv's leading NAME=value words, which set
// variables for its program as a shell's and env's do, from the program
// and its arguments.
func ArgvAssignments(argv []string) (vars, rest []string) {
	i := 0
	for i < len(argv) && isAssignment(argv[i]) {
		i++
	}
	return argv[:i], argv[i:]
}

// uniqueNameLocked makes base unique among the jobs: base itself when no
// job has it, else base-2, base-3..., the smallest free one. It runs
// under the lock for every unnamed job, so it asks the name index rather
// than look at every job.
func (m *Manager) uniqueNameLocked(base string) string {
	return m.names.unique(base)
}
