package control

import (
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The README's description of the job object names every field the API
// sends, so none is there that a reader cannot look up.
func TestREADMEDocumentsEveryJobField(t *testing.T) {
	b, err := os.ReadFile("../README.md")
	require.NoError(t, err)
	readme := string(b)
	start := strings.Index(readme, "- `status --json` and `ls --json` give the job object:")
	require.GreaterOrEqual(t, start, 0, "the job object's description")
	end := strings.Index(readme[start:], "\n- `trace`")
	require.Greater(t, end, 0)
	section := readme[start : start+end]
	for _, name := range append(jobFieldNames(), "cpu_percent", "rss_bytes") {
		assert.Contains(t, section, "`"+name+"`", "the job object's %s", name)
	}
}
