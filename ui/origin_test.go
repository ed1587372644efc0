package ui

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"jobtop/jobs"
)

// A job a coding agent started over MCP carries "[mcp]" after its name in
// the table, kept whole when the name is cut, and its pane header says
// which client started it; a person's own job has neither.
func TestOriginMarkInTableAndHeader(t *testing.T) {
	mgr := newManager(t)
	_, err := mgr.Start(jobs.Spec{Name: "agent-dev-server-with-a-very-long-name", Command: "echo up; sleep 60", Origin: "mcp", Client: "claude-code"})
	require.NoError(t, err)
	start(t, mgr, "mine", "echo mine; sleep 60")
	m := newSizedModel(t, mgr, Config{}, 120, 30)
	pumpUntil(t, m, "both jobs running", func() bool {
		v := m.View()
		return strings.Count(v, "● running") >= 2 && strings.Contains(v, "up")
	})
	view := m.View()
	requireFits(t, view, 120, 30, "an agent's job")
	require.Regexp(t, `1 agent-dev-server-… \[mcp\]\s+● running`, view, "the name is cut, the mark is kept")
	require.Regexp(t, `2 mine\s+● running`, view)
	require.NotContains(t, row(view, "2 mine"), "[mcp]")
	require.Contains(t, view, "● running  [mcp: claude-code]  $ echo up", "the selected agent job's header names its client")
}

func row(view, text string) string {
	for _, l := range strings.Split(view, "\n") {
		if strings.Contains(l, text) {
			return l
		}
	}
	return ""
}
