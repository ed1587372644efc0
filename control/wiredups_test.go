package control

import (
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestDuplicateField(t *testing.T) {
	for _, c := range []struct {
		body, object, name string
	}{
		{`{"a": 1, "b": 2, "a": 3}`, "", "a"},
		{`{"a": {"x": 1, "y": {"x": 2}, "x": 3}}`, "a", "x"},
		{`{"list": [{"k": 1}, {"k": 2, "k": 3}]}`, "list", "k"},
		{`{"a": [1, [2, {"z": 1}], {"z": 2}], "b": {"z": 1, "z": 1}}`, "b", "z"},
		{`{"a": "}", "b": "{\"a\": 1}", "a": null}`, "", "a"},
		{`{"command": "a", "Command": "b"}`, "", "Command"},
		{`{"restart": {"policy": "no", "Policy": "always"}}`, "restart", "Policy"},
	} {
		object, name, found := duplicateField([]byte(c.body))
		assert.True(t, found, c.body)
		assert.Equal(t, [2]string{c.object, c.name}, [2]string{object, name}, c.body)
	}
	for _, body := range []string{
		`{"env": {"max": "1"}, "restart": {"max": 3}, "max": 4}`, // one name, in three objects
		`{"jobs": [{"a": 1}, {"a": 2}], "a": [{"a": 3}]}`,
		`{"env": {"A": "1", "a": "2"}, "depends_on": {"web": "", "Web": ""}, "ready": {"headers": {"X": "", "x": ""}}}`, // maps' keys differ by case
		`[{"a": 1}, {"a": 2}]`,
		`{"a": 1, "a"`, // not JSON: decoding says so
		``, `5`, `{}`,
	} {
		_, _, found := duplicateField([]byte(body))
		assert.False(t, found, body)
	}
}

// CallerEnviron leaves out jobtop's own variables, and, when larger than
// a request carries, its largest variables until it fits (it was then
// nil, and the job lost PATH and a virtualenv with the one large value).
func TestCallerEnviron(t *testing.T) {
	t.Setenv("JOBTOP_JOB_ID", "7")
	t.Setenv("CALLER_ENVIRON_TEST", "yes")
	env, left := CallerEnviron()
	assert.Empty(t, left)
	assert.Contains(t, env, "CALLER_ENVIRON_TEST=yes")
	assert.NotContains(t, env, "JOBTOP_JOB_ID=7")
	t.Setenv("CALLER_ENVIRON_BIG", strings.Repeat("a", maxEnviron))
	env, left = CallerEnviron()
	assert.Equal(t, []string{"CALLER_ENVIRON_BIG"}, left)
	assert.Contains(t, env, "CALLER_ENVIRON_TEST=yes")
	assert.Contains(t, env, "PATH="+os.Getenv("PATH"))
	// Counted as JSON writes it: "&" takes 6 bytes there.
	t.Setenv("CALLER_ENVIRON_BIG", strings.Repeat("&", maxEnviron/5))
	t.Setenv("CALLER_ENVIRON_MID", strings.Repeat("m", maxEnviron/4))
	env, left = CallerEnviron()
	assert.Equal(t, []string{"CALLER_ENVIRON_BIG"}, left, "the largest as sent")
	assert.Contains(t, env, "CALLER_ENVIRON_MID="+strings.Repeat("m", maxEnviron/4))
	// PATH goes last, however large (a Nix PATH: rev43 saw the job's
	// program not found).
	longPath := os.Getenv("PATH") + strings.Repeat(":/nix/store/x", maxEnviron*3/5/13)
	t.Setenv("PATH", longPath)
	t.Setenv("CALLER_ENVIRON_BIG", strings.Repeat("b", maxEnviron/2))
	t.Setenv("CALLER_ENVIRON_MID", "")
	env, left = CallerEnviron()
	assert.Equal(t, []string{"CALLER_ENVIRON_BIG"}, left)
	assert.Contains(t, env, "PATH="+longPath)
}
