package jobs

import (
	"errors"
	"fmt"
	"regexp"
	"regexp/syntax"
	"strings"
)

// CompilePattern compiles a regular expression a person or an agent gave
// as what (an argument's name: `wait_for`, `--until`), or says in one
// wording, wherever a pattern is taken, what is wrong with it and where:
// `wait_for "listening (on" is not a valid regular expression: missing
// closing ) at byte 10 ("(on")`.
func CompilePattern(what, p string) (*regexp.Regexp, error) {
	re, err := regexp.Compile(p)
	if err == nil {
		return re, nil
	}
	var se *syntax.Error
	if !errors.As(err, &se) {
		return nil, fmt.Errorf("%s %q is not a valid regular expression: %v", what, p, err)
	}
	msg := fmt.Sprintf("%s %q is not a valid regular expression: %s", what, p, se.Code)
	at := strings.Index(p, se.Expr)
	if se.Code == syntax.ErrMissingParen {
		at = unclosedParen(p)
	}
	if at >= 0 && se.Expr != "" {
		msg += fmt.Sprintf(" at byte %d (%q)", at, p[at:min(len(p), at+20)])
	}
	switch se.Code {
	case syntax.ErrInvalidPerlOp, syntax.ErrInvalidEscape, syntax.ErrInvalidNamedCapture:
		msg += "; the syntax is Go's RE2: no lookahead, lookbehind or backreferences"
	case syntax.ErrMissingParen, syntax.ErrUnexpectedParen, syntax.ErrMissingBracket, syntax.ErrMissingRepeatArgument, syntax.ErrInvalidRepeatOp:
		msg += `; escape a literal ( ) [ ] * + ? with a backslash, e.g. \(`
	}
	return nil, errors.New(msg)
}

// unclosedParen is the byte offset of the last "(" of p that no ")"
// closes (escapes and character classes skipped), or -1.
func unclosedParen(p string) int {
	var open []int
	inClass := false
	for i := 0; i < len(p); i++ {
		switch c := p[i]; {
		case c == '\\':
			i++
		case inClass:
			inClass = c != ']'
		case c == '[':
			inClass = true
			if i+1 < len(p) && p[i+1] == ']' {
				i++
			}
		case c == '(':
			open = append(open, i)
		case c == ')' && len(open) > 0:
			open = open[:len(open)-1]
		}
	}
	if len(open) == 0 {
		return -1
	}
	return open[len(open)-1]
}
