package jobfile

import (
	"fmt"
	"unicode"

	"jobtop/jobs"
)

// checkName says what is wrong with a job name, or "" when nothing is:
// the rules of jobs.CheckName, which the API, CLI and TUI apply too.
func checkName(name string) string {
	if err := jobs.CheckName(name); err != nil {
		return err.Error()
	}
	return ""
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
		return fmt.Sprintf("%q is not a variable name (ASCII letters, digits and _, not starting with a digit)", name)
	}
	return ""
}

// checkDotenvName checks a name in an env file read as godotenv 1.5.1
// reads it (process-compose's): letters, digits, _ and ., in any order.
func checkDotenvName(name string) string {
	ok := name != ""
	for _, c := range name {
		ok = ok && (unicode.IsLetter(c) || unicode.IsNumber(c) || c == '_' || c == '.')
	}
	if !ok {
		return fmt.Sprintf("%q is not a variable name (letters, digits, _ and .)", name)
	}
	return ""
}
