package mcp

import (
	"bufio"
	"bytes"
	"net"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"jobtop/control"
	"jobtop/jobs"
)

// cuttingProxy forwards the connections made to a socket of its own to
// the instance on socket, and cuts each one that carries a request whose
// line starts with one of cutAt once it has passed that request on: a link that
// breaks (ssh's) while the instance serves the request. Each, as the HTTP
// client tries such a request again on a new connection once.
func cuttingProxy(t *testing.T, socket string, cutAt ...string) string {
	t.Helper()
	sock, l := fakeInstanceSocket(t)
	var mu sync.Mutex
	var conns []net.Conn
	t.Cleanup(func() {
		l.Close()
		mu.Lock()
		defer mu.Unlock()
		for _, c := range conns {
			c.Close()
		}
	})
	go func() {
		for {
			in, err := l.Accept()
			if err != nil {
				return
			}
			out, err := net.Dial("unix", socket)
			if err != nil {
				in.Close()
				continue
			}
			mu.Lock()
			conns = append(conns, in, out)
			mu.Unlock()
			// Nothing of the answer to a request that is cut reaches the
			// client, even when the instance answers before the cut.
			var cut atomic.Bool
			go func() {
				buf := make([]byte, 32<<10)
				for {
					n, err := out.Read(buf)
					if cut.Load() {
						return
					}
					if _, werr := in.Write(buf[:n]); err != nil || werr != nil {
						return
					}
				}
			}()
			go func() {
				defer out.Close()
				defer in.Close()
				r := bufio.NewReader(in)
				for {
					line, err := r.ReadBytes('\n')
					cutHere := slices.ContainsFunc(cutAt, func(p string) bool { return bytes.HasPrefix(line, []byte(p)) })
					if cutHere {
						cut.Store(true)
					}
					if _, werr := out.Write(line); err != nil || werr != nil {
						return
					}
					if cutHere {
						// The rest of the request's head, then the cut.
						for len(bytes.TrimSpace(line)) > 0 && err == nil {
							line, err = r.ReadBytes('\n')
							out.Write(line) //nolint:errcheck // cut next anyway
						}
						return
					}
				}
			}()
		}
	}()
	return sock
}

// TestAConnectionThatBreaksMidWaitIsSaidAsTheCLISaysIt: a wait_job whose
// connection breaks (an ssh link going down) while the instance runs on
// says so in the CLI's words (jobtop wait's), not in a raw Go error
// ("talking to host box: Get \"http://jobtop/v1/jobs/3/wait?timeout=20s\":
// unexpected EOF"), and so does any other tool; the next call goes
// through.
func TestAConnectionThatBreaksMidWaitIsSaidAsTheCLISaysIt(t *testing.T) {
	mgr, direct := newInstance(t, jobs.StoreOptions{})
	info, err := mgr.Start(jobs.Spec{Name: "long", Command: "exec sleep 77"})
	require.NoError(t, err)
	job := "GET /v1/jobs/" + info.ID.String()
	proxy := cuttingProxy(t, direct.Socket(), job+"/wait", job+"/output")
	api := control.NewClient(proxy)
	t.Cleanup(func() { api.Close() })
	e := &env{t: t, mgr: mgr, api: api, dir: t.TempDir()}
	e.srv = New(Options{Client: api, Dir: e.dir})
	e.session, _ = connect(t, e.srv, "test-agent")

	said := e.toolErr("wait_job", map[string]any{"id": "long", "timeout": "60s"})
	assert.True(t, strings.HasPrefix(said, "the connection to the jobtop instance on "+proxy+" broke off while waiting for job "+info.ID.String()+" to end ("), said)
	assert.True(t, strings.HasSuffix(said, "; the instance still runs"), said)
	said = e.toolErr("read_output", map[string]any{"id": "long"})
	assert.True(t, strings.HasPrefix(said, "the connection to the jobtop instance on "+proxy+" broke off while answering read_output ("), said)
	assert.Contains(t, e.ok("job_status", map[string]any{"id": "long"}, nil), "running", "the next call goes through")
}
