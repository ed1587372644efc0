package jobs

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// A command line with no shell syntax in it, such as `npm run dev` or
// `exec sleep 300`, runs its program directly rather than through
// /bin/sh -c: dash forks a child for it and waits, so each start would
// cost a second process image (about a millisecond of CPU each), the job
// would be a shell with the program under it, and a signal the program
// dies of would read as an exit status. bash -c and Ruby's spawn do the
// same. Anything the shell could read differently (quotes, $, globs,
// redirections, ~, a builtin, a program not found, a variable the shell
// would change) still goes to the shell, so its messages, exit statuses
// and environment stay the shell's.

// directWordByte reports whether b can appear in a word that the shell
// takes literally: no quoting, expansion, globbing or operator.
func directWordByte(b byte) bool {
	switch {
	case 'a' <= b && b <= 'z', 'A' <= b && b <= 'Z', '0' <= b && b <= '9':
		return true
	}
	return strings.IndexByte("-_./:,+@%=", b) >= 0
}

// shellBuiltins are dash's reserved words and builtins, and bash's (macOS's
// /bin/sh is bash): as a command's first word the shell runs them itself.
var shellBuiltins = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"time": true, "function": true, "select": true, "coproc": true, "source": true, "declare": true,
		"typeset": true, "let": true, "enable": true, "builtin": true, "caller": true, "dirs": true,
		"disown": true, "logout": true, "popd": true, "pushd": true, "shopt": true, "suspend": true,
		"mapfile": true, "readarray": true, "compgen": true, "complete": true, "compopt": true,
		"help": true, "history": true, "bind": true,
		"!": true, "case": true, "do": true, "done": true, "elif": true, "else": true, "esac": true, "fi": true,
		"for": true, "if": true, "in": true, "then": true, "until": true, "while": true,
		".": true, ":": true, "alias": true, "bg": true, "break": true, "cd": true, "chdir": true, "command": true,
		"continue": true, "echo": true, "eval": true, "exec": true, "exit": true, "export": true, "false": true,
		"fc": true, "fg": true, "getopts": true, "hash": true, "jobs": true, "kill": true, "local": true,
		"printf": true, "pwd": true, "read": true, "readonly": true, "return": true, "set": true, "shift": true,
		"test": true, "times": true, "trap": true, "true": true, "type": true, "ulimit": true, "umask": true,
		"unalias": true, "unset": true, "wait": true,
	}
})

// directArgv is the argv that /bin/sh -c would execute for command, when
// the command line is a simple command of literal words ("exec" in front
// allowed); ok is false for anything else.
func directArgv(command string) (argv []string, ok bool) {
	for i := 0; i < len(command); i++ {
		if b := command[i]; b != ' ' && b != '\t' && !directWordByte(b) {
			return nil, false
		}
	}
	argv = strings.FieldsFunc(command, func(r rune) bool { return r == ' ' || r == '\t' })
	execed := len(argv) > 0 && argv[0] == "exec"
	if execed {
		argv = argv[1:] // exec runs a program, never a builtin
	}
	if len(argv) == 0 {
		return nil, false
	}
	prog := argv[0]
	switch {
	case strings.Contains(prog, "="): // an assignment
		return nil, false
	case execed && strings.HasPrefix(prog, "-"): // an option of exec's
		return nil, false
	case !execed && !strings.Contains(prog, "/") && shellBuiltins()[prog]:
		return nil, false
	}
	return argv, true
}

// lookPathIn finds prog as the shell would: a name with a slash is a
// path (relative to dir), any other is looked up in path (a PATH value),
// the first entry holding a file by that name. The path is kept as the
// shell builds it, not cleaned: "a/../b" goes through a's symlink, and a
// script's interpreter is given the same name for it. ok is false when
// that is not certain to be what the shell runs: no such file, a file
// that cannot be executed, or a relative entry in PATH; the shell then
// says what it makes of it.
func lookPathIn(prog, path, dir string) (string, bool) {
	if strings.Contains(prog, "/") {
		at := prog // as the keeper, in dir, will find it
		if !filepath.IsAbs(prog) && dir != "" {
			at = strings.TrimSuffix(dir, "/") + "/" + prog
		}
		return prog, executableFile(at)
	}
	file, st := findInPath(prog, path)
	return file, st != nil && st.Mode().IsRegular() && st.Mode()&0o111 != 0
}

// findInPath is the first file named prog in an entry of path (a PATH
// value), and its stat; "" and nil for none, or for a relative entry
// before it.
func findInPath(prog, path string) (string, os.FileInfo) {
	for _, entry := range filepath.SplitList(path) {
		if !filepath.IsAbs(entry) {
			return "", nil
		}
		file := entry + "/" + prog // as dash joins them, "//" and all
		if st, err := os.Stat(file); err == nil {
			return file, st
		}
	}
	return "", nil
}

// executableFile reports whether path is a regular file with an execute bit.
func executableFile(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.Mode().IsRegular() && st.Mode()&0o111 != 0
}

// shellKeepsEnv reports whether dash would hand env on to a program as
// it is (PWD aside: see withShellPWD). It resets IFS, OPTIND and PPID,
// and drops variables whose names it cannot hold.
func shellKeepsEnv(env []string) bool {
	for _, kv := range env {
		name, _, ok := strings.Cut(kv, "=")
		switch {
		case !ok, name == "IFS", name == "OPTIND", name == "PPID", !shellName(name):
			return false
		}
	}
	return true
}

// shellName reports whether name is a shell variable's name.
func shellName(name string) bool {
	for i := 0; i < len(name); i++ {
		b := name[i]
		if b != '_' && !('a' <= b && b <= 'z') && !('A' <= b && b <= 'Z') && (i == 0 || !('0' <= b && b <= '9')) {
			return false
		}
	}
	return name != ""
}

// envValue is the value of name in env, the last one if it is set twice.
func envValue(env []string, name string) string {
	for i := len(env) - 1; i >= 0; i-- {
		if k, v, ok := strings.Cut(env[i], "="); ok && k == name {
			return v
		}
	}
	return ""
}

// withShellPWD sets PWD in env as dash does before it runs a program:
// kept when it names dir, the physical path of dir otherwise.
func withShellPWD(env []string, dir string) []string {
	if dir == "" {
		dir = "."
	}
	here, err := os.Stat(dir)
	if err != nil {
		return env
	}
	if pwd := envValue(env, "PWD"); filepath.IsAbs(pwd) {
		if st, err := os.Stat(pwd); err == nil && os.SameFile(st, here) {
			return env
		}
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return env
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		abs = real
	}
	return mergeEnv(env, map[string]string{"PWD": abs})
}
