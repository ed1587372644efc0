package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"jobtop/control"
)

// remote runs the jobtop CLI on this machine against the instance on an
// sshHost: --host (and the flags given) before every command, the
// test's ssh on the PATH, and this side's state in a directory of its
// own.
type remote struct {
	t     testing.TB
	bin   string
	host  *sshHost
	flags []string
	env   []string
}

func newRemote(t testing.TB, bin string, h *sshHost, flags ...string) *remote {
	t.Helper()
	near := t.TempDir()
	require.NoError(t, os.Chmod(near, 0o700))
	return &remote{t: t, bin: bin, host: h, flags: append([]string{"--host", h.url}, flags...),
		env: []string{"XDG_RUNTIME_DIR=" + near, "XDG_STATE_HOME=" + near, "JOBTOP_SOCKET=" + filepath.Join(near, "near.sock")}}
}

// run runs jobtop with the remote flags and args; it returns stdout,
// stderr and the exit code.
func (r *remote) run(args ...string) (string, string, int) {
	r.t.Helper()
	cmd := exec.Command(r.bin, append(append([]string{}, r.flags...), args...)...)
	cmd.Env = append(append(os.Environ(), r.env...), r.host.env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	if exit, ok := err.(*exec.ExitError); ok {
		code = exit.ExitCode()
	} else {
		require.NoError(r.t, err)
	}
	return stdout.String(), stderr.String(), code
}

// ok runs a command that must succeed and returns its stdout.
func (r *remote) ok(args ...string) string {
	r.t.Helper()
	out, errOut, code := r.run(args...)
	require.Equal(r.t, 0, code, "jobtop %v: %s", args, errOut)
	return out
}

// shutdownOnCleanup ends the far instance (started by dial-stdio) when the
// test ends.
func (r *remote) shutdownOnCleanup() {
	r.t.Cleanup(func() { r.run("shutdown") })
}

// An agent's loop on another machine, over ssh: run starts the far
// instance and the job, wait --until sees its line, logs by cursor gives
// only what is new, kill ends the job's whole tree there. No ssh process
// outlives a command.
func TestSSHAgentLoop(t *testing.T) {
	bin := binary(t)
	h := startSSHD(t)
	h.installJobtop(t, bin)
	r := newRemote(t, bin, h)
	r.shutdownOnCleanup()
	token := fmt.Sprintf("%d.%d", os.Getpid(), time.Now().UnixNano()%100000)

	id := strings.TrimSpace(r.ok("run", "--name", "web", "--", treeJobs(token)+" & echo booting in $PWD; echo listening on 8080; echo extra; wait"))
	require.Equal(t, "1", id)
	out := r.ok("wait", id, "--until", "listening on", "--timeout", "30s")
	assert.Equal(t, "listening on 8080\n", out)

	var first struct {
		Lines []struct {
			Text string `json:"text"`
		} `json:"lines"`
		NextCursor uint64 `json:"next_cursor"`
	}
	require.NoError(t, json.Unmarshal([]byte(r.ok("logs", id, "--json", "--cursor", "0")), &first))
	var texts []string
	for _, l := range first.Lines {
		texts = append(texts, l.Text)
	}
	require.Contains(t, texts, "listening on 8080")
	var next struct {
		Lines      []json.RawMessage `json:"lines"`
		NextCursor uint64            `json:"next_cursor"`
	}
	require.NoError(t, json.Unmarshal([]byte(r.ok("logs", id, "--json", "--cursor", strconv.FormatUint(first.NextCursor, 10))), &next))
	assert.Empty(t, next.Lines, "only lines after the cursor")
	assert.Equal(t, first.NextCursor, next.NextCursor)

	require.Len(t, processesWith(token), 4, "the job's tree runs on the far side (its shell and three sleeps): %v", processesWith(token))
	assert.Contains(t, r.ok("kill", id), "killed")
	waitNoneLeft(t, token, deadline)
	ls := r.ok("ls")
	assert.Regexp(t, `(?m)^1\s+web\s+killed`, ls)

	home, _ := os.UserHomeDir()
	assert.Contains(t, texts, "booting in "+home, "without --cwd, the job ran in the far instance's directory (ssh's: the home directory), not this one's")

	require.Eventually(t, func() bool { return len(h.sshProcesses(0)) == 0 }, deadline, 20*time.Millisecond,
		"every command's ssh has exited: %v", h.sshProcesses(0))
}

// SSH's own failure is shown as ssh said it: a key the far side does not
// accept.
func TestSSHWrongKey(t *testing.T) {
	bin := binary(t)
	h := startSSHD(t)
	h.installJobtop(t, bin)
	h.useKey("wrongid")
	r := newRemote(t, bin, h)
	_, errOut, code := r.run("ls")
	assert.Equal(t, 1, code)
	assert.Contains(t, errOut, "jobtop: ssh to 127.0.0.1:"+strconv.Itoa(h.port)+" failed: ")
	assert.Contains(t, errOut, "Permission denied (publickey)")
}

// No jobtop on the far PATH: say what to do; --remote-bin is the way out.
func TestSSHMissingRemoteBinary(t *testing.T) {
	bin := binary(t)
	h := startSSHD(t)
	r := newRemote(t, bin, h)
	_, errOut, code := r.run("ls")
	assert.Equal(t, 1, code)
	name := "127.0.0.1:" + strconv.Itoa(h.port)
	assert.Contains(t, errOut, "jobtop is not on the PATH of host "+name)
	assert.Contains(t, errOut, "install jobtop on host "+name+", or pass --remote-bin PATH")

	_, errOut, code = newRemote(t, bin, h, "--remote-bin", "/nowhere/jobtop").run("ls")
	assert.Equal(t, 1, code)
	assert.Contains(t, errOut, "no program /nowhere/jobtop on host "+name)

	// --remote-bin names the far jobtop: it answers that no instance runs
	// there (ls starts none), and run starts one.
	withBin := newRemote(t, bin, h, "--remote-bin", bin)
	_, errOut, code = withBin.run("ls")
	assert.Equal(t, 1, code)
	assert.Contains(t, errOut, "no jobtop is listening on host "+name)
	withBin.shutdownOnCleanup()
	withBin.ok("run", "--", "true")
	assert.Contains(t, withBin.ok("ls"), "ID  NAME", "--remote-bin names the far jobtop")
}

// A far end older than this API is refused with both versions named: one
// that announces an older version, and a jobtop from before versions
// (dial-stdio unknown to it).
func TestSSHOlderFarEnd(t *testing.T) {
	bin := binary(t)
	h := startSSHD(t)
	older := filepath.Join(h.farBin, "jobtop-v0")
	writeFile(t, older, "#!/bin/sh\necho jobtop-api 0\nexec cat >/dev/null\n")
	require.NoError(t, os.Chmod(older, 0o700))
	_, errOut, code := newRemote(t, bin, h, "--remote-bin", older).run("ls")
	assert.Equal(t, 1, code)
	assert.Contains(t, errOut, "speaks API version 0")
	assert.Contains(t, errOut, fmt.Sprintf("this jobtop speaks version %d and needs version 1 or newer: upgrade jobtop on 127.0.0.1:%d", control.APIVersion, h.port))

	// What a jobtop without dial-stdio answers (its flag parser stops at
	// --api, which comes first for that reason).
	ancient := filepath.Join(h.farBin, "jobtop-ancient")
	writeFile(t, ancient, "#!/bin/sh\necho 'jobtop: unknown flag: --api' >&2\nexit 1\n")
	require.NoError(t, os.Chmod(ancient, 0o700))
	_, errOut, code = newRemote(t, bin, h, "--remote-bin", ancient).run("ls")
	assert.Equal(t, 1, code)
	assert.Contains(t, errOut, fmt.Sprintf("speaks API version 0 (it predates API versions and jobtop dial-stdio); this jobtop speaks version %d", control.APIVersion))

	// A program that is no jobtop at all, and exits 0: not "failed
	// (exit status 0)", and the way out.
	other := filepath.Join(h.farBin, "not-jobtop")
	writeFile(t, other, "#!/bin/sh\necho Welcome to the box\nexit 0\n")
	require.NoError(t, os.Chmod(other, 0o700))
	_, errOut, code = newRemote(t, bin, h, "--remote-bin", other).run("ls")
	assert.Equal(t, 1, code)
	assert.Equal(t, fmt.Sprintf("jobtop: %s on host 127.0.0.1:%d ended without answering as jobtop dial-stdio does (exit status 0, and said: Welcome to the box): is it jobtop? pass --remote-bin PATH with jobtop's path there\n", other, h.port), errOut)
}

// attach shows two instances in one table, this machine's and one
// reached over ssh, through one ssh connection; an action goes to the
// job's own host; killing the ssh process shows the host disconnected
// and it comes back with its job, whose output goes on.
func TestSSHAttachTwoHosts(t *testing.T) {
	bin := binary(t)
	h := startSSHD(t)
	here := startServe(t, bin)
	there := startServe(t, bin)
	here.cli("run", "--name", "near", "--", "exec sleep 300")
	there.cli("run", "--name", "far", "--", "i=0; while :; do i=$((i+1)); echo \"tick $i\"; sleep 0.2; done")
	there.cli("run", "--name", "farsleep", "--", "exec sleep 300")

	// tmux gives a session its own PATH whatever -e says: env sets the
	// one with the test's ssh first.
	s := newSession(t, 160, 40, []string{"JOBTOP_SOCKET=" + here.socket},
		append(append([]string{"env"}, h.env...), bin, "attach", "--local", "--host", h.url, "--remote-socket", there.socket, "--remote-bin", bin)...)
	name := "127.0.0.1:" + strconv.Itoa(h.port)
	scr := s.waitText("HOST", "near", "far", "farsleep", name+" local")
	require.Regexp(t, `^\s+ID HOST\s+NAME`, scr[0])
	assert.Regexp(t, `^▸\s+1 `+regexp.QuoteMeta(name)+`\s+far\s+● running`, row(scr, " far "))
	assert.Regexp(t, `\s+2 `+regexp.QuoteMeta(name)+`\s+farsleep\s+● running`, row(scr, "farsleep"))
	assert.Regexp(t, `\s+1 local\s+near\s+● running`, row(scr, "near"))

	pid := s.jobtopPID()
	require.Len(t, h.sshProcesses(pid), 1, "one ssh connection serves the whole session")

	// An action on the far job reaches the far instance only.
	s.keys("j")
	s.waitFor("farsleep selected", func(scr []string) bool { return strings.HasPrefix(row(scr, "farsleep"), "▸") })
	s.keys("X")
	s.waitFor("farsleep killed", func(scr []string) bool { return strings.Contains(row(scr, "farsleep"), "killed") })
	assert.Equal(t, "killed", there.state("farsleep"))
	assert.Equal(t, "running", here.state("near"))

	// Split view across the hosts.
	s.keys("k", "Space", "G", "Space", "s")
	s.waitText("job 1 far on "+name, "job 1 near on local", "split 2/2")

	// The connection drops: the host says so, then comes back.
	before := lastTick(s.screen())
	ssh := h.sshProcesses(pid)
	require.Len(t, ssh, 1)
	require.NoError(t, syscall.Kill(ssh[0], syscall.SIGKILL))
	s.waitFor("the host to show disconnected", func(scr []string) bool {
		return strings.Contains(strings.Join(scr, "\n"), name+": disconnected, ")
	})
	scr = s.waitFor("the host to come back with its job's output", func(scr []string) bool {
		all := strings.Join(scr, "\n")
		return !strings.Contains(all, "disconnected") && lastTick(scr) > before+2
	})
	assert.Contains(t, row(scr, " far "), "● running", "the far job ran on all along")
	assert.Contains(t, row(scr, "near"), "● running")
	require.Eventually(t, func() bool { return len(h.sshProcesses(pid)) == 1 }, deadline, 20*time.Millisecond,
		"one ssh connection again")

	s.quit("they keep running in jobtop on " + name + ", local. quit? y/n")
	assert.Equal(t, "running", there.state("far"), "quitting leaves the far jobs running")
	require.Eventually(t, func() bool { return len(h.sshProcesses(0)) == 0 }, deadline, 20*time.Millisecond,
		"the session's ssh has exited")
}

// jobtop mcp --host (here $JOBTOP_HOST): an agent's tools act on the far
// instance, which dial-stdio starts; a relative cwd means nothing there
// and is refused.
func TestSSHMCP(t *testing.T) {
	bin := binary(t)
	h := startSSHD(t)
	h.installJobtop(t, bin)
	r := newRemote(t, bin, h)
	r.shutdownOnCleanup()
	env := append(append(append(os.Environ(), r.env...), h.env...), "JOBTOP_HOST="+h.url)
	cs := mcpSession(t, bin, env)

	run := callTool(t, cs, "run_job", map[string]any{"name": "far", "command": "echo hello from afar; echo in $PWD", "wait_for": "exit"})
	require.Equal(t, "succeeded", run["job"].(map[string]any)["state"])
	out := callTool(t, cs, "read_output", map[string]any{"id": "far"})
	lines := out["lines"].([]any)
	require.Equal(t, "hello from afar", lines[0].(map[string]any)["text"])
	assert.Regexp(t, `(?m)^1\s+far\s+succeeded`, r.ok("ls"), "the job ran in the far instance")

	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "run_job", Arguments: map[string]any{"command": "make", "cwd": "src"}})
	require.NoError(t, err)
	require.True(t, res.IsError)
	assert.Contains(t, res.Content[0].(*sdk.TextContent).Text, `cwd "src": the jobs run on host 127.0.0.1:`+strconv.Itoa(h.port)+", so give an absolute path there")
	res, err = cs.CallTool(ctx, &sdk.CallToolParams{Name: "run_job", Arguments: map[string]any{"command": "make", "cwd": "/no/such/dir"}})
	require.NoError(t, err)
	require.True(t, res.IsError)
	assert.Equal(t, `the job did not start: cwd "/no/such/dir" does not exist on host 127.0.0.1:`+strconv.Itoa(h.port), res.Content[0].(*sdk.TextContent).Text, "the directory missing there, not here")
}
