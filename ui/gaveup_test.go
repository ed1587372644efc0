package ui

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"jobtop/jobs"
)

// A job whose restart policy gave up says so in its pane's header: "✗
// failed (1) · run 2" alone did not tell it would not run again.
func TestPaneHeaderSaysARestartPolicyGaveUp(t *testing.T) {
	mgr := newManager(t)
	_, err := mgr.Start(jobs.Spec{Name: "flaky", Command: "exit 1",
		Restart: jobs.RestartPolicy{Mode: jobs.RestartOnFailure, Backoff: 10 * time.Millisecond, Max: 1}})
	require.NoError(t, err)
	clock := time.Now()
	m := newSizedModel(t, mgr, Config{Now: func() time.Time { return clock }}, 120, 20)
	pumpUntil(t, m, "the policy to give up", func() bool {
		info, ok := m.table.Get(1)
		return ok && info.State == jobs.StateFailed && info.Runs == 2 && info.Reason != ""
	})
	info, _ := m.table.Get(1)
	clock = info.Ended.Add(2 * time.Minute)
	m.Update(tickMsg{})
	header := ""
	for _, l := range lines(m.View()) {
		if strings.Contains(l, "flaky  ✗ failed") {
			header = l
		}
	}
	require.Contains(t, header, "· run 2 · 2m ago · gave up after 1 restart")
}
