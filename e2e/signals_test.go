package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/require"
)

// gracefulJob is a job whose stop signal's trap writes "cleaned" to done;
// it prints "up" first, and its command line carries token.
func gracefulJob(done, token string) string {
	return "trap 'echo cleaned > " + done + "; exit 0' TERM; echo up; while :; do sleep 0.1; done # " + token
}

// openPager presses o and waits for less on the selected job's log.
func (s *session) openPager() {
	s.t.Helper()
	s.keys("o")
	s.waitFor("less on the log file", func(scr []string) bool {
		return strings.HasPrefix(scr[0], "[jobtop] ── run 1 · started")
	})
}

// TestSIGTERMWhileThePagerIsOpen: SIGTERM (systemd, timeout, a logout
// script) while the o key's pager has the terminal ends the pager, then
// jobtop as it would without it: every job gets its stop signal.
func TestSIGTERMWhileThePagerIsOpen(t *testing.T) {
	bin := binary(t)
	token := fmt.Sprintf("%d.%d", os.Getpid(), 5353)
	done := filepath.Join(t.TempDir(), "cleaned")
	s := newSession(t, 120, 30, []string{"PAGER=less -R"}, bin, "--name", "graceful", gracefulJob(done, token))
	s.waitText("up")
	s.openPager()
	require.NoError(t, syscall.Kill(s.jobtopPID(), syscall.SIGTERM))
	require.Equal(t, "0", s.waitExit(), "jobtop ends, the pager with it")
	waitNoneLeft(t, token, deadline)
	b, err := os.ReadFile(done)
	require.NoError(t, err, "the job got its stop signal and ran its trap")
	require.Equal(t, "cleaned\n", string(b))
}
