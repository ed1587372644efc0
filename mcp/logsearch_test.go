package mcp

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"jobtop/control"
	"jobtop/jobs"
)

// search_output with in_log: true searches every file of a log that
// rotated at its cap, oldest first, naming the file of each match.
func TestLogSearchReadsTheRotatedFile(t *testing.T) {
	dir, err := os.MkdirTemp("", "jt")
	require.NoError(t, err)
	t.Cleanup(func() { os.RemoveAll(dir) })
	socket := filepath.Join(dir, "s.sock")
	mgr, err := jobs.NewManager(jobs.Options{LogDir: filepath.Join(dir, "logs"), LogCap: 8 << 10, Store: jobs.StoreOptions{MaxLines: 100}})
	require.NoError(t, err)
	srv, err := control.ListenAndServe(mgr, socket, control.Instance{Kind: "serve"})
	require.NoError(t, err)
	api := control.NewClient(socket)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), deadline)
		defer cancel()
		api.Close()
		srv.Close()
		mgr.Shutdown(ctx) //nolint:errcheck // best effort in cleanup
	})
	e := &env{t: t, mgr: mgr, api: api, dir: t.TempDir()}
	e.srv = New(Options{Client: api, Dir: e.dir})
	e.session, _ = connect(t, e.srv, "test-agent")

	// About 13 KiB: the log rotates once, the first lines go to .1.
	id := e.run("long", "seq -f 'line %05g' 1 2000")
	info := e.waitEnded(id)
	require.Len(t, info.LogFiles, 2, "the log rotated")

	var s SearchResult
	text := e.ok("search_output", map[string]any{"id": id, "pattern": "^line 0(1000|1999)$", "in_log": true}, &s)
	require.Len(t, s.Matches, 2, text)
	require.Equal(t, info.LogFiles[0], s.Matches[0].File, "line 1000 is in the older file")
	require.Equal(t, "line 01000", s.Matches[0].Text)
	require.Equal(t, info.LogFiles[1], s.Matches[1].File)
	require.Contains(t, text, "1 long:"+info.LogFiles[0]+":")

	// While the log rotates, its older file is gone for a moment: the
	// search reads what is there.
	require.NoError(t, os.Remove(info.LogFiles[0]))
	text = e.ok("search_output", map[string]any{"id": id, "pattern": "^line 0(1000|1999)$", "in_log": true}, &s)
	require.Len(t, s.Matches, 1, text)
	require.Equal(t, "line 01999", s.Matches[0].Text)
	require.NoError(t, os.Remove(info.LogFiles[1]))
	require.Contains(t, e.toolErr("search_output", map[string]any{"id": id, "pattern": "x", "in_log": true}),
		"is the jobtop instance on another machine?", "no file at all")
}

// A cursor past a job's lines (another job's, or a log line number) is
// an error that says what a cursor is, not an endless "no new lines".
func TestReadOutputCursorPastTheEnd(t *testing.T) {
	e := newEnv(t)
	id := e.run("five", "seq 1 5")
	e.waitEnded(id)
	msg := e.toolErr("read_output", map[string]any{"id": id, "cursor": 999})
	require.Contains(t, msg, "cursor 999 is past job 1's last line (5): pass the next_cursor of your last read_output of this job, or 0")
	var r ReadOutputResult
	e.ok("read_output", map[string]any{"id": id, "cursor": 5}, &r)
	require.Empty(t, r.Lines)
	require.True(t, r.Ended)
}

// A log file that lost output (a full disk) is said to: by read_output
// when it points to the log for lines memory dropped, by search_output
// in_log, and by job_status.
func TestALogFileThatLostOutputIsSaidTo(t *testing.T) {
	mgr, api := newInstance(t, jobs.StoreOptions{MaxLines: 100})
	e := &env{t: t, mgr: mgr, api: api, dir: t.TempDir()}
	e.srv = New(Options{Client: api, Dir: e.dir})
	e.session, _ = connect(t, e.srv, "test-agent")

	// The first job's log file is full: every write fails.
	log := filepath.Join(mgr.LogDir(), "1.log")
	jobs.FillLogForTest(t, log)
	id := e.run("full", "seq 1 200")
	info := e.waitEnded(id)
	require.Positive(t, info.LogDropped)
	// A device is no log file to search: its zeros would never end.
	require.NoError(t, os.Remove(log))
	require.NoError(t, os.Symlink("/dev/zero", log))
	require.Contains(t, e.toolErr("search_output", map[string]any{"id": id, "pattern": "^50$", "in_log": true}), "is not a regular file")
	// What is left of it to search: nothing.
	require.NoError(t, os.Remove(log))
	require.NoError(t, os.WriteFile(log, nil, 0o600))

	var out ReadOutputResult
	text := e.ok("read_output", map[string]any{"id": id}, &out)
	require.Contains(t, text, "the log file ("+log+") lost")
	var s SearchResult
	text = e.ok("search_output", map[string]any{"id": id, "pattern": "^50$", "in_log": true}, &s)
	require.Empty(t, s.Matches)
	require.Contains(t, text, "log file lost")
	var st JobStatusOutput
	text = e.ok("job_status", map[string]any{"id": id}, &st)
	require.Equal(t, info.LogDropped, st.Job.LogDropped)
	require.Contains(t, text, "log file: lost")
}
