package jobfile

import (
	"bytes"
	"fmt"
	"maps"
	"strconv"
	"strings"
	"text/template"
)

// expandVariables replaces $VAR, ${VAR}, ${VAR:-default} and
// ${VAR-default} in a process-compose file's text before it is parsed, as
// process-compose does, from lookup (the env files, then the
// environment); an unset variable becomes "". $$ is a literal $. Other
// ${...} forms are left as they are, each reported to warn about; so is
// an unset $VAR or ${VAR} outside a comment line (unset true), which is
// most often a shell variable that was meant to be written $$VAR.
func expandVariables(text string, lookup func(string) (string, bool), warn func(line, col int, form string, unset bool)) string {
	var b strings.Builder
	line, lineStart := 1, 0
	comment := isCommentLine(text)
	for i := 0; i < len(text); i++ {
		c := text[i]
		if c == '\n' {
			line, lineStart = line+1, i+1
			comment = isCommentLine(text[i+1:])
		}
		if c != '$' || i+1 == len(text) {
			b.WriteByte(c)
			continue
		}
		next := text[i+1]
		switch {
		case next == '$':
			b.WriteByte('$')
			i++
		case next == '{':
			end := strings.IndexByte(text[i:], '}')
			if end < 0 {
				b.WriteByte(c)
				continue
			}
			inner := text[i+2 : i+end]
			value, ok := expandBraced(inner, lookup)
			if !ok {
				warn(line, i-lineStart+1, "${"+inner+"}", false)
				value = "${" + inner + "}"
			} else if _, set := lookup(inner); !set && isVarName(inner) && !comment {
				warn(line, i-lineStart+1, "${"+inner+"}", true)
			}
			b.WriteString(value)
			i += end
		case isVarStart(next):
			j := i + 1
			for j < len(text) && isVarChar(text[j]) {
				j++
			}
			v, set := lookup(text[i+1 : j])
			if !set && !comment {
				warn(line, i-lineStart+1, text[i:j], true)
			}
			b.WriteString(v)
			i = j - 1
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// expandBraced expands what is between ${ and }: NAME, NAME:-DEFAULT
// (the default when unset or empty) or NAME-DEFAULT (when unset).
func expandBraced(inner string, lookup func(string) (string, bool)) (string, bool) {
	n := 0
	for n < len(inner) && isVarChar(inner[n]) {
		n++
	}
	name, rest := inner[:n], inner[n:]
	if name == "" || !isVarStart(name[0]) {
		return "", false
	}
	v, set := lookup(name)
	switch {
	case rest == "":
		return v, true
	case strings.HasPrefix(rest, ":-"):
		if v == "" {
			return rest[2:], true
		}
		return v, true
	case strings.HasPrefix(rest, "-"):
		if !set {
			return rest[1:], true
		}
		return v, true
	}
	return "", false
}

// isCommentLine says whether text starts with a YAML comment line.
func isCommentLine(text string) bool {
	t := strings.TrimLeft(text, " \t")
	return strings.HasPrefix(t, "#")
}

// isVarName says whether s is a whole variable name.
func isVarName(s string) bool {
	if s == "" || !isVarStart(s[0]) {
		return false
	}
	for i := range len(s) {
		if !isVarChar(s[i]) {
			return false
		}
	}
	return true
}

// expansionWarner is the warn function of expandVariables for file.
func (p *pcFile) expansionWarner(file string) func(line, col int, form string, unset bool) {
	return func(line, col int, form string, unset bool) {
		if unset {
			name := strings.Trim(form, "${}")
			p.warn.addAtFile(file, line, col, "unset "+name, fmt.Sprintf("%s is not set (in .env or the environment), so it expands to nothing, as in process-compose; write $%s to keep it as it is (in a command, the shell then expands it when it runs)", form, form))
			return
		}
		p.warn.addAtFile(file, line, col, "expansion "+form, fmt.Sprintf("%s is left as it is: jobtop expands $VAR, ${VAR}, ${VAR:-default} and ${VAR-default} (write $$ for a $)", form))
	}
}

func isVarStart(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func isVarChar(c byte) bool { return isVarStart(c) || c >= '0' && c <= '9' }

// renderTemplate renders a field holding Go template actions ({{.VAR}})
// with the vars, as process-compose does for its vars: feature. A field
// without "{{" is returned as it is; a variable the vars do not hold is
// an error.
func renderTemplate(text string, vars map[string]any) (string, error) {
	if !strings.Contains(text, "{{") {
		return text, nil
	}
	t, err := template.New("field").Option("missingkey=error").Parse(text)
	if err != nil {
		return "", fmt.Errorf("template: %v", strings.TrimPrefix(err.Error(), "template: field:"))
	}
	var b bytes.Buffer
	if err := t.Execute(&b, vars); err != nil {
		return "", templateError(err, vars)
	}
	return b.String(), nil
}

// templateError says what went wrong in rendering: a var the vars do not
// hold, with where to give it, else the action and what it did wrong
// (`<index .HOSTS 5>: error calling index: ...`). A var given is never
// said to be missing.
func templateError(err error, vars map[string]any) error {
	msg := err.Error()
	// template: field:1:7: executing "field" at <ACTION>: WHAT
	const at = `executing "field" at `
	if i := strings.Index(msg, at); i >= 0 {
		msg = msg[i+len(at):]
	}
	action, what, found := strings.Cut(msg, ">: ")
	if !found {
		return fmt.Errorf("template: %s", msg)
	}
	if key, ok := strings.CutPrefix(what, "map has no entry for key "); ok {
		name, _ := strconv.Unquote(key)
		if _, given := vars[name]; !given && strings.HasPrefix(action+".", "<."+name+".") {
			return fmt.Errorf("template: %s (vars: give it under vars:)", what)
		}
	}
	return fmt.Errorf("template: %s>: %s", action, what)
}

// templateVars are the vars a process's fields are rendered with: the
// file's, then the process's own, then PC_REPLICA_NUM.
func templateVars(global, local map[string]any, replica int) map[string]any {
	out := maps.Clone(global)
	if out == nil {
		out = map[string]any{}
	}
	maps.Copy(out, local)
	out["PC_REPLICA_NUM"] = replica
	return out
}
