package keeper

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"jobtop/jobs/proc"
)

const patience = 20 * time.Second

func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(patience)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func alive(pid int) bool {
	p, err := proc.Get(pid)
	return err == nil && !p.Zombie
}

// marked lists live processes with TEST_MARK=mark in their environment.
func marked(mark string) []int {
	procs, _ := proc.List()
	var out []int
	for _, p := range procs {
		if v, ok := proc.Env(p.PID, "TEST_MARK"); ok && v == mark && !p.Zombie {
			out = append(out, p.PID)
		}
	}
	return out
}

type recorder struct{ events chan Event }

func startKeeper(t *testing.T) (*Client, *recorder) {
	t.Helper()
	rec := &recorder{events: make(chan Event, 100)}
	c, err := Start(func(ev Event) { rec.events <- ev }, func(error) {})
	require.NoError(t, err)
	return c, rec
}

func (r *recorder) next(t *testing.T) Event {
	t.Helper()
	select {
	case ev := <-r.events:
		return ev
	case <-time.After(patience):
		t.Fatal("no event from the keeper")
	}
	return Event{}
}

func spawnShell(t *testing.T, c *Client, run RunID, script, mark string, grace time.Duration) int {
	t.Helper()
	null, err := os.Open(os.DevNull)
	require.NoError(t, err)
	defer null.Close()
	out, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	require.NoError(t, err)
	defer out.Close()
	st, err := c.Spawn(Spawn{Run: run, Path: "/bin/sh", Argv: []string{"sh", "-c", script},
		Env: []string{"PATH=" + os.Getenv("PATH"), "TEST_MARK=" + mark}, Stdin: null, Stdout: out, Stderr: out,
		StopSignal: syscall.SIGTERM, Grace: grace})
	require.NoError(t, err)
	require.NotZero(t, st.Start)
	return st.PID
}

// TestSignalLeavesAReusedPIDAlone: a process whose PID matches but whose
// start time does not (what a reused PID looks like) gets no signal.
func TestSignalLeavesAReusedPIDAlone(t *testing.T) {
	cmd := exec.Command("sleep", "60")
	require.NoError(t, cmd.Start())
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	p, err := proc.Get(cmd.Process.Pid)
	require.NoError(t, err)

	stranger := p
	stranger.Start++
	signalProc(stranger, syscall.SIGKILL)
	time.Sleep(100 * time.Millisecond) // a signal, if sent, would have landed
	assert.True(t, alive(p.PID), "the signal was meant for an earlier process with that PID")

	signalProc(p, syscall.SIGKILL)
	require.Error(t, cmd.Wait())
	assert.Equal(t, syscall.SIGKILL, cmd.ProcessState.Sys().(syscall.WaitStatus).Signal())
}

// TestNoSignalToABarePID: every signal path goes through signalProc's
// pidfd check (signalMember's is the same) or a pidfd the keeper opened
// for a main process before reaping it (once reaped, it still names the
// group that process led, and nothing else); a bare kill(pid) exists
// only as the fallback for kernels without pidfds.
// (os.Process is safe: it holds a pidfd and refuses to signal once
// waited for.)
func TestNoSignalToABarePID(t *testing.T) {
	dirs := []string{".", "..", "../proc", "../../probe"}
	for _, dir := range dirs {
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		require.NoError(t, err)
		for _, path := range files {
			if strings.HasSuffix(path, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
			require.NoError(t, err)
			ast.Inspect(f, func(n ast.Node) bool {
				fn, ok := n.(*ast.FuncDecl)
				if ok && fn.Name.Name == "signalWithoutPidfd" {
					return false
				}
				call, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				sel, ok := call.Fun.(*ast.SelectorExpr)
				if !ok {
					return true
				}
				if x, ok := sel.X.(*ast.Ident); ok && (x.Name == "syscall" || x.Name == "unix") && (sel.Sel.Name == "Kill" || sel.Sel.Name == "Tgkill") {
					t.Errorf("%s: %s.%s sends a signal to a bare PID", path, x.Name, sel.Sel.Name)
				}
				return true
			})
		}
	}
}

// TestLifelineEndStopsEverything: when jobtop's end of the connection
// closes (as when jobtop is killed), the keeper stops every run, waiting
// out the grace of a process that ignores SIGTERM, and exits.
func TestLifelineEndStopsEverything(t *testing.T) {
	c, _ := startKeeper(t)
	mark := "lifeline-" + t.Name()
	spawnShell(t, c, 1, "sleep 600 & setsid sleep 600 & (sleep 600 &); wait", mark, time.Second)
	spawnShell(t, c, 2, "trap '' TERM; sleep 600 & wait", mark, 300*time.Millisecond)
	eventually(t, "both runs' processes", func() bool { return len(marked(mark)) >= 6 })
	keeperPID := c.Identity().PID
	require.NoError(t, c.Close())
	assert.False(t, alive(keeperPID), "the keeper exited")
	assert.Empty(t, marked(mark), "nothing of either run is left")
}

func TestExitThenEmptyWithWhatWasLeft(t *testing.T) {
	c, rec := startKeeper(t)
	t.Cleanup(func() { c.Close() })
	mark := "left-" + t.Name()
	spawnShell(t, c, 7, "setsid sleep 600 & sleep 600 & exit 4", mark, time.Second)
	ev := rec.next(t)
	assert.Equal(t, Event{Run: 7, Kind: Exited, Status: ev.Status, Left: 2, At: ev.At}, ev)
	assert.Equal(t, 4, ev.Status.ExitStatus())
	assert.False(t, ev.At.IsZero(), "when it was reaped")
	assert.Len(t, marked(mark), 2, "the keeper reports, jobtop decides")
	signalled := time.Now()
	c.Signal(7, syscall.SIGTERM)
	empty := rec.next(t)
	assert.Equal(t, Event{Run: 7, Kind: Empty, At: empty.At}, empty)
	assert.False(t, empty.At.Before(signalled.Round(0)), "what it left ended after the signal, not when it exited")
	assert.Empty(t, marked(mark))
}

// TestStraySignalsDoNotEndTheKeeper: the keeper lives as long as its
// lifeline, whatever signals reach it (pkill jobtop, a closed terminal).
func TestStraySignalsDoNotEndTheKeeper(t *testing.T) {
	c, rec := startKeeper(t)
	t.Cleanup(func() { c.Close() })
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGHUP, syscall.SIGINT, syscall.SIGQUIT} {
		require.NoError(t, syscall.Kill(c.Identity().PID, sig))
	}
	time.Sleep(100 * time.Millisecond) // a deadly signal would have landed
	require.True(t, alive(c.Identity().PID))
	spawnShell(t, c, 1, "exit 0", "stray-"+t.Name(), time.Second)
	assert.Equal(t, Exited, rec.next(t).Kind)
}

func TestLargeEnvironmentGoesInChunks(t *testing.T) {
	c, rec := startKeeper(t)
	t.Cleanup(func() { c.Close() })
	null, _ := os.Open(os.DevNull)
	defer null.Close()
	r, w, err := os.Pipe()
	require.NoError(t, err)
	defer r.Close()
	// Three variables of 100 KiB (the kernel's limit is 128 KiB each).
	big := strings.Repeat("x", 100<<10)
	_, err = c.Spawn(Spawn{Run: 1, Path: "/bin/sh", Argv: []string{"sh", "-c", `printf %s "$A$B$C" | wc -c`},
		Env: []string{"PATH=" + os.Getenv("PATH"), "A=" + big, "B=" + big, "C=" + big}, Stdin: null, Stdout: w, Stderr: w})
	w.Close()
	require.NoError(t, err)
	out := make([]byte, 64)
	n, _ := r.Read(out)
	assert.Equal(t, "307200", strings.TrimSpace(string(out[:n])))
	assert.Equal(t, Exited, rec.next(t).Kind)
}

func TestSpawnFailureIsReported(t *testing.T) {
	c, _ := startKeeper(t)
	t.Cleanup(func() { c.Close() })
	null, _ := os.Open(os.DevNull)
	defer null.Close()
	_, err := c.Spawn(Spawn{Run: 1, Path: "/nonexistent/prog", Argv: []string{"prog"}, Stdin: null, Stdout: null, Stderr: null})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "no such file")
}

// TestKeeperPassesNoInheritedDescriptor: what jobtop has open without
// close-on-exec when it starts its keeper (a library's epoll descriptor,
// opened after main marked the inherited ones) reaches none of the
// keeper's jobs.
func TestKeeperPassesNoInheritedDescriptor(t *testing.T) {
	var p [2]int
	require.NoError(t, syscall.Pipe(p[:])) // no close-on-exec
	t.Cleanup(func() { syscall.Close(p[0]); syscall.Close(p[1]) })
	c, _ := startKeeper(t)
	t.Cleanup(func() { c.Close() })
	dir := t.TempDir()
	spawnShell(t, c, 1, "ls -l /proc/$$/fd > "+dir+"/fds; sleep 300", "inherited", time.Second)
	var st syscall.Stat_t
	require.NoError(t, syscall.Fstat(p[1], &st))
	pipe := fmt.Sprintf("pipe:[%d]", st.Ino)
	eventually(t, "the job's list of descriptors", func() bool {
		b, err := os.ReadFile(dir + "/fds")
		return err == nil && len(b) > 0 && strings.Contains(string(b), "/dev/null")
	})
	b, _ := os.ReadFile(dir + "/fds")
	assert.NotContains(t, string(b), pipe, "the job holds the pipe")
}

// TestKeeperHoldsNoDescriptorPerLiveRun: a run whose main process lives
// takes no descriptor in the keeper's table (its pidfd is opened only
// once the process has exited): each fork copies that table and each exec
// closes the copy, so a descriptor a run would slow every start in
// proportion to the runs alive. Signals still reach a live run's group.
func TestKeeperHoldsNoDescriptorPerLiveRun(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc/PID/fd")
	}
	c, rec := startKeeper(t)
	t.Cleanup(func() { c.Close() })
	fds := func() int {
		entries, err := os.ReadDir(fmt.Sprintf("/proc/%d/fd", c.Identity().PID))
		require.NoError(t, err)
		return len(entries)
	}
	mark := fmt.Sprintf("live-runs-%d", os.Getpid())
	spawnShell(t, c, 1, "sleep 300", mark, time.Second)
	before := fds()
	const runs = 40
	for i := range runs {
		spawnShell(t, c, RunID(2+i), "sleep 300", mark, time.Second)
	}
	assert.Less(t, fds()-before, runs/4, "descriptors the keeper holds for %d more live runs", runs)
	c.Signal(2, syscall.SIGKILL)
	c.Signal(3, syscall.SIGTERM)
	ended := map[RunID]bool{}
	for len(ended) < 2 {
		if ev := rec.next(t); ev.Kind == Empty {
			ended[ev.Run] = true
		}
	}
	assert.Equal(t, map[RunID]bool{2: true, 3: true}, ended)
}

// TestJobHoldsNoOtherRunsFiles: what the keeper receives with a spawn (a
// run's stdin, stdout, stderr and the output it holds) is close-on-exec
// in the keeper: the next run's process has none of it.
func TestJobHoldsNoOtherRunsFiles(t *testing.T) {
	c, _ := startKeeper(t)
	t.Cleanup(func() { c.Close() })
	r, w, err := os.Pipe()
	require.NoError(t, err)
	defer r.Close()
	defer w.Close()
	in, err := os.Open(os.DevNull)
	require.NoError(t, err)
	defer in.Close()
	_, err = c.Spawn(Spawn{Run: 1, Path: "/bin/sleep", Argv: []string{"sleep", "300"}, Env: os.Environ(),
		Stdin: in, Stdout: w, Stderr: w, Hold: []*os.File{r}, StopSignal: syscall.SIGTERM})
	require.NoError(t, err)
	dir := t.TempDir()
	spawnShell(t, c, 2, "ls -l /proc/$$/fd > "+dir+"/fds; sleep 300", "second", time.Second)
	var st syscall.Stat_t
	require.NoError(t, syscall.Fstat(int(w.Fd()), &st))
	eventually(t, "the second job's list of descriptors", func() bool {
		b, err := os.ReadFile(dir + "/fds")
		return err == nil && strings.Contains(string(b), "/dev/null")
	})
	b, _ := os.ReadFile(dir + "/fds")
	assert.NotContains(t, string(b), fmt.Sprintf("pipe:[%d]", st.Ino), "the first run's output pipe")
}

// TestAStopUnderWayIsNotSignalledAgain: jobtop gone during a run's grace
// (killed while it stopped the run), the keeper lets that stop go on to
// its deadline: a second SIGTERM would cut a graceful exit short ("press
// ^C again to force"), and reach what a trap started to clean up.
func TestAStopUnderWayIsNotSignalledAgain(t *testing.T) {
	c, _ := startKeeper(t)
	mark := "stopping-" + t.Name()
	terms := filepath.Join(t.TempDir(), "terms")
	spawnShell(t, c, 1, "trap 'echo TERM >> "+terms+"' TERM; while :; do sleep 0.05; done", mark, time.Second)
	eventually(t, "the run", func() bool { return len(marked(mark)) >= 1 })
	c.Signal(1, syscall.SIGTERM)
	eventually(t, "the stop signal to be handled", func() bool { b, _ := os.ReadFile(terms); return len(b) > 0 })
	require.NoError(t, c.Close())
	assert.Empty(t, marked(mark), "killed at the end of its grace")
	b, err := os.ReadFile(terms)
	require.NoError(t, err)
	assert.Equal(t, "TERM\n", string(b), "one stop signal, not a second when jobtop went")
}

// TestJobtopGoneContinuesAStoppedRun: a run paused with SIGSTOP holds
// the stop signal the keeper sends when jobtop is gone pending until it
// is continued; the keeper continues it after the signal, so its
// handler runs instead of the SIGKILL at the end of its grace.
func TestJobtopGoneContinuesAStoppedRun(t *testing.T) {
	c, _ := startKeeper(t)
	mark := "paused-" + t.Name()
	terms := filepath.Join(t.TempDir(), "terms")
	ready := filepath.Join(t.TempDir(), "ready")
	// No fork once ready: a shell stopped while it forks (vfork) does
	// not show as stopped. Ready once the sleep runs (where /proc
	// tells), not the shell forked to exec it: that child takes the
	// group's TERM into the shell's trap and then execs, losing it (1
	// run in a full -race run).
	sleepRuns := `p=$!; while [ -e /proc/$p/comm ] && { read c < /proc/$p/comm; [ "$c" != sleep ]; }; do :; done; `
	pid := spawnShell(t, c, 1, "trap 'echo TERM >> "+terms+"; exit 0' TERM; sleep 600 & "+sleepRuns+"touch "+ready+"; wait", mark, time.Hour)
	t.Cleanup(func() {
		if t.Failed() {
			syscall.Kill(-pid, syscall.SIGKILL) //nolint:errcheck // its grace is an hour
		}
	})
	eventually(t, "the run's trap", func() bool { _, err := os.Stat(ready); return err == nil })
	require.NoError(t, syscall.Kill(-pid, syscall.SIGSTOP))
	eventually(t, "the run to be stopped", func() bool { p, err := proc.Get(pid); return err == nil && p.Stopped })
	closed := make(chan error, 1)
	go func() { closed <- c.Close() }()
	select {
	case err := <-closed:
		require.NoError(t, err)
	case <-time.After(patience):
		t.Fatal("the stopped run did not end by itself: its grace is an hour")
	}
	b, err := os.ReadFile(terms)
	require.NoError(t, err)
	assert.Equal(t, "TERM\n", string(b))
	assert.Empty(t, marked(mark))
}

// A stop begun by a stop command (no signal: StopBegun) is kept the
// same way: jobtop gone, the run gets no stop signal, and is killed at
// that stop's deadline (rev49: it got SIGTERM and a grace of its own).
func TestAStopCommandUnderWayGetsNoStopSignal(t *testing.T) {
	c, _ := startKeeper(t)
	mark := "stopcmd-" + t.Name()
	terms := filepath.Join(t.TempDir(), "terms")
	require.NoError(t, os.WriteFile(terms, nil, 0o600))
	ready := filepath.Join(t.TempDir(), "ready")
	spawnShell(t, c, 1, "trap 'echo TERM >> "+terms+"' TERM; touch "+ready+"; while :; do sleep 0.05; done", mark, time.Second)
	eventually(t, "the run's trap", func() bool { _, err := os.Stat(ready); return err == nil })
	c.Signal(1, StopBegun)
	require.NoError(t, c.Close())
	assert.Empty(t, marked(mark), "killed at the end of its grace")
	b, err := os.ReadFile(terms)
	require.NoError(t, err)
	assert.Empty(t, string(b), "no stop signal")
}
