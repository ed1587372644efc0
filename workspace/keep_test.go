package workspace

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"jobtop/jobfile"
	"jobtop/jobs"
)

// A job file's jobs are not counted against --keep-finished, nor dropped
// by it: the file bounds them. Stopping a file of 3,000 jobs kept 500 of
// them, and a reload started the other 2,500 again as new jobs (rev34).
// Jobs started beside them still are.
func TestFileJobsOutliveTheFinishedLimit(t *testing.T) {
	var text strings.Builder
	text.WriteString("jobs:\n")
	const n = 8
	for i := range n {
		fmt.Fprintf(&text, "  j%d: {cmd: \"true\"}\n", i)
	}
	path := filepath.Join(t.TempDir(), "jobtop.yaml")
	require.NoError(t, os.WriteFile(path, []byte(text.String()), 0o600))
	plan, err := jobfile.Load(path)
	require.NoError(t, err)
	mgr, err := jobs.NewManager(ManagerOptions(plan, jobs.Options{LogDir: t.TempDir(), KeepFinished: 2}))
	require.NoError(t, err)
	defer func() { require.NoError(t, mgr.Shutdown(context.Background())) }()
	ws, err := Open(mgr, plan)
	require.NoError(t, err)
	defer ws.Close()

	var adhoc []jobs.ID
	for range 4 {
		info, err := mgr.Start(jobs.Spec{Command: "true"})
		require.NoError(t, err)
		adhoc = append(adhoc, info.ID)
	}
	for _, id := range ws.IDs() {
		_, err := mgr.Wait(context.Background(), id)
		require.NoError(t, err)
	}
	for _, id := range adhoc {
		_, err := mgr.Wait(context.Background(), id)
		require.NoError(t, err)
	}
	kept := 0
	for _, info := range mgr.List() {
		if !assert.True(t, info.State.Done(), "job %d", info.ID) {
			continue
		}
		if info.ID > adhoc[0]-1 {
			kept++
		}
	}
	assert.Equal(t, n+2, len(mgr.List()), "every file job, and 2 of the others")
	assert.Equal(t, 2, kept, "the others: --keep-finished")
	for name, id := range ws.IDs() {
		_, err := mgr.Get(id)
		assert.NoError(t, err, "file job %s kept", name)
	}
}
