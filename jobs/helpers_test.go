package jobs

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"go.uber.org/goleak"
	"jobtop/jobs/proc"
	"jobtop/vtscreen/vtfast"
)

// TestMain fails the run if any goroutine outlives the tests: every test
// shuts its manager down, which must leave nothing behind.
//
// testBinDir holds programs the tests build (see fullscreen).
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "jobtop-jobs-test")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	testBinDir = dir
	goleak.VerifyTestMain(removingAfter{m, dir})
}

var testBinDir string

// removingAfter runs the tests, then removes a directory.
type removingAfter struct {
	m   *testing.M
	dir string
}

func (r removingAfter) Run() int {
	defer os.RemoveAll(r.dir)
	return r.m.Run()
}

// patience bounds every wait in these tests: generous, since CI machines
// are small and busy.
const patience = 20 * time.Second

func newManager(t *testing.T, opts Options) *Manager {
	t.Helper()
	if opts.LogDir == "" {
		opts.LogDir = t.TempDir()
	}
	if opts.Emulator == nil {
		opts.Emulator = testEmulator
	}
	m, err := NewManager(opts)
	require.NoError(t, err)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), patience)
		defer cancel()
		require.NoError(t, m.Shutdown(ctx))
	})
	return m
}

func start(t *testing.T, m *Manager, spec Spec) Info {
	t.Helper()
	info, err := m.Start(spec)
	require.NoError(t, err)
	return info
}

// wait waits for the job to settle and returns its final snapshot.
func wait(t *testing.T, m *Manager, id ID) Info {
	t.Helper()
	return waitWithin(t, m, id, patience)
}

// waitWithin is wait for a job that is expected to take long.
func waitWithin(t *testing.T, m *Manager, id ID, d time.Duration) Info {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	info, err := m.Wait(ctx, id)
	require.NoError(t, err, "job %d did not end in time", id)
	return info
}

// eventually polls cond until it holds or the patience runs out.
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

// waitFor polls the job until pred holds and returns that snapshot.
func waitFor(t *testing.T, m *Manager, id ID, what string, pred func(Info) bool) Info {
	t.Helper()
	var info Info
	eventually(t, what, func() bool {
		var err error
		info, err = m.Get(id)
		require.NoError(t, err)
		return pred(info)
	})
	return info
}

func outputText(t *testing.T, m *Manager, id ID) []string {
	t.Helper()
	out, err := m.Output(id)
	require.NoError(t, err)
	c := out.ReadAfter(0, 0)
	return texts(append(c.Lines, c.Partial...))
}

// alive reports whether pid is a live process (not gone, not a zombie).
func alive(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	return i < 0 || !strings.HasPrefix(strings.TrimSpace(s[i+1:]), "Z")
}

// treeOf waits until the job's process has at least n descendants and
// returns them with the job's own PID.
func treeOf(t *testing.T, m *Manager, id ID, n int) []int {
	t.Helper()
	info := waitFor(t, m, id, "the job to run", func(i Info) bool { return i.PID != 0 })
	var pids []int
	eventually(t, "the job's children to start", func() bool {
		pids = descendants(info.PID)
		return len(pids) >= n
	})
	return append(pids, info.PID)
}

func requireAllDead(t *testing.T, pids []int) {
	t.Helper()
	eventually(t, "every process of the job to be gone", func() bool {
		for _, pid := range pids {
			if alive(pid) {
				return false
			}
		}
		return true
	})
}

// descendants lists the PIDs below root in the process tree now.
func descendants(root int) []int {
	procs, err := proc.List()
	if err != nil {
		return nil
	}
	var pids []int
	for _, i := range proc.Descendants(procs, proc.Children(procs), root) {
		if !procs[i].Zombie {
			pids = append(pids, procs[i].PID)
		}
	}
	return pids
}

// marked lists the live processes whose environment has TEST_MARK=mark:
// every process a job with that mark in its Env started, whatever became
// of its parents, found without asking jobtop.
func marked(mark string) []int {
	procs, err := proc.List()
	if err != nil {
		return nil
	}
	var pids []int
	for _, p := range procs {
		if v, ok := proc.Env(p.PID, "TEST_MARK"); ok && v == mark && !p.Zombie {
			pids = append(pids, p.PID)
		}
	}
	return pids
}

// newMark is a value for TEST_MARK no other test uses.
func newMark(t *testing.T) string {
	return fmt.Sprintf("%s-%d-%d", t.Name(), os.Getpid(), time.Now().UnixNano())
}

func writeFile(path string) error { return os.WriteFile(path, nil, 0o600) }

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	return string(b)
}

// testEmulator is the emulator jobtop gives its managers (cmd/).
func testEmulator(cols, rows int) Emulator { return vtfast.New(cols, rows) }
