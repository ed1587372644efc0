package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// An attached TUI's R lists every problem of the instance's job file,
// as jobtop reload prints them, until esc closes the list.
func TestAttachedReloadListsEveryProblem(t *testing.T) {
	bin := binary(t)
	dir, err := os.MkdirTemp("", "jt") // short: socket paths are limited
	require.NoError(t, err)
	t.Cleanup(func() { os.RemoveAll(dir) })
	file := filepath.Join(dir, "jobtop.yaml")
	require.NoError(t, os.WriteFile(file, []byte("jobs:\n  web: {cmd: exec sleep 600}\n"), 0o600))
	socket := filepath.Join(dir, "s.sock")
	serve := exec.Command(bin, "serve", "-f", file)
	serve.Env = append(os.Environ(), "JOBTOP_SOCKET="+socket, "XDG_STATE_HOME="+dir)
	require.NoError(t, serve.Start())
	t.Cleanup(func() {
		serve.Process.Signal(syscall.SIGTERM) //nolint:errcheck // may have exited
		serve.Wait()                          //nolint:errcheck // stopped on purpose
	})
	end := time.Now().Add(deadline)
	for exec.Command(bin, "ls", "--socket", socket).Run() != nil {
		require.True(t, time.Now().Before(end), "jobtop serve did not answer")
		time.Sleep(20 * time.Millisecond)
	}

	s := newSession(t, 120, 30, []string{"JOBTOP_SOCKET=" + socket}, bin, "attach")
	s.waitFor("web running", func(scr []string) bool { return strings.Contains(row(scr, "web"), "● running") })
	require.NoError(t, os.WriteFile(file, []byte("jobs:\n  web: {cmd: exec sleep 600, timeout: 5}\n  api: {cmdd: echo}\n"), 0o600))
	s.keys("R")
	s.waitText("cannot reload jobtop.yaml: 2 problems; nothing was changed — esc closes",
		file+":2:39: jobs.web.timeout: 5 has no unit",
		file+`:3:9: jobs.api: unknown key "cmdd"`)
	s.keys("Escape")
	scr := s.waitFor("the problems closed", func(scr []string) bool { return strings.HasPrefix(scr[0], "    ID NAME") })
	require.Contains(t, row(scr, "web"), "● running", "nothing changed")

	s.quit("quit? y/n")
}
