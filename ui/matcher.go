package ui

import (
	"errors"
	"regexp"
	"regexp/syntax"
	"strings"
	"unicode"
	"unicode/utf8"
)

// regexPrefix makes a search a regular expression.
const regexPrefix = "re:"

// matcher finds a search pattern in lines of output as they are drawn:
// escape sequences removed and tabs expanded (plainText). The search is
// smart-case: it ignores case unless the pattern has an upper-case
// letter. It is safe for use by several goroutines at once.
type matcher struct {
	input string // as typed
	regex bool
	re    *regexp.Regexp // regex searches, and case-folded non-ASCII text
	lit   string         // plain searches (lower case when folding)
	fold  bool
}

// newMatcher compiles a search. A "re:" prefix, or regex, makes it a
// regular expression (RE2 syntax); a bad one is an error to show inline.
func newMatcher(input string, regex bool) (*matcher, error) {
	pattern := input
	if strings.HasPrefix(pattern, regexPrefix) {
		regex, pattern = true, strings.TrimPrefix(pattern, regexPrefix)
	}
	if pattern == "" {
		return nil, errors.New("type something to search for")
	}
	m := &matcher{input: input, regex: regex, fold: !hasUpper(pattern, regex)}
	switch {
	case regex:
		expr := pattern
		if m.fold {
			expr = "(?i)" + expr
		}
		re, err := regexp.Compile(expr)
		if err != nil {
			var syn *syntax.Error
			if errors.As(err, &syn) {
				return nil, errors.New("bad regex: " + syn.Code.String() + ": `" + strings.TrimPrefix(syn.Expr, "(?i)") + "`")
			}
			return nil, errors.New("bad regex: " + err.Error())
		}
		m.re = re
	case m.fold && !isASCII(pattern):
		m.re = regexp.MustCompile("(?i)" + regexp.QuoteMeta(pattern))
	case m.fold:
		m.lit = strings.ToLower(pattern)
	default:
		m.lit = pattern
	}
	return m, nil
}

// hasUpper reports whether a pattern asks for case to matter: it has an
// upper-case letter (in a regex, not one that is part of an escape such
// as \S or \W).
func hasUpper(pattern string, regex bool) bool {
	escaped := false
	for _, r := range pattern {
		if regex && !escaped && r == '\\' {
			escaped = true
			continue
		}
		if unicode.IsUpper(r) && !(regex && escaped) {
			return true
		}
		escaped = false
	}
	return false
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// label is the search as the pane header shows it.
func (m *matcher) label() string {
	if m.regex && !strings.HasPrefix(m.input, regexPrefix) {
		return regexPrefix + m.input
	}
	return m.input
}

// matchLine reports whether a stored line, as drawn, has a match.
func (m *matcher) matchLine(text string) bool {
	plain := plainText(text)
	switch {
	case m.re != nil:
		return m.re.MatchString(plain)
	case m.fold:
		return indexFoldASCII(plain, m.lit) >= 0
	}
	return strings.Contains(plain, m.lit)
}

// span is a range of bytes [start, end) of a line's plain text.
type span struct{ start, end int }

// find appends the non-empty matches in plain text to dst.
func (m *matcher) find(plain string, dst []span) []span {
	if m.re != nil {
		for _, loc := range m.re.FindAllStringIndex(plain, -1) {
			if loc[1] > loc[0] {
				dst = append(dst, span{loc[0], loc[1]})
			}
		}
		return dst
	}
	for at := 0; at < len(plain); {
		var i int
		if m.fold {
			i = indexFoldASCII(plain[at:], m.lit)
		} else {
			i = strings.Index(plain[at:], m.lit)
		}
		if i < 0 {
			break
		}
		dst = append(dst, span{at + i, at + i + len(m.lit)})
		at += i + len(m.lit)
	}
	return dst
}

// indexFoldASCII is the index of the first match of lower (an ASCII
// pattern in lower case) in s, ignoring ASCII case; -1 if none.
func indexFoldASCII(s, lower string) int {
	n := len(lower)
	if n == 0 {
		return 0
	}
	first := lower[0]
	upper := first
	if first >= 'a' && first <= 'z' {
		upper = first - 'a' + 'A'
	}
	for i := 0; i+n <= len(s); i++ {
		if c := s[i]; c != first && c != upper {
			continue
		}
		j := 1
		for ; j < n; j++ {
			c := s[i+j]
			if c >= 'A' && c <= 'Z' {
				c += 'a' - 'A'
			}
			if c != lower[j] {
				break
			}
		}
		if j == n {
			return i
		}
	}
	return -1
}

// plainText is a line as drawn, without colours: printable ASCII is
// returned as it is; anything else goes through sanitize.
func plainText(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f {
			return sanitize(s, false)
		}
	}
	return s
}
