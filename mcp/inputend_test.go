package mcp

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"jobtop/jobs"
)

const (
	initializeLine  = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
	initializedLine = `{"jsonrpc":"2.0","method":"notifications/initialized"}`
)

// runStdio runs srv over the lines of input, which then end (as from
// printf ... | jobtop mcp), and returns the answers it wrote by request
// id. It fails the test if the session does not end within the deadline.
func runStdio(t *testing.T, srv *sdk.Server, grace time.Duration, input ...string) map[float64]map[string]any {
	t.Helper()
	out := &lockedWriter{w: &bytes.Buffer{}}
	done := make(chan error, 1)
	go func() {
		done <- srv.Run(ctxT(t), newLineTransport(strings.NewReader(strings.Join(input, "\n")+"\n"), out, grace))
	}()
	select {
	case err := <-done:
		require.NoError(t, err)
	case <-time.After(deadline):
		t.Fatalf("the session did not end within %v of its input's end", deadline)
	}
	out.mu.Lock()
	defer out.mu.Unlock()
	answers := map[float64]map[string]any{}
	lines := bufio.NewScanner(out.w.(*bytes.Buffer))
	lines.Buffer(nil, 1<<20)
	for lines.Scan() {
		var m map[string]any
		require.NoError(t, json.Unmarshal(lines.Bytes(), &m), lines.Text())
		if id, ok := m["id"].(float64); ok && m["method"] == nil {
			answers[id] = m
		}
	}
	return answers
}

// toolAnswerText is the text of a tools/call answer, failing the test if
// it is no tool result or a tool error.
func toolAnswerText(t *testing.T, m map[string]any) string {
	t.Helper()
	require.Contains(t, m, "result", "an answer: %v", m)
	res := m["result"].(map[string]any)
	content, _ := res["content"].([]any)
	require.NotEmpty(t, content, "%v", m)
	text, _ := content[0].(map[string]any)["text"].(string)
	require.NotEqual(t, true, res["isError"], text)
	return text
}

// TestStdioAnswersEveryRequestReadBeforeItsEnd: requests followed at once
// by the end of stdin (printf '...' | jobtop mcp) are all answered, and
// their effect happens, before the session ends: the end of input was
// passed on to the SDK at once, which cancelled the calls in flight, so
// run_job was never answered and its job never started (once even the
// initialize answer went missing), and jobtop mcp exited 0.
func TestStdioAnswersEveryRequestReadBeforeItsEnd(t *testing.T) {
	mgr, api := newInstance(t, jobs.StoreOptions{})
	for _, name := range []string{"eofjob1", "eofjob2", "eofjob3"} {
		srv := New(Options{Client: api, Dir: t.TempDir()})
		answers := runStdio(t, srv, inputEndGrace,
			initializeLine, initializedLine,
			`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"run_job","arguments":{"command":"sleep 77","name":"`+name+`"}}}`)
		require.Contains(t, answers, 1.0, "initialize answered")
		assert.Contains(t, answers[1.0], "result")
		require.Contains(t, answers, 3.0, "run_job answered")
		assert.Contains(t, toolAnswerText(t, answers[3.0]), name)
		var started bool
		for _, info := range mgr.List() {
			started = started || info.Name == name
		}
		assert.True(t, started, "%s started", name)
	}
}

// TestStdioEndOfInputWaitsForAWaitAsLongAsItRuns: a wait_job read before
// stdin ended is answered when its own timeout passes, and then the
// session ends; one longer than the transport's bound is given up at the
// bound (the client is not held for ever), and with nothing in flight
// the session ends at once however long the bound.
func TestStdioEndOfInputWaitsForAWaitAsLongAsItRuns(t *testing.T) {
	mgr, api := newInstance(t, jobs.StoreOptions{})
	info, err := mgr.Start(jobs.Spec{Name: "long", Command: "exec sleep 77"})
	require.NoError(t, err)
	wait := func(timeout string) string {
		return `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"wait_job","arguments":{"id":"long","timeout":"` + timeout + `"}}}`
	}

	answers := runStdio(t, New(Options{Client: api, Dir: t.TempDir()}), inputEndGrace,
		initializeLine, initializedLine, wait("1s"))
	require.Contains(t, answers, 4.0, "wait_job answered when its timeout passed")
	assert.Contains(t, toolAnswerText(t, answers[4.0]), "keeps running")

	answers = runStdio(t, New(Options{Client: api, Dir: t.TempDir()}), 300*time.Millisecond,
		initializeLine, initializedLine, wait("10m"))
	assert.Contains(t, answers, 1.0)
	assert.NotContains(t, answers, 4.0, "given up at the bound")

	answers = runStdio(t, New(Options{Client: api, Dir: t.TempDir()}), time.Hour,
		initializeLine, initializedLine, `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)
	assert.Contains(t, answers, 1.0)
	assert.Contains(t, answers, 2.0)

	got, err := mgr.Get(info.ID)
	require.NoError(t, err)
	assert.Equal(t, jobs.StateRunning, got.State, "the job waited for keeps running")
}

// A client that quits while a wait_job runs (its end of stdout closed)
// leaves no jobtop mcp behind for the rest of the wait: the end of input
// is held back only while an answer can still be read.
func TestStdioEndsWhenNoOneReadsItsAnswers(t *testing.T) {
	mgr, api := newInstance(t, jobs.StoreOptions{})
	_, err := mgr.Start(jobs.Spec{Name: "long", Command: "exec sleep 77"})
	require.NoError(t, err)
	r, w, err := os.Pipe()
	require.NoError(t, err)
	defer w.Close()
	in, feed := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- New(Options{Client: api, Dir: t.TempDir()}).Run(ctxT(t), newLineTransport(in, w, inputEndGrace))
	}()
	_, err = io.WriteString(feed, initializeLine+"\n"+initializedLine+"\n")
	require.NoError(t, err)
	first, err := bufio.NewReader(r).ReadString('\n')
	require.NoError(t, err)
	require.Contains(t, first, `"id":1`, "initialized")
	_, err = io.WriteString(feed, `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"wait_job","arguments":{"id":"long","timeout":"10m"}}}`+"\n")
	require.NoError(t, err)
	require.NoError(t, r.Close()) // the client is gone:
	require.NoError(t, feed.Close())
	select {
	case <-done:
	case <-time.After(deadline):
		t.Fatal("jobtop mcp stayed for a wait no one can be answered")
	}
}
