package control

import (
	"context"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"jobtop/jobs"
)

// bridgedClient is a client whose connections are BridgeStdio runs on
// pipes, as jobtop dial-stdio runs at the far end of ssh, with the same
// transport as NewHostClient's. dials counts the connections made.
func bridgedClient(t *testing.T, socket string, dials *atomic.Int32) *Client {
	t.Helper()
	protocols := new(http.Protocols)
	protocols.SetUnencryptedHTTP2(true)
	transport := &http.Transport{
		Protocols: protocols,
		DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
			dials.Add(1)
			inR, inW, err := os.Pipe()
			if err != nil {
				return nil, err
			}
			outR, outW, err := os.Pipe()
			if err != nil {
				return nil, err
			}
			go func() {
				BridgeStdio(context.Background(), socket, APIVersion, inR, outW) //nolint:errcheck // ends with the pipes
				inR.Close()
				outW.Close()
			}()
			c := &pipeConn{r: outR, w: inW, name: "bridge"}
			v, noise, err := c.readBanner(ctx)
			if err != nil {
				c.Close()
				return nil, err
			}
			if v != APIVersion || noise != "" {
				c.Close()
				return nil, &VersionError{Host: "bridge", Far: v}
			}
			return c, nil
		},
	}
	c := &Client{socket: socket, host: &Host{Addr: "bridge"}, http: &http.Client{Transport: transport}}
	t.Cleanup(func() { c.Close() })
	return c
}

// The API goes through dial-stdio's bridge untouched: calls, a follow
// stream that runs while other calls are made, and the event stream of
// an attached mirror, all on one connection (HTTP/2 streams).
func TestBridgeCarriesTheAPIOnOneConnection(t *testing.T) {
	in := startInstance(t)
	var dials atomic.Int32
	c := bridgedClient(t, in.socket, &dials)
	ctx := ctxT(t)

	inst, err := c.Instance(ctx)
	require.NoError(t, err)
	assert.Equal(t, APIVersion, inst.APIVersion)

	info, err := c.StartJob(ctx, StartRequest{Command: "for i in 1 2 3; do echo line-$i; sleep 0.2; done"})
	require.NoError(t, err)
	require.NoError(t, c.Attach(ctx))

	var followed []string
	followDone := make(chan error, 1)
	go func() {
		followDone <- c.FollowOutput(ctx, info.ID, OutputQuery{}, func(r OutputResponse) error {
			for _, l := range r.Lines {
				followed = append(followed, l.Text)
			}
			return nil
		})
	}()
	// Calls made while the stream runs.
	for range 5 {
		_, err := c.Jobs(ctx)
		require.NoError(t, err)
	}
	require.NoError(t, <-followDone)
	assert.Equal(t, []string{"line-1", "line-2", "line-3"}, followed)

	require.Eventually(t, func() bool {
		got, err := c.Get(info.ID)
		return err == nil && got.State == jobs.StateSucceeded
	}, testTimeout, 10*time.Millisecond, "the mirror holds the job's end")
	out, err := c.Output(info.ID)
	require.NoError(t, err)
	assert.Equal(t, "line-3", out.LastLine())
	assert.Equal(t, int32(1), dials.Load(), "every call and stream shared one connection")
}

// A socket the bridge does not trust is refused on the far side, as the
// CLI refuses it.
func TestBridgeRefusesAnUntrustedSocket(t *testing.T) {
	dir := shortTempDir(t)
	require.NoError(t, os.Chmod(dir, 0o775))
	err := BridgeStdio(ctxT(t), dir+"/s.sock", APIVersion, strings.NewReader(""), &strings.Builder{})
	var untrusted *UntrustedSocketError
	require.ErrorAs(t, err, &untrusted)
	assert.Contains(t, err.Error(), "mode 0775")
}

// No instance on the socket: the bridge says so before writing anything.
func TestBridgeWithoutAnInstance(t *testing.T) {
	var out strings.Builder
	err := BridgeStdio(ctxT(t), shortTempDir(t)+"/s.sock", APIVersion, strings.NewReader(""), &out)
	var notRunning *NotRunningError
	require.ErrorAs(t, err, &notRunning)
	assert.Empty(t, out.String(), "no banner: the client sees the failure")
}

// Over HTTP/2, as over ssh, a quiet stream is not cut by the write
// deadline its writes get: the deadline is lifted once a write is done
// (a passed deadline resets an HTTP/2 stream even while nothing is
// written, so a follow broke off after StreamWriteTimeout).
func TestQuietStreamOverHTTP2IsNotCut(t *testing.T) {
	in := startInstance(t)
	old := streamWriteTimeout.Swap(int64(300 * time.Millisecond))
	t.Cleanup(func() { streamWriteTimeout.Store(old) })
	var dials atomic.Int32
	c := bridgedClient(t, in.socket, &dials)
	quiet := in.startJob(t, "sleep 1.5; echo late; exec sleep 1000").ID
	var got []string
	err := c.FollowOutput(ctxT(t), quiet, OutputQuery{}, func(r OutputResponse) error {
		for _, l := range r.Lines {
			got = append(got, l.Text)
		}
		if len(got) > 0 {
			return context.Canceled // done
		}
		return nil
	})
	require.ErrorIs(t, err, context.Canceled, "the line written after a quiet 1.5 s arrives: %v", err)
	assert.Equal(t, []string{"late"}, got)
}

// A client that sends its request and ends its input at once (printf ...
// | jobtop dial-stdio) still gets the answer: the bridge stops when the
// instance has answered, not when the input ends.
func TestBridgeAnswersARequestWhoseInputEnded(t *testing.T) {
	in := startInstance(t)
	for i := range 20 {
		var out strings.Builder
		req := "GET /v1/instance HTTP/1.1\r\nHost: jobtop\r\nConnection: close\r\n\r\n"
		require.NoError(t, BridgeStdio(ctxT(t), in.socket, APIVersion, strings.NewReader(req), &out))
		require.Contains(t, out.String(), "HTTP/1.1 200 OK", "try %d: %q", i, out.String())
		require.Contains(t, out.String(), `"api_version"`)
	}
}

// spliceSpy is stdin or stdout as dial-stdio gets them, an *os.File's
// ReadFrom and WriteTo included, and says whether either was used.
type spliceSpy struct {
	io.Reader
	io.Writer
	used atomic.Bool
}

func (s *spliceSpy) ReadFrom(r io.Reader) (int64, error) {
	s.used.Store(true)
	return io.Copy(s.Writer, r)
}

func (s *spliceSpy) WriteTo(w io.Writer) (int64, error) {
	s.used.Store(true)
	return io.Copy(w, s.Reader)
}

// The bridge reads and writes its stdin and stdout plainly: a splice into
// ssh's blocking stdout pipe spun a core on EAGAIN while ssh did not read
// (a stalled link).
func TestBridgeDoesNotSpliceStdio(t *testing.T) {
	in := startInstance(t)
	req := "GET /v1/instance HTTP/1.1\r\nHost: jobtop\r\nConnection: close\r\n\r\n"
	var out strings.Builder
	stdin, stdout := &spliceSpy{Reader: strings.NewReader(req)}, &spliceSpy{Writer: &out}
	require.NoError(t, BridgeStdio(ctxT(t), in.socket, APIVersion, stdin, stdout))
	require.Contains(t, out.String(), "HTTP/1.1 200 OK")
	assert.False(t, stdin.used.Load(), "stdin's WriteTo")
	assert.False(t, stdout.used.Load(), "stdout's ReadFrom")
}
