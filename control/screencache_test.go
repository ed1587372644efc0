package control

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"jobtop/jobs"
)

// An attached client reads a full-screen job's screen from its mirror,
// which follows the program as it draws, typed into and resized through
// the client.
func TestAttachedClientFollowsAScreen(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "fullscreen")
	out, err := exec.Command("go", "build", "-o", bin, "jobtop/e2e/testdata/fullscreen").CombinedOutput()
	require.NoError(t, err, "%s", out)
	in := startInstance(t)
	info, err := in.mgr.Start(jobs.Spec{TTY: true, Argv: []string{bin}})
	require.NoError(t, err)
	require.NoError(t, in.client.Attach(ctxT(t)))

	screenHas := func(what string) {
		t.Helper()
		require.Eventually(t, func() bool {
			got, err := in.client.Get(info.ID)
			if err != nil || !got.Screen {
				return false
			}
			snap, err := in.client.Screen(info.ID)
			require.NoError(t, err)
			return strings.Contains(strings.Join(snap.Lines, "\n"), what)
		}, testTimeout, 10*time.Millisecond, "the screen never showed %q", what)
	}
	screenHas("fullscreen 200x50")
	require.NoError(t, in.client.Input(info.ID, []byte("hello")))
	screenHas("keys: hello")
	require.NoError(t, in.client.Resize(info.ID, 90, 20))
	screenHas("fullscreen 90x20")
	snap, err := in.client.Screen(info.ID)
	require.NoError(t, err)
	require.Equal(t, [2]int{90, 20}, [2]int{snap.Cols, snap.Rows})
	require.NoError(t, in.client.Input(info.ID, []byte("q")))
	require.Equal(t, jobs.StateSucceeded, in.waitEnded(t, info.ID).State)
}
