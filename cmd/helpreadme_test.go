package cmd

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// --help and the README say the same: -f's default files left out
// compose.yml/.yaml (the long help and the README name them), --socket
// read "string" where the README says PATH, serve --idle-exit left out
// the jobs waiting to restart (the README said "restarting", the code
// waits for them), and the README's dial-stdio line left out --api.
func TestHelpAgreesWithTheReadme(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	require.NoError(t, err)
	text := strings.Join(strings.Fields(string(readme)), " ")
	root := newRootCmd()
	sub := func(name string) *cobra.Command {
		c, _, err := root.Find([]string{name})
		require.NoError(t, err)
		return c
	}

	files, _, _ := strings.Cut(root.Flags().Lookup(fileFlag).Usage, "with its override file")
	assert.Regexp(t, `(^|[^-])compose\.yml/\.yaml`, files, "-f's default files")
	assert.Contains(t, root.Long, "compose.yml/.yaml (with processes:)")
	assert.Contains(t, strings.Join(strings.Fields(sub("serve").Long), " "), "compose.yml/.yaml (with processes:)")

	name, _ := pflag.UnquoteUsage(root.PersistentFlags().Lookup(socketFlag))
	assert.Equal(t, "PATH", name, "--socket PATH, as the README writes it")
	assert.True(t, strings.Contains(text, "--socket PATH"), "the README's --socket")

	idle := sub("serve").Flags().Lookup("idle-exit").Usage
	const waits = "no job running, queued or waiting to restart"
	assert.Contains(t, idle, waits)
	assert.Contains(t, strings.Join(strings.Fields(sub("serve").Long), " "), waits)
	assert.True(t, strings.Contains(text, "--idle-exit: also exit after DUR with "+waits+" and no client connected"), "the README's serve --idle-exit")

	line := regexp.MustCompile(`(?m)^    jobtop dial-stdio .*$`).FindString(string(readme))
	require.NotEmpty(t, line, "the README's usage line of dial-stdio")
	sub("dial-stdio").LocalFlags().VisitAll(func(f *pflag.Flag) {
		if f.Name == "help" {
			return
		}
		want := "--" + f.Name
		if value, _ := pflag.UnquoteUsage(f); value != "" {
			want += " " + value
		}
		assert.Contains(t, line, want, "the README's dial-stdio line")
	})
}
