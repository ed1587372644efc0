package workspace

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"jobtop/jobfile"
	"jobtop/jobs"
)

// TestMain fails the run if a goroutine outlives the tests: Close and the
// manager's Shutdown must leave nothing behind.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

// patience bounds every wait: generous, since CI machines are small and
// busy.
const patience = 30 * time.Second

// fixture is a job file in a temp dir, opened on a fresh manager.
type fixture struct {
	t    *testing.T
	path string
	mgr  *jobs.Manager
	ws   *Workspace
}

// open writes content as jobtop.yaml in a temp dir, and opens it.
func open(t *testing.T, content string) *fixture {
	t.Helper()
	f := &fixture{t: t, path: filepath.Join(t.TempDir(), "jobtop.yaml")}
	f.write(content)
	return openFile(t, f.path, jobfile.LoadOptions{})
}

// openFile opens the job file at path, read with o.
func openFile(t *testing.T, path string, o jobfile.LoadOptions) *fixture {
	t.Helper()
	f := &fixture{t: t, path: path}
	plan, err := jobfile.LoadWith(f.path, o)
	require.NoError(t, err)
	f.mgr, err = jobs.NewManager(ManagerOptions(plan, jobs.Options{LogDir: t.TempDir()}))
	require.NoError(t, err)
	t.Cleanup(func() {
		if f.ws != nil {
			f.ws.Close()
		}
		ctx, cancel := context.WithTimeout(context.Background(), patience)
		defer cancel()
		require.NoError(t, f.mgr.Shutdown(ctx))
	})
	f.ws, err = Open(f.mgr, plan)
	require.NoError(t, err)
	return f
}

// write replaces the job file's content.
func (f *fixture) write(content string) {
	f.t.Helper()
	require.NoError(f.t, os.WriteFile(f.path, []byte(strings.TrimLeft(content, "\n")), 0o600))
}

// job is the file job's current snapshot.
func (f *fixture) job(name string) jobs.Info {
	f.t.Helper()
	id, ok := f.ws.IDs()[name]
	require.True(f.t, ok, "no file job %s", name)
	info, err := f.mgr.Get(id)
	require.NoError(f.t, err)
	return info
}

// eventually polls cond until it holds, or fails the test at the deadline.
func (f *fixture) eventually(what string, cond func() bool) {
	f.t.Helper()
	require.Eventually(f.t, cond, patience, 10*time.Millisecond, what)
}

// running waits until the file job runs, and returns its snapshot.
func (f *fixture) running(name string) jobs.Info {
	f.t.Helper()
	var info jobs.Info
	f.eventually(name+" runs", func() bool {
		info = f.job(name)
		return info.State == jobs.StateRunning
	})
	return info
}

// output is every output line of job id, jobtop's own lines left out.
func (f *fixture) output(id jobs.ID) []string {
	f.t.Helper()
	r, err := f.mgr.Output(id)
	require.NoError(f.t, err)
	var out []string
	for _, l := range r.ReadAfter(0, 0).Lines {
		if l.Stream != jobs.Meta {
			out = append(out, l.Text)
		}
	}
	return out
}

// names lists the manager's jobs by name, in creation order.
func names(m *jobs.Manager) []string {
	var out []string
	for _, j := range m.List() {
		out = append(out, j.Name)
	}
	return out
}

// processGone reports whether pid no longer runs (or is a zombie).
func processGone(pid int) bool {
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return true
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	return i >= 0 && len(s) > i+2 && s[i+2] == 'Z'
}
