package jobfile

import (
	"bytes"
	"fmt"
	"maps"
	"strings"
	"text/template"
)

// expandVariables replaces $VAR, ${VAR}, ${VAR:-default} and
// ${VAR-default} in a process-compose file's text before it is parsed, as
// process-compose does, from lookup (the env files, then the
// environment); an unset variable becomes "". $$ is a literal $. Other
// ${...} forms are left as they are, each reported (line, text) to warn
// about.
func expandVariables(text string, lookup func(string) (string, bool), warn func(line int, form string)) string {
	var b strings.Builder
	line := 1
	for i := 0; i < len(text); i++ {
		c := text[i]
		if c == '\n' {
			line++
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
				warn(line, "${"+inner+"}")
				value = "${" + inner + "}"
			}
			b.WriteString(value)
			i += end
		case isVarStart(next):
			j := i + 1
			for j < len(text) && isVarChar(text[j]) {
				j++
			}
			v, _ := lookup(text[i+1 : j])
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
		msg := err.Error()
		if i := strings.LastIndex(msg, ": "); i >= 0 {
			msg = msg[i+2:]
		}
		return "", fmt.Errorf("template: %s (vars: give it under vars:)", msg)
	}
	return b.String(), nil
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
