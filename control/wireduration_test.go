package control

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"jobtop/jobs"
)

// A duration in a request is what jobtop takes everywhere: a string with
// a unit or of a number of seconds, or a JSON number of seconds.
func TestDurationsTakeSeconds(t *testing.T) {
	for body, want := range map[string]jobs.Spec{
		`{"command": "x", "timeout": 30}`:    {Timeout: 30 * time.Second},
		`{"command": "x", "timeout": "30"}`:  {Timeout: 30 * time.Second},
		`{"command": "x", "timeout": 0.5}`:   {Timeout: 500 * time.Millisecond},
		`{"command": "x", "timeout": "0.5"}`: {Timeout: 500 * time.Millisecond},
		`{"command": "x", "timeout": "1m"}`:  {Timeout: time.Minute},
		`{"command": "x", "timeout": null}`:  {},
		`{"command": "x", "grace": 2, "restart": {"policy": "always", "backoff": 0.25, "max_backoff": "3"}}`: {Grace: 2 * time.Second,
			Restart: jobs.RestartPolicy{Mode: jobs.RestartAlways, Backoff: 250 * time.Millisecond, MaxBackoff: 3 * time.Second}},
		`{"command": "x", "ready": {"after": 1}}`:                                                             {Ready: jobs.ReadyCheck{After: time.Second}},
		`{"command": "x", "health": {"exec": "true", "interval": 2, "timeout": "1.5", "initial_delay": 0.1}}`: {},
	} {
		spec, err := DecodeStartRequest(strings.NewReader(body))
		require.NoError(t, err, body)
		if strings.Contains(body, "health") {
			assert.Equal(t, 2*time.Second, spec.Health.Interval, body)
			assert.Equal(t, 1500*time.Millisecond, spec.Health.Timeout, body)
			assert.Equal(t, 100*time.Millisecond, spec.Health.InitialDelay, body)
			continue
		}
		assert.Equal(t, want.Timeout, spec.Timeout, body)
		assert.Equal(t, want.Grace, spec.Grace, body)
		assert.Equal(t, want.Ready.After, spec.Ready.After, body)
		if want.Restart.Mode != "" {
			assert.Equal(t, want.Restart.Backoff, spec.Restart.Backoff, body)
			assert.Equal(t, want.Restart.MaxBackoff, spec.Restart.MaxBackoff, body)
		}
	}

	// In a query too: a wait of 0.3 seconds answers, not ended.
	in := startInstance(t)
	info := in.startJob(t, "exec sleep 60")
	h := in.server.Handler()
	for _, path := range []string{"/v1/jobs/" + info.ID.String() + "/wait?timeout=0.3",
		"/v1/jobs/" + info.ID.String() + "/output?wait=true&tail=0&timeout=0.3"} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
		require.Equal(t, http.StatusOK, rec.Code, "%s: %s", path, rec.Body)
		var answer struct{ Ended bool }
		require.NoError(t, json.Unmarshal(rec.Body.Bytes(), &answer), path)
		assert.False(t, answer.Ended, path)
	}
}
