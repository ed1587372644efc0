package jobfile

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"jobtop/jobs"
)

// TestWebappExampleRuns loads the shipped web app example and runs it in a
// real jobs.Manager, starting the autostart jobs in the plan's start order
// as the TUI will. Every poll checks that no job got ahead of its
// dependencies; the test ends when everything is up.
func TestWebappExampleRuns(t *testing.T) {
	plan, err := Load("../testdata/webapp/jobtop.yaml")
	require.NoError(t, err)
	opts := plan.ManagerOptions()
	require.Equal(t, 8, opts.MaxRunning)
	opts.LogDir = t.TempDir()
	m, err := jobs.NewManager(opts)
	require.NoError(t, err)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		require.NoError(t, m.Shutdown(ctx))
	})

	ids := map[string]jobs.ID{}
	for _, j := range plan.StartOrder() {
		if !j.Autostart {
			continue
		}
		info, err := m.Start(j.Spec)
		require.NoError(t, err, j.Name)
		ids[j.Name] = info.ID
		if j.Name == "migrate" {
			// db prints its ready line a second after it starts; migrate
			// is started right after it.
			require.Equal(t, jobs.StateQueued, info.State)
			require.Equal(t, "waiting for db: ready", info.Reason)
		}
	}
	require.Equal(t, []string{"db", "migrate", "worker", "web"}, sortedByID(ids))
	_, seedStarted := ids["seed"]
	require.False(t, seedStarted, "seed has autostart: false")

	get := func(snapshot []jobs.Info, name string) jobs.Info {
		for _, in := range snapshot {
			if in.ID == ids[name] {
				return in
			}
		}
		t.Fatalf("no job %s", name)
		return jobs.Info{}
	}
	started := func(in jobs.Info) bool { return in.State != jobs.StateQueued }

	deadline := time.Now().Add(60 * time.Second)
	for {
		now := m.List()
		db, migrate, worker, web := get(now, "db"), get(now, "migrate"), get(now, "worker"), get(now, "web")
		for _, in := range now {
			require.NotContains(t, []jobs.State{jobs.StateError, jobs.StateFailed, jobs.StateKilled, jobs.StateTimedOut}, in.State,
				"%s ended: %s %s", in.Name, in.Error, in.Reason)
		}
		if started(migrate) {
			require.True(t, db.Ready, "migrate started before db was ready")
		}
		if started(worker) {
			require.Equal(t, jobs.StateSucceeded, migrate.State, "worker started before migrate succeeded")
		}
		if started(web) {
			require.True(t, db.Ready, "web started before db was ready")
			require.Equal(t, jobs.StateSucceeded, migrate.State, "web started before migrate succeeded")
		}
		if db.Ready && migrate.State == jobs.StateSucceeded && worker.State == jobs.StateRunning && web.Ready {
			require.False(t, migrate.Started.Before(*db.Started))
			require.False(t, worker.Started.Before(*migrate.Ended))
			require.False(t, web.Started.Before(*migrate.Ended))
			break
		}
		require.True(t, time.Now().Before(deadline), "not all up in time: %+v", now)
		time.Sleep(20 * time.Millisecond)
	}

	// The top-level env, web.env and the job's own env all reached web.
	out, err := m.Output(ids["web"])
	require.NoError(t, err)
	require.Equal(t, "web: listening on :8080 (development, log level debug)", firstLine(out))
	out, err = m.Output(ids["migrate"])
	require.NoError(t, err)
	require.Equal(t, "migrate: applying 3 migrations to postgres://localhost:5433/app", firstLine(out))
}

func sortedByID(ids map[string]jobs.ID) []string {
	names := make([]string, len(ids))
	for name, id := range ids {
		names[int(id)-1] = name
	}
	return names
}

func firstLine(out jobs.OutputReader) string {
	c := out.ReadAfter(0, 1)
	if len(c.Lines) == 0 {
		return ""
	}
	return strings.TrimSpace(c.Lines[0].Text)
}
