package control

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"jobtop/jobs"
	"jobtop/vtscreen/vtfast"
)

// testTimeout is generous: the tests must pass on a loaded 2-core machine.
const testTimeout = 30 * time.Second

// instance is a manager served on a real unix socket in a temp dir.
type instance struct {
	mgr    *jobs.Manager
	server *Server
	socket string
	client *Client
}

// shortTempDir is a temp dir with a short path: unix socket paths are
// limited to about 100 bytes, and t.TempDir's can be longer.
func shortTempDir(t testing.TB) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "jt")
	require.NoError(t, err)
	t.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}

func newManager(t testing.TB, socket string) *jobs.Manager {
	t.Helper()
	return newManagerWith(t, socket, jobs.Options{})
}

// newManagerWith is newManager with opts (its Emulator, LogDir and Env
// are set here).
func newManagerWith(t testing.TB, socket string, opts jobs.Options) *jobs.Manager {
	t.Helper()
	opts.Emulator = func(c, r int) jobs.Emulator { return vtfast.New(c, r) }
	opts.LogDir = t.TempDir()
	opts.Env = map[string]string{SocketEnv: socket}
	m, err := jobs.NewManager(opts)
	require.NoError(t, err)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
		defer cancel()
		m.Shutdown(ctx) //nolint:errcheck // best effort in cleanup
	})
	return m
}

// startInstance serves a fresh manager on a socket in a new temp dir.
func startInstance(t testing.TB) *instance {
	t.Helper()
	return startInstanceAt(t, filepath.Join(shortTempDir(t), "s.sock"))
}

// startInstanceAt is startInstance on the socket path given.
func startInstanceAt(t testing.TB, socket string) *instance {
	t.Helper()
	return startInstanceWith(t, socket, jobs.Options{})
}

// startInstanceWith is startInstanceAt with a manager made with opts.
func startInstanceWith(t testing.TB, socket string, opts jobs.Options) *instance {
	t.Helper()
	m := newManagerWith(t, socket, opts)
	srv, err := ListenAndServe(m, socket, Instance{Kind: "serve"})
	require.NoError(t, err)
	t.Cleanup(func() { srv.Close() })
	c := NewClient(socket)
	t.Cleanup(func() { c.Close() })
	return &instance{mgr: m, server: srv, socket: socket, client: c}
}

func ctxT(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	t.Cleanup(cancel)
	return ctx
}

// startJob starts a shell command through the API.
func (in *instance) startJob(t *testing.T, command string) jobs.Info {
	t.Helper()
	info, err := in.client.StartJob(ctxT(t), StartRequest{Command: command})
	require.NoError(t, err)
	return info
}

// waitEnded waits through the API for the job to end.
func (in *instance) waitEnded(t *testing.T, id jobs.ID) jobs.Info {
	t.Helper()
	resp, err := in.client.WaitJob(ctxT(t), id, 0)
	require.NoError(t, err)
	require.True(t, resp.Ended)
	return resp.Job
}

func texts(lines []jobs.Line) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = l.Text
	}
	return out
}

// processAlive reports whether pid exists and is not a zombie.
func processAlive(pid int) bool {
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return false
	}
	s := string(b)
	for i := len(s) - 1; i >= 0; i-- {
		if s[i] == ')' {
			return len(s) > i+2 && s[i+2] != 'Z'
		}
	}
	return true
}

// mkfifo makes a named pipe: a job that reads it waits until the test
// writes, with no timing involved.
func mkfifo(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "fifo")
	require.NoError(t, syscall.Mkfifo(path, 0o600))
	return path
}

// writeFifo writes text to the fifo and closes it (the reader sees EOF).
func writeFifo(t *testing.T, path, text string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	require.NoError(t, err)
	_, err = f.WriteString(text)
	require.NoError(t, err)
	require.NoError(t, f.Close())
}

// helperEnv makes the test binary act as a helper process (see TestMain).
const helperEnv = "JOBTOP_CONTROL_TEST_HELPER"

// TestMain lets the test binary double as a helper process:
// "hold:PATH" locks PATH.lock, listens on PATH, says "ready" and blocks
// (to be SIGKILLed, leaving a stale socket); "connect:PATH" connects to
// PATH, sends a request and prints the status line or the connect error;
// "client:PATH" lists the jobs there as a client and prints its error;
// any other mode exits 0 ("probe:": it runs at all, otherUsersDir).
func TestMain(m *testing.M) {
	mode, path, ok := strings.Cut(os.Getenv(helperEnv), ":")
	if !ok {
		os.Exit(m.Run())
	}
	switch mode {
	case "hold":
		lock, err := os.OpenFile(path+".lock", os.O_RDWR|os.O_CREATE, 0o600)
		if err == nil {
			err = syscall.Flock(int(lock.Fd()), syscall.LOCK_EX)
		}
		if err == nil {
			_, err = net.Listen("unix", path)
		}
		if err != nil {
			fmt.Println(err)
			os.Exit(1)
		}
		fmt.Println("ready")
		select {}
	case "client":
		_, err := NewClient(path).Jobs(context.Background())
		fmt.Println(err)
	case "connect":
		conn, err := net.Dial("unix", path)
		if err != nil {
			fmt.Println("connect:", errors.Unwrap(errors.Unwrap(err)))
			os.Exit(0)
		}
		fmt.Fprint(conn, "GET /v1/jobs HTTP/1.1\r\nHost: x\r\n\r\n")
		line, _ := bufio.NewReader(conn).ReadString('\n')
		fmt.Println(strings.TrimSpace(line))
	}
	os.Exit(0)
}
