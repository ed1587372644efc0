package cmd

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/exp/teatest"
	"github.com/muesli/termenv"
	"github.com/spf13/cobra"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"jobtop/control"
	"jobtop/jobs"
	"jobtop/ui"
	"jobtop/vtscreen/vtfast"
)

// attachedTUI runs the TUI over a client of the instance on c's socket,
// as jobtop attach does, in a teatest program drawn without colours.
func attachedTUI(t *testing.T, c *cli) *teatest.TestModel {
	t.Helper()
	lipgloss.SetColorProfile(termenv.Ascii)
	_, model := attachedModel(t, c)
	return teatest.NewTestModel(t, model, teatest.WithInitialTermSize(160, 30))
}

// attachedModel is a client attached to the instance on c's socket and
// the TUI's model over it, as jobtop attach makes them; both are closed
// when the test ends.
func attachedModel(t *testing.T, c *cli) (*control.Client, *ui.Model) {
	t.Helper()
	client := control.NewClient(c.socket)
	t.Cleanup(func() { client.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	require.NoError(t, client.Attach(ctx))
	inst, err := client.Instance(ctx)
	require.NoError(t, err)
	model := ui.New(client, attachedConfig(inst))
	t.Cleanup(model.Close)
	return client, model
}

// waitDrawn waits until the program has drawn every text, reading its
// output from where the last wait stopped.
func waitDrawn(t *testing.T, tm *teatest.TestModel, texts ...string) {
	t.Helper()
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
		for _, text := range texts {
			if !bytes.Contains(b, []byte(text)) {
				return false
			}
		}
		return true
	}, teatest.WithDuration(testTimeout), teatest.WithCheckInterval(20*time.Millisecond))
}

func press(tm *teatest.TestModel, keys string) {
	for _, r := range keys {
		tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}})
	}
}

// TestAttachedTUIDrivesJobsStartedOutside: a TUI attached to jobtop serve
// shows the jobs jobtop run started, live; its stop and restart keys act
// on them in the instance; R reloads the instance's job file; quitting
// leaves the jobs running.
func TestAttachedTUIDrivesJobsStartedOutside(t *testing.T) {
	c := newCLI(t)
	file := writeJobFile(t, t.TempDir(), "jobtop.yaml", "jobs:\n  db: {cmd: exec sleep 600}\n")
	srv := c.serveIn("", "-f", file)
	id := c.startJob("echo hello from outside; exec sleep 600", "--name", "outside")

	tm := attachedTUI(t, c)
	waitDrawn(t, tm, "outside", "hello from outside", "2 running")

	press(tm, "G") // the last row: the job from outside
	press(tm, "x")
	require.Eventually(t, func() bool { return c.status(id).State == jobs.StateKilled }, testTimeout, 50*time.Millisecond)
	waitDrawn(t, tm, "killed")
	assert.Equal(t, jobs.StateRunning, c.jobsByName()["db"].State, "x acted on the selected job only")

	press(tm, "r")
	require.Eventually(t, func() bool {
		in := c.status(id)
		return in.State == jobs.StateRunning && in.Runs == 2
	}, testTimeout, 50*time.Millisecond)
	waitDrawn(t, tm, "2 running")

	later := c.startJob("echo started later", "--name", "later")
	c.ok("wait", later)
	// Its end reaches the TUI on the events stream, which may lag the
	// reload's answer below: seen first, its notice cannot replace the
	// reload's. (One wait: a wait for its row alone may read the frame
	// with the notice too, and the notice is drawn once.)
	waitDrawn(t, tm, "later succeeded")

	writeJobFile(t, filepath.Dir(file), "jobtop.yaml", "jobs:\n  db: {cmd: exec sleep 600}\n  cache: {cmd: exec sleep 600}\n")
	press(tm, "R")
	waitDrawn(t, tm, "reloaded jobtop.yaml: 1 added (cache)")
	require.Eventually(t, func() bool { return c.jobsByName()["cache"].State == jobs.StateRunning }, testTimeout, 50*time.Millisecond)

	press(tm, "q")
	waitDrawn(t, tm, "3 jobs running — they keep running in jobtop serve (pid "+strconv.Itoa(srv.Process.Pid)+"). quit? y/n")
	press(tm, "y")
	tm.WaitFinished(t, teatest.WithFinalTimeout(testTimeout))
	now := c.jobsByName()
	for _, name := range []string{"db", "outside", "cache"} {
		assert.Equal(t, jobs.StateRunning, now[name].State, "%s keeps running after the attached TUI quit", name)
	}
}

// Typing into a terminal job in line mode, an attached TUI draws the
// cursor as the local one does: none while the program hid it (a
// progress bar's ESC[?25l), and on a prompt where the job's line editing
// left it once shown again. Its mirror knew neither, and drew none.
func TestAttachedTUIDrawsTheLineCursorAsTheJobLeftIt(t *testing.T) {
	c := newCLI(t)
	c.serve()
	c.startJob(`stty -echo; printf '\033[?25lDownloading 50%%'; read a; printf '\033[?25h\r\nname? xyz\b\b'; read a; sleep 60`, "--tty", "--name", "bar")
	lipgloss.SetColorProfile(termenv.ANSI256) // the cursor is drawn in reverse video (in 16 colours the selected row is too)
	t.Cleanup(func() { lipgloss.SetColorProfile(termenv.Ascii) })
	_, model := attachedModel(t, c)
	tm := teatest.NewTestModel(t, model, teatest.WithInitialTermSize(100, 20))
	// The frames go through a terminal: the renderer sends only the rows
	// that changed, so input mode's frame alone need not hold the bar.
	term := vtfast.New(100, 20)
	t.Cleanup(term.Close)
	var typing []byte // what was drawn since the keys
	// shown waits until a row holds text, and returns the screen's rows.
	// A row of the command ("printf '...Downloading 50%%'") is not the
	// output.
	shown := func(text string) (rows []string) {
		fed := 0
		teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
			term.Write(b[fed:])
			fed, typing = len(b), b
			rows = term.Snapshot().Lines
			return slices.ContainsFunc(rows, func(row string) bool {
				return strings.Contains(row, text) && !strings.Contains(row, "printf")
			})
		}, teatest.WithDuration(testTimeout), teatest.WithCheckInterval(20*time.Millisecond))
		return rows
	}
	shown("Downloading 50%")
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	press(tm, "i")
	rows := shown("keys go to job 1 bar")
	assert.True(t, slices.ContainsFunc(rows, func(row string) bool {
		return strings.Contains(row, "Downloading 50%") && !strings.Contains(row, "printf")
	}), "input mode keeps the bar's row on the screen:\n%s", strings.Join(rows, "\n"))
	assert.NotContains(t, string(typing), "\x1b[7m", "no cursor: the program hid it")

	tm.Send(tea.KeyMsg{Type: tea.KeyEnter}) // the job shows its cursor and asks
	waitDrawn(t, tm, "name? x\x1b[7my\x1b[0mz")
}

// A TUI attached to a terminal job whose only output is a prompt (a
// line still being built, no whole line before it) draws the prompt, and
// its cursor after it in input mode. Its mirror fetched a job's output
// only for whole lines it did not hold, and showed "(no output yet)".
func TestAttachedTUIDrawsAPromptThatIsTheJobsOnlyOutput(t *testing.T) {
	c := newCLI(t)
	c.serve()
	id := c.startJob(`printf 'Name? '; read a; sleep 60`, "--tty", "--name", "ask")
	require.Eventually(t, func() bool { return c.status(id).LastLine == "Name? " }, testTimeout, 20*time.Millisecond)
	lipgloss.SetColorProfile(termenv.ANSI256) // the cursor is drawn in reverse video (in 16 colours the selected row is too)
	t.Cleanup(func() { lipgloss.SetColorProfile(termenv.Ascii) })
	_, model := attachedModel(t, c)
	tm := teatest.NewTestModel(t, model, teatest.WithInitialTermSize(100, 20))
	waitDrawn(t, tm, "Name? ")
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	press(tm, "i")
	waitDrawn(t, tm, "keys go to job 1 ask", "Name? \x1b[7m \x1b[0m")
}

// The TUI's refusals happen before it takes the terminal: one message on
// stderr and a non-zero exit.
func TestTUIRefusalsComeBeforeTheScreen(t *testing.T) {
	c := newCLI(t)
	r := c.run("attach")
	assert.Equal(t, 1, r.code)
	assert.Equal(t, "jobtop: no jobtop is listening on "+c.socket+" (start one with `jobtop serve`; `jobtop run` starts one for you)\n", r.stderr)

	dir := t.TempDir()
	writeJobFile(t, dir, "jobtop.yaml", "jobs:\n  web: {cmd: echo hi, autostart: maybe}\n")
	r = c.runIn(dir)
	assert.Equal(t, 1, r.code)
	assert.Equal(t, `jobtop: jobtop.yaml has 1 problem; nothing was started:
  jobtop.yaml:2:34: jobs.web.autostart: want true or false, got a string
`, r.stderr)

	// With no terminal to draw on, and none on stdin: nothing starts.
	r = c.run("--no-file", "echo started > "+filepath.Join(dir, "started"))
	assert.Equal(t, 1, r.code)
	assert.Equal(t, "jobtop: jobtop's TUI draws on its standard output, and that is no terminal here; nothing was started: from a script or an agent, start jobs with jobtop run\n", r.stderr)
	assert.NoFileExists(t, filepath.Join(dir, "started"))
	_, err := os.Stat(c.socket)
	assert.ErrorIs(t, err, os.ErrNotExist, "no socket left that nothing answers on")

	srv := c.serve()
	// attach with no terminal says so, in jobtop's words, not the
	// terminal library's ("could not open a new TTY").
	r = c.run("attach")
	assert.Equal(t, 1, r.code)
	assert.Contains(t, r.stderr, "no terminal")
	good := writeJobFile(t, dir, "good.yaml", "jobs:\n  web: {cmd: exec sleep 600}\n")
	r = c.run("-f", good)
	assert.Equal(t, 1, r.code)
	assert.Contains(t, r.stderr, "jobtop: cannot run "+good+": another jobtop (serve, pid "+strconv.Itoa(srv.Process.Pid)+", running since ")
	assert.Contains(t, r.stderr, "is already listening on "+c.socket+"; use it (jobtop attach, jobtop ls), stop it (jobtop shutdown), or pick another --socket\n")
	assert.Equal(t, "[]\n", c.ok("ls", "--json"), "nothing was started in the live instance")
}

// Plain jobtop where it finds a job file does not attach to an instance
// that runs another file (another project's, on the per-user default
// socket) or none: the file here would silently not run. It names both,
// and what to do. An instance that runs this very file is attached to.
func TestPlainJobtopRefusesAnInstanceOfAnotherFile(t *testing.T) {
	c := newCLI(t)
	a, b := t.TempDir(), t.TempDir()
	fileA := writeJobFile(t, a, "jobtop.yaml", "jobs:\n  web: {cmd: exec sleep 600}\n")
	fileB := writeJobFile(t, b, "jobtop.yaml", "jobs:\n  api: {cmd: echo started > started}\n")
	srv := c.serveIn(a)
	pid := strconv.Itoa(srv.Process.Pid)

	r := c.runIn(b)
	assert.Equal(t, 1, r.code)
	assert.Equal(t, "jobtop: "+fileB+" was not run: another jobtop (serve, pid "+pid+") is listening on "+c.socket+" and runs "+fileA+
		"; to watch that instance anyway: jobtop attach; to run this file beside it: jobtop --socket PATH; to stop it: jobtop shutdown\n", r.stderr)
	assert.NoFileExists(t, filepath.Join(b, "started"))
	r = c.runIn(b, "--socket", c.socket)
	assert.Contains(t, r.stderr, "jobtop attach --socket "+c.socket+";", "the socket given is in what to type")
	// Quoted, when the shell would split it.
	spaced := newCLI(t)
	spaced.socket = filepath.Join(spaced.dir, "a b", "s.sock")
	require.NoError(t, os.Mkdir(filepath.Dir(spaced.socket), 0o700))
	spaced.env = append(slices.Clip(spaced.env), control.SocketEnv+"="+spaced.socket)
	spaced.serveIn(a)
	r = spaced.runIn(b, "--socket", spaced.socket)
	assert.Contains(t, r.stderr, "jobtop attach --socket '"+spaced.socket+"';")

	// The instance's own directory: the check passes, and only the
	// missing terminal stops the attach.
	r = c.runIn(a)
	assert.Equal(t, 1, r.code)
	assert.Contains(t, r.stderr, "that is no terminal here")

	// An instance with no job file.
	c2 := newCLI(t)
	srv2 := c2.serveIn(b, "--no-file")
	r = c2.runIn(b)
	assert.Equal(t, 1, r.code)
	assert.Contains(t, r.stderr, "jobtop: "+fileB+" was not run: another jobtop (serve, pid "+strconv.Itoa(srv2.Process.Pid)+") is listening on "+c2.socket+" and runs no job file; ")
	assert.Equal(t, "[]\n", c2.ok("ls", "--json"), "nothing was started in the live instance")
}

// An attached TUI tells an instance that shut down on purpose (jobtop
// shutdown, its TUI quitting, SIGTERM) from one that was lost (SIGKILL,
// a crash): the first is said and is no error; the second is an error
// that says the instance was lost, not that none ever ran.
func TestAttachedEndSaysShutdownFromLoss(t *testing.T) {
	for _, how := range []string{"shutdown", "SIGTERM", "SIGKILL"} {
		t.Run(how, func(t *testing.T) {
			c := newCLI(t)
			srv := c.serve()
			c.startJob("exec sleep 600", "--name", "web")
			client, _ := attachedModel(t, c)
			switch how {
			case "shutdown":
				c.ok("shutdown")
			case "SIGTERM":
				require.NoError(t, srv.Process.Signal(syscall.SIGTERM))
			case "SIGKILL":
				require.NoError(t, srv.Process.Kill())
			}
			select {
			case <-client.Done():
			case <-time.After(testTimeout):
				t.Fatal("the attached client did not end")
			}
			var stderr bytes.Buffer
			cmd := &cobra.Command{}
			cmd.SetErr(&stderr)
			err := attachEnd(cmd, client.Err())
			if how == "SIGKILL" {
				require.Error(t, err)
				assert.Equal(t, "lost the jobtop instance on "+c.socket+": it went away without shutting down (killed, or crashed?)", err.Error())
				assert.Empty(t, stderr.String())
				return
			}
			require.NoError(t, err)
			assert.Equal(t, "the jobtop instance on "+c.socket+" shut down (its jobs were stopped)\n", stderr.String())
		})
	}
}

// Plain jobtop where it finds a process-compose file and its override
// file attaches only to an instance that runs both merged: one that runs
// the file alone (named with -f, so with no override) would silently not
// run the override.
func TestPlainJobtopComparesTheFilesMerged(t *testing.T) {
	c := newCLI(t)
	dir := t.TempDir()
	file := writeJobFile(t, dir, "process-compose.yaml", "processes:\n  web: {command: exec sleep 600}\n")
	override := writeJobFile(t, dir, "process-compose.override.yaml", "processes:\n  api: {command: exec sleep 601}\n")
	srv := c.serveIn(dir, "-f", "process-compose.yaml")
	r := c.runIn(dir)
	assert.Equal(t, 1, r.code)
	assert.Contains(t, r.stderr, "jobtop: "+file+" merged with "+override+" was not run: another jobtop (serve, pid "+strconv.Itoa(srv.Process.Pid)+") is listening on "+c.socket+" and runs "+file+"; ")

	c2 := newCLI(t)
	c2.serveIn(dir)
	r = c2.runIn(dir)
	assert.Equal(t, 1, r.code)
	assert.Contains(t, r.stderr, "that is no terminal here", "the same files: only the missing terminal stops the attach")
}

// A TUI attached to jobtop serve shows the instance's limit on jobs
// running at once, as the local TUI does, and follows jobtop parallel
// from another terminal with nothing else happening.
func TestAttachedTUIShowsTheRunningLimit(t *testing.T) {
	c := newCLI(t)
	c.serveIn("", "--max-running", "2")
	c.startJob("exec sleep 600", "--name", "a")

	tm := attachedTUI(t, c)
	waitDrawn(t, tm, "1 running  at most 2 at once")
	c.ok("parallel", "5")
	waitDrawn(t, tm, "at most 5 at once")
	c.ok("parallel", "0")
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
		return bytes.Contains(b, []byte("1 running")) && !bytes.Contains(b, []byte("at once"))
	}, teatest.WithDuration(testTimeout), teatest.WithCheckInterval(20*time.Millisecond))
	press(tm, "q")
	waitDrawn(t, tm, "quit? y/n")
	press(tm, "y")
	tm.WaitFinished(t, teatest.WithFinalTimeout(testTimeout))
}
