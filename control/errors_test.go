package control

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestErrorAnswers sends every kind of bad request to the handler and
// checks the status and that the JSON message says what to do.
func TestErrorAnswers(t *testing.T) {
	socket := filepath.Join(shortTempDir(t), "s.sock")
	h := NewServer(newManager(t, socket), Instance{Kind: "serve"}).Handler()
	file := filepath.Join(t.TempDir(), "file")
	require.NoError(t, writeFile(file))

	cases := []struct {
		name, method, path, body string
		status                   int
		msg                      string
	}{
		{"malformed JSON", "POST", "/v1/jobs", `{"command": "echo`, 400, "malformed JSON"},
		{"syntax error", "POST", "/v1/jobs", `{"command" "x"}`, 400, "malformed JSON at byte"},
		{"not an object", "POST", "/v1/jobs", `["echo"]`, 400, "must be a JSON object"},
		{"wrong type", "POST", "/v1/jobs", `{"command": 5}`, 400, `field "command" must be a string`},
		{"unknown field", "POST", "/v1/jobs", `{"command": "x", "cmd": "y"}`, 400, `unknown field "cmd"; known fields: name, command`},
		{"unknown field lists health", "POST", "/v1/jobs", `{"command": "x", "cmd": "y"}`, 400, `restart, ready, health, depends_on,`},
		{"unknown field in restart", "POST", "/v1/jobs", `{"command": "x", "restart": {"polcy": "always"}}`, 400,
			`unknown field "polcy" in "restart"; known fields: policy, mode, backoff, max_backoff, max`},
		{"unknown field in ready", "POST", "/v1/jobs", `{"command": "x", "ready": {"log": "up"}}`, 400,
			`unknown field "log" in "ready"; known fields: log_pattern, after, http, status, headers, tcp, exec, interval, timeout, initial_delay, failures`},
		{"unknown field in health", "POST", "/v1/jobs", `{"command": "x", "health": {"url": "http://127.0.0.1:1/"}}`, 400,
			`unknown field "url" in "health"; known fields: http, status, headers, tcp, exec, interval, timeout, initial_delay, failures`},
		{"wrong type in restart", "POST", "/v1/jobs", `{"command": "x", "restart": {"max": "5"}}`, 400, `field "restart.max" must be a whole number, not a string`},
		{"wrong type in health", "POST", "/v1/jobs", `{"command": "x", "health": {"failures": "3"}}`, 400, `field "health.failures" must be a whole number, not a string`},
		{"a body not an object", "POST", "/v1/jobs", `[1]`, 400, `the body must be a JSON object, not an array`},
		{"a number not whole", "POST", "/v1/jobs", `{"command": "x", "restart": {"max": 1.5}}`, 400, `field "restart.max" must be a whole number, not 1.5`},
		{"true or false", "POST", "/v1/jobs", `{"command": "x", "tty": "yes"}`, 400, `field "tty" must be true or false, not a string`},
		{"an array", "POST", "/v1/jobs", `{"argv": "x"}`, 400, `field "argv" must be an array of strings, not a string`},
		{"a value in an array", "POST", "/v1/jobs", `{"argv": ["ls", 1]}`, 400, `field "argv" must be an array of strings, not one holding a number`},
		{"a job ID not whole", "POST", "/v1/jobs/stop", `{"jobs": [1.5]}`, 400, `"jobs": a job ID is a whole number, not 1.5`},
		{"a job null", "POST", "/v1/jobs/stop", `{"jobs": [null]}`, 400, `"jobs": a job is an ID (a number) or a name (a string), not null`},
		{"a job named nothing", "POST", "/v1/jobs/stop", `{"jobs": [""]}`, 400, `"jobs": a job's name is not empty`},
		{"a job neither ID nor name", "POST", "/v1/jobs/stop", `{"jobs": [true]}`, 400, `"jobs": a job is an ID (a number) or a name (a string), not true`},
		{"not an array", "POST", "/v1/jobs", `{"command": ["x"]}`, 400, `field "command" must be a string, not an array`},
		{"a value in an object", "POST", "/v1/jobs", `{"command": "x", "env": {"A": 1}}`, 400, `field "env" must be an object of strings, not one holding a number`},
		{"a value in a nested object", "POST", "/v1/jobs", `{"command": "x", "ready": {"http": "http://127.0.0.1:1/", "headers": {"X": true}}}`, 400,
			`field "ready.headers" must be an object of strings, not one holding true or false`},
		{"trailing data", "POST", "/v1/jobs", `{"command": "x"} {}`, 400, "nothing after it"},
		{"a field twice", "POST", "/v1/jobs", `{"command": "rm -rf build", "name": "a", "command": "make"}`, 400, `field "command" is given twice`},
		{"an object twice", "POST", "/v1/jobs", `{"command": "x", "restart": {"policy": "always"}, "restart": {"max": 3}}`, 400, `field "restart" is given twice`},
		{"a field twice in an object", "POST", "/v1/jobs", `{"command": "x", "restart": {"max": 3, "max": 5}}`, 400, `"max" is given twice in "restart"`},
		{"a key twice in a map", "POST", "/v1/jobs", `{"command": "x", "env": {"A": "1", "B": "2", "A": "3"}}`, 400, `"A" is given twice in "env"`},
		{"an empty probe", "POST", "/v1/jobs", `{"command": "x", "health": {"exec": ""}}`, 400, `health: no probe: give http, tcp or exec`},
		{"settings without a probe", "POST", "/v1/jobs", `{"command": "x", "ready": {"interval": "1s"}}`, 400, `ready: interval, timeout, initial_delay or failures without a probe`},
		{"jobs not an array", "POST", "/v1/jobs/stop", `{"jobs": "1"}`, 400, `field "jobs" must be an array of job IDs (numbers) or names (strings), not a string`},
		{"a field twice in a bulk action", "POST", "/v1/jobs/stop", `{"all": true, "all": false}`, 400, `field "all" is given twice`},
		{"a field twice in input", "POST", "/v1/jobs/1/input", `{"text": "y", "text": "n"}`, 400, `field "text" is given twice`},
		{"empty body", "POST", "/v1/jobs", ``, 400, "empty body"},
		{"empty body of a limit", "PUT", "/v1/parallel", ``, 400, `empty body: send the limit as JSON, e.g. {"max_running": 4}`},
		{"empty body of input", "POST", "/v1/jobs/1/input", ``, 400, `empty body: give the input as {"text": "y\n"}`},
		{"a resize without a size", "POST", "/v1/jobs/1/resize", `{}`, 400, `no size given: give the size as {"cols": 120, "rows": 40}`},
		{"a whole number too large", "PUT", "/v1/parallel", `{"max_running": 99999999999999999999}`, 400, `field "max_running" is too large: 99999999999999999999`},
		{"a job ID negative", "POST", "/v1/jobs/stop", `{"jobs": [-1]}`, 400, `"jobs": -1 is not a job ID (IDs start at 1)`},
		{"a job ID zero", "POST", "/v1/jobs/stop", `{"jobs": [0]}`, 400, `0 is not a job ID (IDs start at 1)`},
		{"a job after ID zero", "POST", "/v1/jobs", `{"command": "x", "after": [0]}`, 400, `after: 0 is not a job ID (IDs start at 1)`},
		{"a job after an ID too large", "POST", "/v1/jobs", `{"command": "x", "after": [99999999999999999999]}`, 404, `after: no job with ID 99999999999999999999`},
		{"too large", "POST", "/v1/jobs", `{"command": "` + strings.Repeat("x", MaxBodyBytes) + `"}`, 413, "larger than 1048576 bytes"},
		{"bad duration", "POST", "/v1/jobs", `{"command": "x", "timeout": "5 minutes"}`, 400, `timeout "5 minutes" is not a duration: write a number of seconds (30, 0.5) or a number with a unit, like 30s`},
		{"duration too large", "POST", "/v1/jobs", `{"command": "x", "timeout": "99999999h"}`, 400, `timeout "99999999h" is too large: at most 2562047h (about 292 years)`},
		{"wait timeout too large", "GET", "/v1/jobs/1/wait?timeout=99999999h", ``, 400, `timeout "99999999h" is too large: at most 2562047h (about 292 years)`},
		{"max_backoff under backoff", "POST", "/v1/jobs", `{"command": "x", "restart": {"policy": "always", "backoff": "2s", "max_backoff": "1s"}}`, 400, `restart.max_backoff 1s is less than backoff 2s`},
		{"max_backoff under the default backoff", "POST", "/v1/jobs", `{"command": "x", "restart": {"policy": "always", "max_backoff": "500ms"}}`, 400, `restart.max_backoff 500ms is less than backoff 1s`},
		{"depends on itself", "POST", "/v1/jobs", `{"command": "x", "name": "selfy", "depends_on": {"selfy": "started"}}`, 400, `depends_on: "selfy" is this job's own name: a job cannot depend on itself`},
		{"depends on a name no job can have", "POST", "/v1/jobs", `{"command": "x", "depends_on": {"` + strings.Repeat("n", 10000) + `": "started"}}`, 400, `depends_on: job name "nnnnnnnnnnnnnnnnnnnn"... is longer than 64 characters: no job can have it`},
		{"unknown job name too long", "GET", "/v1/jobs/" + strings.Repeat("n", 10000), ``, 404, `no job "` + strings.Repeat("n", 60) + `...": give a job ID`},
		{"a duration neither string nor number", "POST", "/v1/jobs", `{"command": "x", "timeout": true}`, 400,
			`field "timeout" must be a duration: a string ("30s", "5m") or a number of seconds, not true or false`},
		{"a nested duration neither string nor number", "POST", "/v1/jobs", `{"command": "x", "restart": {"backoff": [1]}}`, 400,
			`field "restart.backoff" must be a duration: a string ("30s", "5m") or a number of seconds, not an array`},
		{"negative seconds", "POST", "/v1/jobs", `{"command": "x", "grace": -1}`, 400, "grace -1 is negative"},
		{"a restart backoff of 0 seconds", "POST", "/v1/jobs", `{"command": "x", "restart": {"backoff": 0}}`, 400, "restart.backoff 0: must be more than 0"},
		{"negative timeout", "POST", "/v1/jobs", `{"command": "x", "timeout": "-5s"}`, 400, "timeout -5s is negative"},
		{"negative grace", "POST", "/v1/jobs", `{"command": "x", "grace": "-1s"}`, 400, "grace -1s is negative"},
		{"bad signal", "POST", "/v1/jobs", `{"command": "x", "stop_signal": "SIGNOPE"}`, 400, "unknown signal"},
		{"missing cwd", "POST", "/v1/jobs", `{"command": "x", "cwd": "/no/such/dir"}`, 400, `cwd "/no/such/dir" does not exist`},
		{"cwd is a file", "POST", "/v1/jobs", `{"command": "x", "cwd": "` + file + `"}`, 400, "is not a directory"},
		{"relative cwd", "POST", "/v1/jobs", `{"command": "x", "cwd": "src"}`, 400, "give an absolute path"},
		{"empty command", "POST", "/v1/jobs", `{"command": "  "}`, 400, "empty command"},
		{"no command", "POST", "/v1/jobs", `{"name": "x"}`, 400, "empty command"},
		{"command and argv", "POST", "/v1/jobs", `{"command": "x", "argv": ["y"]}`, 400, "not both"},
		{"bad restart mode", "POST", "/v1/jobs", `{"command": "x", "restart": {"mode": "sometimes"}}`, 400, "not one of no, on-failure, always"},
		{"bad restart policy", "POST", "/v1/jobs", `{"command": "x", "restart": {"policy": "sometimes"}}`, 400, `restart policy "sometimes" is not one of no, on-failure, always`},
		{"a restart backoff of 0", "POST", "/v1/jobs", `{"command": "x", "restart": {"policy": "always", "backoff": "0s"}}`, 400,
			`restart.backoff 0s: must be more than 0 (left out, 1s, doubled on each restart in a row)`},
		{"a restart max_backoff of 0", "POST", "/v1/jobs", `{"command": "x", "restart": {"policy": "always", "max_backoff": "0"}}`, 400,
			`restart.max_backoff 0: must be more than 0 (left out, 1m0s)`},
		{"restart policy and mode differ", "POST", "/v1/jobs", `{"command": "x", "restart": {"policy": "always", "mode": "no"}}`, 400,
			`restart.policy "always" and restart.mode "no" differ: give one (mode is policy's older name)`},
		{"origin with a control character", "POST", "/v1/jobs", `{"command": "x", "origin": "mcp\u001b[2J"}`, 400, "origin \"mcp\\x1b[2J\" holds a control character"},
		{"client name too long", "POST", "/v1/jobs", `{"command": "x", "client": "` + strings.Repeat("c", 65) + `"}`, 400, "client is 65 bytes long; at most 64"},
		{"unknown job", "GET", "/v1/jobs/42", ``, 404, "no job with ID 42"},
		{"an empty job ID", "POST", "/v1/jobs//stop", ``, 404, `no endpoint POST /v1/jobs//stop: a path has no empty, "." or ".." part (an empty job ID?)`},
		{"an empty job ID at the end", "DELETE", "/v1/jobs//", ``, 404, `no endpoint DELETE /v1/jobs//: a path has no empty`},
		{"a path with ..", "GET", "/v1/jobs/../instance", ``, 404, `no endpoint GET /v1/jobs/../instance: a path has no empty`},
		{"a path with .", "GET", "/v1/./instance", ``, 404, `no endpoint GET /v1/./instance: a path has no empty`},
		{"unknown job name", "GET", "/v1/jobs/web", ``, 404, `no job "web": give a job ID (a number) or a job's name; GET /v1/jobs lists them`},
		{"stop unknown job", "POST", "/v1/jobs/42/stop", ``, 404, "no job with ID 42"},
		{"kill unknown job", "POST", "/v1/jobs/42/kill", ``, 404, "no job with ID 42"},
		{"restart unknown job", "POST", "/v1/jobs/42/restart", ``, 404, "no job with ID 42"},
		{"remove unknown job", "DELETE", "/v1/jobs/42", ``, 404, "no job with ID 42"},
		{"wait unknown job", "GET", "/v1/jobs/42/wait", ``, 404, "no job with ID 42"},
		{"output unknown job", "GET", "/v1/jobs/42/output", ``, 404, "no job with ID 42"},
		{"negative wait timeout", "GET", "/v1/jobs/1/wait?timeout=-1s", ``, 400, "timeout -1s is negative"},
		{"bad wait timeout", "GET", "/v1/jobs/1/wait?timeout=soon", ``, 400, "is not a duration"},
		{"bad cursor", "GET", "/v1/jobs/1/output?cursor=-3", ``, 400, "give the next_cursor of an earlier read"},
		{"bad max", "GET", "/v1/jobs/1/output?max=lots", ``, 400, "give a whole number"},
		{"cursor and tail", "GET", "/v1/jobs/1/output?cursor=3&tail=2", ``, 400, "either cursor or tail"},
		{"bad stream", "GET", "/v1/jobs/1/output?stream=both", ``, 400, "use stdout or stderr"},
		{"bad wait flag", "GET", "/v1/jobs/1/output?wait=maybe", ``, 400, "use true or false"},
		{"negative output timeout", "GET", "/v1/jobs/1/output?wait=true&timeout=-2s", ``, 400, "timeout -2s is negative"},
		{"bad action wait flag", "POST", "/v1/jobs/1/stop?wait=soon", ``, 400, "use true or false"},
		{"no such endpoint", "GET", "/v2/jobs", ``, 404, "the API lives under /v1/"},
		{"an unknown output parameter", "GET", "/v1/jobs/1/output?since=8", ``, 400,
			`unknown parameter "since" for GET /v1/jobs/{id}/output; it takes cursor, max, tail, stream, wait, follow, timeout`},
		{"a misspelt wait timeout", "GET", "/v1/jobs/1/wait?timout=1s", ``, 400, `unknown parameter "timout" for GET /v1/jobs/{id}/wait; it takes timeout, ready`},
		{"a misspelt list filter", "GET", "/v1/jobs?stat=running", ``, 400, `unknown parameter "stat" for GET /v1/jobs; it takes job, state, name, fields`},
		{"a misspelt action wait", "POST", "/v1/jobs/1/restart?wiat=true", ``, 400, `unknown parameter "wiat" for POST /v1/jobs/{id}/restart; it takes wait`},
		{"a parameter where none is taken", "GET", "/v1/events?since=3", ``, 400, `unknown parameter "since" for GET /v1/events; it takes none`},
		{"a bulk action's unknown parameter", "POST", "/v1/jobs/stop?all=true", `{"all": true}`, 400, `unknown parameter "all" for POST /v1/jobs/stop; it takes wait, signal`},
		{"wrong method", "PUT", "/v1/jobs", ``, 405, "PUT is not allowed on /v1/jobs"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			req := httptest.NewRequest(tc.method, tc.path, strings.NewReader(tc.body))
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			assert.Equal(t, tc.status, rec.Code)
			assert.Equal(t, "application/json", rec.Header().Get("Content-Type"))
			var body struct{ Error string }
			require.NoError(t, json.Unmarshal(rec.Body.Bytes(), &body), rec.Body.String())
			assert.Contains(t, body.Error, tc.msg)
		})
	}
}

// TestErrorsOverTheSocket checks a few errors end to end: the client turns
// them into errors carrying the server's message.
func TestErrorsOverTheSocket(t *testing.T) {
	in := startInstance(t)
	ctx := ctxT(t)
	_, err := in.client.StartJob(ctx, StartRequest{Command: ""})
	require.Error(t, err)
	assert.Equal(t, "empty command: give a shell command or an argv", err.Error())

	_, err = in.client.StartJob(ctx, StartRequest{Command: "true", Cwd: "/no/such/dir"})
	require.Error(t, err)
	assert.Equal(t, 400, err.(*APIError).Status)

	_, err = in.client.Job(ctx, 7)
	assert.True(t, IsNotFound(err))

	// A raw request over the socket with an unknown field.
	resp, err := in.client.http.Post("http://jobtop/v1/jobs", "application/json", strings.NewReader(`{"commnd": "x"}`))
	require.NoError(t, err)
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	assert.Equal(t, http.StatusBadRequest, resp.StatusCode)
	assert.Contains(t, string(b), `unknown field \"commnd\"`)

	// The server is still fine after all that.
	info := in.startJob(t, "echo ok")
	assert.Equal(t, "echo ok", in.waitEnded(t, info.ID).Command)
}

func TestDeadSocketIsNamed(t *testing.T) {
	socket := filepath.Join(shortTempDir(t), "none.sock")
	_, err := NewClient(socket).Jobs(ctxT(t))
	require.Error(t, err)
	var nr *NotRunningError
	require.ErrorAs(t, err, &nr)
	assert.Contains(t, err.Error(), "no jobtop is listening on "+socket)
}
