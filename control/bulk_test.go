package control

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"jobtop/jobs"
)

// startNamed starts a named shell job through the API.
func (in *instance) startNamed(t *testing.T, name, command string) jobs.Info {
	t.Helper()
	info, err := in.client.StartJob(ctxT(t), StartRequest{Name: name, Command: command, Grace: "5s"})
	require.NoError(t, err)
	return info
}

func ids(list []jobs.Info) []jobs.ID {
	out := make([]jobs.ID, 0, len(list))
	for _, j := range list {
		out = append(out, j.ID)
	}
	return out
}

func refusedIDs(list []BulkRefusal) []jobs.ID {
	out := make([]jobs.ID, 0, len(list))
	for _, r := range list {
		out = append(out, r.ID)
	}
	return out
}

// Selectors narrow each other: a state and a name glob together pick the
// jobs that match both; jobs the action does not apply to are skipped,
// not errors; wait=true answers once every picked job has ended.
func TestBulkStopBySelectors(t *testing.T) {
	in := startInstance(t)
	web1 := in.startNamed(t, "web-1", "exec sleep 60")
	web2 := in.startNamed(t, "web-2", "exec sleep 60")
	done := in.startNamed(t, "web-3", "true")
	db := in.startNamed(t, "db", "exec sleep 60")
	in.waitEnded(t, done.ID)

	resp, err := in.client.Bulk(ctxT(t), BulkStop, BulkRequest{Name: "web-*"}, true)
	require.NoError(t, err)
	assert.Equal(t, []jobs.ID{web1.ID, web2.ID}, ids(resp.Jobs))
	for _, j := range resp.Jobs {
		assert.Equal(t, jobs.StateKilled, j.State, "wait=true answers once it has ended")
		assert.False(t, processAlive(j.PID))
	}
	assert.Equal(t, []jobs.ID{done.ID}, refusedIDs(resp.Skipped), "an ended job is skipped")
	assert.Equal(t, jobs.StateSucceeded, resp.Skipped[0].State)
	assert.Empty(t, resp.Failed)
	still, err := in.client.Job(ctxT(t), db.ID)
	require.NoError(t, err)
	assert.Equal(t, jobs.StateRunning, still.State, "db does not match web-*")

	// State and name together.
	resp, err = in.client.Bulk(ctxT(t), BulkRestart, BulkRequest{State: "killed,succeeded", Name: "web-[12]"}, true)
	require.NoError(t, err)
	assert.Equal(t, []jobs.ID{web1.ID, web2.ID}, ids(resp.Jobs))
	for _, j := range resp.Jobs {
		assert.Equal(t, 2, j.Runs, "wait=true answers once the new run started")
	}

	// --all kills what runs and skips the rest.
	resp, err = in.client.Bulk(ctxT(t), BulkKill, BulkRequest{All: true}, true)
	require.NoError(t, err)
	assert.Equal(t, []jobs.ID{web1.ID, web2.ID, db.ID}, ids(resp.Jobs))
	assert.Equal(t, []jobs.ID{done.ID}, refusedIDs(resp.Skipped))

	// Every job has ended: "ended" picks them all for removal.
	resp, err = in.client.Bulk(ctxT(t), BulkRemove, BulkRequest{State: "ended"}, false)
	require.NoError(t, err)
	assert.Len(t, resp.Jobs, 4)
	list, err := in.client.Jobs(ctxT(t))
	require.NoError(t, err)
	assert.Empty(t, list)
}

// A bulk stop of a job waiting out its restart backoff and of a job
// waiting for it to complete: the cancelled restart (a completion, for
// the dependant) does not start the dependant before the same stop
// stops it.
func TestBulkStopStartsNothingItStops(t *testing.T) {
	in := startInstance(t)
	a, err := in.client.StartJob(ctxT(t), StartRequest{Name: "a", Command: "exit 1",
		Restart: &RestartRequest{Policy: "always", Backoff: "1h"}})
	require.NoError(t, err)
	b, err := in.client.StartJob(ctxT(t), StartRequest{Name: "b", Command: "echo b",
		DependsOn: map[string]string{"a": "completed"}})
	require.NoError(t, err)
	deadline := time.Now().Add(10 * time.Second)
	for a.RestartAt == nil {
		require.True(t, time.Now().Before(deadline), "a waits to restart")
		time.Sleep(5 * time.Millisecond)
		a, err = in.client.Job(ctxT(t), a.ID)
		require.NoError(t, err)
	}

	resp, err := in.client.Bulk(ctxT(t), BulkStop, BulkRequest{All: true}, true)
	require.NoError(t, err)
	require.Equal(t, []jobs.ID{a.ID, b.ID}, ids(resp.Jobs))
	b = resp.Jobs[1]
	assert.Equal(t, jobs.StateKilled, b.State)
	assert.Equal(t, "stopped before it started", b.Error)
	assert.Zero(t, b.PID, "it never ran")
	assert.Nil(t, resp.Jobs[0].RestartAt, "a's restart is cancelled")
}

// Jobs named one by one: an unknown one, or one the action does not
// apply to, is listed as failed while the others are acted on.
func TestBulkNamedJobs(t *testing.T) {
	in := startInstance(t)
	a := in.startNamed(t, "a", "exec sleep 60")
	b := in.startNamed(t, "b", "true")
	c := in.startNamed(t, "c", "exec sleep 60")
	in.waitEnded(t, b.ID)

	missing, err := in.client.BulkWith(ctxT(t), BulkSignal, BulkRequest{Jobs: []JobRef{"a", "nosuch", "99", "nosuch", "99999999999999999999"}}, false, "CONT")
	require.NoError(t, err)
	assert.Equal(t, []jobs.ID{a.ID}, ids(missing.Jobs), "the others are acted on")
	assert.Equal(t, []BulkRefusal{
		{Name: "nosuch", Error: `no job "nosuch": give a job ID (a number) or a job's name; ` + ListJobsHint},
		{ID: 99, Error: "no job with ID 99"},
		{Name: "99999999999999999999", Error: "no job with ID 99999999999999999999"},
	}, missing.Failed, "each once, in the order named")

	// IDs as numbers or strings, names, duplicates: each job once.
	body := `{"jobs": [3, "a", "b", "1"]}`
	res := postRaw(t, in, "/v1/jobs/kill?wait=true", body)
	require.Equal(t, http.StatusOK, res.status, res.body)
	var resp BulkResponse
	require.NoError(t, json.Unmarshal([]byte(res.body), &resp))
	assert.Equal(t, []jobs.ID{a.ID, c.ID}, ids(resp.Jobs))
	require.Len(t, resp.Failed, 1)
	assert.Equal(t, b.ID, resp.Failed[0].ID)
	assert.Equal(t, "b", resp.Failed[0].Name)
	assert.Equal(t, "cannot kill job 2: it has ended (succeeded)", resp.Failed[0].Error)
	assert.Empty(t, resp.Skipped)
}

type rawResult struct {
	status int
	body   string
}

// postRaw posts a body to the instance as is; an error answer's body is
// its message.
func postRaw(t *testing.T, in *instance, path, body string) rawResult {
	t.Helper()
	req, err := http.NewRequestWithContext(ctxT(t), http.MethodPost, "http://jobtop"+path, strings.NewReader(body))
	require.NoError(t, err)
	resp, err := in.client.http.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	var e errorResponse
	if json.Unmarshal(b, &e) == nil && e.Error != "" {
		return rawResult{status: resp.StatusCode, body: e.Error}
	}
	return rawResult{status: resp.StatusCode, body: string(b)}
}

func TestBulkRefusesBadRequests(t *testing.T) {
	in := startInstance(t)
	in.startNamed(t, "a", "exec sleep 60")
	cases := map[string]string{
		``:                                  "empty body: say which jobs",
		`{}`:                                "say which jobs: job IDs or names, all, a state or a name pattern",
		`{"jobs": ["a"], "all": true}`:      "give job IDs or names, or all, not both",
		`{"state": "runing"}`:               `state "runing" is not one of queued, running, stopping`,
		`{"name": "web-["}`:                 `name pattern "web-[" is not valid`,
		`{"all": true, "force": true}`:      `unknown field "force"; known fields: jobs, all, state, name`,
		`{"jobs": [true]}`:                  "a job is an ID (a number) or a name (a string)",
		`{"all": true} {"all": true}`:       "must hold one object and nothing after it",
		`{"all": "yes"}`:                    `field "all" must be`,
		`{"jobs": "a"}`:                     `field "jobs" must be`,
		`{"all": true, "state": "ended,x"}`: `state "x" is not one of`,
	}
	for body, want := range cases {
		res := postRaw(t, in, "/v1/jobs/stop", body)
		assert.Equal(t, http.StatusBadRequest, res.status, "%s: %s", body, res.body)
		assert.Contains(t, res.body, want, body)
	}
	list, err := in.client.Jobs(ctxT(t))
	require.NoError(t, err)
	assert.Equal(t, jobs.StateRunning, list[0].State, "no bad request stopped anything")

	res := postRaw(t, in, "/v1/jobs/stop?wait=maybe", `{"all": true}`)
	assert.Equal(t, http.StatusBadRequest, res.status)
	assert.Contains(t, res.body, `wait="maybe": use true or false`)
}

// A selector that matches nothing is not an error: the answer is empty.
func TestBulkMatchingNothing(t *testing.T) {
	in := startInstance(t)
	resp, err := in.client.Bulk(ctxT(t), BulkRemove, BulkRequest{State: "ended"}, false)
	require.NoError(t, err)
	assert.Empty(t, resp.Jobs)
	var raw bytes.Buffer
	require.NoError(t, json.NewEncoder(&raw).Encode(resp))
	assert.JSONEq(t, `{"jobs": [], "skipped": [], "failed": [], "removed": []}`, raw.String(), "empty lists, not null")
}

// POST /v1/shutdown stops every job, is answered once they have ended,
// and asks the owner to end the instance; new jobs are refused meanwhile.
func TestShutdownStopsJobsAndAsksTheOwner(t *testing.T) {
	in := startInstance(t)
	require.NoError(t, in.mgr.SetMaxRunning(4))
	graceful := in.startNamed(t, "graceful", "trap 'echo bye; exit 0' TERM; echo up; while :; do sleep 0.05; done")
	in.waitEnded(t, in.startNamed(t, "done", "true").ID)
	sleeper := in.startNamed(t, "sleeper", "exec sleep 60")
	require.Eventually(t, func() bool {
		j, err := in.client.Job(ctxT(t), graceful.ID)
		return err == nil && j.LastLine == "up"
	}, testTimeout, 10*time.Millisecond)

	// The owner: on the request, it shuts the manager down, as serve does.
	go func() {
		<-in.server.ShutdownRequested()
		in.mgr.Shutdown(ctxT(t)) //nolint:errcheck // checked through the answer
	}()
	resp, err := in.client.Shutdown(ctxT(t))
	require.NoError(t, err)
	assert.Equal(t, 2, resp.Stopped)
	assert.Equal(t, "serve", resp.Instance.Kind)
	assert.Equal(t, 4, resp.Instance.MaxRunning, "the limit it had, as GET /v1/instance says it")
	require.Len(t, resp.Jobs, 3)
	for _, j := range resp.Jobs {
		assert.True(t, j.State.Done(), "job %s is %s", j.Name, j.State)
	}
	assert.False(t, processAlive(sleeper.PID))
	out, err := in.client.ReadOutput(ctxT(t), graceful.ID, OutputQuery{})
	require.NoError(t, err)
	assert.Contains(t, texts(out.Lines), "bye", "the grace rules applied")

	_, err = in.client.StartJob(ctxT(t), StartRequest{Command: "true"})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "shutting down")
}

// A stop that waits returns once the run it stopped has ended, also when
// the job is restarted meanwhile: it waited for the job to settle, which
// a server run again never does, so `jobtop stop --all` hung (rev14).
func TestAStopWaitReturnsWhenTheJobIsRestartedMeanwhile(t *testing.T) {
	in := startInstance(t)
	slow := "trap 'sleep 1; exit 0' TERM; echo up; while :; do sleep 0.05; done"
	for _, bulk := range []bool{true, false} {
		j := in.startNamed(t, fmt.Sprintf("slow-%v", bulk), slow)
		require.Eventually(t, func() bool {
			info, err := in.client.Job(ctxT(t), j.ID)
			return err == nil && info.Lines > 0
		}, testTimeout, 5*time.Millisecond, "the trap is set")
		done := make(chan error, 1)
		go func() {
			var err error
			if bulk {
				_, err = in.client.Bulk(ctxT(t), BulkStop, BulkRequest{Jobs: []JobRef{JobRef(j.ID.String())}}, true)
			} else {
				_, err = in.client.StopJob(ctxT(t), j.ID, true)
			}
			done <- err
		}()
		require.Eventually(t, func() bool {
			info, err := in.client.Job(ctxT(t), j.ID)
			return err == nil && info.State == jobs.StateStopping
		}, testTimeout, 5*time.Millisecond, "the stop has begun")
		_, err := in.client.RestartJob(ctxT(t), j.ID, false)
		require.NoError(t, err)
		select {
		case err := <-done:
			require.NoError(t, err, "bulk %v", bulk)
		case <-time.After(testTimeout):
			t.Fatalf("bulk %v: the stop's wait did not return", bulk)
		}
		in.client.KillJob(ctxT(t), j.ID, true) //nolint:errcheck // the new run
	}
}

// The same when the job was queued when the stop began and is queued
// again before the wait reads it: its stop took effect at once ("stopped
// before it started"), and the wait must not wait for its next run.
func TestAStopWaitReturnsWhenAQueuedJobIsQueuedAgain(t *testing.T) {
	in := startInstance(t)
	_, err := in.client.SetParallel(ctxT(t), 1)
	require.NoError(t, err)
	a := in.startNamed(t, "a", "trap '' TERM; echo up; exec sleep 120")
	b := in.startNamed(t, "b", "exec sleep 120")
	require.Eventually(t, func() bool {
		info, err := in.client.Job(ctxT(t), a.ID)
		return err == nil && info.Lines > 0
	}, testTimeout, 5*time.Millisecond, "a runs, its trap set")
	done := make(chan error, 1)
	go func() {
		_, err := in.client.Bulk(ctxT(t), BulkStop, BulkRequest{All: true}, true)
		done <- err
	}()
	require.Eventually(t, func() bool {
		info, err := in.client.Job(ctxT(t), a.ID)
		return err == nil && info.State == jobs.StateStopping
	}, testTimeout, 5*time.Millisecond, "the stop has begun")
	for _, id := range []jobs.ID{a.ID, b.ID} {
		_, err := in.client.RestartJob(ctxT(t), id, false)
		require.NoError(t, err)
	}
	select {
	case err := <-done:
		require.NoError(t, err)
	case <-time.After(testTimeout):
		t.Fatal("the stop's wait did not return")
	}
	for _, id := range []jobs.ID{a.ID, b.ID} {
		in.client.KillJob(ctxT(t), id, true) //nolint:errcheck // the new runs
	}
}

// TestNameMatchesAsAShellDoes: name patterns match as in shell patterns,
// "[!...]" included (to Go's path.Match, "!" is one more character of the
// class: "[!w]*" picked web and left api).
func TestNameMatchesAsAShellDoes(t *testing.T) {
	for _, c := range []struct {
		glob, name string
		want       bool
	}{
		{"[!w]*", "api", true},
		{"[!w]*", "web", false},
		{"[^w]*", "api", true},
		{"[!a-c]pi", "api", false},
		{"[!a-c]pi", "xpi", true},
		{"[[!]x", "!x", true}, // "!" inside a class is a character
		{"[[!]x", "[x", true},
		{"[[!]x", "ax", false},
		{`\[!w]`, "[!w]", true}, // escaped: no class
		{"[]]*", "]x", true},    // "]" first in a class is one of its characters
		{"[!]]*", "]x", false},
		{"[!]]*", "x", true},
		{"[a-]*", "-x", true}, // "-" first or last in a class is one of its characters
		{"[-a]*", "ax", true},
		{"[!-]*", "-x", false},
		{"*[._-]*", "web-2", true},
		{"[a-c]x", "bx", true},
		{"[a-z-0]*", "-x", true}, // a "-" right after a range is one of its characters
		{"[a-z-0]*", "0x", true},
		{"[a-z-0]*", "1x", false},
		{"api*", "api/web", true},
		{"*,[!w]*", "web", true},
		{"", "web", false},
	} {
		assert.Equal(t, c.want, NameMatches(c.glob, c.name), "%q against %q", c.glob, c.name)
	}
	assert.True(t, ValidNamePattern("[!w]*"))
	assert.False(t, ValidNamePattern("[!w"))
}
