package jobfile

import (
	"fmt"
	"strings"
)

// checkName says what is wrong with a job name, or "" when nothing is.
// Names are what depends_on, the table and the CLI use, so they are kept
// to letters, digits, ".", "_" and "-", and are never a bare number (that
// would read as a job ID).
func checkName(name string) string {
	switch {
	case name == "":
		return "a job name is empty"
	case strings.Trim(name, "0123456789") == "":
		return fmt.Sprintf("job name %q is a number, which reads as a job ID: add a letter", name)
	case len(name) > 64:
		return fmt.Sprintf("job name %.20q... is longer than 64 characters", name)
	}
	for _, c := range name {
		if !nameChar(c) {
			return fmt.Sprintf("job name %q may only use letters, digits, \".\", \"_\" and \"-\"", name)
		}
	}
	return ""
}

func nameChar(c rune) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-'
}

// checkEnvName says what is wrong with an environment variable name, or ""
// when nothing is: names are letters, digits and "_", not starting with a
// digit, as the shell wants them.
func checkEnvName(name string) string {
	ok := name != "" && !(name[0] >= '0' && name[0] <= '9')
	for _, c := range name {
		ok = ok && (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_')
	}
	if !ok {
		return fmt.Sprintf("%q is not a variable name (letters, digits and _, not starting with a digit)", name)
	}
	return ""
}
