package cmd

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// JSON printed by jobtop never holds a raw C1 control character (a CSI
// as U+009B moves some terminals' cursor): each is escaped, and the value
// read back is the same. Other characters, © included, are untouched.
func TestJSONEscapesC1(t *testing.T) {
	v := map[string]string{"description": "a\u009b2Jb \u009d0;T\u009c © é \x1b[31m"}
	var out bytes.Buffer
	require.NoError(t, printJSON(&out, v))
	assert.NotContains(t, out.String(), "\u009b")
	assert.NotContains(t, out.String(), "\u009d")
	assert.Contains(t, out.String(), `a\u009b2Jb \u009d0;T\u009c © é \u001b[31m`)
	var back map[string]string
	require.NoError(t, json.Unmarshal(out.Bytes(), &back))
	assert.Equal(t, v, back)
}
