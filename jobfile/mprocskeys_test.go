package jobfile

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// send-keys with modifiers are typed as xterm sends them: the cursor,
// editing and function keys carry 1 + (shift 1, alt 2, ctrl 4) as a
// parameter, Shift-Tab is back-tab; keys xterm has no modified form
// for keep what the modifier does to the character.
func TestMprocsKeyModifiers(t *testing.T) {
	for _, tc := range []struct{ spec, want string }{
		{"<Up>", "\x1b[A"},
		{"<S-Up>", "\x1b[1;2A"},
		{"<M-Up>", "\x1b[1;3A"},
		{"<C-Left>", "\x1b[1;5D"},
		{"<C-S-Right>", "\x1b[1;6C"},
		{"<C-M-S-Down>", "\x1b[1;8B"},
		{"<Home>", "\x1b[H"},
		{"<S-Home>", "\x1b[1;2H"},
		{"<C-End>", "\x1b[1;5F"},
		{"<Insert>", "\x1b[2~"},
		{"<S-Insert>", "\x1b[2;2~"},
		{"<Del>", "\x1b[3~"},
		{"<C-Del>", "\x1b[3;5~"},
		{"<M-PageUp>", "\x1b[5;3~"},
		{"<C-PageDown>", "\x1b[6;5~"},
		{"<F1>", "\x1bOP"},
		{"<S-F1>", "\x1b[1;2P"},
		{"<C-F4>", "\x1b[1;5S"},
		{"<F5>", "\x1b[15~"},
		{"<C-F5>", "\x1b[15;5~"},
		{"<M-F12>", "\x1b[24;3~"},
		{"<Tab>", "\t"},
		{"<S-Tab>", "\x1b[Z"},
		{"<M-S-Tab>", "\x1b\x1b[Z"},
		{"<M-Tab>", "\x1b\t"},
		{"<S-Enter>", "\r"},
		{"<S-1>", "1"},
		{"<S-Space>", " "},
		{"<S-a>", "A"},
		{"<C-c>", "\x03"},
		{"<M-x>", "\x1bx"},
		{"<C-M-a>", "\x1b\x01"},
	} {
		got, err := mprocsKey(tc.spec)
		if assert.NoError(t, err, tc.spec) {
			assert.Equal(t, tc.want, got, tc.spec)
		}
	}
	for spec, msg := range map[string]string{
		"<C-Tab>":   `"<C-Tab>": a terminal has no ctrl form of Tab`,
		"<C-S-Tab>": `"<C-S-Tab>": a terminal has no ctrl form of Tab`,
		"<C-Enter>": `"<C-Enter>": a terminal has no ctrl form of Enter`,
		"<C-1>":     `"<C-1>": a terminal has no ctrl form of 1`,
	} {
		_, err := mprocsKey(spec)
		assert.EqualError(t, err, msg, spec)
	}

	// The whole file, as jobtop check reads it.
	inDir(t, nil)
	plan, err := Parse("mprocs.yaml", []byte(`procs:
  a: {shell: x, stop: {send-keys: ["<S-Up>", "<M-Up>", "<S-F1>", "<S-Tab>", "<S-Enter>", "<S-1>", "<S-Space>", "<C-Left>", "<C-Del>"]}}
`))
	require.NoError(t, err)
	a, _ := plan.Job("a")
	assert.Equal(t, "\x1b[1;2A\x1b[1;3A\x1b[1;2P\x1b[Z\r1 \x1b[1;5D\x1b[3;5~", a.Spec.StopInput)
}
