package e2e

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// instance is a `jobtop serve` of the test's own, on a socket in a
// temporary directory, for TUIs to attach to and the CLI to drive.
type instance struct {
	t      testing.TB
	bin    string
	socket string
	env    []string
	cmd    *exec.Cmd
}

// startServe starts `jobtop serve --no-file` and waits until it answers.
// It is stopped with SIGTERM at the end of the test.
func startServe(t testing.TB, bin string) *instance {
	t.Helper()
	dir, err := os.MkdirTemp("", "jt") // short: socket paths are limited
	require.NoError(t, err)
	t.Cleanup(func() { os.RemoveAll(dir) })
	in := &instance{t: t, bin: bin, socket: filepath.Join(dir, "s.sock")}
	in.env = append(os.Environ(), "JOBTOP_SOCKET="+in.socket, "XDG_STATE_HOME="+dir)
	in.cmd = exec.Command(bin, "serve", "--no-file")
	in.cmd.Env = in.env
	require.NoError(t, in.cmd.Start())
	t.Cleanup(func() {
		in.cmd.Process.Signal(syscall.SIGTERM) //nolint:errcheck // may have exited
		in.cmd.Wait()                          //nolint:errcheck // stopped on purpose
	})
	end := time.Now().Add(deadline)
	for exec.Command(bin, "ls", "--socket", in.socket).Run() != nil {
		require.True(t, time.Now().Before(end), "jobtop serve did not answer on %s", in.socket)
		time.Sleep(20 * time.Millisecond)
	}
	return in
}

// cli runs a jobtop command against the instance, requires success and
// returns its output.
func (in *instance) cli(args ...string) string {
	in.t.Helper()
	cmd := exec.Command(in.bin, args...)
	cmd.Env = in.env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	require.NoError(in.t, cmd.Run(), "jobtop %v: %s", args, stderr.String())
	return stdout.String()
}

// state is a job's state as `jobtop ls` prints it.
func (in *instance) state(name string) string {
	in.t.Helper()
	for _, l := range strings.Split(in.cli("ls"), "\n") {
		if f := strings.Fields(l); len(f) > 2 && f[1] == name {
			return f[2]
		}
	}
	return ""
}

func (in *instance) sessionEnv() []string { return []string{"JOBTOP_SOCKET=" + in.socket} }

// jobtop attach shows the instance's jobs, x and r act on them there, a
// job started from outside appears, and quitting says the jobs keep
// running, and leaves them so.
func TestAttach(t *testing.T) {
	bin := binary(t)
	in := startServe(t, bin)
	token := strconv.Itoa(os.Getpid()) + ".4343"
	in.cli("run", "--name", "web", "--", "echo web up; exec sleep 3"+token)

	s := newSession(t, 140, 30, in.sessionEnv(), bin, "attach")
	s.waitFor("web running", func(scr []string) bool { return strings.Contains(row(scr, "web"), "● running") })

	s.keys("x")
	s.waitFor("web to stop", func(scr []string) bool { return strings.Contains(row(scr, "web"), "■ killed (TERM)") })
	require.Equal(t, "killed", in.state("web"))
	require.Empty(t, processesWith("3"+token))

	s.keys("r")
	s.waitFor("web to run again", func(scr []string) bool { return strings.Contains(row(scr, "web"), "● running") })
	require.Equal(t, "running", in.state("web"))

	in.cli("run", "--name", "later", "--", "echo later from outside; exec sleep 7"+token)
	s.waitText("later from outside", "job 2 later started from outside this TUI")

	s.quit("2 jobs running — they keep running in jobtop serve (pid " + strconv.Itoa(in.cmd.Process.Pid) + "). quit? y/n")
	require.Equal(t, "running", in.state("web"), "quitting an attached TUI leaves the jobs running")
	require.NotEmpty(t, processesWith("3"+token))
}

// Plain jobtop with a live instance on its socket attaches to it, starts
// its command-line jobs there and selects the first of them.
func TestPlainJobtopAttachesToALiveInstance(t *testing.T) {
	bin := binary(t)
	in := startServe(t, bin)
	in.cli("run", "--name", "web", "--", "exec sleep 600")

	s := newSession(t, 140, 30, in.sessionEnv(), bin, "--name", "extra", "echo extra from the command line")
	s.waitText("web", "extra from the command line")
	scr := s.waitFor("extra to end", func(scr []string) bool { return strings.Contains(row(scr, "extra"), "✓ succeeded") })
	require.Equal(t, "succeeded", in.state("extra"), "the command line's job ran in the live instance")
	require.True(t, strings.HasPrefix(row(scr, " extra "), "▸"), "the job it started is selected: %q", row(scr, " extra "))
	require.Contains(t, strings.Join(scr, "\n"), "job 2 extra")

	s.quit("1 job running — it keeps running in jobtop serve")
	require.Equal(t, "running", in.state("web"))
}

// jobtop -f runs a job file in the TUI; R reloads it after an edit and the
// status bar says what changed; quitting stops every job.
func TestTUIRunsAndReloadsAJobFile(t *testing.T) {
	bin := binary(t)
	token := strconv.Itoa(os.Getpid()) + ".4444"
	file := filepath.Join(t.TempDir(), "jobtop.yaml")
	write := func(content string) {
		require.NoError(t, os.WriteFile(file, []byte(content), 0o600))
	}
	write(`jobs:
  web: {cmd: "echo web up; exec sleep 4` + token + `"}
  seed: {cmd: echo seeded, autostart: false}
`)
	s := newSession(t, 140, 30, nil, bin, "-f", file)
	scr := s.waitFor("web running", func(scr []string) bool { return strings.Contains(row(scr, "web"), "● running") })
	require.Contains(t, row(scr, "seed"), "◌ created")
	require.Contains(t, strings.Join(scr, "\n"), "R reload file")

	write(`jobs:
  web: {cmd: "echo web up; exec sleep 4` + token + `"}
  worker: {cmd: "echo working; exec sleep 5` + token + `"}
`)
	s.keys("R")
	s.waitText("reloaded jobtop.yaml: 1 added (worker), 1 removed (seed)")
	s.waitFor("worker running, seed gone", func(scr []string) bool {
		return strings.Contains(row(scr, "worker"), "● running") && row(scr, " seed ") == ""
	})

	write("jobs:\n  web: {cmd: echo, timeout: 5}\n  api: {cmdd: echo}\n")
	s.keys("R")
	s.waitText("cannot reload jobtop.yaml: 2 problems; nothing was changed — esc closes",
		file+":2:29: jobs.web.timeout: 5 has no unit",
		file+`:3:9: jobs.api: unknown key "cmdd"`)
	require.Len(t, processesWith("4"+token), 1, "a broken file changes nothing")
	s.keys("Escape")
	s.waitFor("the problems closed", func(scr []string) bool { return strings.HasPrefix(scr[0], "    ID NAME") })

	s.quit("2 jobs running — stop them and quit? y/n")
	require.Empty(t, processesWith(token), "no job process survives quitting")
}

// Plain jobtop started while the instance on its socket shuts down (its
// jobs still stopping: a terminal closed and jobtop opened again at once)
// waits for it to exit and starts its own; it failed with "jobtop is
// shutting down".
func TestPlainJobtopWaitsOutAnInstanceThatShutsDown(t *testing.T) {
	bin := binary(t)
	in := endingServe(t, bin)

	s := newSession(t, 140, 30, in.sessionEnv(), bin, "echo fresh start; exec sleep 600")
	scr := s.waitText("fresh start")
	require.Contains(t, strings.Join(scr, "\n"), "job 1 ", "an instance of its own: its jobs are numbered from 1")
	require.NotContains(t, strings.Join(scr, "\n"), "slow")
	require.NoError(t, in.cmd.Wait(), "the old instance exited")
}

// The same while the instance's own TUI quits (q, y: it stops its jobs,
// which take their grace), and for a plain jobtop with no command: it
// attached, its job was stopped at once, or it showed the dying instance
// and ended with it (rev43).
func TestPlainJobtopWaitsOutATUIThatQuits(t *testing.T) {
	bin := binary(t)
	stopping := filepath.Join(t.TempDir(), "stopping")
	owner := newSession(t, 140, 30, nil, bin, slowToStop(stopping))
	owner.waitText("up")
	owner.tmux("send-keys", "-t", owner.name, "q")
	owner.waitText("stop it and quit? y/n")
	owner.tmux("send-keys", "-t", owner.name, "y")
	require.Eventually(t, func() bool { _, err := os.Stat(stopping); return err == nil }, deadline, 10*time.Millisecond, "the TUI stops its job")

	socket := "JOBTOP_SOCKET=" + filepath.Join(filepath.Dir(owner.status), "s.sock")
	s := newSession(t, 140, 30, []string{socket}, bin, "echo fresh start; exec sleep 600")
	scr := s.waitText("fresh start")
	require.Contains(t, strings.Join(scr, "\n"), "job 1 ", "an instance of its own")
	owner.waitExit()
}

// jobtop run against an instance that is shutting down waits for it to
// exit and starts the job on a new one, as plain jobtop does: it failed
// with "shutting down", and a script had to retry (rev44).
func TestRunWaitsOutAnInstanceThatShutsDown(t *testing.T) {
	bin := binary(t)
	in := endingServe(t, bin)
	out := in.cli("run", "--name", "fresh", "--", "exec sleep 600")
	require.Equal(t, "2\n", out, "a new instance's first job, numbered after the old one's job 1")
	require.NoError(t, in.cmd.Wait(), "the old instance exited")
	require.Equal(t, "running", in.state("fresh"))
	in.cli("shutdown")
}

// slowToStop is a job that writes the file stopping when it gets SIGTERM,
// then takes two seconds to exit.
func slowToStop(stopping string) string {
	return "trap 'echo > " + stopping + "; sleep 2; exit 0' TERM; echo up; while :; do sleep 0.1; done"
}

// endingServe is a serve shutting down (SIGTERM): it still holds its
// socket while its job takes two seconds to stop.
func endingServe(t *testing.T, bin string) *instance {
	t.Helper()
	in := startServe(t, bin)
	stopping := filepath.Join(t.TempDir(), "stopping")
	in.cli("run", "--name", "slow", "--", slowToStop(stopping))
	require.Eventually(t, func() bool { return in.state("slow") == "running" }, deadline, 20*time.Millisecond)
	require.NoError(t, in.cmd.Process.Signal(syscall.SIGTERM))
	require.Eventually(t, func() bool { _, err := os.Stat(stopping); return err == nil }, deadline, 10*time.Millisecond, "the instance stops its job")
	return in
}
