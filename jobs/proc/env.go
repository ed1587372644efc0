//go:build unix

package proc

import (
	"errors"
	"strings"
)

// ErrNoEnv is LookupEnv's answer for a process that shows no environment
// at all: one in the middle of an exec, for a moment (the kernel has not
// set the new one up), or one started with none, for good.
var ErrNoEnv = errors.New("the process shows no environment")

// Env returns the value of an environment variable as the process had it
// when it started (what it passed to exec), if it had it. Another user's
// processes cannot be read and report false.
func Env(pid int, name string) (string, bool) {
	v, ok, _ := LookupEnv(pid, name)
	return v, ok
}

// LookupEnv is Env, and says why it found nothing: an error when the
// environment could not be read, ErrNoEnv when it was empty, nil when the
// variable is not in it.
func LookupEnv(pid int, name string) (value string, found bool, err error) {
	env, err := environ(pid)
	if err != nil {
		return "", false, err
	}
	if len(env) == 0 {
		return "", false, ErrNoEnv
	}
	value, found = lookupEnv(env, name)
	return value, found, nil
}

// splitNUL splits NUL-terminated strings.
func splitNUL(b []byte) []string {
	var out []string
	for len(b) > 0 {
		i := 0
		for i < len(b) && b[i] != 0 {
			i++
		}
		out = append(out, string(b[:i]))
		b = b[min(i+1, len(b)):]
	}
	return out
}

// lookupEnv finds name's value in a list of KEY=VALUE entries: the first,
// as getenv does.
func lookupEnv(env []string, name string) (string, bool) {
	prefix := name + "="
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, prefix); ok {
			return v, true
		}
	}
	return "", false
}
