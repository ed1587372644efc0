package jobs

import (
	"strings"
	"sync"
)

// This file finds the program a shell command line is about, for the
// name of a job given none. It is no shell parser: it reads the line as
// a list of simple commands and compound commands well enough to find
// the first program run, past what only sets the shell up.

// shellToken is a word of a command line (quotes taken off) or one of
// its operators (";", "&&", "|", "(", ">", a newline as ";"...).
type shellToken struct {
	text string
	op   bool
}

// shellSetup are the builtins that run no program and do none of a job's
// work: they set the shell up (cd, set -e, export X=1, trap, source, exec
// with redirections alone), test, read a line, wait, or end it. A job's
// name is taken from the command after them ("while read l; do curl").
var shellSetup = sync.OnceValue(func() map[string]bool {
	return set(":", ".", "source", "cd", "chdir", "pushd", "popd", "trap", "exit", "return", "set", "unset",
		"export", "readonly", "declare", "typeset", "local", "shopt", "umask", "ulimit", "alias", "unalias",
		"shift", "break", "continue", "true", "false", "test", "[", "hash", "eval", "let", "read", "wait",
		"exec", "builtin", "command")
})

// shellCompounds are the reserved words that open a compound command or
// go on with one; after most of them a command starts ("if make; then",
// "! grep"), the others shellProgram reads past on its own ("for NAME in
// ...; do").
var shellCompounds = sync.OnceValue(func() map[string]bool {
	return set("if", "then", "else", "elif", "fi", "while", "until", "do", "done", "esac", "!", "{", "}", "coproc",
		"for", "select", "case", "[[", "function")
})

// shellProgram is the program a shell command line runs first, past the
// builtins that set the shell up ("cd web && make", "set -e; make":
// make) and into compound commands ("for f in *.go; do gofmt -l $f;
// done": gofmt; "while :; do curl ...; done": curl; "if make; then":
// make). fallback is for when that program makes no name: "sh" when the
// line holds a compound command, else the first builtin it runs ("cd
// web": cd), else "".
func shellProgram(cmd string) (program, fallback string) {
	tokens := shellTokens(cmd)
	compound := false
	skipTo := func(i int, word string) int { // the index of the next word
		for ; i < len(tokens) && (tokens[i].op || tokens[i].text != word); i++ {
		}
		return i
	}
	for i := 0; i < len(tokens); i++ {
		t := tokens[i]
		switch {
		case t.op && isRedirection(t.text):
			i++ // and its file
			continue
		case t.op && t.text == "((": // arithmetic: (( n > 3 ))
			for i++; i < len(tokens) && tokens[i].text != "))"; i++ {
			}
			continue
		case t.op && isCaseEnd(t.text): // the next pattern of a case
			i = skipPattern(tokens, i+1)
			continue
		case t.op:
			continue
		case t.text == "time" && i+1 < len(tokens) && (tokens[i+1].op || shellCompounds()[tokens[i+1].text]):
			continue // time { make; }; "time make" is a prefix, for programOf
		case i+2 < len(tokens) && tokens[i+1].op && tokens[i+1].text == "(" && tokens[i+2].op && tokens[i+2].text == ")": // NAME() { ...; }
			compound = true
			i += 2
			continue
		case !shellCompounds()[t.text]:
			start := i
			i = simpleCommandEnd(tokens, i)
			switch p := programOf(simpleCommandWords(tokens[start:i])); {
			case p == "": // only assignments: X=1; make
			case shellSetup()[p]:
				if fallback == "" {
					fallback = p
				}
			default:
				return p, compoundFallback(compound, fallback)
			}
			i-- // the loop's i++ goes on from the operator
			continue
		}
		compound = true
		switch t.text {
		case "for", "select": // for NAME in WORDS; do
			for i++; i < len(tokens) && !(tokens[i].text == "do" && !tokens[i].op && tokens[i-1].op); i++ {
			}
		case "case": // case WORD in PATTERN) ...
			i = skipPattern(tokens, skipTo(i+1, "in")+1)
		case "[[":
			i = skipTo(i+1, "]]")
		case "function": // function NAME [()] { ...; }
			i++
			if i+2 < len(tokens) && tokens[i+1].op && tokens[i+1].text == "(" && tokens[i+2].text == ")" {
				i += 2
			}
		}
	}
	return "", compoundFallback(compound, fallback)
}

// simpleCommandEnd is the index of the operator that ends the simple
// command starting at tokens[i] (a redirection does not end it).
func simpleCommandEnd(tokens []shellToken, i int) int {
	for ; i < len(tokens) && (!tokens[i].op || isRedirection(tokens[i].text)); i++ {
		if tokens[i].op {
			i++ // and its file
		}
	}
	return min(i, len(tokens))
}

// simpleCommandWords are a simple command's words, past its
// redirections and their files.
func simpleCommandWords(tokens []shellToken) []string {
	var words []string
	for i := 0; i < len(tokens); i++ {
		switch {
		case tokens[i].op:
			i++ // and its file
		default:
			words = append(words, tokens[i].text)
		}
	}
	return words
}

func compoundFallback(compound bool, fallback string) string {
	if compound {
		return "sh"
	}
	return fallback
}

// skipPattern is the index of the ")" that ends the case pattern that
// starts at i; past "esac" when the case ends there instead.
func skipPattern(tokens []shellToken, i int) int {
	for ; i < len(tokens); i++ {
		switch t := tokens[i]; {
		case t.op && t.text == ")", !t.op && t.text == "esac":
			return i
		}
	}
	return i
}

func isRedirection(op string) bool { return strings.ContainsAny(op, "<>") }

func isCaseEnd(op string) bool { return op == ";;" || op == ";&" || op == ";;&" }

// shellOperators are the operators a command line's words end at,
// longest first.
var shellOperators = []string{";;&", "&>>", "<<<", ";;", ";&", "&&", "||", "|&", "&>", ">>", "<<", "<&", ">&", "<>", ">|",
	"((", "))", ";", "&", "|", "(", ")", "<", ">", "\n"}

// shellTokens splits a command line into words and operators: quotes
// ('...', "...", $'...') and backslashes are taken off a word, $(...),
// ${...} and `...` are kept in it whole, a comment is left out, and a
// number just before a redirection (2>&1) goes with it.
func shellTokens(cmd string) []shellToken {
	var tokens []shellToken
	var w strings.Builder
	inWord := false
	end := func() {
		if inWord {
			tokens = append(tokens, shellToken{text: w.String()})
			w.Reset()
			inWord = false
		}
	}
	for i := 0; i < len(cmd); {
		c := cmd[i]
		switch {
		case c == ' ' || c == '\t':
			end()
			i++
		case c == '#' && !inWord:
			for i < len(cmd) && cmd[i] != '\n' {
				i++
			}
		case c == '\\':
			if i+1 < len(cmd) && cmd[i+1] != '\n' {
				w.WriteByte(cmd[i+1])
				inWord = true
			}
			i += 2
		case c == '\'' || c == '"' || c == '$' && i+1 < len(cmd) && cmd[i+1] == '\'':
			if c == '$' {
				i++
			}
			i = quoted(cmd, i, &w)
			inWord = true
		case c == '$' && i+1 < len(cmd) && (cmd[i+1] == '(' || cmd[i+1] == '{'), c == '`':
			j := closing(cmd, i)
			w.WriteString(cmd[i:j])
			inWord = true
			i = j
		default:
			op := ""
			for _, o := range shellOperators {
				if strings.IndexByte(";&|()<>\n", c) < 0 {
					break
				}
				if strings.HasPrefix(cmd[i:], o) {
					op = o
					break
				}
			}
			if op == "" {
				w.WriteByte(c)
				inWord = true
				i++
				continue
			}
			if isRedirection(op) && inWord && strings.Trim(w.String(), "0123456789") == "" {
				w.Reset() // 2>&1: the number is the redirection's
				inWord = false
			}
			end()
			if op == "\n" {
				op = ";"
			}
			tokens = append(tokens, shellToken{text: op, op: true})
			i += len(op)
		}
	}
	end()
	return tokens
}

// quoted writes the text of the quotes that open at cmd[i] to w and
// returns the index past them: '...' as it is, "..." and $'...' with a
// backslash's next character as it is.
func quoted(cmd string, i int, w *strings.Builder) int {
	q := cmd[i]
	escapes := q == '"' || i > 0 && cmd[i-1] == '$'
	for i++; i < len(cmd) && cmd[i] != q; i++ {
		if escapes && cmd[i] == '\\' && i+1 < len(cmd) {
			i++
		}
		w.WriteByte(cmd[i])
	}
	return i + 1
}

// closing is the index past the $(...), ${...} or `...` that starts at
// cmd[i], nested ones counted (quotes in them are not looked at).
func closing(cmd string, i int) int {
	if cmd[i] == '`' {
		if j := strings.IndexByte(cmd[i+1:], '`'); j >= 0 {
			return i + 1 + j + 1
		}
		return len(cmd)
	}
	open, shut := cmd[i+1], byte(')')
	if open == '{' {
		shut = '}'
	}
	depth := 0
	for j := i + 1; j < len(cmd); j++ {
		switch cmd[j] {
		case open:
			depth++
		case shut:
			depth--
			if depth == 0 {
				return j + 1
			}
		}
	}
	return len(cmd)
}
