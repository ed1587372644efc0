package control

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/require"
)

// otherUID is the user the tests of another user's view run as (nobody).
const otherUID = 65534

// otherUsersDir is a directory, of short path, that uid otherUID can
// reach and run a program from, with the test binary copied into it as
// helper: where that user's processes run from, and where what they must
// reach (sockets, runtime directories) goes, in directories made in it.
// The temp dir will not do when it is inside a directory of mode 0700
// (TMPDIR=~/tmp: the other user cannot pass it; the helper then failed
// with "fork/exec .../helper: permission denied") or on a noexec mount,
// so /tmp, /var/tmp and /dev/shm are tried after it; with none that will
// do, the test is skipped, saying so.
func otherUsersDir(t *testing.T) (dir, helper string) {
	t.Helper()
	tried := []string{}
	for _, base := range []string{os.TempDir(), "/tmp", "/var/tmp", "/dev/shm"} {
		if info, err := os.Stat(base); err != nil || !info.IsDir() {
			continue
		}
		dir, err := os.MkdirTemp(base, "jt")
		if err != nil {
			tried = append(tried, base+" ("+err.Error()+")")
			continue
		}
		helper = filepath.Join(dir, "helper")
		copyExecutable(t, os.Args[0], helper)
		require.NoError(t, os.Chmod(dir, 0o755))
		probe := exec.Command(helper)
		probe.Env = append(os.Environ(), helperEnv+"=probe:", "GORACE=atexit_sleep_ms=0")
		probe.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: otherUID, Gid: otherUID}}
		if out, err := probe.CombinedOutput(); err != nil {
			os.RemoveAll(dir)
			tried = append(tried, base+" ("+strings.TrimSpace(err.Error()+" "+string(out))+")")
			continue
		}
		t.Cleanup(func() { os.RemoveAll(dir) })
		return dir, helper
	}
	t.Skipf("no directory here that uid %d can reach and run a program from: tried %s", otherUID, strings.Join(tried, ", "))
	return "", ""
}

// dirIn is a new directory (0700) in dir.
func dirIn(t *testing.T, dir string) string {
	t.Helper()
	d, err := os.MkdirTemp(dir, "d")
	require.NoError(t, err)
	return d
}
