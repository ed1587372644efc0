package control

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"jobtop/jobs"
)

// FuzzDecodeStartRequest: no body crashes the decoder; what it accepts is
// a valid spec that survives a round trip through SpecRequest.
func FuzzDecodeStartRequest(f *testing.F) {
	for _, seed := range []string{
		`{"command": "echo hello"}`,
		`{"name": "web", "command": "npm run dev", "cwd": "/tmp", "env": {"PORT": "3000"}, "timeout": "5m"}`,
		`{"argv": ["go", "test", "./..."], "stop_signal": "SIGINT", "grace": "2s"}`,
		`{"command": "x", "restart": {"mode": "on-failure", "backoff": "1s", "max_backoff": "30s", "max": 3}}`,
		`{"command": "x", "ready": {"log_pattern": "listening on", "after": "1s"}, "depends_on": {"db": "ready"}}`,
		`{"command": "x", "timeout": "-1s"}`,
		`{"command": "x", "unknown": 1}`,
		`{"command": "\u0000"}`,
		`{"command": "x"} trailing`,
		`{"command": "x", "ready": {"log_pattern": "(("}}`,
		`[]`, `null`, ``, `{`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		spec, err := DecodeStartRequest(bytes.NewReader(body))
		if err != nil {
			var reqErr *RequestError
			if !errors.As(err, &reqErr) || reqErr.Msg == "" {
				t.Fatalf("decoding error is not a RequestError with a message: %#v", err)
			}
			return
		}
		if err := spec.Validate(); err != nil {
			t.Fatalf("accepted an invalid spec: %v", err)
		}
		again, err := json.Marshal(SpecRequest(spec))
		require.NoError(t, err)
		spec2, err := DecodeStartRequest(bytes.NewReader(again))
		require.NoError(t, err, "round trip of %s", again)
		again2, _ := json.Marshal(SpecRequest(spec2))
		require.Equal(t, string(again), string(again2))
	})
}

// FuzzParseOutputQuery: no query crashes the parser; what it accepts
// encodes back to the same query.
func FuzzParseOutputQuery(f *testing.F) {
	for _, seed := range []string{
		"", "cursor=10&max=5", "tail=20&stream=stderr", "wait=true&timeout=30s",
		"follow=1&cursor=18446744073709551615", "cursor=-1", "max=1e9", "timeout=-1s",
		"stream=meta", "cursor=3&tail=2", "%zz",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		v, err := url.ParseQuery(raw)
		if err != nil {
			return
		}
		q, err := ParseOutputQuery(v)
		if err != nil {
			return
		}
		q2, err := ParseOutputQuery(q.Values())
		require.NoError(t, err)
		require.Equal(t, q, q2)
	})
}

// noSpawn is a real manager that refuses to start processes, so fuzzed
// requests cannot run commands.
type noSpawn struct{ *jobs.Manager }

var errNoSpawn = errors.New("not started while fuzzing")

func (noSpawn) Start(jobs.Spec) (jobs.Info, error) { return jobs.Info{}, errNoSpawn }
func (noSpawn) Restart(jobs.ID) (jobs.Info, error) { return jobs.Info{}, errNoSpawn }

// FuzzHandler sends arbitrary requests to the API: none may crash or wedge
// the server, and every answer is JSON (or NDJSON) with a sensible status.
func FuzzHandler(f *testing.F) {
	for _, seed := range []struct{ method, target, body string }{
		{"GET", "/v1/jobs", ""},
		{"GET", "/v1/jobs/1", ""},
		{"GET", "/v1/jobs/1/output?cursor=1&max=2&stream=stdout", ""},
		{"GET", "/v1/jobs/1/output?follow=true&tail=1", ""},
		{"GET", "/v1/jobs/1/output?wait=true&timeout=1ms", ""},
		{"GET", "/v1/jobs/1/wait?timeout=1ms", ""},
		{"POST", "/v1/jobs", `{"command": "echo hi", "timeout": "1s"}`},
		{"POST", "/v1/jobs/1/stop?wait=true", ""},
		{"POST", "/v1/jobs/1/kill", ""},
		{"POST", "/v1/jobs/1/restart?wait=1", ""},
		{"DELETE", "/v1/jobs/99", ""},
		{"GET", "/v1/events", ""},
		{"GET", "/v1/instance", ""},
		{"PATCH", "/v1/jobs/1", "{}"},
		{"GET", "/v1/jobs/%31/output?cursor=%ff", ""},
	} {
		f.Add(seed.method, seed.target, seed.body)
	}
	mgr, err := jobs.NewManager(jobs.Options{LogDir: f.TempDir()})
	require.NoError(f, err)
	f.Cleanup(func() { mgr.Shutdown(context.Background()) }) //nolint:errcheck // best effort
	done, err := mgr.Start(jobs.Spec{Command: "printf 'a\\nb\\nc'"})
	require.NoError(f, err)
	_, err = mgr.Wait(context.Background(), done.ID)
	require.NoError(f, err)
	h := newServer(noSpawn{mgr}, Instance{Kind: "serve", Socket: filepath.Join(f.TempDir(), "s")}).Handler()

	f.Fuzz(func(t *testing.T, method, target, body string) {
		if !validMethod(method) || !strings.HasPrefix(target, "/") {
			return
		}
		u, err := url.ParseRequestURI(target)
		if err != nil {
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
		defer cancel()
		req, err := http.NewRequestWithContext(ctx, method, "http://jobtop"+u.RequestURI(), strings.NewReader(body))
		if err != nil {
			return
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		switch rec.Code {
		case 200, 201, 400, 404, 405, 409, 413, 500, 503:
		case 301, 307, 308:
			return // the mux cleaning up a path
		default:
			t.Fatalf("%s %s: unexpected status %d", method, target, rec.Code)
		}
		if rec.Code == 500 && !strings.Contains(rec.Body.String(), errNoSpawn.Error()) {
			t.Fatalf("%s %s: internal error %s", method, target, rec.Body.String())
		}
		for _, line := range bytes.Split(bytes.TrimSpace(rec.Body.Bytes()), []byte("\n")) {
			if !json.Valid(line) {
				t.Fatalf("%s %s: answer is not JSON: %q", method, target, rec.Body.String())
			}
		}
	})
}

func validMethod(m string) bool {
	switch m {
	case http.MethodGet, http.MethodPost, http.MethodDelete, http.MethodPut, http.MethodPatch, http.MethodHead:
		return true
	}
	return false
}
