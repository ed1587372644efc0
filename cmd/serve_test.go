package cmd

import (
	"context"
	"encoding/json"
	"fmt"
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
	"golang.org/x/sys/unix"

	"jobtop/control"
)

// TestJobsSeeTheirInstance: a job finds its instance through
// JOBTOP_SOCKET, and starts a sibling job there with no flags.
func TestJobsSeeTheirInstance(t *testing.T) {
	c := newCLI(t)
	c.serve()
	id := c.startJob(`echo "$JOBTOP_SOCKET $JOBTOP_JOB_ID"`)
	c.ok("wait", id)
	assert.Equal(t, []string{c.socket + " 1"}, c.logLines(id))

	// The job's environment, not the caller's, points at the instance.
	parent := c.startJob(`env -u XDG_RUNTIME_DIR ` + binary + ` run --name sibling -- echo from a sibling`)
	c.ok("wait", parent)
	assert.Equal(t, []string{"3"}, c.logLines(parent))
	c.ok("wait", "sibling")
	assert.Equal(t, []string{"from a sibling"}, c.logLines("sibling"))
}

// Several runs at once with no instance each start a serve; one wins the
// socket, and only the run that started it says it did: the others name
// the one that answers.
func TestRunsAtOnceSayWhichServeAnswers(t *testing.T) {
	c := newCLI(t)
	const n = 6
	results := make(chan result, n)
	for i := range n {
		go func() { results <- c.run("run", "--name", fmt.Sprintf("j%d", i), "--", "true") }()
	}
	var stderrs []string
	for range n {
		r := <-results
		require.Equal(t, 0, r.code, r.stderr)
		stderrs = append(stderrs, r.stderr)
	}
	inst := c.waitAnswering()
	t.Cleanup(func() {
		syscall.Kill(inst.PID, syscall.SIGTERM) //nolint:errcheck // may be gone
		require.Eventually(t, func() bool { return !processAlive(inst.PID) }, testTimeout, 20*time.Millisecond)
	})
	started := 0
	for _, e := range stderrs {
		switch {
		case strings.Contains(e, "started one in the background"):
			started++
			assert.Contains(t, e, fmt.Sprintf("(jobtop serve, pid %d,", inst.PID))
		case e != "":
			assert.Equal(t, fmt.Sprintf("jobtop: no instance was listening on %s; another client started one meanwhile (jobtop serve, pid %d)\n", c.socket, inst.PID), e)
		}
	}
	assert.Equal(t, 1, started, "%q", stderrs)
	assert.Len(t, c.states(), n, "every job in the one instance")
}

func TestRunStartsAServerWhenNoneListens(t *testing.T) {
	c := newCLI(t)
	r := c.run("run", "--", "echo auto")
	require.Equal(t, 0, r.code, r.stderr)
	assert.Equal(t, "1\n", r.stdout)
	assert.Contains(t, r.stderr, "jobtop: no instance was listening on "+c.socket+"; started one in the background (jobtop serve, pid ")
	inst := c.waitAnswering()
	t.Cleanup(func() {
		syscall.Kill(inst.PID, syscall.SIGTERM) //nolint:errcheck // may be gone
		require.Eventually(t, func() bool { return !processAlive(inst.PID) }, testTimeout, 20*time.Millisecond)
	})
	assert.Equal(t, "serve", inst.Kind)
	c.ok("wait", "1")
	assert.Equal(t, []string{"auto"}, c.logLines("1"))

	// The next run uses it, silently.
	r = c.run("run", "--", "true")
	assert.Equal(t, "2\n", r.stdout)
	assert.Empty(t, r.stderr)

	// The server outlives the run command that started it, in its own
	// session (so a Ctrl-C in the caller's terminal does not reach it).
	sid, err := unix.Getsid(inst.PID)
	require.NoError(t, err)
	assert.Equal(t, inst.PID, sid)
}

// A --socket in a directory that does not exist (mistyped) is refused,
// by run before it starts a serve, and by serve and serve -D: nothing is
// made, no instance starts where no client would look.
func TestSocketInAMissingDirectoryIsRefused(t *testing.T) {
	c := newCLI(t)
	missing := filepath.Join(c.dir, "mistyped", "dir")
	sock := filepath.Join(missing, "s.sock")
	t.Cleanup(func() { // should it regress: no serve left behind
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		if inst, err := control.NewClient(sock).Instance(ctx); err == nil {
			syscall.Kill(inst.PID, syscall.SIGTERM) //nolint:errcheck // may be gone
		}
	})
	// Its parent is missing too: mkdir -p.
	hint := func(from string) string {
		return "the directory " + missing + " does not exist; check the socket's path (" + from + "), or make the directory first (mkdir -p -m 700 " + missing + ")"
	}
	want := "jobtop: cannot serve on " + sock + ": " + hint("--socket") + "\n"
	for _, args := range [][]string{{"run", "--socket", sock, "--", "true"}, {"serve", "--socket", sock}, {"serve", "-D", "--socket", sock}} {
		r := c.run(args...)
		assert.Equal(t, 1, r.code, "%v", args)
		assert.Equal(t, want, r.stderr, "%v", args)
		assert.Empty(t, r.stdout, "%v", args)
		assert.NoDirExists(t, filepath.Join(c.dir, "mistyped"), "%v", args)
	}
	// A client finds none there, and says why (not "jobtop run starts
	// one for you": run refuses it).
	r := c.run("ls", "--socket", sock)
	assert.Equal(t, 1, r.code)
	assert.Equal(t, "jobtop: no jobtop is listening on "+sock+" ("+hint("--socket")+")\n", r.stderr)

	// The same path from $JOBTOP_SOCKET names the variable.
	c.env = append(c.env, control.SocketEnv+"="+sock)
	r = c.run("run", "--", "true")
	assert.Equal(t, 1, r.code)
	assert.Equal(t, "jobtop: cannot serve on "+sock+": "+hint("$JOBTOP_SOCKET")+"\n", r.stderr)
	assert.NoDirExists(t, filepath.Join(c.dir, "mistyped"))
}

func TestServeRefusesALiveSocket(t *testing.T) {
	c := newCLI(t)
	first := c.serve()
	r := c.run("serve")
	assert.Equal(t, 1, r.code)
	assert.Contains(t, r.stderr, "jobtop: another jobtop (serve, pid "+strconv.Itoa(first.Process.Pid)+", running since ")
	assert.Contains(t, r.stderr, "is already listening on "+c.socket)
	c.ok("ls") // the first is untouched
}

func TestServeTakesOverAStaleSocket(t *testing.T) {
	c := newCLI(t)
	first := c.serve()
	require.NoError(t, first.Process.Signal(syscall.SIGKILL))
	first.Wait() //nolint:errcheck // killed on purpose
	_, err := os.Stat(c.socket)
	require.NoError(t, err, "a SIGKILLed serve leaves its socket")
	r := c.run("ls")
	assert.Equal(t, 1, r.code)
	assert.Equal(t, "jobtop: no jobtop is listening on "+c.socket+" (start one with `jobtop serve`; `jobtop run` starts one for you)\n", r.stderr)

	second := c.serve()
	inst := c.waitAnswering()
	assert.Equal(t, second.Process.Pid, inst.PID)
}

// TestServeStopsItsJobsOnSIGTERM: the job gets its stop signal, serve
// exits 0 once it is reaped, and the socket is gone.
func TestServeStopsItsJobsOnSIGTERM(t *testing.T) {
	c := newCLI(t)
	srv := c.serve()
	id := c.startJob(`trap 'echo got TERM; exit 0' TERM; echo ready; while :; do sleep 0.05; done`)
	c.ok("wait", id, "--until", "ready", "--timeout", "20s")
	pid := c.status(id).PID
	require.NoError(t, srv.Process.Signal(syscall.SIGTERM))
	require.NoError(t, srv.Wait(), "serve exits 0")
	assert.False(t, processAlive(pid))
	_, err := os.Stat(c.socket)
	assert.True(t, os.IsNotExist(err), "the socket is removed")
	logs, err := filepath.Glob(filepath.Join(c.dir, "state", "jobtop", "logs", "*", "1.log"))
	require.NoError(t, err)
	require.Len(t, logs, 1)
	b, err := os.ReadFile(logs[0])
	require.NoError(t, err)
	assert.Regexp(t, `^\[jobtop\] ── run 1 · started \S+ ──\nready\n`, string(b))
	assert.Contains(t, string(b), "got TERM\n", "the job got its stop signal")
}

// TestAgentLoop is the README's walk-through: start a dev server (which
// starts a child of its own), wait for its "listening" line, read only new
// output, kill it and everything it started. Four calls, no setup: run
// starts the instance.
func TestAgentLoop(t *testing.T) {
	c := newCLI(t)
	server := `echo booting; sleep 60 & echo "child $!"; sleep 0.2; echo "listening on :8080"; i=0; while :; do i=$((i+1)); echo "request $i"; sleep 0.05; done`
	r := c.run("run", "--name", "web", "--", server)
	require.Equal(t, 0, r.code, r.stderr)
	id := strings.TrimSpace(r.stdout)
	inst := c.waitAnswering()
	t.Cleanup(func() {
		syscall.Kill(inst.PID, syscall.SIGTERM) //nolint:errcheck // may be gone
		require.Eventually(t, func() bool { return !processAlive(inst.PID) }, testTimeout, 20*time.Millisecond)
	})

	assert.Equal(t, "listening on :8080\n", c.ok("wait", id, "--until", "listening on", "--timeout", "20s"))

	var seen uint64
	var all []string
	deadline := time.Now().Add(testTimeout)
	for len(all) < 6 {
		require.True(t, time.Now().Before(deadline), "only %d lines came", len(all))
		var out control.OutputResponse
		require.NoError(t, json.Unmarshal([]byte(c.ok("logs", id, "--json", "--cursor", strconv.FormatUint(seen, 10))), &out))
		for _, l := range out.Lines {
			require.Greater(t, l.Seq, seen, "a line came twice")
		}
		all = append(all, lineTexts(out.Lines)...)
		seen = out.NextCursor
	}
	assert.Equal(t, "booting", all[0])
	assert.Equal(t, "listening on :8080", all[2])
	assert.Equal(t, "request 1", all[3])
	child, err := strconv.Atoi(strings.TrimPrefix(all[1], "child "))
	require.NoError(t, err)
	require.True(t, processAlive(child))

	assert.Equal(t, "job "+id+" (web): killed (SIGKILL)\n", c.ok("kill", id))
	require.Eventually(t, func() bool { return !processAlive(child) }, testTimeout, 20*time.Millisecond)
}

func TestServeMaxRunningQueuesTheRest(t *testing.T) {
	c := newCLI(t)
	cmd := exec.Command(binary, "serve", "--max-running", "1")
	cmd.Env = c.env
	require.NoError(t, cmd.Start())
	t.Cleanup(func() {
		cmd.Process.Signal(syscall.SIGTERM) //nolint:errcheck // may have exited
		cmd.Wait()                          //nolint:errcheck // stopped on purpose
	})
	c.waitAnswering()
	first := c.startJob("sleep 60")
	second := c.startJob("echo second")
	info := c.status(second)
	assert.Equal(t, "queued", string(info.State))
	assert.Contains(t, info.Reason, "waiting for a free slot")
	c.ok("kill", first)
	c.ok("wait", second)
	assert.Equal(t, []string{"second"}, c.logLines(second))
}
