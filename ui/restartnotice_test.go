package ui

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"jobtop/jobs"
)

// r says "restarting" while the job's run is being stopped, and
// "restarted" once its new run starts (the notice does not stay saying
// it is restarting); an ended job restarts at once.
func TestRestartNoticeSaysWhenItRestarted(t *testing.T) {
	mgr := newManager(t)
	start(t, mgr, "slow", `trap 'sleep 0.3; exit 0' TERM; echo run; while :; do sleep 0.05; done`)
	start(t, mgr, "done", `echo done`)
	m := newSizedModel(t, mgr, Config{}, 120, 30)
	pumpUntil(t, m, "one running, one ended", func() bool {
		v := m.View()
		return strings.Contains(v, "● 1 running") && strings.Contains(v, "✓ 1 succeeded")
	})

	m.table.Select(1)
	press(t, m, "r")
	pumpUntil(t, m, "restarting", func() bool { return strings.Contains(m.statusView(), "restarting job 1") })
	pumpUntil(t, m, "its new run", func() bool { return strings.Contains(m.statusView(), "restarted job 1") })

	m.table.Select(2)
	press(t, m, "r")
	pumpUntil(t, m, "the ended job restarted", func() bool { return strings.Contains(m.statusView(), "restarted job 2") })
}

// r on a job that cannot start (its dependency failed) says why, not
// that it is restarting.
func TestRestartNoticeSaysWhyItCouldNotRestart(t *testing.T) {
	mgr := newManager(t)
	start(t, mgr, "a", "exit 1")
	_, err := mgr.StartSoon(jobs.Spec{Name: "b", Command: "echo b", DependsOn: map[string]jobs.Condition{"a": jobs.CondSucceeded}})
	require.NoError(t, err)
	m := newSizedModel(t, mgr, Config{}, 120, 30)
	pumpUntil(t, m, "b refused", func() bool { return strings.Contains(m.View(), "dependency a failed") })
	m.table.Select(2)
	press(t, m, "r")
	pumpUntil(t, m, "why", func() bool {
		return strings.Contains(m.statusView(), "job 2 could not restart: dependency a failed (exit 1)")
	})
	require.NotContains(t, m.statusView(), "restarting")
}
