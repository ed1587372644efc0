package control

import (
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"jobtop/jobs"
)

func attachHosts(t *testing.T, names []string, sockets ...string) *Hosts {
	t.Helper()
	clients := make([]*Client, len(sockets))
	for i, s := range sockets {
		clients[i] = NewClient(s)
	}
	h, err := AttachHosts(ctxT(t), names, clients)
	require.NoError(t, err)
	t.Cleanup(func() { h.Close() })
	return h
}

// byHost finds a job of the engine by its host and its ID there.
func byHost(list []jobs.Info, host string, id jobs.ID) (jobs.Info, bool) {
	for _, j := range list {
		if j.Host == host && j.HostID == id {
			return j, true
		}
	}
	return jobs.Info{}, false
}

// Two hosts' job 1 are two jobs of the engine, each with its host, and
// an action reaches the job's own host only.
func TestHostsKeepEachHostsJobsApart(t *testing.T) {
	a, b := startInstance(t), startInstance(t)
	a.startJob(t, "sleep 300")
	b.startJob(t, "sleep 300")
	b.startJob(t, "echo hi")
	h := attachHosts(t, []string{"a", "b"}, a.socket, b.socket)
	events := h.Subscribe()
	defer events.Close()

	list := h.List()
	require.Len(t, list, 3)
	seen := map[jobs.ID]bool{}
	for i, j := range list {
		assert.False(t, seen[j.ID], "engine IDs are unique")
		seen[j.ID] = true
		if i > 0 {
			assert.Less(t, list[i-1].ID, j.ID, "in ID order")
		}
	}
	onA, ok := byHost(list, "a", 1)
	require.True(t, ok)
	onB, ok := byHost(list, "b", 1)
	require.True(t, ok)
	require.NotEqual(t, onA.ID, onB.ID)

	require.NoError(t, h.Kill(onB.ID))
	got := b.waitEnded(t, 1)
	assert.Equal(t, jobs.StateKilled, got.State)
	still, err := a.mgr.Get(1)
	require.NoError(t, err)
	assert.Equal(t, jobs.StateRunning, still.State, "a's job 1 was not touched")
	require.Eventually(t, func() bool {
		j, err := h.Get(onB.ID)
		return err == nil && j.State == jobs.StateKilled && j.Host == "b" && j.HostID == 1
	}, testTimeout, 10*time.Millisecond)

	// A job started on b from elsewhere arrives with its host.
	b.startJob(t, "echo late")
	var late jobs.Info
	require.Eventually(t, func() bool {
		for {
			select {
			case batch := <-events.C():
				for _, ev := range batch {
					if ev.Kind == jobs.EventAdded && ev.Job.Host == "b" && ev.Job.HostID == 3 {
						late = ev.Job
						return true
					}
				}
			default:
				return false
			}
		}
	}, testTimeout, 10*time.Millisecond)
	assert.False(t, seen[late.ID], "a new engine ID")

	// The engine starts jobs on the first host.
	started, err := h.Start(jobs.Spec{Command: "echo new"})
	require.NoError(t, err)
	assert.Equal(t, "a", started.Host)
	_, err = a.mgr.Get(started.HostID)
	require.NoError(t, err)

	_, err = AttachHosts(ctxT(t), []string{"a", "a"}, []*Client{NewClient(a.socket), NewClient(a.socket)})
	require.ErrorContains(t, err, "host a is given twice")
}

// Several jobs on several hosts stopped at once: each host's jobs as
// one action there, each error at its job's place.
func TestHostsStopSeveralJobsAsOneOnEachHost(t *testing.T) {
	a, b := startInstance(t), startInstance(t)
	a.startJob(t, "sleep 300")
	b.startJob(t, "sleep 300")
	b.startJob(t, "true")
	b.waitEnded(t, 2)
	h := attachHosts(t, []string{"a", "b"}, a.socket, b.socket)
	list := h.List()
	onA, ok := byHost(list, "a", 1)
	require.True(t, ok)
	onB, ok := byHost(list, "b", 1)
	require.True(t, ok)
	ended, ok := byHost(list, "b", 2)
	require.True(t, ok)

	errs := h.StopJobs([]jobs.ID{onB.ID, 999, ended.ID, onA.ID})
	require.Len(t, errs, 4)
	assert.NoError(t, errs[0])
	var notFound *jobs.NotFoundError
	assert.ErrorAs(t, errs[1], &notFound)
	assert.ErrorContains(t, errs[2], "it has ended (succeeded)")
	assert.NoError(t, errs[3])
	assert.Equal(t, jobs.StateKilled, a.waitEnded(t, 1).State)
	assert.Equal(t, jobs.StateKilled, b.waitEnded(t, 1).State)
}

// restartServer closes an instance's server and serves its manager again
// on the same socket; with same, as the same instance (its PID and
// start), as a server that restarted its listener.
func restartServer(t *testing.T, in *instance, inst Instance) {
	t.Helper()
	require.NoError(t, in.server.Close())
	srv, err := ListenAndServe(in.mgr, in.socket, inst)
	require.NoError(t, err)
	in.server = srv
	t.Cleanup(func() { srv.Close() })
}

// A host that drops says so, with the time of the next attempt, keeps its
// jobs, and comes back with them under the same IDs, their output going
// on where it stopped. A new instance there replaces them.
func TestHostsReconnect(t *testing.T) {
	a := startInstance(t)
	fifo := mkfifo(t)
	job := a.startJob(t, "echo before; cat "+fifo)
	inst, err := a.client.Instance(ctxT(t))
	require.NoError(t, err)
	h := attachHosts(t, []string{"a"}, a.socket)
	events := h.Subscribe()
	defer events.Close()
	id := h.List()[0].ID
	require.Eventually(t, func() bool {
		out, err := h.Output(id)
		return err == nil && out.LastLine() == "before"
	}, testTimeout, 10*time.Millisecond)

	require.NoError(t, a.server.Close())
	require.Eventually(t, func() bool {
		st := h.Status()[0]
		return !st.Connected && st.Err != nil
	}, testTimeout, 10*time.Millisecond, "the host shows disconnected")
	st := h.Status()[0]
	if !st.RetryAt.IsZero() {
		assert.WithinDuration(t, time.Now().Add(ReconnectDelay), st.RetryAt, ReconnectDelay)
	}
	woken := false
	require.Eventually(t, func() bool {
		select {
		case b := <-events.C():
			woken = woken || len(b) == 0
		default:
		}
		return woken
	}, testTimeout, 10*time.Millisecond, "subscribers are woken by an empty batch")
	_, err = h.Get(id)
	require.NoError(t, err, "the job stays while its host is away")

	restartServer(t, a, inst)
	require.Eventually(t, func() bool { return h.Status()[0].Connected }, testTimeout, 10*time.Millisecond)
	assert.Zero(t, h.Status()[0].Replaced, "the same instance")
	writeFifo(t, fifo, "after\n")
	require.Eventually(t, func() bool {
		out, err := h.Output(id)
		if err != nil || out.LastLine() != "after" {
			return false
		}
		chunk := out.ReadAfter(0, 10)
		return len(chunk.Lines) == 2 && chunk.Lines[0].Text == "before"
	}, testTimeout, 10*time.Millisecond, "the same job, its output going on")
	a.waitEnded(t, job.ID)

	// Another instance on the socket: its job 1 is another job.
	require.NoError(t, a.server.Close())
	m2 := newManager(t, a.socket)
	srv2, err := ListenAndServe(m2, a.socket, Instance{Kind: "serve"})
	require.NoError(t, err)
	t.Cleanup(func() { srv2.Close() })
	_, err = m2.Start(jobs.Spec{Command: "echo other"})
	require.NoError(t, err)
	require.Eventually(t, func() bool {
		list := h.List()
		return len(list) == 1 && list[0].ID != id && list[0].HostID == 1 && list[0].Command == "echo other"
	}, testTimeout, 10*time.Millisecond)
	_, err = h.Get(id)
	require.Error(t, err, "the old instance's job is gone")
	require.Eventually(t, func() bool { return h.Status()[0].Connected && h.Status()[0].Replaced == 1 },
		testTimeout, 10*time.Millisecond, "the host says its instance was replaced")
	assert.NotEqual(t, inst.Started, h.Status()[0].Instance.Started)
}

// An action on a host that is away says which host.
func TestHostsActionOnADisconnectedHost(t *testing.T) {
	a := startInstance(t)
	a.startJob(t, "sleep 300")
	h := attachHosts(t, []string{"a"}, a.socket)
	id := h.List()[0].ID
	require.NoError(t, a.server.Close())
	require.Eventually(t, func() bool { return !h.Status()[0].Connected }, testTimeout, 10*time.Millisecond)
	err := h.Kill(id)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "a is disconnected")
}

// A job started through the engine before anything listed the host's
// jobs comes after them: engine IDs follow each host's own order, so a
// single host's rows are in its ID order (jobtop --host H 'cmd' with job
// 1 already there listed job 2 first).
func TestHostsStartKeepsTheHostsOrder(t *testing.T) {
	a := startInstance(t)
	a.startJob(t, "sleep 300")
	h := attachHosts(t, []string{"a"}, a.socket)
	started, err := h.Start(jobs.Spec{Command: "sleep 300"})
	require.NoError(t, err)
	assert.EqualValues(t, 2, started.HostID)
	a.startJob(t, "sleep 300")
	require.Eventually(t, func() bool { return len(h.List()) == 3 }, testTimeout, 10*time.Millisecond)
	var hostIDs, ids []jobs.ID
	for _, j := range h.List() {
		hostIDs = append(hostIDs, j.HostID)
		ids = append(ids, j.ID)
	}
	assert.Equal(t, []jobs.ID{1, 2, 3}, hostIDs, "rows in the host's ID order")
	assert.Equal(t, []jobs.ID{1, 2, 3}, ids)
}

// A host whose instance shut down (its jobs stopped on purpose) is not
// called back: over ssh the call would start a new instance there,
// undoing the shutdown.
func TestHostsDoNotReconnectAfterAShutdown(t *testing.T) {
	a := startInstance(t)
	a.startJob(t, "sleep 300")
	h := attachHosts(t, []string{"a"}, a.socket)
	require.NoError(t, a.mgr.Shutdown(ctxT(t)))
	require.NoError(t, a.server.Close())
	require.Eventually(t, func() bool {
		var down *ShutDownError
		st := h.Status()[0]
		return !st.Connected && errors.As(st.Err, &down)
	}, testTimeout, 10*time.Millisecond, "the host says its instance shut down: %+v", h.Status()[0])
	assert.True(t, h.Status()[0].RetryAt.IsZero(), "no retry is planned")
}
