package control

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"jobtop/jobs"
)

// call sends one request to h and returns the status and body.
func call(t *testing.T, h http.Handler, method, path, body string) (int, string) {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(method, path, strings.NewReader(body)))
	b, err := io.ReadAll(rec.Result().Body)
	require.NoError(t, err)
	return rec.Code, string(b)
}

func TestAPIAnswersAPromptAndReadsTheScreen(t *testing.T) {
	socket := filepath.Join(shortTempDir(t), "s.sock")
	h := NewServer(newManager(t, socket), Instance{Kind: "serve"}).Handler()
	code, body := call(t, h, "POST", "/v1/jobs", `{"command": "bash -c \"read -p 'Overwrite? [y/N] ' a; printf '\\033[32manswer=%s\\033[0m\\n' \\$a; sleep 600\"", "tty": true}`)
	require.Equal(t, 201, code, body)
	var info jobs.Info
	require.NoError(t, json.Unmarshal([]byte(body), &info))
	assert.True(t, info.TTY)
	path := "/v1/jobs/" + info.ID.String()

	var screen ScreenResponse
	require.Eventually(t, func() bool {
		code, body := call(t, h, "GET", path+"/screen", "")
		require.Equal(t, 200, code, body)
		require.NoError(t, json.Unmarshal([]byte(body), &screen))
		return screen.Lines[screen.CursorY] == "Overwrite? [y/N] "
	}, testTimeout, 10*time.Millisecond)
	assert.Equal(t, [2]int{200, 50}, [2]int{screen.Cols, screen.Rows})
	assert.False(t, screen.Screen)
	assert.Nil(t, screen.ANSI, "colours only with ansi=1")
	// Every field the README lists is there, false ones too: an agent
	// reads "catching_up" without guarding against its absence.
	_, body = call(t, h, "GET", path+"/screen", "")
	var fields map[string]any
	require.NoError(t, json.Unmarshal([]byte(body), &fields))
	for _, f := range []string{"lines", "cols", "rows", "cursor_x", "cursor_y", "cursor_visible",
		"screen", "alt_screen", "catching_up", "modes", "seq", "state"} {
		assert.Contains(t, fields, f)
	}

	code, body = call(t, h, "POST", path+"/input", `{"text": "y\r"}`)
	require.Equal(t, 200, code, body)
	assert.JSONEq(t, `{"bytes": 2}`, body)
	require.Eventually(t, func() bool {
		_, body := call(t, h, "GET", path+"/screen?ansi=1", "")
		require.NoError(t, json.Unmarshal([]byte(body), &screen))
		return len(screen.ANSI) > 1 && screen.ANSI[1] == "\x1b[32manswer=y\x1b[0m"
	}, testTimeout, 10*time.Millisecond)
	assert.Equal(t, []string{"Overwrite? [y/N] y", "answer=y"}, screen.Lines[:2])

	// base64 bytes: ctrl+c ends it.
	code, body = call(t, h, "POST", path+"/input", `{"base64": "Aw=="}`)
	require.Equal(t, 200, code, body)
	code, body = call(t, h, "POST", path+"/resize", `{"cols": 80, "rows": 24}`)
	// The job may be gone already; a resize of a finished TTY job is kept.
	require.Equal(t, 200, code, body)
	require.NoError(t, json.Unmarshal([]byte(body), &info))
	assert.Equal(t, [2]int{80, 24}, [2]int{info.Cols, info.Rows})
}

func TestInputErrorAnswers(t *testing.T) {
	socket := filepath.Join(shortTempDir(t), "s.sock")
	h := NewServer(newManager(t, socket), Instance{Kind: "serve"}).Handler()
	code, body := call(t, h, "POST", "/v1/jobs", `{"command": "sleep 600"}`)
	require.Equal(t, 201, code, body)
	code, body = call(t, h, "POST", "/v1/jobs", `{"command": "true", "tty": true}`)
	require.Equal(t, 201, code, body)
	require.Eventually(t, func() bool {
		_, body := call(t, h, "GET", "/v1/jobs/2", "")
		return strings.Contains(body, `"state":"succeeded"`)
	}, testTimeout, 10*time.Millisecond)

	for _, tc := range []struct {
		name, method, path, body string
		status                   int
		msg                      string
	}{
		{"to a pipe job", "POST", "/v1/jobs/1/input", `{"text": "x"}`, 409, "cannot send input to job 1: it runs on pipes with stdin on /dev/null"},
		{"to a finished job", "POST", "/v1/jobs/2/input", `{"text": "x"}`, 409, "cannot send input to job 2: it has ended (succeeded)"},
		{"to no job", "POST", "/v1/jobs/9/input", `{"text": "x"}`, 404, "no job with ID 9"},
		{"no input given", "POST", "/v1/jobs/1/input", `{}`, 400, `give the input as {"text"`},
		{"text and base64", "POST", "/v1/jobs/1/input", `{"text": "x", "base64": "eA=="}`, 400, "not both"},
		{"bad base64", "POST", "/v1/jobs/1/input", `{"base64": "!!"}`, 400, "base64: illegal base64 data"},
		{"unknown field", "POST", "/v1/jobs/1/input", `{"txt": "x"}`, 400, `unknown field "txt"; known fields: text, base64, eof`},
		{"too much", "POST", "/v1/jobs/1/input", `{"text": "` + strings.Repeat("x", MaxInputBytes+1) + `"}`, 400, "at most 65536"},
		{"resize a pipe job", "POST", "/v1/jobs/1/resize", `{"cols": 80, "rows": 24}`, 409, "cannot resize job 1: it runs on pipes"},
		{"resize to nothing", "POST", "/v1/jobs/2/resize", `{"cols": 0, "rows": 24}`, 400, "terminal size 0x24 is out of range"},
		{"screen of no job", "GET", "/v1/jobs/9/screen", ``, 404, "no job with ID 9"},
		{"bad ansi", "GET", "/v1/jobs/1/screen?ansi=maybe", ``, 400, `ansi="maybe"`},
		{"tty with stdin pipe", "POST", "/v1/jobs", `{"command": "x", "tty": true, "stdin": "pipe"}`, 400, "stdin: pipe is for jobs on pipes"},
		{"bad stdin", "POST", "/v1/jobs", `{"command": "x", "stdin": "tty"}`, 400, `stdin "tty" is not one of null, pipe`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, body := call(t, h, tc.method, tc.path, tc.body)
			assert.Equal(t, tc.status, code, body)
			var e errorResponse
			require.NoError(t, json.Unmarshal([]byte(body), &e), body)
			assert.Contains(t, e.Error, tc.msg)
		})
	}
}

func TestInputEOF(t *testing.T) {
	socket := filepath.Join(shortTempDir(t), "s.sock")
	h := NewServer(newManager(t, socket), Instance{Kind: "serve"}).Handler()
	code, body := call(t, h, "POST", "/v1/jobs", `{"command": "wc -l", "stdin": "pipe"}`)
	require.Equal(t, 201, code, body)
	code, body = call(t, h, "POST", "/v1/jobs/1/input", `{"text": "a\nb\n", "eof": true}`)
	require.Equal(t, 200, code, body)
	require.Eventually(t, func() bool {
		_, body := call(t, h, "GET", "/v1/jobs/1", "")
		return strings.Contains(body, `"state":"succeeded"`) && strings.Contains(body, `"last_line":"2"`)
	}, testTimeout, 10*time.Millisecond)
}

// TestSendInputSaysWhatWentBefore: input larger than one request that a
// job stops taking part way fails with how many bytes had gone before the
// request that failed, not only that request's count.
func TestSendInputSaysWhatWentBefore(t *testing.T) {
	in := startInstance(t)
	info, err := in.client.StartJob(ctxT(t), StartRequest{Command: "exec sleep 60", Stdin: "pipe"})
	require.NoError(t, err)
	err = in.client.SendInput(ctxT(t), info.ID, make([]byte, 4<<20)) // more than any pipe holds
	require.Error(t, err)
	assert.Regexp(t, `before this request, [1-9][0-9]* of the 4194304 bytes had gone, 65536 at a time`, err.Error())
	var apiErr *APIError
	assert.ErrorAs(t, err, &apiErr, "still the API's answer")
}
