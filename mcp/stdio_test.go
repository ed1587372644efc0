package mcp

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"jobtop/control"
	"jobtop/jobs"
)

// TestStdioOutlivesALineItCannotRead: a line that is no JSON-RPC message
// (no JSON, another version, an empty batch) is answered with a JSON-RPC
// error and the session goes on; the SDK's own transport ended the
// session, and jobtop mcp, at the first such line.
func TestStdioOutlivesALineItCannotRead(t *testing.T) {
	_, api := newInstance(t, jobs.StoreOptions{})
	srv := New(Options{Client: api, Dir: t.TempDir()})
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(ctxT(t))
	done := make(chan error, 1)
	go func() { done <- srv.Run(ctx, newLineTransport(inR, outW, inputEndGrace)) }()
	t.Cleanup(func() {
		inW.Close()
		cancel()
		<-done
	})
	replies := bufio.NewScanner(outR)
	replies.Buffer(nil, 1<<20)
	next := func() map[string]any {
		t.Helper()
		require.True(t, replies.Scan(), "a reply")
		var m map[string]any
		require.NoError(t, json.Unmarshal(replies.Bytes(), &m), replies.Text())
		return m
	}
	send := func(line string) {
		t.Helper()
		_, err := io.WriteString(inW, line+"\n")
		require.NoError(t, err)
	}
	errorOf := func(m map[string]any) (float64, string) {
		e, _ := m["error"].(map[string]any)
		code, _ := e["code"].(float64)
		msg, _ := e["message"].(string)
		return code, msg
	}
	for _, c := range []struct {
		line string
		id   any
		code float64
	}{
		{`{not json}`, nil, -32700},
		{`{"jsonrpc":"1.0","id":1,"method":"ping"}`, 1.0, -32600},
		{`{"id":"two","method":"ping"}`, "two", -32600},
		{`[]`, nil, -32600},
		{`[{"jsonrpc":"2.0","id":10,"method":"ping"}]`, nil, -32600},
		{`null`, nil, -32600},
		{`123`, nil, -32600},
	} {
		send(c.line)
		m := next()
		code, msg := errorOf(m)
		assert.Equal(t, c.code, code, "%s: %v", c.line, m)
		assert.NotEmpty(t, msg)
		assert.Equal(t, c.id, m["id"], c.line)
	}
	send(`{"jsonrpc":"2.0","id":3,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	m := next()
	assert.Equal(t, 3.0, m["id"])
	assert.Contains(t, m, "result", "the session goes on")
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	send(`{"jsonrpc":"2.0","id":4,"method":"tools/list"}`)
	m = next()
	assert.Equal(t, 4.0, m["id"])
	b, _ := json.Marshal(m["result"])
	assert.True(t, strings.Contains(string(b), `"run_job"`), "tools listed")
	// A batch once the protocol is one without (2025-06-18): the SDK
	// ended the session at it.
	send(`[{"jsonrpc":"2.0","id":5,"method":"ping"}]`)
	code, _ := errorOf(next())
	assert.Equal(t, -32600.0, code)
	send(`{"jsonrpc":"2.0","id":6,"method":"ping"}`)
	assert.Equal(t, 6.0, next()["id"], "the session goes on")
}

// TestAnInstanceThatDoesNotAnswerIsAskedOnce: an instance that takes
// connections and answers nothing (stopped with SIGSTOP, hung) makes a
// tool call fail after one answer timeout, saying so: the look at which
// instance answers, before each call, ran out, then the call itself
// waited as long again.
func TestAnInstanceThatDoesNotAnswerIsAskedOnce(t *testing.T) {
	sock, l := fakeInstanceSocket(t)
	var accepted atomic.Int32
	var held []net.Conn
	var mu sync.Mutex
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			accepted.Add(1)
			mu.Lock()
			held = append(held, c) // taken, never answered
			mu.Unlock()
		}
	}()
	t.Cleanup(func() {
		l.Close()
		mu.Lock()
		for _, c := range held {
			c.Close()
		}
		mu.Unlock()
	})
	api := control.NewClient(sock)
	api.SetAnswerTimeout(200 * time.Millisecond)
	t.Cleanup(func() { api.Close() })
	session, _ := connect(t, New(Options{Client: api, Dir: t.TempDir()}), "test-agent")
	res, err := session.CallTool(ctxT(t), &sdk.CallToolParams{Name: "list_jobs", Arguments: map[string]any{}})
	require.NoError(t, err)
	require.True(t, res.IsError)
	assert.Contains(t, res.Content[0].(*sdk.TextContent).Text, "did not answer within 200ms")
	assert.Equal(t, int32(1), accepted.Load(), "asked once")
}

// TestAnInstanceStoppedSinceItAnsweredIsNotWaitedForEver: an instance
// that answered, then stopped answering (SIGSTOP, ^Z) on the connection
// kept alive, makes a tool call fail after the answer timeout: the
// client bounded only a new connection's first answer, and the call
// waited as long as the instance stayed stopped (600 s, rev43).
func TestAnInstanceStoppedSinceItAnsweredIsNotWaitedForEver(t *testing.T) {
	sock, l := fakeInstanceSocket(t)
	var stopped atomic.Bool
	release := make(chan struct{})
	started := time.Now()
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if stopped.Load() {
			<-release // a stopped process answers nothing
			return
		}
		w.Header().Set("Content-Type", "application/json")
		switch r.URL.Path {
		case "/v1/instance":
			json.NewEncoder(w).Encode(control.Instance{PID: os.Getpid(), Kind: "serve", Socket: sock, Started: started, APIVersion: control.APIVersion}) //nolint:errcheck // test
		default:
			io.WriteString(w, "[]") //nolint:errcheck // test
		}
	})}
	go srv.Serve(l) //nolint:errcheck // closed at the end
	t.Cleanup(func() {
		close(release)
		srv.Close()
	})
	api := control.NewClient(sock)
	api.SetAnswerTimeout(300 * time.Millisecond)
	t.Cleanup(func() { api.Close() })
	session, _ := connect(t, New(Options{Client: api, Dir: t.TempDir()}), "test-agent")
	call := func() *sdk.CallToolResult {
		res, err := session.CallTool(ctxT(t), &sdk.CallToolParams{Name: "list_jobs", Arguments: map[string]any{}})
		require.NoError(t, err)
		return res
	}
	require.False(t, call().IsError, "it answers")
	stopped.Store(true)
	res := call()
	require.True(t, res.IsError)
	assert.Contains(t, res.Content[0].(*sdk.TextContent).Text, "did not answer within 300ms")
}

// fakeInstanceSocket listens on a socket in a private directory of its
// own, for a test to play an instance on.
func fakeInstanceSocket(t *testing.T) (string, net.Listener) {
	t.Helper()
	dir, err := os.MkdirTemp("", "jt") // short: socket paths are limited
	require.NoError(t, err)
	t.Cleanup(func() { os.RemoveAll(dir) })
	require.NoError(t, os.Chmod(dir, 0o700))
	sock := filepath.Join(dir, "s.sock")
	l, err := net.Listen("unix", sock)
	require.NoError(t, err)
	return sock, l
}
