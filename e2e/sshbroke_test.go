package e2e

import (
	"bytes"
	"context"
	be "encoding/binary"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// sentHeaders reports whether the bytes a client sent on an HTTP/2
// connection hold a whole HEADERS frame: a request went out on it.
func sentHeaders(b []byte) bool { return headerFrames(b) > 0 }

// headerFrames counts the whole HEADERS frames in the bytes a client sent
// on an HTTP/2 connection: the requests that went out on it.
func headerFrames(b []byte) int {
	const preface = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"
	if !bytes.HasPrefix(b, []byte(preface)) {
		return 0
	}
	frames := 0
	for b = b[len(preface):]; len(b) >= 9; {
		n := int(be.BigEndian.Uint32(append([]byte{0}, b[:3]...)))
		if len(b) < 9+n {
			break
		}
		if b[3] == 1 { // HEADERS
			frames++
		}
		b = b[9+n:]
	}
	return frames
}

// teedJobtop installs on the host a jobtop that keeps what each
// connection's client sends in a file of its own, sent.PID: tests see
// there when a request has reached the far side.
func teedJobtop(t *testing.T, h *sshHost) (teed, sent string) {
	t.Helper()
	sent = filepath.Join(h.farDir, "sent")
	teed = filepath.Join(h.farBin, "jobtop-teed")
	writeFile(t, teed, "#!/bin/sh\ntee \""+sent+".$$\" | exec "+filepath.Join(h.farBin, "jobtop")+" \"$@\"\n")
	require.NoError(t, os.Chmod(teed, 0o700))
	return teed, sent
}

// A wait over ssh whose ssh connection breaks says so in words, not the
// HTTP client's ("(talking to host b: Get \"http://jobtop/v1/jobs/1/wait\":
// unexpected EOF)"), and does not claim the far instance ended when the
// host cannot be reached again: it may still run. Exit 255 either way:
// the wait has no outcome of the job's to give.
func TestSSHWaitWhoseLinkBreaks(t *testing.T) {
	bin := binary(t)
	h := startSSHD(t)
	h.installJobtop(t, bin)
	sock := filepath.Join(h.farDir, "w.sock")
	// The link is cut once the wait's request is there.
	teed, sent := teedJobtop(t, h)
	r := newRemote(t, bin, h, "--remote-socket", sock, "--remote-bin", teed)
	// Shut down through the plain binary: tee holds each ssh session
	// open until its input ends, so shutdown's polls (is it gone?) over
	// the teed one each wait out their timeout.
	newRemote(t, bin, h, "--remote-socket", sock).shutdownOnCleanup()
	require.Equal(t, "1\n", r.ok("run", "--name", "nap", "--", "exec sleep 300"))
	name := "127.0.0.1:" + strconv.Itoa(h.port)

	// waitCut runs wait 1 and kills its ssh once the request is on the
	// far side; first, when down, the host stops taking the test's key.
	waitCut := func(down bool) (string, int) {
		t.Helper()
		old, _ := filepath.Glob(sent + ".*")
		for _, f := range old {
			require.NoError(t, os.Remove(f))
		}
		cmd := exec.Command(bin, append(append([]string{}, r.flags...), "wait", "1")...)
		cmd.Env = append(append(os.Environ(), r.env...), h.env...)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		require.NoError(t, cmd.Start())
		require.Eventually(t, func() bool {
			files, _ := filepath.Glob(sent + ".*")
			for _, f := range files {
				if b, _ := os.ReadFile(f); sentHeaders(b) {
					return true
				}
			}
			return false
		}, deadline, 20*time.Millisecond, "the wait's request reached the far side")
		ssh := h.sshProcesses(cmd.Process.Pid)
		require.Len(t, ssh, 1)
		if down {
			h.useKey("wrongid")
			defer h.useKey("id")
		}
		require.NoError(t, syscall.Kill(ssh[0], syscall.SIGKILL))
		code := 0
		if err := cmd.Wait(); err != nil {
			var exit *exec.ExitError
			require.ErrorAs(t, err, &exit)
			code = exit.ExitCode()
		}
		return stderr.String(), code
	}

	stderr, code := waitCut(false)
	assert.Equal(t, 255, code)
	assert.Equal(t, "jobtop: the ssh connection to the jobtop instance on host "+name+" broke off while waiting for job 1; the instance still runs there, and its jobs with it\n", stderr)

	stderr, code = waitCut(true)
	assert.Equal(t, 255, code)
	assert.True(t, strings.HasPrefix(stderr, "jobtop: the ssh connection to the jobtop instance on host "+name+" broke off while waiting for job 1, and a new one did not reach it (ssh said: "), stderr)
	assert.Contains(t, stderr, "Permission denied (publickey)")
	assert.True(t, strings.HasSuffix(stderr, "): the instance there may still run, and its jobs with it; `ssh "+h.url+" "+teed+" ls --socket "+sock+"` says whether it answers\n"), stderr)
	assert.NotContains(t, stderr, "ended", "the far instance is not said to have ended")

	assert.Regexp(t, `(?m)^1\s+nap\s+running`, r.ok("ls"), "the far job ran on")
}

// MCP's wait_job over ssh whose link breaks, with the host out of reach
// after: the tool says the instance there may still run, in the CLI's
// words, and not that it ended (an agent told so would start its jobs
// again).
func TestSSHMCPWaitWhoseLinkBreaks(t *testing.T) {
	bin := binary(t)
	h := startSSHD(t)
	h.installJobtop(t, bin)
	sock := filepath.Join(h.farDir, "m.sock")
	teed, sent := teedJobtop(t, h)
	r := newRemote(t, bin, h, "--remote-socket", sock)
	r.shutdownOnCleanup()
	require.Equal(t, "1\n", r.ok("run", "--name", "nap", "--", "exec sleep 300"))

	cmd := exec.Command(bin, append(append([]string{}, r.flags...), "--remote-bin", teed, "mcp")...)
	cmd.Env = append(append(os.Environ(), r.env...), h.env...)
	cmd.Stderr = os.Stderr
	ctx, cancel := context.WithTimeout(context.Background(), 2*deadline)
	defer cancel()
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "e2e-agent", Version: "1"}, nil).
		Connect(ctx, &sdk.CommandTransport{Command: cmd}, nil)
	require.NoError(t, err)
	defer cs.Close()
	callTool(t, cs, "list_jobs", map[string]any{})
	requests := func() int {
		n := 0
		files, _ := filepath.Glob(sent + ".*")
		for _, f := range files {
			b, _ := os.ReadFile(f)
			n += headerFrames(b)
		}
		return n
	}
	before := requests()

	type answer struct {
		res *sdk.CallToolResult
		err error
	}
	done := make(chan answer, 1)
	go func() {
		res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "wait_job", Arguments: map[string]any{"id": "nap"}})
		done <- answer{res, err}
	}()
	require.Eventually(t, func() bool { return requests() > before }, deadline, 20*time.Millisecond, "the wait's request reached the far side")
	h.useKey("wrongid")
	defer h.useKey("id")
	ssh := h.sshProcesses(cmd.Process.Pid)
	require.NotEmpty(t, ssh)
	for _, pid := range ssh {
		require.NoError(t, syscall.Kill(pid, syscall.SIGKILL))
	}
	a := <-done
	require.NoError(t, a.err)
	require.True(t, a.res.IsError)
	text := a.res.Content[0].(*sdk.TextContent).Text
	name := "127.0.0.1:" + strconv.Itoa(h.port)
	assert.True(t, strings.HasPrefix(text, "the ssh connection to the jobtop instance on host "+name+" broke off while waiting for job 1"), text)
	assert.Contains(t, text, "and a new one did not reach it (ssh said: ")
	assert.Contains(t, text, "the instance there may still run, and its jobs with it")
	assert.NotContains(t, text, "ended", "the far instance is not said to have ended")
	h.useKey("id")
	assert.Regexp(t, `(?m)^1\s+nap\s+running`, r.ok("ls"), "the far job ran on")

	// Once the far instance is gone, the tools say so, naming the host
	// (there is no socket here to name).
	out, err := exec.Command("pgrep", "-f", "serve --socket "+sock).Output()
	require.NoError(t, err)
	far, err := strconv.Atoi(strings.Fields(string(out))[0])
	require.NoError(t, err)
	require.NoError(t, syscall.Kill(far, syscall.SIGKILL))
	require.Eventually(t, func() bool { return syscall.Kill(far, 0) != nil }, deadline, 20*time.Millisecond)
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "list_jobs", Arguments: map[string]any{}})
	require.NoError(t, err)
	text = res.Content[0].(*sdk.TextContent).Text
	assert.Contains(t, text, " on host "+name+" has ended", text)
}
